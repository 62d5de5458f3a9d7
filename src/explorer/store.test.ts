import { describe, expect, it } from 'vitest';
import { GameAction } from '../engine/actions.js';
import { depthOf, edgeAction, NodeFlag } from '../graph/graph.js';
import { MAX_NODES } from './shared-table.js';
import { MAX_EDGES, Store } from './store.js';

describe('Store', () => {
  it('numbers nodes layer by layer and gives each its depth', () => {
    const store = new Store({ nodes: 100, edges: 100, clicks: false });
    const depths = [0, 1, 1, 1, 2, 2, 3, 4, 4, 4, 4];
    for (const d of depths) store.addNode(0, d);
    expect(store.layers).toBe(5);
    depths.forEach((d, u) => expect(store.depthOf(u)).toBe(d));
    expect([0, 1, 2, 3, 4, 5].map((d) => store.layerFirst(d))).toEqual([0, 1, 4, 6, 7, 11]);
    const g = store.graph([GameAction.ACTION1]);
    expect([...g.layerStart!]).toEqual([0, 1, 4, 6, 7, 11]);
    depths.forEach((d, u) => expect(depthOf(g, u)).toBe(d));
    // Breadth-first order: a node is in the last layer or opens the next one.
    expect(() => store.addNode(0, 3)).toThrow(/breadth-first/);
    expect(() => store.addNode(0, 6)).toThrow(/breadth-first/);
  });

  it('lays out edges in CSR form, empty ranges for nodes never expanded, keyboard actions from their bits', () => {
    const store = new Store({ nodes: 20_000, edges: 100_000, clicks: false });
    for (let i = 0; i < 20_000; i++) store.addNode(0, i === 0 ? 0 : 1);
    // Expanded in batches of 50 nodes (every other node), as the explorer merges them.
    for (let b = 0; b < 20_000; b += 100) {
      const ids: number[] = [];
      const ends: number[] = [];
      const target: number[] = [];
      const keys: number[] = [];
      for (let u = b; u < b + 100; u += 2) {
        ids.push(u);
        for (let k = 0; k < (u % 5) + 1; k++) {
          target.push((u + k) % 20_000);
          keys.push((1 << (k + 1)) | (1 << 7));
        }
        ends.push(target.length);
      }
      // Arrays longer than the batch's records, as workers send them: only the records count.
      store.addExpanded(Int32Array.from(ids), Uint32Array.from(ends), Int32Array.from([...target, 7]), Uint8Array.from([...keys, 1]), new Uint16Array(target.length + 1), new Uint16Array(target.length + 1));
    }
    const g = store.graph([GameAction.ACTION7, GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4, GameAction.ACTION5]);
    expect(g.edgeCells).toBeUndefined();
    expect(g.edgeAction).toBeUndefined();
    expect(g.edgeStart).toBeInstanceOf(Uint32Array);
    for (let u = 0; u < 20_000; u++) {
      const count = g.edgeStart[u + 1] - g.edgeStart[u];
      expect(count).toBe(u % 2 === 0 ? (u % 5) + 1 : 0);
      expect(!!(g.flags[u] & NodeFlag.EXPANDED)).toBe(u % 2 === 0);
      for (let k = 0; k < count; k++) {
        const e = g.edgeStart[u] + k;
        expect([g.edgeTarget[e], g.edgeKeys[e]]).toEqual([(u + k) % 20_000, (1 << (k + 1)) | (1 << 7)]);
        // The first action in the game's order: ACTION7 comes first there.
        expect(edgeAction(g, e)).toBe(GameAction.ACTION7);
      }
    }
    expect(store.bytes).toBe(5 * 20_000 + 5 * g.edgeCount + 64 * 4);
  });

  it('keeps click cells and first actions for click games', () => {
    const store = new Store({ nodes: 10, edges: 10, clicks: true });
    store.addNode(0, 0);
    store.addNode(0, 1);
    store.addExpanded(Int32Array.of(0), Uint32Array.of(2), Int32Array.of(1, 0), Uint8Array.of(0, 1 << 5), Uint16Array.of(4000, 96), Uint16Array.of(8 + 130, 5));
    const g = store.graph([GameAction.ACTION5, GameAction.ACTION6]);
    expect([...g.edgeCells!]).toEqual([4000, 96]);
    expect([edgeAction(g, 0), edgeAction(g, 1)]).toEqual([138, 5]);
  });

  it('doubles its columns as they fill, keeping what they hold, up to what a graph can hold', () => {
    const store = new Store({ nodes: 16, edges: 16, clicks: true });
    store.addNode(0, 0);
    expect(() => store.addExpanded(Int32Array.of(0), Uint32Array.of(20), new Int32Array(20), new Uint8Array(20), new Uint16Array(20), new Uint16Array(20))).toThrow(/full/);
    for (let round = 1; round <= 12; round++) {
      const ids = Int32Array.from({ length: 100 }, (_, i) => store.nodeCount - 1 + i);
      expect(store.ensure(store.nodeCount + 100, store.edgeCount + 300)).toBe(true);
      for (let i = 0; i < 100; i++) store.addNode(0, round);
      const ends = Uint32Array.from({ length: 99 }, (_, i) => 3 * (i + 1));
      const target = Int32Array.from({ length: 297 }, (_, e) => e % store.nodeCount);
      store.addExpanded(ids.subarray(0, 99), ends, target, new Uint8Array(297).fill(round), new Uint16Array(297).fill(round), new Uint16Array(297).fill(8 + round));
    }
    expect(store.flags.length).toBeGreaterThanOrEqual(store.nodeCount);
    expect(store.flags.length).toBeLessThan(4 * store.nodeCount);
    const g = store.graph([GameAction.ACTION6]);
    for (let e = 0; e < g.edgeCount; e++) {
      const round = Math.floor(e / 297) + 1;
      expect([g.edgeKeys[e], g.edgeCells![e], g.edgeAction![e], g.edgeTarget[e]]).toEqual([round, round, 8 + round, (e % 297) % (1 + 100 * round)]);
    }
    expect(store.ensure(MAX_NODES + 1, 0)).toBe(false);
    expect(store.ensure(0, MAX_EDGES + 1)).toBe(false);
  });
});
