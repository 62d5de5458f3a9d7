import type { LoadedGame } from '../src/engine/loader.js';
import { randomPlay } from '../src/random/random.js';
import { runWalks } from '../src/random/walk.js';
import { rate, type Timing } from './measure.js';

export interface WalksBench {
  game: string;
  level: number;
  steps: number;
  /** The raw single-threaded loop: the same seeded episodes played in-process, no pool. */
  raw: Timing;
  workers: { workers: number; stepsPerSecond: Timing }[];
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

export async function benchWalks(loaded: LoadedGame, level: number, steps: number, workerCounts: number[], reps: number): Promise<WalksBench> {
  const raw = await rate(reps, () => rawWalks(loaded, level, steps));
  const workers: WalksBench['workers'] = [];
  for (const k of workerCounts) {
    const stepsPerSecond = await rate(reps, async () => (await randomPlay(loaded, { level, steps, workers: k, seed: 7 })).stepsPerSecond);
    workers.push({ workers: k, stepsPerSecond });
  }
  return { game: loaded.game.id, level, steps, raw, workers };
}
