import type { LoadedGame } from '../src/engine/loader.js';
import { randomPlay } from '../src/random/random.js';
import { rate, type Timing } from './measure.js';

export interface WalksBench {
  game: string;
  level: number;
  steps: number;
  workers: { workers: number; stepsPerSecond: Timing }[];
}

export async function benchWalks(loaded: LoadedGame, level: number, steps: number, workerCounts: number[], reps: number): Promise<WalksBench> {
  const workers: WalksBench['workers'] = [];
  for (const k of workerCounts) {
    const stepsPerSecond = await rate(reps, async () => (await randomPlay(loaded, { level, steps, workers: k, seed: 7 })).stepsPerSecond);
    workers.push({ workers: k, stepsPerSecond });
  }
  return { game: loaded.game.id, level, steps, workers };
}
