import { describe, expect, it } from 'vitest';
import { Rng } from '../random/rng.js';
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
    for (let u = 0; u < 20_000; u += 2) {
      store.beginEdges(u);
      for (let k = 0; k < (u % 5) + 1; k++) store.addEdge((u + k) % 20_000, 1 << (k + 1), 0, k + 1);
    }
    const g = store.graph([1, 2, 3, 4, 5]);
    for (let u = 0; u < 20_000; u++) {
      const count = g.edgeStart[u + 1] - g.edgeStart[u];
      expect(count).toBe(u % 2 === 0 ? (u % 5) + 1 : 0);
      if (count) expect(g.edgeTarget[g.edgeStart[u]]).toBe(u);
    }
  });
});
