import { describe, expect, it } from 'vitest';
import { collectGarbage, collectInThreads } from './collect.js';
import { sharedPool } from './pool.js';

describe('collections', () => {
  it('free a buffer nothing refers to any more, at once', async () => {
    let held: SharedArrayBuffer | undefined = new SharedArrayBuffer(2 ** 20);
    const dropped = new WeakRef(held);
    const kept = new SharedArrayBuffer(16);
    const stillKept = new WeakRef(kept);
    held = undefined;
    // A WeakRef's target lives to the end of the job that made (or last dereferenced) it.
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    expect(dropped.deref()).toBeUndefined();
    expect(stillKept.deref()).toBe(kept);
  });

  it('reach every thread of a pool once, busy or idle, and say which', async () => {
    const pool = sharedPool('expand', 3, 256);
    for (let round = 0; round < 3; round++) {
      const threads = await collectInThreads(pool, 3);
      expect(threads.filter((t) => t > 0)).toHaveLength(3);
      expect(new Set(threads).size).toBe(3);
    }
  });
});
