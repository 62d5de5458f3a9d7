/**
 * One long-lived Python host process (workers/python/arcgraph_host.py) holding one game: spawned with
 * PYTHONHASHSEED pinned, requests framed on its pipes and answered in order, each with a time limit
 * after which the process is killed (a step that never returns cannot be interrupted any other way).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeFrame, FrameReader, type Message } from './protocol.js';

/** How to start a host: the interpreter, the host script, its arguments and environment. */
export interface HostCommand {
  python: string;
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** A step that has not returned after this long is a hang: the process is killed (0: no watchdog). */
  stallMs: number;
}

let files = 0;

/**
 * The host's heartbeat (runtime.Progress): steps begun, and the batch item and action of the last.
 * Read while a request runs, it tells a slow batch from a step that never returns, and which step.
 */
class Heartbeat {
  readonly path = join(tmpdir(), `arcgraph-progress-${process.pid}-${++files}-${Date.now()}`);
  private readonly fd: number;
  private readonly buf = Buffer.alloc(16);
  private ticks = -1;
  private since = 0;

  constructor() {
    writeFileSync(this.path, Buffer.alloc(16));
    this.fd = openSync(this.path, 'r');
  }

  /** The current step, and whether it has run longer than `stallMs`. */
  check(stallMs: number, now: number): { stalled: boolean; item: number; sub: number; action: number } {
    readSync(this.fd, this.buf, 0, 16, 0);
    const ticks = this.buf.readUInt32LE(0);
    if (ticks !== this.ticks) {
      this.ticks = ticks;
      this.since = now;
    }
    return { stalled: now - this.since > stallMs, item: this.buf.readUInt32LE(4), sub: this.buf.readUInt32LE(8), action: this.buf.readUInt32LE(12) };
  }

  /** Steps begun so far (the count check last saw: a death is a step's only when steps began since the last reply). */
  get steps(): number {
    return this.ticks;
  }

  /** Milliseconds since the step count last moved (as of the last check). */
  stillFor(now: number): number {
    return now - this.since;
  }

  /** Restarts the clock (a new request begins). */
  restart(now: number): void {
    this.since = now;
  }

  /** Removes the file's name (the open descriptors keep it readable). */
  unlink(): void {
    rmSync(this.path, { force: true });
  }

  close(): void {
    closeSync(this.fd);
    this.unlink();
  }
}

