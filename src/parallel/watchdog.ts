/**
 * The step watchdog of every pool that runs game code: a task reports where it is in a shared
 * Int32Array (slot 0 stays -1 until it starts on its thread, so time queued does not count) and
 * which thread runs it; a task whose progress stands still past the limit has its thread
 * terminated (Piscina starts another) and rejects with a StepStalled that says where it stood. A
 * task queued on the same thread, not started, runs again. A thread that runs out of memory is
 * reported the same way, and so is a stop (a deadline or Ctrl-C) that a stuck task would
 * otherwise outlive. Tasks carry no AbortSignal: Piscina runs an abortable task alone on its
 * thread, and the expansion pool keeps two batches a thread (so a worker never waits for the
 * coordinator's merge).
 */
import type { Worker } from 'node:worker_threads';

/** Slots of a task's position: [0] -1 until started, then the task's own position (walk, state...); any change is progress. */
export const PROGRESS_SLOTS = 4;
/** The slot after them holds the threadId of the thread that runs the task (a worker writes it when it starts). */
export const THREAD_SLOT = PROGRESS_SLOTS;
/**
 * Bytes of a progress buffer: its 20 bytes of slots, padded past two cache lines. A worker
 * writes its slots at every step, and buffers made one after another for different workers'
 * tasks may sit side by side in memory; sharing a line would make each step's write wait for
 * the other core's. (Unmeasured: the 2-core machine's two vCPUs show no cost of sharing a line.)
 */
const PROGRESS_BYTES = 128;

/** A pool whose threads the watchdog can stop one by one (Piscina, or the shared pool around it). */
export interface WatchedPool {
  run(task: unknown): Promise<unknown>;
  readonly threads: readonly Worker[];
}

/** Marks a task started on this thread (in a worker, before it loads the game: that is the game's code too). */
export function markStarted(progress: SharedArrayBuffer | undefined, threadId: number): Int32Array | undefined {
  if (!progress) return undefined;
  const view = new Int32Array(progress, 0, PROGRESS_SLOTS + 1);
  view[THREAD_SLOT] = threadId;
  view[0] = 0;
  return view;
}

/**
 * Marks a task's kernel returned (in a worker, at once, before it packs its result): from then on
 * it only waits to send its result, and if the thread hangs after it (in another task's kernel),
 * this task is not the one that hung.
 */
export function markFinished(progress: Int32Array | undefined): void {
  if (progress) progress[1] = -1;
}

/** The default step limit (`--step-timeout`), in seconds. */
export const DEFAULT_STEP_SECONDS = 10;

export type StallKind = 'hang' | 'out-of-memory' | 'stopped';

/** A watched task that did not finish: why, and its progress slots when it stopped. */
export class StepStalled extends Error {
  constructor(
    readonly kind: StallKind,
    readonly at: Int32Array,
    readonly limitSeconds: number,
  ) {
    super(kind === 'hang' ? `a step did not return within ${limitSeconds} s: its thread was stopped` : kind === 'out-of-memory' ? 'a worker thread ran out of memory' : 'stopped');
  }
}

interface Watched {
  view: Int32Array;
  last: Int32Array;
  since: number;
  /** Terminates the task's thread (found by the threadId it wrote). */
  stopThread: (threadId: number) => void;
  why?: StallKind;
  /** Its thread was stopped for another task's fault: it runs again. */
  collateral?: boolean;
  /** The caller's name for the task (an exploration's batch), for `running`. */
  tag?: object;
}

/** A task is in its kernel (stepping the game) once it has set its second slot, until markFinished; before and after, it waits (for its game's module to load, or to send its result). */
const inKernel = (w: Watched): boolean => w.view[1] >= 0;

