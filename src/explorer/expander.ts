/** Where expansion batches run: the shared worker pool, or this thread. */
import type { Game } from '../engine/index.js';
import { collectInThreads, sharedPool, type Watchdog } from '../parallel/index.js';
import { expandBatch, type ClaimedBatch, type ExpandResult, type ExpandTask, type RootOfLevel } from './expand.js';
import type { TableHandle } from './shared-table.js';
import type { TicketsHandle } from './tickets.js';
import { BufferPool, packMessage, unpackMessage } from './wire.js';
import { workerHeapMb } from './memory.js';

/**
 * Runs expansion batches somewhere: a worker pool, this thread, or processes that cannot share
 * memory (a Python game's workers). `run` returns the successors by fingerprint (ExpandResult)
 * and the coordinator claims them in the shared fingerprint table itself, as it merges the batch
 * (merge.ts, mergeExpanded); an expander whose workers can reach the table (SharedArrayBuffers)
 * also has `runAndClaim`, which claims them in the worker (a ClaimedBatch comes back).
 */
export interface Expander {
  /** Builds the level's reset state where the batches run (a pool's thread, under the watchdog), when it is not this thread. */
  root?(): Promise<RootOfLevel>;
  readonly workers: number;
  /** False while the pool's threads are still starting (no batch runs on the coordinator's thread meanwhile: game code never does). */
  readonly ready: boolean;
  run(task: ExpandTask): Promise<ExpandResult>;
  /** Claims in `table` under tickets drawn from `tickets` (see tickets.ts). */
  runAndClaim?(task: ExpandTask, table: TableHandle, tickets: TicketsHandle): Promise<ClaimedBatch>;
  /** The search stopped with batches still running, their results unused: stop those that would outlive it (thread pools have the watchdog for that). */
  abandon?(): void;
  /**
   * The steps running now in the batches given (by their states' bytes, as launched): the batch,
   * the state's index in it, the action's code, and how long the step has run (a Python game's
   * heartbeat; thread pools have the watchdog).
   */
  running?(batches: ReadonlySet<Uint8Array>): { batch: Uint8Array; state: number; action: number; seconds: number }[];
  /** The coordinator has merged a result and reads it no more: its buffer may carry another. */
  release?(result: object): void;
  /** The coordinator dropped a table (or the search ended): the threads collect their garbage, so the memory the table's objects hold goes too. */
  collect?(): void;
}

/** Result arrays the coordinator keeps past the merge: successor bytes, in the frontier. */
const KEPT = ['bytes'];

/**
 * Batches go to the process's shared Piscina pool as shared buffers (wire.ts), and come back
 * the same way. A pool not started yet gets an empty batch of the game per thread: the first
 * to come back says a thread has started and loaded the game. One that fails makes the pool
 * ready too, so the next batch sent there reports why.
 */
export function poolExpander(workers: number, module: string, level: number, watchdog: Watchdog, heapMb = workerHeapMb(workers)): Expander {
  const pool = sharedPool('expand', workers, heapMb);
  // A batch's buffer is free once its thread has finished (or was terminated); a result's once
  // the coordinator has merged it. Up to four batches a worker are in flight (Coordinator.dispatch).
  const tasks = new BufferPool(4 * workers + 4);
  const replies = new BufferPool(4 * workers + 4);
  const replyOf = new WeakMap<object, SharedArrayBuffer>();
  // Posted, not transferred (see wire.ts: a detached buffer slows every typed array of this thread).
  // A batch whose thread was terminated under another's hang runs again, with a fresh reply buffer.
  const send = async (task: ExpandTask, claim?: { table: TableHandle; tickets: TicketsHandle }): Promise<SharedArrayBuffer> => {
    const buffer = packMessage(task, tasks.take());
    try {
      // tagged with the batch's bytes (the coordinator's batch holds them), so `running` names the batch a step is in
      return await watchdog.run(pool, (progress) => pool.run<SharedArrayBuffer>({ buffer, reply: replies.take(), ...claim, progress }), task.states);
    } finally {
      tasks.give(buffer);
    }
  };
  const unpacked = <T extends object>(reply: SharedArrayBuffer): T => {
    const result = unpackMessage<T>(reply, KEPT);
    replyOf.set(result, reply);
    return result;
  };
  const run = async (task: ExpandTask): Promise<ExpandResult> => unpacked<ExpandResult>(await send(task));
  const root = async (): Promise<RootOfLevel> => {
    const reply = await send({ module, level, states: new Uint8Array(0), ends: new Uint32Array(0), root: true });
    const built = unpackMessage<RootOfLevel>(reply, ['bytes']);
    replies.give(reply);
    return built;
  };
  const runAndClaim = async (task: ExpandTask, table: TableHandle, tickets: TicketsHandle): Promise<ClaimedBatch> => unpacked<ClaimedBatch>(await send(task, { table, tickets }));
  const release = (result: object): void => {
    const reply = replyOf.get(result);
    if (!reply) return;
    replyOf.delete(result);
    replies.give(reply);
  };
  let failed = false;
  if (!pool.started) {
    for (let i = 0; i < workers; i++) run({ module, level, states: new Uint8Array(0), ends: new Uint32Array(0) }).catch(() => (failed = true));
  }
  return {
    workers,
    get ready() {
      return pool.started || failed;
    },
    root,
    run,
    // a stuck step's state and action, from the watchdog's view of each task (as a hang's: [_, state, action])
    running: (batches) => watchdog.running().flatMap((r) => (r.tag instanceof Uint8Array && batches.has(r.tag) && r.at[1] >= 0 ? [{ batch: r.tag, state: r.at[1], action: r.at[2], seconds: r.seconds }] : [])),
    runAndClaim,
    release,
    collect: () => void collectInThreads(pool, workers),
  };
}

/**
 * Expands on this thread (for a game given as an object, without a module workers could load).
 * `delay` lets tests complete batches out of order.
 */
export function inlineExpander(game: Game, delay?: () => number): Expander {
  return {
    workers: 1,
    ready: true,
    run(task) {
      if (!delay) return Promise.resolve().then(() => expandBatch(game, task));
      return new Promise((resolve, reject) => setTimeout(() => {
        try {
          resolve(expandBatch(game, task));
        } catch (err) {
          reject(err);
        }
      }, delay()));
    },
  };
}
