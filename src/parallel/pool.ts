import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { PACKAGE_ROOT } from '../engine/loader.js';

/** Worker handlers live compiled under dist/workers (built by npm install), behind one CommonJS entry. */
export function workerPool(handler: 'expand' | 'walk', workers: number): Piscina {
  return new Piscina({ filename: join(PACKAGE_ROOT, 'dist', 'workers', 'entry.cjs'), name: handler, minThreads: workers, maxThreads: workers, idleTimeout: 60_000 });
}

/** Default worker count: every core the machine offers. */
export const defaultWorkers = (): number => availableParallelism();
