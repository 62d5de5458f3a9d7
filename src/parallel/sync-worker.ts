/**
 * A worker thread called synchronously (the synckit pattern): the caller posts a request and blocks
 * in Atomics.wait until the thread answers on its port or the time runs out. Game code that can
 * hang runs behind it (a threaded JavaScript game, the process of a Python game), so a caller that
 * needs the synchronous Game contract (replay, play, shrinking) is never frozen by it.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/** What the thread receives as workerData besides its own data: the flag to wake the caller and its port. */
export interface SyncChannel {
  flag: Int32Array;
  port: MessagePort;
}

export class SyncWorker<Request, Reply> {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  /** Starts `file` as a worker thread with `data` and the channel; it does not keep the process alive. */
  constructor(file: string, data: Record<string, unknown>) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const channel: SyncChannel = { flag: this.flag, port: port2 };
    this.worker = new Worker(file, { workerData: { ...data, ...channel }, transferList: [port2] });
    this.worker.unref();
  }

  /**
   * The thread's answer to `request`, or undefined when none came within `timeoutMs` (no limit when
   * absent). The flag counts answers; the caller waits until the answer itself can be read, not
   * until the flag moves: the previous answer's notify can land after that answer was read, in
   * this request's wait (about one request in 300,000 woke with nothing to read and was taken for
   * a hang).
   */
  request(request: Request, timeoutMs?: number): Reply | undefined {
    this.port.postMessage(request);
    const deadline = timeoutMs === undefined ? Infinity : performance.now() + timeoutMs;
    for (;;) {
      const seen = Atomics.load(this.flag, 0);
      const reply = receiveMessageOnPort(this.port);
      if (reply) return reply.message as Reply;
      const left = deadline - performance.now();
      if (left <= 0) return undefined;
      Atomics.wait(this.flag, 0, seen, left === Infinity ? undefined : left);
    }
  }

  /** Posts without waiting for an answer (a last message before closing). */
  post(message: Request): void {
    this.port.postMessage(message);
  }

  /** Closes the channel (the thread ends once it has nothing left to do). */
  close(): void {
    this.port.close();
  }

  /** Stops the thread now, whatever it runs. */
  terminate(): void {
    void this.worker.terminate();
  }
}

/** The thread's side: posts the answer, then counts it and wakes the caller blocked in `request`. */
export function answerSync({ flag, port }: SyncChannel, reply: unknown): void {
  port.postMessage(reply);
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
}
