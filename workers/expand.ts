/** Piscina worker: expands a batch of frontier states (see src/explorer/expand.ts). */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { threadId } from 'node:worker_threads';
import { markFinished, markStarted } from '../src/parallel/watchdog.js';
import { collectTogether } from '../src/parallel/collect.js';
import { initIdentity } from '../src/engine/index.js';
import { loadGameModule } from '../src/suite/index.js';
// A worker thread imports its kernel's own module, not the stage's index.ts: each thread pays at
// start for all it imports (a whole stage costs about 0.1 s and 10 MB more a thread).
import { expandAndClaim, expandBatch, rootOfLevel, Scratch, type ExpandTask } from '../src/explorer/expand.js';
import { SharedTable, type TableHandle } from '../src/explorer/shared-table.js';
import { TicketSource, type TicketsHandle } from '../src/explorer/tickets.js';
import { packMessage, unpackMessage } from '../src/explorer/wire.js';

/** The thread's arrays, reused by every batch (each result is packed before the next batch starts). */
const scratch = new Scratch();

/**
 * A batch (its packed buffer, shared), a buffer to pack the result into if it has room, to claim
 * its successors in the shared fingerprint table the table's and the tickets' handles, and where
 * the watchdog reads its progress (src/parallel/watchdog.ts).
 */
export default async function expand(message: { buffer: SharedArrayBuffer; reply?: SharedArrayBuffer; table?: TableHandle; tickets?: TicketsHandle; progress?: SharedArrayBuffer } | { collect: SharedArrayBuffer }): Promise<unknown> {
  // The coordinator dropped what this thread was sent (src/parallel/collect.ts).
  if ('collect' in message) return collectTogether(message.collect);
  // A turn of the event loop first. The pool sends a thread two batches, and an idle thread takes
  // both at once: Piscina starts both handlers in one queue of microtasks, so the second batch's
  // kernel ran before the first's result was sent, which reached the coordinator a whole batch
  // late, holding up every result after it in merge order (bx19:2 to 1M states, 2 workers: 28 of
  // 219 batches returned 22 ms late where the others took 3 ms).
  await nextTurn();
  // Started (loading the game's module is the game's code too), on this thread.
  const progress = markStarted(message.progress, threadId);
  await initIdentity();
  const task = unpackMessage<ExpandTask>(message.buffer);
  const game = await loadGameModule(task.module);
  if (task.root) {
    // The reset state is built here, not on the coordinator's thread: an init that never returns is watched.
    const root = rootOfLevel(game, task.level, progress);
    markFinished(progress);
    return packMessage(root, message.reply);
  }
  const started = performance.now();
  const result = message.table && message.tickets ? expandAndClaim(game, task, new SharedTable(message.table), new TicketSource(message.tickets), scratch, progress) : expandBatch(game, task, scratch, progress);
  markFinished(progress);
  result.kernelMs = performance.now() - started;
  // Into the buffer the coordinator lent, where it has room. Not moved: transferring would detach it here (see wire.ts).
  return packMessage(result, message.reply);
}