/** Piscina's error for a task whose thread was terminated while another task of it was stopped. */
const terminated = (err: unknown): boolean => err instanceof Error && /Terminating worker thread|worker exited/.test(err.message);
const outOfMemory = (err: unknown): boolean => (err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';

export class Watchdog {
  private readonly tasks = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  private graceMs = Infinity;
  readonly limitMs: number;

  constructor(limitSeconds = DEFAULT_STEP_SECONDS) {
    this.limitMs = limitSeconds * 1000;
  }

  /**
   * Starts a task on `pool` with a fresh progress buffer (`start` passes it in the task). A task
   * whose thread was terminated under another one (it had not started) runs again once.
   */
  async run<T>(pool: Pick<WatchedPool, 'threads'>, start: (progress: SharedArrayBuffer) => Promise<T>, tag?: object): Promise<T> {
    const stopThread = (threadId: number): void => void pool.threads.find((t) => t.threadId === threadId)?.terminate();
    for (let attempt = 0; ; attempt++) {
      const progress = new SharedArrayBuffer(PROGRESS_BYTES);
      const view = new Int32Array(progress, 0, PROGRESS_SLOTS + 1).fill(-1);
      const w: Watched = { view, last: view.slice(), since: performance.now(), stopThread, tag };
      this.tasks.add(w);
      this.arm();
      try {
        return await start(progress);
      } catch (err) {
        if (w.why) throw new StepStalled(w.why, view.slice(), this.limitMs / 1000);
        // The task that ran its thread out of memory is the one in its kernel; others on that thread run again.
        if (outOfMemory(err) && inKernel(w)) throw new StepStalled('out-of-memory', view.slice(), this.limitMs / 1000);
        const again = w.collateral || (!inKernel(w) && (terminated(err) || outOfMemory(err)));
        if (again && attempt === 0 && !this.stopping) continue;
        throw err;
      } finally {
        this.tasks.delete(w);
        if (this.tasks.size === 0) this.disarm();
      }
    }
  }

  /** Runs a task on a pool under watch: the task object gets the progress buffer as `progress`. */
  runOn<T>(pool: WatchedPool, task: Record<string, unknown>): Promise<T> {
    return this.run(pool, (progress) => pool.run({ ...task, progress }) as Promise<T>);
  }

  /**
   * The caller stops waiting (a deadline, Ctrl-C, a fault elsewhere): from now on a task whose
   * progress stands still for `graceMs` (one queued too, once it starts) has its thread stopped, so
   * a stuck step cannot hold a thread of a shared pool; with no grace, every started task at once.
   */
  stop(graceMs = 1000): void {
    this.stopping = true;
    this.graceMs = Math.min(this.graceMs, graceMs);
    if (graceMs > 0) return;
    for (const w of this.tasks) if (!w.why && w.view[0] >= 0 && w.view[THREAD_SLOT] >= 0) this.trip(w);
  }

  /** How long progress may stand still: the step limit, or the grace once the caller stopped waiting. */
  private get limit(): number {
    return this.stopping ? Math.min(this.limitMs, this.graceMs) : this.limitMs;
  }

  /**
   * The tasks stepping their game now (in their kernel): their tag, where they are (the progress
   * slots: a batch's state index, the action's code...) and how long that has stood still.
   */
  running(now = performance.now()): { tag: object | undefined; at: Int32Array; seconds: number }[] {
    const found: { tag: object | undefined; at: Int32Array; seconds: number }[] = [];
    for (const w of this.tasks) {
      if (w.why || w.view[0] < 0 || w.view[THREAD_SLOT] < 0 || !inKernel(w)) continue;
      let moved = false;
      for (let i = 0; i < PROGRESS_SLOTS; i++) {
        if (w.view[i] !== w.last[i]) {
          w.last[i] = w.view[i];
          moved = true;
        }
      }
      if (moved) w.since = now;
      found.push({ tag: w.tag, at: w.view.slice(), seconds: (now - w.since) / 1000 });
    }
    return found;
  }

  /** Tasks under watch (not finished). */
  get size(): number {
    return this.tasks.size;
  }

  /** Stops `w`'s thread for its hang (or the stop); the other tasks on that thread are collateral (they run again, unless stopping). */
  private trip(w: Watched): void {
    w.why = this.stopping ? 'stopped' : 'hang';
    for (const o of this.tasks) if (o !== w && !o.why && o.view[THREAD_SLOT] === w.view[THREAD_SLOT]) o.collateral = true;
    this.stopThreadOf(w);
  }

  private stopThreadOf(w: Watched): void {
    w.stopThread(w.view[THREAD_SLOT]);
  }

  private arm(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), Math.min(100, Math.max(10, this.limitMs / 10)));
    this.timer.unref();
  }

  private disarm(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Trips, on each thread where a task stood still past the limit, the task in its kernel (one
   * waiting behind it on the same thread stands still too), else the one that stood still (a game
   * module whose loading never ends).
   */
  private check(): void {
    const now = performance.now();
    const due = new Map<number, Watched[]>();
    for (const w of this.tasks) {
      const { view, last } = w;
      if (view[0] < 0 || view[THREAD_SLOT] < 0 || w.why) {
        w.since = now;
        continue;
      }
      let moved = false;
      for (let i = 0; i < PROGRESS_SLOTS; i++) {
        if (view[i] !== last[i]) {
          last[i] = view[i];
          moved = true;
        }
      }
      if (moved) w.since = now;
      else if (now - w.since > this.limit) due.set(view[THREAD_SLOT], [...(due.get(view[THREAD_SLOT]) ?? []), w]);
    }
    for (const [thread, stuck] of due) {
      const onThread = [...this.tasks].filter((w) => w.view[THREAD_SLOT] === thread && !w.why);
      const running = onThread.find(inKernel);
      // A task in its kernel on that thread that still moves: the stuck ones only wait behind it.
      if (running && !stuck.includes(running)) continue;
      this.trip(running ?? stuck[0]);
    }
  }
}
