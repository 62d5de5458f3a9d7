/**
 * Full garbage collections in a pool's threads, on demand. A thread keeps the objects of the
 * SharedArrayBuffers it was sent (fingerprint tables, ticket ids) until a collection finds them
 * dead, and those of a busy batch reach its old generation, which a thread collects rarely; while
 * one such object lives, the memory behind it does, for every thread. At 30M states of bx19 level
 * 3 with 8 workers claiming: 3.00 GB resident after the search (and a full collection of the
 * coordinator's thread), 0.79 GB once the workers had collected too.
 */
import { threadId } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { SharedPool } from './pool.js';

let gc: (() => void) | undefined;

/**
 * A full collection of this thread's heap: V8's gc(), which only a context made while --expose-gc
 * is set has. The flag is the process's and stays set: threads turning it off again raced each
 * other's new contexts.
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** How long a thread waits for the others to take their collection task (so that each thread gets one). */
const GATHER_MS = 200;

/** A thread's collection task: waits until every thread has taken one (GATHER_MS at most), collects, and says which thread it was. */
export function collectTogether(barrier: SharedArrayBuffer): number {
  const words = new Int32Array(barrier);
  Atomics.add(words, 0, 1);
  Atomics.notify(words, 0);
  const deadline = performance.now() + GATHER_MS;
  for (let arrived = Atomics.load(words, 0); arrived < words[1]; arrived = Atomics.load(words, 0)) {
    const left = deadline - performance.now();
    if (left <= 0) break;
    Atomics.wait(words, 0, arrived, left);
  }
  collectGarbage();
  return threadId;
}

/**
 * Asks each of a pool's `threads` threads for a full collection: a task each, which waits for the
 * others so that no thread takes two. A thread still busy (a batch left running after a stop)
 * takes its task when done; callers need not wait. Resolves to the threads that collected.
 */
export function collectInThreads(pool: SharedPool, threads: number): Promise<number[]> {
  const barrier = new SharedArrayBuffer(8);
  new Int32Array(barrier)[1] = threads;
  return Promise.all(Array.from({ length: threads }, () => pool.run<number>({ collect: barrier }).catch(() => -1)));
}
