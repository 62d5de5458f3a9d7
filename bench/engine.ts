import { CELLS, GRID, GameAction, type Action } from '../src/engine/index.js';
import type { Game } from '../src/engine/index.js';
import { fingerprintInto } from '../src/engine/index.js';
import { Rng } from '../src/player/index.js';
import { rate, type Timing } from './measure.js';

/** The ARC engine's floor: 1,000 frames per second. */
export const FLOOR_FPS = 1000;

export interface EngineResult {
  game: string;
  step: Timing;
  stepEncodeHash: Timing;
  stepRender: Timing;
  /** step + render against the 1,000 frames-per-second floor. */
  floorRatio: number;
}

/** (state, action) pairs met in seeded random play over every level: a realistic mix. */
function samplePairs(game: Game, count: number): { states: unknown[]; actions: Action[] } {
  const rng = new Rng(2026);
  const states: unknown[] = [];
  const actions: Action[] = [];
  const pick = (): Action => {
    const id = game.actions[rng.below(game.actions.length)];
    if (id !== GameAction.ACTION6) return { id };
    const cell = rng.below(CELLS);
    return { id, x: cell % GRID, y: Math.floor(cell / GRID) };
  };
  while (states.length < count) {
    for (let level = 1; level <= game.levels && states.length < count; level++) {
      let s = game.init(level);
      for (let i = 0; i < 200 && game.status(s) === 'playing' && states.length < count; i++) {
        const a = pick();
        states.push(s);
        actions.push(a);
        s = game.step(s, a);
      }
    }
  }
  return { states, actions };
}

export async function benchEngine(game: Game, reps: number, pairs: number): Promise<EngineResult> {
  const { states, actions } = samplePairs(game, pairs);
  const fp = { lo: 0, hi: 0 };
  const loop = (body: (s: unknown, a: Action) => void) => () => {
    const t = performance.now();
    for (let i = 0; i < states.length; i++) body(states[i], actions[i]);
    return states.length / ((performance.now() - t) / 1000);
  };
  const step = await rate(reps, loop((s, a) => game.step(s, a)));
  const stepEncodeHash = await rate(reps, loop((s, a) => fingerprintInto(game.encode(game.step(s, a)), fp)));
  const stepRender = await rate(reps, loop((s, a) => game.render(game.step(s, a))));
  return { game: game.id, step, stepEncodeHash, stepRender, floorRatio: stepRender.median / FLOOR_FPS };
}
