/** Piscina worker: plays a range of seeded random episodes (see src/random/walk.ts). */
import { loadGameModule } from '../src/suite/index.js';
import { runWalks, type WalkTask } from '../src/random/index.js';

export default async function walk(task: WalkTask): Promise<unknown> {
  return runWalks(await loadGameModule(task.module), task);
}
