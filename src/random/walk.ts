/** One worker task of Monte Carlo play: a range of seeded random episodes, their lengths and ends. */
import type { Policy } from '../analysis/index.js';
import { checkedStatus, type Game } from '../engine/index.js';
import { drawAction, policyChoices, Rng } from '../player/index.js';
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
  /** Where the step watchdog reads the task's position: [0] the episode's offset, [1] its step (src/parallel/watchdog.ts). */
  progress?: SharedArrayBuffer;
}

export interface WalkResult {
  /** Steps each episode took (up to its end or the cut-off). */
  steps: Uint32Array;
  /** WalkEnd of each episode. */
  end: Uint8Array;
  /** The game threw in episode `episode` (offset in the task) at its step `step` (1-based); only the episodes before it are in steps/end. */
  error?: { episode: number; step: number; message: string };
}

/** Plays episodes first..first+count-1 of a seeded random policy from the level's reset state (the draws of player/drawAction). */
export function runWalks(game: Game, task: WalkTask): WalkResult {
  const choices = policyChoices(game, task.policy);
  const available = new Set<number>(game.actions);
  const steps = new Uint32Array(task.count);
  const end = new Uint8Array(task.count);
  const at = task.progress ? new Int32Array(task.progress) : new Int32Array(2);
  at[0] = 0;
  at[1] = 0;
  let root: unknown;
  let start: string;
  try {
    root = game.init(task.level);
    start = checkedStatus(game.status(root));
  } catch (err) {
    return { steps: steps.subarray(0, 0), end: end.subarray(0, 0), error: { episode: 0, step: 0, message: `init(${task.level}) threw: ${err instanceof Error ? err.message : String(err)}` } };
  }
  // A level that starts won or lost: every episode ends there, before its first step.
  if (start !== 'playing') return { steps, end: end.fill(start === 'won' ? WalkEnd.WON : WalkEnd.LOST) };
  for (let i = 0; i < task.count; i++) {
    at[0] = i;
    const rng = new Rng(task.seed, task.first + i);
    let state = root;
    let n = 0;
    let outcome: number = WalkEnd.CUT;
    try {
      while (n < task.maxAttemptSteps) {
        const action = drawAction(rng, choices, available);
        n++;
        at[1] = n;
        // An unavailable action is a no-op of the reference agent: it counts as a step.
        if (action) state = game.step(state, action);
        const status = game.status(state);
        if (status !== 'playing') {
          // Checked only here: most steps go on playing.
          outcome = checkedStatus(status) === 'won' ? WalkEnd.WON : WalkEnd.LOST;
          break;
        }
      }
    } catch (err) {
      return { steps: steps.subarray(0, i), end: end.subarray(0, i), error: { episode: i, step: n, message: err instanceof Error ? err.message : String(err) } };
    }
    steps[i] = n;
    end[i] = outcome;
  }
  return { steps, end };
}