/** The host failed a request, or the process failed: `kind` says which (PROTOCOL.md lists them). */
export class PythonError extends Error {
  constructor(
    readonly kind: string,
    message: string,
    /** Extra fields of the host's error (an expand error's state and action, say). */
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * Signals arcgraph never sends its Python processes (it kills them with SIGKILL alone): a process
 * that died of one was stopped from outside, by a terminal's Ctrl-C (which signals the whole
 * process group), a pipeline's SIGTERM, a closed terminal. That is the user's stop, never the game's crash.
 */
const STOP_SIGNALS: readonly string[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/**
 * The error of a request whose Python process was stopped from outside (see STOP_SIGNALS): kind
 * `interrupted`, which no stage counts as the game's fault (errors.ts isInterrupted: exit 130).
 */
const stoppedFromOutside = (signal: string): PythonError => new PythonError('interrupted', `a Python process of the game was stopped by ${signal}`, { signal });

/** How a game's step failed (the explorer's FaultKind; this stage sits below the explorer). */
export type PyFaultKind = 'crash' | 'hang' | 'out-of-memory';

/** Whether a request failed for the game's fault (its code raised, hung, ate memory or ended the process), not arcgraph's. */
export const isGameFault = (err: unknown): err is PythonError => err instanceof PythonError && ['exception', 'timeout', 'memory', 'exited'].includes(err.kind);

/** The fault a game's step error is, from the host's GameError kind (timeout, memory or exception). */
export const faultKindOf = (kind: unknown): PyFaultKind => (kind === 'timeout' ? 'hang' : kind === 'memory' ? 'out-of-memory' : 'crash');

/** Where a process stopped mid-request: killed by the heartbeat (a hang) or ended by the game (os._exit), on the item, sub-step and action its heartbeat named. */
export interface StoppedAt {
  /** The batch item (a state, a walk) the process was on. */
  item: number;
  step: number;
  action: number;
  kind: 'hang' | 'crash';
  message: string;
}

/** The point a dead or killed Python process was at, or undefined when the error is another kind (or names no point). */
export const stoppedAt = (err: unknown): StoppedAt | undefined =>
  err instanceof PythonError && (err.kind === 'timeout' || err.kind === 'exited') && err.detail.state !== undefined
    ? { item: Number(err.detail.state), step: Number(err.detail.step), action: Number(err.detail.action), kind: err.kind === 'timeout' ? 'hang' : 'crash', message: err.message }
    : undefined;

interface Pending {
  resolve: (m: Message) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
  op: string;
  abandon?: AbortSignal;
  /** The caller's name for the request (an exploration's batch), for runningStep. */
  tag?: object;
}

/** The step a process is on now, in the request its caller tagged, and how long that step has run. */
export interface RunningStep {
  tag: object | undefined;
  /** The request's item (a batch's state, a walk), the step within it, the action's code. */
  item: number;
  sub: number;
  action: number;
  seconds: number;
}

/**
 * The error of a request that was queued behind an abandoned one when its process was killed: it
 * never ran, and the pool sends it again to another process.
 */
export const REQUEUED = 'requeued';

const STDERR_KEEP = 16_384;

export class PythonProcess {
  private readonly child: ChildProcess;
  private readonly reader = new FrameReader();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';
  private exited: string | undefined;
  /** Settles once the process has exited (or never started): reaped by the thread that started it. */
  readonly ended: Promise<void>;
  private markEnded!: () => void;
  private readonly heartbeat: Heartbeat | undefined;
  private watchdog: NodeJS.Timeout | undefined;
  private ending = false;
  /** Steps begun when the last reply came in. */
  private stepsAtReply = -1;
  /** The host's hello: the game's metadata (or a load error). */
  readonly hello: Promise<Message>;

  constructor(private readonly command: HostCommand) {
    this.heartbeat = command.stallMs > 0 ? new Heartbeat() : undefined;
    const args = [...command.args, ...(this.heartbeat ? ['--progress', this.heartbeat.path] : [])];
    this.child = spawn(command.python, ['-u', command.script, ...args], { env: command.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let helloDone: ((m: Message) => void) | undefined;
    let helloFail: ((e: Error) => void) | undefined;
    this.hello = new Promise<Message>((resolve, reject) => ((helloDone = resolve), (helloFail = reject)));
    this.hello.catch(() => undefined);
    this.pending.set(0, { resolve: (m) => helloDone!(m), reject: (e) => helloFail!(e), op: 'hello' });
    // Once the host has mapped its heartbeat file (by its hello), the name is not needed: both ends
    // hold it open, and nothing is left in the temp folder whatever becomes of either process.
    this.hello.then(
      () => this.heartbeat?.unlink(),
      () => this.heartbeat?.unlink(),
    );
    this.child.stdout!.on('data', (chunk: Buffer) => {
      let messages: Message[];
      try {
        messages = this.reader.push(chunk);
      } catch (err) {
        this.fail(new PythonError('protocol', (err as Error).message));
        return;
      }
      for (const m of messages) this.settle(m);
    });
    this.child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEEP);
    });
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    this.child.on('error', (err: NodeJS.ErrnoException) => {
      if (this.child.pid === undefined) this.markEnded();
      const why = err.code === 'ENOENT' ? `no Python interpreter '${command.python}'` : `cannot start ${command.python}: ${err.message}`;
      this.fail(new PythonError(err.code === 'ENOENT' ? 'no-python' : 'spawn', why));
    });
    this.child.on('exit', (code, signal) => {
      this.markEnded();
      this.exited = signal ? `killed by ${signal}` : `exited with code ${code}`;
      const settle = (): void => {
        // stopped from outside (a Ctrl-C reaches the whole process group): no step is to blame. A
        // Ctrl-C while Python itself starts (its site imports, before the host handles SIGINT) ends it
        // with exit code 1 and a KeyboardInterrupt traceback instead.
        const startInterrupted = code === 1 && this.pending.has(0) && /(^|\n)KeyboardInterrupt\s*$/.test(this.stderrTail);
        if ((signal && STOP_SIGNALS.includes(signal)) || startInterrupted) this.fail(stoppedFromOutside(signal ?? 'SIGINT'));
        this.blameStep(code, signal);
        this.fail(new PythonError('died', `the Python process ${this.exited}${this.lastError()}`));
        this.heartbeat?.close();
      };
      // a death before the hello is read with all its stderr (which may still be in the pipe)
      const stderr = this.child.stderr!;
      if (this.pending.has(0) && !stderr.destroyed && !stderr.readableEnded) stderr.once('close', settle);
      else settle();
    });
    // A write to a process that died is reported by 'exit'; the pipe's own error must not throw.
    this.child.stdin!.on('error', () => undefined);
    // Busy until the hello is in (a caller may be waiting for it); idle afterwards.
    this.busyNow();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /**
   * Set when a reply says a game ran the process out of memory: its heap stays bloated (hundreds of
   * MB), so it takes no more work and ends once its requests are answered.
   */
  private spent = false;

  /** False once it exited, or was killed or closed, or a game ran it out of memory (a pool then starts another). */
  get alive(): boolean {
    return this.exited === undefined && !this.ending && !this.spent;
  }

  /** A game ran it out of memory: it is ended once idle. */
  get outOfMemory(): boolean {
    return this.spent;
  }

  /** Requests in flight. */
  get busy(): number {
    return this.pending.size;
  }

  /** The last line Python wrote to stderr that names an error, for reports. */
  lastError(): string {
    const lines = this.stderrTail.trim().split('\n').filter((l) => l.trim() !== '');
    const last = lines.reverse().find((l) => /Error|Exception|Traceback|Killed/.test(l));
    return last ? `; stderr: ${last.trim()}` : '';
  }

  /**
   * Sends a request; rejects with PythonError (the host's error, a timeout, or the process's death).
   * Aborting `abandon` while it is still pending kills the process (a step cannot be cut short any
   * other way), so work nobody will read does not hold the process, or Node, for minutes.
   */
  request(header: Record<string, unknown>, blobs: readonly Uint8Array[] = [], timeoutMs = 0, abandon?: AbortSignal, tag?: object): Promise<Message> {
    // (one out of memory still answers what the pool gave it before: it ends once idle)
    if (this.exited !== undefined || this.ending) return Promise.reject(new PythonError('died', `the Python process ${this.exited ?? 'was stopped'}${this.lastError()}`));
    const id = this.nextId++;
    const op = String(header.op);
    if (abandon?.aborted) return Promise.reject(new PythonError('abandoned', `the '${op}' request was abandoned before it was sent`));
    const reply = new Promise<Message>((resolve, reject) => {
      const entry: Pending = { resolve, reject, op, abandon, tag };
      if (timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.kill();
          this.fail(new PythonError('timeout', `the Python process did not answer '${op}' within ${(timeoutMs / 1000).toFixed(1)} s: it was stopped`));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      this.busyNow();
      this.watch();
      this.child.stdin!.write(encodeFrame({ ...header, id }, blobs));
    });
    if (abandon) {
      const stop = (): void => {
        if (!this.pending.has(id)) return;
        this.kill();
        // The host answers in order: requests of other callers wait behind this one; they go elsewhere.
        this.fail(new PythonError('abandoned', `the Python process was stopped: its '${op}' request was abandoned`), new PythonError(REQUEUED, 'its Python process was stopped for an abandoned request before this one ran'));
      };
      abandon.addEventListener('abort', stop);
      const off = (): void => abandon.removeEventListener('abort', stop);
      reply.then(off, off);
    }
    return reply;
  }

  /**
   * The step the request running now (the oldest: a host answers in order) is on, and how long it
   * has run by the heartbeat; undefined when no request runs, or the process has no heartbeat.
   */
  runningStep(now = performance.now()): RunningStep | undefined {
    const hb = this.heartbeat;
    if (!hb || this.exited !== undefined || this.ending) return undefined;
    const ids = [...this.pending.keys()].filter((id) => id !== 0);
    if (ids.length === 0) return undefined;
    const beat = hb.check(Infinity, now);
    const entry = this.pending.get(Math.min(...ids))!;
    return { tag: entry.tag, item: beat.item, sub: beat.sub, action: beat.action, seconds: hb.stillFor(now) / 1000 };
  }

  /** While requests run, a step that stops beating for longer than stallMs gets the process killed, naming the step. */
  private watch(): void {
    const hb = this.heartbeat;
    if (!hb || this.watchdog) return;
    hb.restart(performance.now());
    this.watchdog = setInterval(() => {
      if (this.exited !== undefined || this.ending) return;
      const beat = hb.check(this.command.stallMs, performance.now());
      if (!beat.stalled) return;
      this.kill();
      // The oldest request is the one running (a host answers in order): it gets the step's name.
      const oldest = Math.min(...this.pending.keys());
      const running = this.pending.get(oldest);
      if (running) {
        this.pending.delete(oldest);
        if (running.timer) clearTimeout(running.timer);
        running.reject(new PythonError('timeout', `a step did not return within ${(this.command.stallMs / 1000).toFixed(0)} s: its Python process was stopped`, { state: beat.item, step: beat.sub, action: beat.action }));
      }
      this.fail(new PythonError('died', 'the Python process was stopped (a step before this request never returned)'));
    }, 250);
  }

  /**
   * A process that died on its own (os._exit in a game, a crash in C, the kernel's OOM killer) while
   * a step of its running request was under way: that request gets the step's name, as a hang does.
   */
  private blameStep(code: number | null, signal: NodeJS.Signals | null): void {
    const hb = this.heartbeat;
    if (!hb || this.ending || this.pending.size === 0) return;
    const beat = hb.check(Infinity, performance.now());
    if (hb.steps === this.stepsAtReply) return;
    const oldest = Math.min(...this.pending.keys());
    const running = this.pending.get(oldest)!;
    this.pending.delete(oldest);
    if (running.timer) clearTimeout(running.timer);
    const why = signal === 'SIGKILL' ? 'its Python process was killed (SIGKILL: out of memory?)' : signal ? `its Python process was killed by ${signal}` : `the game ended its Python process (exit code ${code})`;
    running.reject(new PythonError('exited', `${why}${this.lastError()}`, { state: beat.item, step: beat.sub, action: beat.action }));
  }

  kill(): void {
    if (this.exited === undefined) this.child.kill('SIGKILL');
    this.ending = true;
  }

  /**
   * Ends the process: closing its stdin lets an idle host return (a stuck one is killed); one
   * still running requests is killed at once (their caller is done with the game: a long batch
   * would otherwise keep Node running for minutes after the result is out).
   */
  close(): void {
    if (this.exited !== undefined || this.ending) return;
    if (this.pending.size > 0) return this.kill();
    this.ending = true;
    this.child.stdin!.end();
    setTimeout(() => this.kill(), 2000).unref();
  }

  private settle(m: Message): void {
    const id = Number(m.header.id ?? 0);
    const entry = this.pending.get(id);
    if (!entry) return;
    if (this.heartbeat) {
      this.heartbeat.check(Infinity, performance.now());
      this.stepsAtReply = this.heartbeat.steps;
    }
    this.pending.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    if (m.header.outOfMemory === true) this.spent = true;
    if (this.pending.size === 0) {
      this.unwatch();
      this.idle();
      // never kept: a game's memory fault left it bloated
      if (this.spent) this.close();
    }
    if (m.header.ok === false) {
      const error = (m.header.error ?? {}) as Record<string, unknown>;
      entry.reject(new PythonError(String(error.kind ?? 'host'), String(error.message ?? 'the Python host failed'), error));
    } else entry.resolve(m);
  }

  /** Rejects every pending request with `err` (with `others` those not abandoned, if given). */
  private fail(err: Error, others = err): void {
    this.unwatch();
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      if (entry.timer) clearTimeout(entry.timer);
      entry.reject(entry.abandon?.aborted ? err : others);
    }
    this.idle();
  }

  private unwatch(): void {
    if (this.watchdog) clearInterval(this.watchdog);
    this.watchdog = undefined;
  }

  /** An idle process does not keep Node alive (like the shared thread pools); a busy one does. */
  private idle(): void {
    this.child.unref();
    (this.child.stdout as unknown as { unref?: () => void }).unref?.();
    (this.child.stderr as unknown as { unref?: () => void }).unref?.();
    (this.child.stdin as unknown as { unref?: () => void }).unref?.();
  }

  private busyNow(): void {
    this.child.ref();
    (this.child.stdout as unknown as { ref?: () => void }).ref?.();
  }
}
