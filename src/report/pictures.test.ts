import { describe, expect, it } from 'vitest';
import { analyze } from '../analysis/analyze.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import maze from '../../test/fixtures/maze.js';
import ruin from '../../test/fixtures/ruin.js';
import { layoutGraph } from './graph-picture.js';

describe('layoutGraph', () => {
  it('marks the start, the win, the game over, and the cycle edges of a corridor', () => {
    // ruin level 2: cells 0..5 from 2; 1..4 are playing states joined both ways (one cycle)
    const g = bruteForceGraph(ruin, 2);
    const p = layoutGraph(g);
    expect(p.nodes.map((n) => n.kind).sort()).toEqual(['lost', 'start', 'state', 'state', 'state', 'won']);
    expect(p.nodes[0].kind).toBe('start');
    expect(p.edges.filter((e) => e.cycle)).toHaveLength(6);
    const oneWay = p.edges.filter((e) => !e.cycle).map((e) => `${p.nodes[e.from].kind}->${p.nodes[e.to].kind}`);
    expect(oneWay.sort()).toEqual(['state->lost', 'state->won']);
    expect(p.selfLoops).toBe(0);
  });

  it('marks as dead ends exactly the states the analysis counts, on complete and partial graphs', () => {
    for (const limit of [Infinity, 6, 9]) {
      const g = bruteForceGraph(maze, 1, limit);
      const dead = layoutGraph(g).nodes.filter((n) => n.kind === 'dead').length;
      expect(dead, `expanded ${limit}`).toBe(analyze(g).deadEnds.count);
    }
    expect(analyze(bruteForceGraph(maze, 1)).deadEnds.count).toBeGreaterThan(0);
  });

  it('is deterministic for a seed, within the unit square, and counts self-loops', () => {
    const g = bruteForceGraph(maze, 2);
    const a = layoutGraph(g, 3);
    expect(layoutGraph(g, 3)).toEqual(a);
    expect(layoutGraph(g, 4).nodes).not.toEqual(a.nodes);
    for (const { x, y } of a.nodes) for (const c of [x, y]) expect(c >= 0 && c <= 1).toBe(true);
    let loops = 0;
    for (let u = 0; u < g.nodeCount; u++) for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) if (g.edgeTarget[e] === u) loops++;
    expect(a.selfLoops).toBe(loops);
    expect(a.edges.length + a.selfLoops).toBe(g.edgeCount);
  });
});
