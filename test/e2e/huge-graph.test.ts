/**
 * Past V8's limit on plain arrays (a JavaScript array of about 1.2e8 elements aborts the process
 * with "invalid size error", no exception to catch): a 150,000,000-state corridor built in the
 * explorer's store, measured and analysed. Its components (150,000,000 of them), its depths and
 * its shortest win are each as many as its states; every stage holds them in typed arrays.
 * About a minute and 5.5 GB.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/analysis/index.js';
import { GameAction } from '../../src/engine/actions.js';
import { Store } from '../../src/explorer/store.js';
import { measureGraph, NodeFlag } from '../../src/graph/index.js';

const STATES = 150_000_000;

/** The process's peak resident memory so far, in bytes. */
const peak = (): number => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

describe('a graph of 150,000,000 states', () => {
  it('is stored, measured and analysed in typed arrays, in a few GB', () => {
    const before = process.memoryUsage.rss();
    const store = new Store({ nodes: STATES, edges: STATES, clicks: false });
    // State i moves to i + 1 by ACTION1; the last one wins. Expanded in batches, as the explorer merges them.
    const BATCH = 1 << 20;
    const target = new Int32Array(BATCH);
    const keys = new Uint8Array(BATCH).fill(1 << GameAction.ACTION1);
    const ends = Uint32Array.from({ length: BATCH }, (_, i) => i + 1);
    const ids = new Int32Array(BATCH);
    store.addNode(NodeFlag.EXPANDED, 0);
    for (let first = 0; first < STATES - 1; first += BATCH) {
      const count = Math.min(BATCH, STATES - 1 - first);
      for (let i = 0; i < count; i++) {
        const u = first + i;
        store.addNode(u + 1 === STATES - 1 ? NodeFlag.WON : 0, u + 1);
        ids[i] = u;
        target[i] = u + 1;
      }
      store.addExpanded(ids.subarray(0, count), ends, target, keys, new Uint16Array(0), new Uint16Array(0));
    }
    const graph = store.graph([GameAction.ACTION1]);
    expect(graph.nodeCount).toBe(STATES);
    expect(graph.edgeCount).toBe(STATES - 1);

    const measures = measureGraph(graph);
    expect(measures).toMatchObject({ nodes: STATES, maxDepth: STATES - 1, frontier: 0, terminals: { won: 1, lost: 0 }, cycles: { nonTrivial: 0, largest: 0, selfLoops: 0 } });
    expect(measures.depthHistogram.length).toBe(100_000);
    expect(measures.depthHistogram.every((count) => count === 1)).toBe(true);

    const analysis = analyze(graph);
    expect(analysis.winReachable).toBe(true);
    expect(analysis.shortestWin!.length).toBe(STATES - 1);
    expect(analysis.shortestWin!.actions).toHaveLength(100_000);
    expect(analysis.shortestWin!.actions.every((a) => a === 'ACTION1')).toBe(true);
    expect(analysis.pWin).toMatchObject({ method: 'exact', exact: { p: '1', q: '1' } });
    expect(analysis.deadEnds.count).toBe(0);

    // Graph 14 bytes a state, the analysis' peak about 22 more.
    expect(peak() - before).toBeLessThan(40 * STATES);
  }, 900_000);
});
