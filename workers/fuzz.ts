/** Piscina worker: fuzzes a range of seeded random walks of one level (see src/qualify/regimes/fuzz-walks.ts). */
import { threadId } from 'node:worker_threads';
import { markStarted } from '../src/parallel/watchdog.js';
import { loadGameModule } from '../src/suite/index.js';
// A worker thread imports its kernel's own module, not the stage's index.ts: each thread pays at
// start for all it imports (a whole stage costs about 0.1 s and 10 MB more a thread).
import { runFuzz, type FuzzTask } from '../src/qualify/regimes/fuzz-walks.js';

export default async function fuzz(task: FuzzTask): Promise<unknown> {
  // Started for the step watchdog (loading the game's module is the game's code too), on this thread.
  markStarted(task.progress, threadId);
  return runFuzz(await loadGameModule(task.module), task);
}
