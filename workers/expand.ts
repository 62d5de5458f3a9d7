/** Piscina worker: expands a batch of frontier states (see src/explorer/expand.ts). */
import { move } from 'piscina';
import { initIdentity } from '../src/engine/index.js';
import { loadGameModule } from '../src/suite/index.js';
// A worker thread imports its kernel's own module, not the stage's index.ts: each thread pays at
// start for all it imports (a whole stage costs about 0.1 s and 10 MB more a thread).
import { expandAndClaim, expandBatch, Scratch, type ExpandTask } from '../src/explorer/expand.js';
import { SharedTable, type TableHandle } from '../src/explorer/shared-table.js';
import { packMessage, unpackMessage } from '../src/explorer/wire.js';

/** The thread's arrays, reused by every batch (each result is packed before the next batch starts). */
const scratch = new Scratch();

/** A batch (its packed buffer, transferred) and, to claim its successors in the shared fingerprint table, the table's handle. */
export default async function expand(message: { buffer: ArrayBuffer; table?: TableHandle }): Promise<unknown> {
  await initIdentity();
  const task = unpackMessage<ExpandTask>(message.buffer);
  const game = await loadGameModule(task.module);
  const result = message.table ? expandAndClaim(game, task, new SharedTable(message.table), scratch) : expandBatch(game, task, scratch);
  return move(packMessage(result));
}
