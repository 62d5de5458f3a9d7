import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadedGame } from '../src/suite/index.js';
import { qualify } from '../src/qualify/index.js';
import { median } from './measure.js';

export interface QualifyBench {
  game: string;
  stepsScale: number;
  /** Steps per second of the million-step random regime and of the fuzz regime, all workers. */
  random2: number;
  fuzz: number;
  seconds: number;
  runs: { random2: number[]; fuzz: number[] };
}

/** The qualification regimes' speeds on one game (run at a fraction of their step counts). */
export async function benchQualify(loaded: LoadedGame, stepsScale: number, workers: number, reps: number): Promise<QualifyBench> {
  const random2: number[] = [];
  const fuzz: number[] = [];
  let seconds = 0;
  // bx19's random regime wins (a finding): its reproductions go to a folder removed afterwards
  const out = mkdtempSync(join(tmpdir(), 'arcgraph-bench-qualify-'));
  try {
    for (let i = 0; i < reps; i++) {
      const r = await qualify(loaded, { stepsScale, workers, seed: 1 + i, out: join(out, String(i)) });
      random2.push(r.speed.random2);
      fuzz.push(r.speed.fuzz);
      seconds = r.seconds;
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return { game: loaded.game.id, stepsScale, random2: median(random2), fuzz: median(fuzz), seconds, runs: { random2, fuzz } };
}
