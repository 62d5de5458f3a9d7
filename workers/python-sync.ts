/** Worker thread of a synchronous Python host (src/python/sync.ts): owns the process, answers one request at a time. */
import { workerData } from 'node:worker_threads';
import { answerSync, type SyncChannel } from '../src/parallel/sync-worker.js';
import { PythonError, PythonProcess, type HostCommand } from '../src/python/process.js';
import type { SyncReply, SyncRequest } from '../src/python/sync.js';

const channel = workerData as SyncChannel & { command: HostCommand };
const { command, port } = channel;
let proc: PythonProcess | undefined;
/** The sessions opened in the running process (a session lives in its process alone). */
let sessions = new Set<number>();
/** The error of the last request that failed: why a process went, when a later request finds it gone. */
let lastError: PythonError | undefined;

/** The running process, started again after a death or a timeout (its sessions are gone with it). */
function host(): PythonProcess {
  if (!proc || !proc.alive) {
    proc = new PythonProcess(command);
    sessions = new Set();
  }
  return proc;
}

/**
 * A request for a session the running process never opened: its process ended (a hang killed, the
 * game ended it, a Ctrl-C) and a fresh one holds no such session. Answered as that end, not sent on
 * (the fresh host's KeyError read as the game's exception).
 */
function lostSession(header: Record<string, unknown>): PythonError | undefined {
  if (header.op !== 'session' || header.what === 'open' || header.what === 'close' || sessions.has(Number(header.sid))) return undefined;
  const why = lastError ? `: ${lastError.message}` : '';
  return new PythonError(lastError?.kind === 'interrupted' ? 'interrupted' : 'died', `the Python process that held this session ended before this request${why}`);
}

const answer = (reply: SyncReply): void => answerSync(channel, reply);

port.on('message', async (req: SyncRequest) => {
  if (req.header.op === '$close') {
    const ending = proc?.ended;
    proc?.close();
    // This thread's loop reaps its process: a thread that ended first would leave it a zombie (one a game, in a night's sweep).
    await ending;
    port.close();
    return;
  }
  try {
    const p = host();
    const lost = lostSession(req.header);
    if (lost) throw lost;
    const message = req.header.op === '$hello' ? await p.hello : await p.request(req.header, req.blobs, req.timeoutMs);
    if (req.header.op === 'session' && req.header.what === 'open') sessions.add(Number(req.header.sid));
    answer({ message });
  } catch (err) {
    const e = err instanceof PythonError ? err : new PythonError('host', (err as Error).message);
    lastError = e;
    answer({ error: { kind: e.kind, message: e.message, detail: e.detail } });
  }
});
