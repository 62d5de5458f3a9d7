import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolders } from '../../test/support/temp.js';
import { SyncWorker } from './sync-worker.js';

const temp = tempFolders('arcgraph-sync-');

/**
 * A thread that answers `{ n }` with `{ n }`: the first at once and then, 20 ms later, a wake-up
 * with nothing new to read (as the previous answer's notify can land in the next request's wait);
 * the second only after 100 ms.
 */
const LATE_WAKE = `
import { workerData } from 'node:worker_threads';
const { flag, port } = workerData;
port.on('message', ({ n }) => {
  const answer = () => { port.postMessage({ n }); Atomics.add(flag, 0, 1); Atomics.notify(flag, 0); };
  if (n === 0) {
    answer();
    setTimeout(() => Atomics.notify(flag, 0), 20);
  } else setTimeout(answer, 100);
});
`;

describe('SyncWorker', () => {
  it('waits for the answer itself: a wake-up with nothing to read is not taken for a timeout', () => {
    const file = join(temp(), 'late-wake.mjs');
    writeFileSync(file, LATE_WAKE);
    const thread = new SyncWorker<{ n: number }, { n: number }>(file, {});
    try {
      expect(thread.request({ n: 0 }, 5_000)).toEqual({ n: 0 });
      const started = performance.now();
      expect(thread.request({ n: 1 }, 5_000)).toEqual({ n: 1 });
      expect(performance.now() - started).toBeGreaterThanOrEqual(90);
    } finally {
      thread.terminate();
    }
  });

  it('gives up at its time limit when no answer comes', () => {
    const file = join(temp(), 'silent.mjs');
    writeFileSync(file, `import { workerData } from 'node:worker_threads';\nworkerData.port.on('message', () => {});\n`);
    const thread = new SyncWorker<{ n: number }, { n: number }>(file, {});
    try {
      const started = performance.now();
      expect(thread.request({ n: 0 }, 200)).toBeUndefined();
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    } finally {
      thread.terminate();
    }
  });
});
