import { describe, expect, it } from 'vitest';
import { Rng } from '../player/rng.js';
import { FrontierQueue } from './frontier.js';

describe('FrontierQueue', () => {
  it('hands out states in push order with their bytes, across source arrays and interleaved takes', () => {
    const rng = new Rng(3);
    const queue = new FrontierQueue();
    const expected: { id: number; bytes: number[]; source: Uint8Array }[] = [];
    let next = 0;
    let taken = 0;
    for (let round = 0; round < 300; round++) {
      // One expansion result: a byte array holding several states, some of them queued.
      const source = Uint8Array.from({ length: 400 }, () => rng.below(256));
      for (let start = 0; start < 380; start += 1 + rng.below(40)) {
        const end = Math.min(source.length, start + rng.below(20));
        if (rng.below(3) === 0) continue;
        queue.push(next, source, start, end);
        expected.push({ id: next++, bytes: Array.from(source.subarray(start, end)), source });
      }
      const batch = queue.take(1 + rng.below(30));
      for (let i = 0; i < batch.ids.length; i++) {
        const want = expected[taken++];
        expect(batch.ids[i]).toBe(want.id);
        expect(Array.from(batch.states.subarray(i > 0 ? batch.ends[i - 1] : 0, batch.ends[i]))).toEqual(want.bytes);
      }
      // It holds the source arrays of the states still queued, and nothing else but its index (16 bytes a slot).
      const held = new Set(expected.slice(taken).map((e) => e.source));
      const index = queue.bytes - [...held].reduce((sum, a) => sum + a.byteLength, 0);
      expect(index % 16).toBe(0);
      expect(Math.log2(index / 16) % 1).toBe(0);
      expect(index / 16).toBeGreaterThanOrEqual(queue.size);
    }
    expect(queue.size).toBe(expected.length - taken);
  });
});
