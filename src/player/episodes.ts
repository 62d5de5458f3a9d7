/**
 * The one random draw of a seeded player: Monte Carlo walks (src/random/walk.ts), the random
 * regimes' episodes played again in-process (so a win or a crash found by `randomPlay` turns back
 * into its actions) and the fuzz walks all draw their moves with `drawAction`.
 */
import { CELLS, GRID, GameAction, KEY_ACTIONS, type Action } from '../engine/index.js';
import { checkedStatus, type Game } from '../engine/index.js';
import { Rng } from './rng.js';
import type { Policy } from '../analysis/index.js';

/** Draws one move of `policy`; undefined for an unavailable action (a no-op of the reference agent). */
export function drawAction(rng: Rng, choices: readonly number[], available: ReadonlySet<number>): Action | undefined {
  const id = choices[rng.below(choices.length)];
  if (id === GameAction.ACTION6) {
    const cell = rng.below(CELLS);
    return available.has(id) ? { id, x: cell % GRID, y: (cell / GRID) | 0 } : undefined;
  }
  return available.has(id) ? KEY_ACTIONS[id] : undefined;
}

export const policyChoices = (game: Game, policy: Policy): readonly number[] => (policy === 'reference' ? [1, 2, 3, 4, 5, 6, 7] : game.actions);

/** How an episode ended when played again in-process. */
export interface Episode {
  /** The available actions it took (the reference agent's no-ops left out), in order. */
  actions: Action[];
  /** Steps it counted (the reference agent's no-ops included), as randomPlay counts them. */
  steps: number;
  end: 'won' | 'lost' | 'cut' | 'threw';
  error?: string;
}

/** Plays episode `index` of `randomPlay(level, seed, policy)` again, as runWalks does. */
export function playEpisode(game: Game, level: number, policy: Policy, seed: number, index: number, maxSteps: number): Episode {
  const rng = new Rng(seed, index);
  const choices = policyChoices(game, policy);
  const available = new Set<number>(game.actions);
  const actions: Action[] = [];
  let state = game.init(level);
  const start = checkedStatus(game.status(state));
  if (start !== 'playing') return { actions, steps: 0, end: start === 'won' ? 'won' : 'lost' };
  for (let n = 1; n <= maxSteps; n++) {
    const action = drawAction(rng, choices, available);
    if (!action) continue;
    actions.push(action);
    try {
      state = game.step(state, action);
      const status = checkedStatus(game.status(state));
      if (status !== 'playing') return { actions, steps: n, end: status === 'won' ? 'won' : 'lost' };
    } catch (err) {
      return { actions, steps: n, end: 'threw', error: err instanceof Error ? err.message : String(err) };
    }
  }
  return { actions, steps: maxSteps, end: 'cut' };
}

/** The available actions among the first `draws` moves of episode `index` of `randomPlay(level, seed, policy)` (drawn, not played: no game code runs). */
export function episodeActions(game: Game, policy: Policy, seed: number, index: number, draws: number): Action[] {
  const rng = new Rng(seed, index);
  const choices = policyChoices(game, policy);
  const available = new Set<number>(game.actions);
  const actions: Action[] = [];
  for (let n = 0; n < draws; n++) {
    const action = drawAction(rng, choices, available);
    if (action) actions.push(action);
  }
  return actions;
}

/** The first `count` actions of fuzz walk `stream` (uniform over the available actions). */
export function walkActions(game: Game, seed: number, stream: number, count: number): Action[] {
  const rng = new Rng(seed, stream);
  const available = new Set<number>(game.actions);
  return Array.from({ length: count }, () => drawAction(rng, game.actions, available)!);
}
