/** Piscina worker: fuzzes a range of seeded random walks of one level (see src/qualify/regimes/fuzz-walks.ts). */
import { loadGameModule } from '../src/suite/index.js';
// A worker thread imports its kernel's own module, not the stage's index.ts: each thread pays at
// start for all it imports (a whole stage costs about 0.1 s and 10 MB more a thread).
import { runFuzz, type FuzzTask } from '../src/qualify/regimes/fuzz-walks.js';

export default async function fuzz(task: FuzzTask): Promise<unknown> {
  return runFuzz(await loadGameModule(task.module), task);
}
