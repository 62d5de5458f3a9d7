import { describe, expect, it } from 'vitest';
import { GameAction } from '../engine/actions.js';
import { NodeFlag } from './graph.js';
import { stronglyConnected } from './scc.js';
import { graphOf, type NodeSpec } from '../../test/support/graphs.js';

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const KEY = 1 << GameAction.ACTION1;

describe('strongly connected components', () => {
  it('match mutual reachability on random graphs, successors listed first', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(seed);
      const n = 2 + Math.floor(rnd() * 30);
      const nodes: NodeSpec[] = Array.from({ length: n }, () => ({ flags: NodeFlag.EXPANDED, edges: [] }));
      for (const node of nodes) {
        const targets = new Set<number>();
        const degree = Math.floor(rnd() * 3);
        for (let d = 0; d < degree; d++) targets.add(Math.floor(rnd() * n));
        node.edges = [...targets].map((to) => ({ to, keys: KEY }));
      }
      const inside = Uint8Array.from({ length: n }, () => (rnd() < 0.85 ? 1 : 0));
      const graph = graphOf([GameAction.ACTION1], nodes);
      const { compOf, count, compStart, nodes: order } = stronglyConnected(graph, inside);

      // brute force: reach[u] = nodes reachable from u inside the subgraph
      const reach = nodes.map((_, u) => {
        const seen = new Set<number>([u]);
        const todo = [u];
        while (todo.length) for (const { to } of nodes[todo.pop()!].edges) if (inside[to] && !seen.has(to)) seen.add(to), todo.push(to);
        return seen;
      });
      for (let u = 0; u < n; u++) {
        if (!inside[u]) {
          expect(compOf[u]).toBe(-1);
          continue;
        }
        for (let v = 0; v < n; v++) {
          if (!inside[v]) continue;
          expect(compOf[u] === compOf[v]).toBe(reach[u].has(v) && reach[v].has(u));
          if (reach[u].has(v) && compOf[u] !== compOf[v]) expect(compOf[v]).toBeLessThan(compOf[u]);
        }
      }
      expect(compStart[count]).toBe(inside.reduce((a, b) => a + b, 0));
      for (let c = 0; c < count; c++) for (let i = compStart[c]; i < compStart[c + 1]; i++) expect(compOf[order[i]]).toBe(c);
    }
  });

  it('handles a 300,000-node cycle and a 300,000-node path without recursion', () => {
    const n = 300_000;
    const ring = graphOf([GameAction.ACTION1], Array.from({ length: n }, (_, u) => ({ flags: NodeFlag.EXPANDED, edges: [{ to: (u + 1) % n, keys: KEY }] })));
    expect(stronglyConnected(ring, new Uint8Array(n).fill(1)).count).toBe(1);
    const path = graphOf([GameAction.ACTION1], Array.from({ length: n }, (_, u) => ({ flags: NodeFlag.EXPANDED, edges: u + 1 < n ? [{ to: u + 1, keys: KEY }] : [] })));
    const comps = stronglyConnected(path, new Uint8Array(n).fill(1));
    expect(comps.count).toBe(n);
    expect(comps.nodes[0]).toBe(n - 1); // the sink first
  });
});
