import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { PACKAGE_ROOT } from '../engine/loader.js';

/** Worker handlers live compiled under dist/workers (built by npm install), behind one CommonJS entry. */
export function workerPool(handler: 'expand' | 'walk' | 'fuzz', workers: number, tasksPerWorker = 1): Piscina {
  return new Piscina({ filename: join(PACKAGE_ROOT, 'dist', 'workers', 'entry.cjs'), name: handler, minThreads: workers, maxThreads: workers, idleTimeout: 60_000, concurrentTasksPerWorker: tasksPerWorker });
}

/**
 * Marks a task's promise as handled while it waits its turn: results are awaited in order, and a
 * later task failing first must not abort the process as an unhandled rejection. The promise
 * itself still rejects for whoever awaits it.
 */
export function inOrder<T>(task: Promise<T>): Promise<T> {
  task.catch(() => undefined);
  return task;
}

/** Default worker count: every core the machine offers. */
export const defaultWorkers = (): number => availableParallelism();
