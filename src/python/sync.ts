/**
 * Synchronous requests to a Python host, for the sequential algorithms that use the Game contract
 * (replay, shrinking, the interactive player): a worker thread owns the process, and the caller
 * blocks in Atomics.wait until the answer is posted (the synckit pattern; synckit itself does not
 * stop a child process whose request timed out, which a game that hangs needs).
 */
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../suite/index.js';
import type { HostCommand } from './process.js';
import { PythonError } from './process.js';
import type { Message } from './protocol.js';

/** What the worker posts back: the reply, or the error. */
export type SyncReply = { message: Message } | { error: { kind: string; message: string; detail: Record<string, unknown> } };

const WORKER = join(PACKAGE_ROOT, 'dist', 'workers', 'python-sync.js');

export class SyncHost {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  constructor(command: HostCommand) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER, { workerData: { command, flag: this.flag, port: port2 }, transferList: [port2] });
    this.worker.unref();
  }

  /** The host's hello (the game's metadata), or its load error. */
  hello(timeoutMs: number): Message {
    return this.call({ op: '$hello' }, [], timeoutMs);
  }

  /** One request, answered before it returns; throws PythonError. */
  call(header: Record<string, unknown>, blobs: readonly Uint8Array[], timeoutMs: number): Message {
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage({ header, blobs, timeoutMs });
    // The worker enforces timeoutMs (and kills the process); this wait only guards against a dead worker.
    const waited = Atomics.wait(this.flag, 0, 0, timeoutMs > 0 ? timeoutMs + 10_000 : undefined);
    const got = receiveMessageOnPort(this.port);
    if (waited === 'timed-out' || !got) throw new PythonError('timeout', `the Python process did not answer '${String(header.op)}' in time`);
    const reply = got.message as SyncReply;
    if ('error' in reply) throw new PythonError(reply.error.kind, reply.error.message, reply.error.detail);
    return reply.message;
  }

  close(): void {
    this.port.postMessage({ header: { op: '$close' }, blobs: [], timeoutMs: 0 });
    this.port.close();
  }
}
