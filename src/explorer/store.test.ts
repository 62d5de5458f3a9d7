import { describe, expect, it } from 'vitest';
import { Rng } from '../player/rng.js';
import { Store } from './store.js';

describe('Store', () => {
  it('finds every fingerprint it holds and no other, through growth and near-collisions', () => {
    const store = new Store();
    const truth = new Map<string, number>();
    const rng = new Rng(42);
    // Few distinct halves, so many fingerprints share a low half (one slot chain) or a high half.
    const pick = (): [number, number] => [rng.below(4096) * 0x100001, rng.below(64) * 0x9e3779b1 >>> 0];
    for (let i = 0; i < 60_000; i++) {
      const [lo, hi] = pick();
      const key = `${lo}:${hi}`;
      const found = store.find(lo, hi);
      expect(found).toBe(truth.get(key) ?? -1);
      if (found < 0) truth.set(key, store.add(lo, hi, i % 7, -1, 0, 0));
    }
    expect(store.nodeCount).toBe(truth.size);
    for (const [key, id] of truth) {
      const [lo, hi] = key.split(':').map(Number);
      expect(store.find(lo, hi)).toBe(id);
      expect([store.fpLo[id], store.fpHi[id]]).toEqual([lo, hi]);
    }
    expect(store.find(12345, 678)).toBe(-1);
  });

  it('lays out edges in CSR form, empty ranges for nodes never expanded', () => {
    const store = new Store();
    for (let i = 0; i < 20_000; i++) store.add(i, i * 3, 0, i - 1, 1, 0);
    // Expanded in batches of 50 nodes (every other node), as the explorer merges them.
    for (let b = 0; b < 20_000; b += 100) {
      const ids: number[] = [];
      const ends: number[] = [];
      const target: number[] = [];
      const keys: number[] = [];
      const action: number[] = [];
      for (let u = b; u < b + 100; u += 2) {
        ids.push(u);
        for (let k = 0; k < (u % 5) + 1; k++) {
          target.push((u + k) % 20_000);
          keys.push(1 << (k + 1));
          action.push(k + 1);
        }
        ends.push(target.length);
      }
      // Arrays longer than the batch's records, as workers send them: only the records count.
      store.addExpanded(Int32Array.from(ids), Uint32Array.from(ends), Int32Array.from([...target, 7]), Uint8Array.from([...keys, 1]), new Uint16Array(target.length + 1), Uint16Array.from([...action, 1]));
    }
    const g = store.graph([1, 2, 3, 4, 5]);
    for (let u = 0; u < 20_000; u++) {
      const count = g.edgeStart[u + 1] - g.edgeStart[u];
      expect(count).toBe(u % 2 === 0 ? (u % 5) + 1 : 0);
      for (let k = 0; k < count; k++) {
        const e = g.edgeStart[u] + k;
        expect([g.edgeTarget[e], g.edgeKeys[e], g.edgeAction[e]]).toEqual([(u + k) % 20_000, 1 << (k + 1), k + 1]);
      }
    }
  });
});
