/** Tasks in flight, their results consumed strictly in the order the tasks were started. */

interface Entry<T, R> {
  task: T;
  result: Promise<R>;
  done: boolean;
}

/**
 * The one ordered runner of explore, random play and the fuzz regime: the caller keeps a bounded
 * number of tasks in flight (`size`, `running`), and takes results oldest first (`next`), whatever
 * order the tasks finish in, so every number is the same whatever the worker count. A caller that
 * stops early simply drops the runner: tasks still in flight finish on their pool, unused.
 */
export class OrderedRunner<T, R> {
  private readonly queue: Entry<T, R>[] = [];
  private waiter: (() => void) | undefined;
  /** Tasks started and not finished yet. */
  running = 0;

  /** Tasks started and not yet taken by `next` (finished or not). */
  get size(): number {
    return this.queue.length;
  }

  /** The oldest task not yet taken. */
  get head(): T | undefined {
    return this.queue[0]?.task;
  }

  /** Ends a wait in `anyFinished` now (a deadline or a stop that must not wait for a stuck task). */
  wake(): void {
    this.waiter?.();
  }

  /** Whether the oldest task's result is in. */
  get headDone(): boolean {
    return this.queue.length > 0 && this.queue[0].done;
  }

  /**
   * Adds a started task. Its promise is marked handled while it waits its turn (a later task
   * failing first must not abort the process as an unhandled rejection); `next` still rejects.
   * A `settled` result (computed on this thread) does not count as running.
   */
  add(task: T, result: Promise<R>, settled = false): void {
    result.catch(() => undefined);
    const entry: Entry<T, R> = { task, result, done: settled };
    if (!settled) {
      this.running++;
      const finished = (): void => {
        entry.done = true;
        this.running--;
        this.waiter?.();
      };
      result.then(finished, finished);
    }
    this.queue.push(entry);
  }

  /** Adds a started task ahead of every other: the next `next` takes it (a batch's remainder, run again). */
  addFirst(task: T, result: Promise<R>, settled = false): void {
    this.add(task, result, settled);
    this.queue.unshift(this.queue.pop()!);
  }

  /** Waits until any running task finishes (so a caller can start the next while the oldest still runs). */
  async anyFinished(): Promise<void> {
    await new Promise<void>((resolve) => (this.waiter = resolve));
    this.waiter = undefined;
  }

  /** The oldest task and its result, once in; it stays in `tasks` (watched) until then. Undefined when none is left. */
  async next(): Promise<{ task: T; result: R } | undefined> {
    const entry = this.queue[0];
    if (!entry) return undefined;
    try {
      return { task: entry.task, result: await entry.result };
    } finally {
      this.queue.shift();
    }
  }

  /** Waits for every task not yet taken to settle (for a caller that destroys its pool next). */
  async settle(): Promise<void> {
    await Promise.allSettled(this.queue.map((e) => e.result));
  }
}
