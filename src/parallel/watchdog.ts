/**
 * The step watchdog of every pool that runs game code: a task reports where it is in a shared
 * Int32Array (slot 0 stays -1 until it starts on its thread, so time queued does not count); a
 * task whose progress stands still past the limit is aborted (Piscina terminates its thread and
 * starts another) and rejects with a StepStalled that says where it stood. A thread that runs out
 * of memory is reported the same way, and so is a stop (a deadline or Ctrl-C) that a stuck task
 * would otherwise outlive.
 */
import type { Piscina } from 'piscina';

/** Slots of a task's progress: [0] -1 until started, then the task's own position (walk, state...); any change is progress. */
export const PROGRESS_SLOTS = 4;

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
  abort: AbortController;
  why?: StallKind;
}

/** Piscina's error for a task whose thread was terminated while another task of it was stopped. */
const terminated = (err: unknown): boolean => err instanceof Error && /Terminating worker thread|worker exited/.test(err.message);
const outOfMemory = (err: unknown): boolean => (err as { code?: string })?.code === 'ERR_WORKER_OUT_OF_MEMORY';

export class Watchdog {
  private readonly tasks = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  readonly limitMs: number;

  constructor(limitSeconds = DEFAULT_STEP_SECONDS) {
    this.limitMs = limitSeconds * 1000;
  }

  /**
   * Starts a task with a fresh progress buffer and an abort signal (pass both to Piscina's run).
   * A task whose thread was terminated under another one (it had not started) runs again once.
   */
  async run<T>(start: (progress: SharedArrayBuffer, signal: AbortSignal) => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const progress = new SharedArrayBuffer(4 * PROGRESS_SLOTS);
      const view = new Int32Array(progress).fill(-1);
      const w: Watched = { view, last: view.slice(), since: performance.now(), abort: new AbortController() };
      this.tasks.add(w);
      this.arm();
      try {
        return await start(progress, w.abort.signal);
      } catch (err) {
        if (w.why) throw new StepStalled(w.why, view.slice(), this.limitMs / 1000);
        const started = view[0] >= 0;
        if (outOfMemory(err) && started) throw new StepStalled('out-of-memory', view.slice(), this.limitMs / 1000);
        if (!started && (terminated(err) || outOfMemory(err)) && attempt === 0 && !this.stopping) continue;
        throw err;
      } finally {
        this.tasks.delete(w);
        if (this.tasks.size === 0) this.disarm();
      }
    }
  }

  /** Runs a task on a Piscina pool under watch: the task object gets the progress buffer as `progress`. */
  runOn<T>(pool: Pick<Piscina, 'run'>, task: Record<string, unknown>, options: { transferList?: ArrayBuffer[] } = {}): Promise<T> {
    return this.run((progress, signal) => pool.run({ ...task, progress }, { ...options, signal }) as Promise<T>);
  }

  /**
   * The caller stops waiting (a deadline, Ctrl-C, a fault elsewhere): tasks still running after
   * `graceMs` are aborted, so a stuck step cannot hold a thread of a shared pool.
   */
  stop(graceMs = 1000): void {
    this.stopping = true;
    const cut = (): void => {
      for (const w of this.tasks) this.trip(w, 'stopped');
    };
    if (graceMs <= 0) cut();
    else setTimeout(cut, graceMs).unref();
  }

  /** Tasks under watch (not finished). */
  get size(): number {
    return this.tasks.size;
  }

  private trip(w: Watched, why: StallKind): void {
    if (w.why) return;
    w.why = why;
    w.abort.abort();
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

  private check(): void {
    const now = performance.now();
    for (const w of this.tasks) {
      const { view, last } = w;
      if (view[0] < 0) {
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
      else if (now - w.since > this.limitMs) this.trip(w, 'hang');
    }
  }
}
