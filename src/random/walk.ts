import { CELLS, GRID, GameAction, type Action } from '../engine/index.js';
import type { Game } from '../engine/index.js';
import { Rng } from '../player/index.js';

import type { Policy } from '../analysis/index.js';

export const WalkEnd = { WON: 1, LOST: 2, CUT: 3 } as const;

export interface WalkTask {
  module: string;
  level: number;
  policy: Policy;
  seed: number;
  /** Episodes first .. first+count-1. */
  first: number;
  count: number;
  /** An attempt still playing after this many steps is cut off. */
  maxAttemptSteps: number;
}

export interface WalkResult {
  /** Steps each episode took (up to its end or the cut-off). */
  steps: Uint32Array;
  /** WalkEnd of each episode. */
  end: Uint8Array;
}

const ALL_KEYS: Action[] = [1, 2, 3, 4, 5, 6, 7].map((id) => ({ id: id as GameAction }));

/** Plays episodes first..first+count-1 of a seeded random policy from the level's reset state. */
export function runWalks(game: Game, task: WalkTask): WalkResult {
  const choices = task.policy === 'reference' ? [1, 2, 3, 4, 5, 6, 7] : [...game.actions];
  const available = new Set<number>(game.actions);
  const steps = new Uint32Array(task.count);
  const end = new Uint8Array(task.count);
  const root = game.init(task.level);
  for (let i = 0; i < task.count; i++) {
    const rng = new Rng(task.seed, task.first + i);
    let state = root;
    let n = 0;
    let outcome: number = WalkEnd.CUT;
    while (n < task.maxAttemptSteps) {
      const id = choices[rng.below(choices.length)];
      n++;
      if (id === GameAction.ACTION6) {
        const cell = rng.below(CELLS);
        if (available.has(id)) state = game.step(state, { id, x: cell % GRID, y: (cell / GRID) | 0 });
      } else if (available.has(id)) {
        state = game.step(state, ALL_KEYS[id - 1]);
      }
      const status = game.status(state);
      if (status !== 'playing') {
        outcome = status === 'won' ? WalkEnd.WON : WalkEnd.LOST;
        break;
      }
    }
    steps[i] = n;
    end[i] = outcome;
  }
  return { steps, end };
}
