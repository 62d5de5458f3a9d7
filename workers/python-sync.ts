/** Worker thread of a synchronous Python host (src/python/sync.ts): owns the process, answers one request at a time. */
import { workerData, type MessagePort } from 'node:worker_threads';
import { PythonError, PythonProcess, type HostCommand } from '../src/python/process.js';
import type { SyncReply } from '../src/python/sync.js';

const { command, flag, port } = workerData as { command: HostCommand; flag: Int32Array; port: MessagePort };
let proc: PythonProcess | undefined;

/** The running process, started again after a death or a timeout. */
function host(): PythonProcess {
  if (!proc || !proc.alive) proc = new PythonProcess(command);
  return proc;
}

function answer(reply: SyncReply): void {
  port.postMessage(reply);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

port.on('message', async (req: { header: Record<string, unknown>; blobs: Uint8Array[]; timeoutMs: number }) => {
  if (req.header.op === '$close') {
    proc?.close();
    port.close();
    return;
  }
  try {
    const p = host();
    const message = req.header.op === '$hello' ? await p.hello : await p.request(req.header, req.blobs, req.timeoutMs);
    answer({ message });
  } catch (err) {
    const e = err instanceof PythonError ? err : new PythonError('host', (err as Error).message);
    answer({ error: { kind: e.kind, message: e.message, detail: e.detail } });
  }
});
