import { describe, expect, it } from 'vitest';
import { analyze } from '../analysis/analyze.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import { CELLS, GRID } from '../engine/actions.js';
import { Rng } from '../player/rng.js';
import { PALETTE } from '../toolkit/palette.js';
import maze from '../../test/fixtures/maze.js';
import ruin from '../../test/fixtures/ruin.js';
import { layoutGraph } from './graph-picture.js';
import { frameSvg, graphSvg, histogramSvg } from './svg.js';

describe('frameSvg', () => {
  it('draws every cell in its palette colour (the runs decode back to the frame)', () => {
    const rng = new Rng(7);
    // runs of random length and colour, so both long runs and single cells occur
    const frame = new Uint8Array(CELLS);
    for (let i = 0; i < CELLS; ) {
      const len = 1 + rng.below(9);
      frame.fill(rng.below(16), i, Math.min(CELLS, i + len));
      i += len;
    }
    const svg = frameSvg(frame, 'f <1>');
    expect(svg).toContain('<title>f &lt;1&gt;</title>');
    const decoded = new Uint8Array(CELLS).fill(255);
    for (const m of svg.matchAll(/<rect x="(\d+)" y="(\d+)" width="(\d+)" height="1" fill="(#[0-9A-F]{6})"\/>/g)) {
      const [x, y, w] = [1, 2, 3].map((k) => Number(m[k]));
      decoded.fill(PALETTE.indexOf(m[4] as (typeof PALETTE)[number]), y * GRID + x, y * GRID + x + w);
    }
    expect(decoded).toEqual(frame);
  });
});

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
    const svg = graphSvg(a, 'maze');
    expect(svg.match(/<circle /g)).toHaveLength(g.nodeCount);
  });
});

describe('histogramSvg', () => {
  it('draws one bar per depth, as tall as its share of the largest', () => {
    const histogram = [1, 4, 8, 0, 2];
    const svg = histogramSvg(histogram, 'h', 420, 180);
    const heights = [...svg.matchAll(/<rect [^>]*height="([\d.]+)"><title>depth (\d+): (\d+) states<\/title>/g)].map((m) => [Number(m[2]), Number(m[3]), Number(m[1])]);
    expect(heights.map(([d, c]) => [d, c])).toEqual(histogram.map((c, d) => [d, c]));
    const full = heights[2][2];
    for (const [, count, h] of heights) expect(h).toBeCloseTo((full * count) / 8, 1);
  });
});
