/** Piscina worker: expands a batch of frontier states (see src/explorer/expand.ts). */
import { move } from 'piscina';
import { initIdentity } from '../src/engine/index.js';
import { loadGameModule } from '../src/suite/index.js';
import { expandBatch, type ExpandTask } from '../src/explorer/index.js';
import { packMessage, unpackMessage } from '../src/explorer/index.js';

export default async function expand(buffer: ArrayBuffer): Promise<unknown> {
  await initIdentity();
  const task = unpackMessage<ExpandTask>(buffer);
  const game = await loadGameModule(task.module);
  return move(packMessage(expandBatch(game, task)));
}
