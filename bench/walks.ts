import type { LoadedGame } from '../src/suite/index.js';
import { randomPlay } from '../src/random/index.js';
import { runWalks } from '../src/random/index.js';
import { collectGarbage, perRound, timing, type Timing } from './measure.js';

export interface WalksBench {
  game: string;
  level: number;
  steps: number;
  /** The raw single-threaded loop: the same seeded episodes played in-process, no pool. */
  raw: Timing;
  /** vsOneWorker: ratios to the first worker count taken within each round, as in the explorer bench. */
  workers: { workers: number; stepsPerSecond: Timing; vsOneWorker: Timing }[];
}

/** Plays whole episodes in-process until `steps` steps are spent; returns steps per second. */
function rawWalks(loaded: LoadedGame, level: number, steps: number): number {
  const started = performance.now();
  let spent = 0;
  for (let first = 0; spent < steps; first += 64) {
    const r = runWalks(loaded.game, { module: '', level, policy: 'available', seed: 7, first, count: 64, maxAttemptSteps: steps });
    for (const s of r.steps) spent += s;
  }
  return spent / ((performance.now() - started) / 1000);
}

/** Runs the raw loop and each worker count in turn, for a warm-up round and then `reps` rounds (see benchExplorer). */
export async function benchWalks(loaded: LoadedGame, level: number, steps: number, workerCounts: number[], reps: number): Promise<WalksBench> {
  const raw: number[] = [];
  const runs = workerCounts.map(() => [] as number[]);
  for (let round = 0; round <= reps; round++) {
    collectGarbage();
    const r = rawWalks(loaded, level, steps);
    if (round > 0) raw.push(r);
    for (const [i, k] of workerCounts.entries()) {
      collectGarbage();
      const { stepsPerSecond } = await randomPlay(loaded, { level, steps, workers: k, seed: 7 });
      if (round > 0) runs[i].push(stepsPerSecond);
    }
  }
  return {
    game: loaded.game.id,
    level,
    steps,
    raw: timing(raw),
    workers: workerCounts.map((k, i) => ({ workers: k, stepsPerSecond: timing(runs[i]), vsOneWorker: perRound(runs[i], runs[0]) })),
  };
}
