import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { WORKER_SEMI_SPACE_MB, workerPool } from './pool.js';

/** The size (MB) of a new thread's young generation right after it starts. */
function newSpaceOfAThread(): Promise<number> {
  const worker = new Worker(
    `const { getHeapSpaceStatistics } = require('node:v8');
     require('node:worker_threads').parentPort.postMessage(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);`,
    { eval: true },
  );
  return new Promise<number>((resolve, reject) => worker.once('message', resolve).once('error', reject)).finally(() => worker.terminate()).then((bytes) => bytes / 2 ** 20);
}

describe('worker pools', () => {
  it('start threads with young generations of WORKER_SEMI_SPACE_MB (V8 starts one at 1 or 2 MB)', async () => {
    const pool = workerPool('walk', 1, 256);
    try {
      expect(await newSpaceOfAThread()).toBeGreaterThanOrEqual(WORKER_SEMI_SPACE_MB);
    } finally {
      await pool.destroy();
    }
  });
});
