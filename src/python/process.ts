/**
 * One long-lived Python host process (workers/python/arcgraph_host.py) holding one game: spawned with
 * PYTHONHASHSEED pinned, requests framed on its pipes and answered in order, each with a time limit
 * after which the process is killed (a step that never returns cannot be interrupted any other way).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { encodeFrame, FrameReader, type Message } from './protocol.js';

/** How to start a host: the interpreter, the host script, its arguments and environment. */
export interface HostCommand {
  python: string;
  script: string;
  args: string[];
  env: NodeJS.ProcessEnv;
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

interface Pending {
  resolve: (m: Message) => void;
  reject: (e: Error) => void;
  timer?: NodeJS.Timeout;
  op: string;
}

const STDERR_KEEP = 16_384;

export class PythonProcess {
  private readonly child: ChildProcess;
  private readonly reader = new FrameReader();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stderrTail = '';
  private exited: string | undefined;
  /** The host's hello: the game's metadata (or a load error). */
  readonly hello: Promise<Message>;

  constructor(command: HostCommand) {
    this.child = spawn(command.python, ['-u', command.script, ...command.args], { env: command.env, stdio: ['pipe', 'pipe', 'pipe'] });
    let helloDone: ((m: Message) => void) | undefined;
    let helloFail: ((e: Error) => void) | undefined;
    this.hello = new Promise<Message>((resolve, reject) => ((helloDone = resolve), (helloFail = reject)));
    this.hello.catch(() => undefined);
    this.pending.set(0, { resolve: (m) => helloDone!(m), reject: (e) => helloFail!(e), op: 'hello' });
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
    this.child.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ENOENT' ? `no Python interpreter '${command.python}'` : `cannot start ${command.python}: ${err.message}`;
      this.fail(new PythonError(err.code === 'ENOENT' ? 'no-python' : 'spawn', why));
    });
    this.child.on('exit', (code, signal) => {
      this.exited = signal ? `killed by ${signal}` : `exited with code ${code}`;
      this.fail(new PythonError('died', `the Python process ${this.exited}${this.lastError()}`));
    });
    // A write to a process that died is reported by 'exit'; the pipe's own error must not throw.
    this.child.stdin!.on('error', () => undefined);
    // Busy until the hello is in (a caller may be waiting for it); idle afterwards.
    this.busyNow();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exited === undefined;
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

  /** Sends a request; rejects with PythonError (the host's error, a timeout, or the process's death). */
  request(header: Record<string, unknown>, blobs: readonly Uint8Array[] = [], timeoutMs = 0): Promise<Message> {
    if (!this.alive) return Promise.reject(new PythonError('died', `the Python process ${this.exited}${this.lastError()}`));
    const id = this.nextId++;
    const op = String(header.op);
    return new Promise<Message>((resolve, reject) => {
      const entry: Pending = { resolve, reject, op };
      if (timeoutMs > 0) {
        entry.timer = setTimeout(() => {
          this.kill();
          this.fail(new PythonError('timeout', `the Python process did not answer '${op}' within ${(timeoutMs / 1000).toFixed(1)} s: it was stopped`));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      this.busyNow();
      this.child.stdin!.write(encodeFrame({ ...header, id }, blobs));
    });
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }

  /** Ends the process: closing its stdin lets the host return; a stuck one is killed. */
  close(): void {
    if (!this.alive) return;
    this.child.stdin!.end();
    setTimeout(() => this.kill(), 2000).unref();
  }

  private settle(m: Message): void {
    const id = Number(m.header.id ?? 0);
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    if (entry.timer) clearTimeout(entry.timer);
    if (this.pending.size === 0) this.idle();
    if (m.header.ok === false) {
      const error = (m.header.error ?? {}) as Record<string, unknown>;
      entry.reject(new PythonError(String(error.kind ?? 'host'), String(error.message ?? 'the Python host failed'), error));
    } else entry.resolve(m);
  }

  private fail(err: Error): void {
    for (const [id, entry] of this.pending) {
      this.pending.delete(id);
      if (entry.timer) clearTimeout(entry.timer);
      entry.reject(err);
    }
    this.idle();
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
