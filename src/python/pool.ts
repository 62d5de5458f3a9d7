/**
 * The Python processes of one game: as many as workers asked for, started on first use and kept for
 * the life of the Node process (like the shared thread pools), each fed up to two requests at a time
 * so it never waits for the coordinator. A process that died or was stopped is replaced.
 */
import type { Message } from './protocol.js';
import { PythonError, PythonProcess, REQUEUED, type HostCommand, type RunningStep } from './process.js';

/**
 * How long requests may still run once their caller stopped waiting for them (a second, as the
 * thread pools' watchdog grace): the processes of those still running after it are killed.
 */
const ABANDON_GRACE_MS = 1000;

/**
 * A signal for the requests of one piece of work (an exploration, a random play): `abandon()`, when
 * the work stopped with requests still running, aborts it after a grace. A Python step cannot be
 * interrupted and a request can run for minutes, so the processes still running one are then
 * killed (the pool starts new ones when next used), and neither the next work on the game nor the
 * end of the command waits for them.
 */
export class Abandonment {
  private readonly controller = new AbortController();
  readonly signal: AbortSignal = this.controller.signal;

  abandon(): void {
    setTimeout(() => this.controller.abort(), ABANDON_GRACE_MS).unref();
  }
}

export class PythonPool {
  private readonly procs: PythonProcess[] = [];
  /** Requests sent to each process and not answered yet. */
  private readonly inflight: number[] = [];

  constructor(private readonly command: () => HostCommand) {}

  /** Processes started (alive or not yet replaced). */
  get size(): number {
    return this.procs.length;
  }

  /**
   * Sends a request to the least busy of `workers` processes (starting or replacing them as needed).
   * Requests are counted here when sent, not when the process has them (that waits for its hello),
   * so a burst of requests spreads over the processes. `abandon` aborted before the answer kills
   * the process (see PythonProcess.request); other requests queued on it are sent again.
   */
  run(workers: number, header: Record<string, unknown>, blobs: readonly Uint8Array[], timeoutMs: number, abandon?: AbortSignal, tag?: object): Promise<Message> {
    return this.send(workers, header, blobs, timeoutMs, abandon, tag).catch((err: unknown) =>
      err instanceof PythonError && err.kind === REQUEUED ? this.run(workers, header, blobs, timeoutMs, abandon, tag) : Promise.reject(err),
    );
  }

  /** The step each busy process is on now, with its request's tag. */
  running(now = performance.now()): RunningStep[] {
    return this.procs.flatMap((p) => p.runningStep(now) ?? []);
  }

  private send(workers: number, header: Record<string, unknown>, blobs: readonly Uint8Array[], timeoutMs: number, abandon?: AbortSignal, tag?: object): Promise<Message> {
    while (this.procs.length < workers) this.procs.push(new PythonProcess(this.command()));
    let best = -1;
    for (let i = 0; i < workers; i++) {
      if (!this.procs[i].alive) {
        this.procs[i] = new PythonProcess(this.command());
        this.inflight[i] = 0;
      }
      if (best < 0 || (this.inflight[i] ?? 0) < (this.inflight[best] ?? 0)) best = i;
    }
    const proc = this.procs[best];
    this.inflight[best] = (this.inflight[best] ?? 0) + 1;
    const done = (): void => {
      if (this.procs[best] === proc) this.inflight[best]--;
    };
    const reply = proc.hello.then(() => proc.request(header, blobs, timeoutMs, abandon, tag));
    reply.then(done, done);
    return reply;
  }

  /** Starts `workers` processes (or replaces dead ones) and waits until each has loaded the game. */
  async warm(workers: number): Promise<void> {
    while (this.procs.length < workers) this.procs.push(new PythonProcess(this.command()));
    for (let i = 0; i < workers; i++) if (!this.procs[i].alive) this.procs[i] = new PythonProcess(this.command());
    await Promise.all(this.procs.slice(0, workers).map((p) => p.hello));
  }

  /** Ends every process (a sweep closes a game's pool before the next game; busy ones are killed). */
  close(): void {
    this.inflight.length = 0;
    for (const p of this.procs.splice(0)) p.close();
  }
}
