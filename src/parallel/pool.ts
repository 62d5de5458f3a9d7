/** Worker thread pools (Piscina) and the worker count of a run. */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { PACKAGE_ROOT } from '../suite/index.js';

type Handler = 'expand' | 'walk' | 'fuzz';

/**
 * Megabytes each semi-space of a worker thread's young generation starts at. V8 starts it at 1 and
 * grows it only when many objects survive, which a game's short-lived states never do, so a worker
 * collected its young generation every few thousand transitions, each time waking V8's helper
 * threads, which every worker shares. On 16 cores (2026-11-27, bx19:2 to 1M states, medians of 6
 * runs in 3 interleaved rounds), with V8's default collector (a library caller's): 16 workers
 * 4.19M -> 4.56M transitions/s, 15 workers 4.00M -> 4.52M; with the collector flags the arcgraph
 * command sets (src/cli/gc.ts): 16 and 15 workers the same, 8 workers 3.35M -> 3.67M, and the
 * workers' CPU a transition 4-7% lower at each. On 2 cores: 4x fewer scavenges (2,198 -> 549), half
 * the time in them, the same throughput. 16 is V8's largest semi-space: it starts where it may end.
 */
export const WORKER_SEMI_SPACE_MB = 16;

let youngGenerationsSized = false;

/**
 * Has every worker thread started from now on begin with WORKER_SEMI_SPACE_MB semi-spaces. A V8
 * flag is process-wide, but a heap reads this one when it is made: the main thread's, made at
 * start, keeps its own. Pools call it; so must other code that starts threads to compare with them.
 */
export function sizeWorkerYoungGenerations(): void {
  if (youngGenerationsSized) return;
  youngGenerationsSized = true;
  setFlagsFromString(`--min-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
}

/**
 * Worker handlers live compiled under dist/workers (built by npm install), behind one CommonJS
 * entry. `heapMb` caps each thread's old generation: a game that allocates without bound makes
 * its thread fail with ERR_WORKER_OUT_OF_MEMORY (reported with the state's path), not the process.
 */
export function workerPool(handler: Handler, workers: number, heapMb: number, tasksPerWorker = 1): Piscina {
  sizeWorkerYoungGenerations();
  return new Piscina({
    filename: join(PACKAGE_ROOT, 'dist', 'workers', 'entry.cjs'),
    name: handler,
    minThreads: workers,
    maxThreads: workers,
    idleTimeout: 60_000,
    concurrentTasksPerWorker: tasksPerWorker,
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
  });
}

/** A pool kept for the life of the process, and whether its threads are up. */
export class SharedPool {
  /** Set once a task has completed: every later task finds a started thread with this code loaded. */
  started = false;

  constructor(private readonly piscina: Piscina) {}

  /** The pool's threads (the step watchdog stops a stuck one). */
  get threads(): readonly Worker[] {
    return this.piscina.threads;
  }

  /** Runs a task; its buffers are posted, never transferred (see src/explorer/wire.ts). */
  run<T>(task: unknown): Promise<T> {
    const result: Promise<T> = this.piscina.run(task);
    result.then(
      () => (this.started = true),
      () => undefined,
    );
    return result;
  }
}

const shared = new Map<string, SharedPool>();

/**
 * The pool for expansion batches or random walks with this many threads, started on first use and
 * kept for the life of the process: a sweep explores and plays dozens of levels, and a new pool
 * for each would start its threads, load the game and warm up the JIT again every time (0.15 s of
 * start and a slow first second). Idle threads do not keep the process alive. The fuzz regime has
 * pools of its own, which its watchdog destroys to stop a hung game.
 */
export function sharedPool(handler: Exclude<Handler, 'fuzz'>, workers: number, heapMb: number): SharedPool {
  const key = `${handler}:${workers}:${heapMb}`;
  let pool = shared.get(key);
  if (!pool) {
    // Expansion: two batches per thread, so a worker never waits for the coordinator's merge.
    pool = new SharedPool(workerPool(handler, workers, heapMb, handler === 'expand' ? 2 : 1));
    shared.set(key, pool);
  }
  return pool;
}

/** From this many cores up, the default leaves one to the coordinator's thread. */
export const COORDINATOR_CORE_FROM = 16;

/**
 * Default worker count: every core the machine offers, less one from 16 cores up. There the
 * coordinator's thread is busy about half the time (16 workers, bx19:2: 110-140 ns of its CPU a
 * transition at 4-5M transitions/s), and with a worker on every core the system sometimes takes
 * its core away while every worker waits for its merge: 15 workers beat 16 in 3 of 3 rounds
 * (2026-11-26, 16-core device machine, bx19:2 to 1M states: +4 to +24%) and by 7% on the medians
 * of 6 runs after the batch changes of that day.
 */
export const defaultWorkers = (cores = availableParallelism()): number => (cores >= COORDINATOR_CORE_FROM ? cores - 1 : cores);

/** Worker threads for a run: the number asked for (at least 1) or the default (defaultWorkers); 1 for a game without a module (it runs on this thread). */
export const workerCount = (requested: number | undefined, threaded = true): number => (threaded ? Math.max(1, requested ?? defaultWorkers()) : 1);
