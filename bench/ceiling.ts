/**
 * The machine's own parallel ceiling for the explorer's work: the raw step loop (bench/explorer.ts)
 * run by k threads at once, each over the same states, with no coordinator, messages or merging.
 * Its k-thread / 1-thread ratio is the most k explorer workers could gain on this machine.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { initIdentity } from '../src/engine/index.js';
import { sizeWorkerYoungGenerations } from '../src/parallel/index.js';
import { loadGameModule } from '../src/suite/index.js';
import { rawSteps, type PackedStates } from './raw.js';

/** Marks this module's own threads (importing it elsewhere in a worker must not start one). */
const ROLE = 'arcgraph-ceiling';

/** Transitions per second of `threads` threads each running the raw loop once over `states`, started together. */
export async function rawLoopThreads(module: string, states: PackedStates, threads: number): Promise<number> {
  // The explorer's workers' young generations, so that the ceiling is one for the same threads.
  sizeWorkerYoungGenerations();
  // One copy of the states, shared by every thread.
  const bytes = new SharedArrayBuffer(states.bytes.byteLength);
  new Uint8Array(bytes).set(states.bytes);
  const ends = new SharedArrayBuffer(states.ends.byteLength);
  new Uint32Array(ends).set(states.ends);
  const workers = Array.from({ length: threads }, () => new Worker(new URL(import.meta.url), { workerData: { role: ROLE, module, bytes, ends } }));
  const reply = (w: Worker): Promise<number> => new Promise((resolve, reject) => w.once('message', resolve).once('error', reject));
  try {
    await Promise.all(workers.map(reply)); // loaded and warmed up
    const started = performance.now();
    const steps = await Promise.all(
      workers.map((w) => {
        const done = reply(w);
        w.postMessage('go');
        return done;
      }),
    );
    return steps.reduce((a, b) => a + b, 0) / ((performance.now() - started) / 1000);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

if (!isMainThread && parentPort && (workerData as { role?: string } | null)?.role === ROLE) {
  const port = parentPort;
  const data = workerData as { module: string; bytes: SharedArrayBuffer; ends: SharedArrayBuffer };
  await initIdentity();
  const game = await loadGameModule(data.module);
  const states: PackedStates = { bytes: new Uint8Array(data.bytes), ends: new Uint32Array(data.ends) };
  rawSteps(game, { bytes: states.bytes, ends: states.ends.subarray(0, Math.min(2000, states.ends.length)) });
  port.postMessage(0);
  port.once('message', () => port.postMessage(rawSteps(game, states)));
}
