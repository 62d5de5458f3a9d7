/** Piscina worker: fuzzes a range of seeded random walks of one level (see src/qualify/regimes/fuzz-walks.ts). */
import { loadGameModule } from '../src/suite/index.js';
import { runFuzz, type FuzzTask } from '../src/qualify/index.js';

export default async function fuzz(task: FuzzTask): Promise<unknown> {
  return runFuzz(await loadGameModule(task.module), task);
}
