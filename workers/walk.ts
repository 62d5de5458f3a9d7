/** Piscina worker: plays a range of seeded random episodes (see src/random/walk.ts). */
import { threadId } from 'node:worker_threads';
import { markStarted } from '../src/parallel/watchdog.js';
import { loadGameModule } from '../src/suite/index.js';
// A worker thread imports its kernel's own module, not the stage's index.ts: each thread pays at
// start for all it imports (a whole stage costs about 0.1 s and 10 MB more a thread).
import { runWalks, type WalkTask } from '../src/random/walk.js';

export default async function walk(task: WalkTask): Promise<unknown> {
  // Started for the step watchdog (loading the game's module is the game's code too), on this thread.
  markStarted(task.progress, threadId);
  return runWalks(await loadGameModule(task.module), task);
}
