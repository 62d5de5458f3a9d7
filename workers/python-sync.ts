/** Worker thread of a synchronous Python host (src/python/sync.ts): owns the process, answers one request at a time. */
import { workerData } from 'node:worker_threads';
import { answerSync, type SyncChannel } from '../src/parallel/sync-worker.js';
import { PythonError, PythonProcess, type HostCommand } from '../src/python/process.js';
import type { SyncReply, SyncRequest } from '../src/python/sync.js';

const channel = workerData as SyncChannel & { command: HostCommand };
const { command, port } = channel;
let proc: PythonProcess | undefined;

/** The running process, started again after a death or a timeout. */
function host(): PythonProcess {
  if (!proc || !proc.alive) proc = new PythonProcess(command);
  return proc;
}

const answer = (reply: SyncReply): void => answerSync(channel, reply);

port.on('message', async (req: SyncRequest) => {
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
