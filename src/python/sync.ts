/**
 * Synchronous requests to a Python host, for the sequential algorithms that use the Game contract
 * (replay, shrinking, the interactive player): a worker thread owns the process, and the caller
 * blocks in Atomics.wait until the answer is posted (the synckit pattern; synckit itself does not
 * stop a child process whose request timed out, which a game that hangs needs).
 */
import { join } from 'node:path';
import { SyncWorker } from '../parallel/index.js';
import { PACKAGE_ROOT } from '../suite/index.js';
import type { HostCommand } from './process.js';
import { PythonError } from './process.js';
import type { Message } from './protocol.js';

/** What the worker posts back: the reply, or the error. */
export type SyncReply = { message: Message } | { error: { kind: string; message: string; detail: Record<string, unknown> } };

const WORKER = join(PACKAGE_ROOT, 'dist', 'workers', 'python-sync.js');

/** A request to the worker: a message for the process, or `$hello` / `$close` for the worker itself. */
export interface SyncRequest {
  header: Record<string, unknown>;
  blobs: readonly Uint8Array[];
  timeoutMs: number;
}

export class SyncHost {
  private readonly thread: SyncWorker<SyncRequest, SyncReply>;
  /** Set once a request went unanswered: the thread was stopped. */
  private dead: string | null = null;

  constructor(command: HostCommand) {
    this.thread = new SyncWorker(WORKER, { command });
  }

  /** The host's hello (the game's metadata), or its load error. */
  hello(timeoutMs: number): Message {
    return this.call({ op: '$hello' }, [], timeoutMs);
  }

  /** One request, answered before it returns; throws PythonError. */
  call(header: Record<string, unknown>, blobs: readonly Uint8Array[], timeoutMs: number): Message {
    // The worker enforces timeoutMs (and kills the process); this wait only guards against a dead worker.
    if (this.dead) throw new PythonError('timeout', this.dead);
    const reply = this.thread.request({ header, blobs, timeoutMs }, timeoutMs > 0 ? timeoutMs + 10_000 : undefined);
    if (!reply) {
      // its answer may still come: stop the thread so that no later request reads it as its own
      this.dead = `the Python process did not answer '${String(header.op)}' in time`;
      this.thread.terminate();
      throw new PythonError('timeout', this.dead);
    }
    if ('error' in reply) throw new PythonError(reply.error.kind, reply.error.message, reply.error.detail);
    return reply.message;
  }

  /** Ends the process; the thread closes the channel once the process has exited (it reaps it). */
  close(): void {
    this.thread.post({ header: { op: '$close' }, blobs: [], timeoutMs: 0 });
  }
}
