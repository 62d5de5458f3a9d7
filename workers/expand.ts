/** Piscina worker: expands a batch of frontier states (see src/explorer/expand.ts). */
import { move } from 'piscina';
import { initIdentity } from '../src/engine/index.js';
import { loadGameModule } from '../src/suite/index.js';
// A worker thread imports its kernel's own module, not the stage's index.ts: each thread pays at
// start for all it imports (a whole stage costs about 0.1 s and 10 MB more a thread).
import { expandBatch, type ExpandTask } from '../src/explorer/expand.js';
import { packMessage, unpackMessage } from '../src/explorer/wire.js';

export default async function expand(buffer: ArrayBuffer): Promise<unknown> {
  await initIdentity();
  const task = unpackMessage<ExpandTask>(buffer);
  const game = await loadGameModule(task.module);
  return move(packMessage(expandBatch(game, task)));
}
