import { describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import { analyze } from '../analysis/analyze.js';
import { bfsPath, NodeFlag } from '../graph/index.js';
import { codeName, CELLS } from '../engine/index.js';
import { PALETTE } from '../toolkit/index.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import maze from '../../test/fixtures/maze.js';
import ruin from '../../test/fixtures/ruin.js';
import { graphView, PATH_SHOWN, VIEW_KINDS, type CondensedView, type StatesView } from './graph-view.js';
import { corridor, walkGraph } from '../../test/fixtures/walks.js';
import { framePng } from './png.js';

describe('graphView: every state', () => {
  it('gives each state its kind, depth and the BFS path the tooltip shows, and every move once', () => {
    for (const [game, level, limit] of [[maze, 2, Infinity], [maze, 2, 12], [ruin, 6, Infinity]] as const) {
      const g = bruteForceGraph(game, level, limit);
      const v = graphView(g) as StatesView;
      expect(v.view).toBe('states');
      expect(v.x).toHaveLength(g.nodeCount);
      // the path the page rebuilds from parent and action is the graph's BFS path
      for (let u = 0; u < g.nodeCount; u++) {
        const path: string[] = [];
        for (let w = u; v.parent[w] >= 0; w = v.parent[w]) path.push(v.actions[v.action[w]]);
        expect(path.reverse()).toEqual(Array.from(bfsPath(g, u), codeName));
        expect(v.depth[u]).toBe(path.length);
      }
      const kinds = v.kind.map((k) => VIEW_KINDS[k]);
      expect(kinds[0]).toBe('start');
      expect(kinds.filter((k) => k === 'dead').length).toBe(analyze(g).deadEnds.count);
      expect(kinds.filter((k) => k === 'won').length).toBe(g.flags.filter((f) => f & NodeFlag.WON).length);
      expect(kinds.includes('frontier')).toBe(limit !== Infinity);
      const pairs = new Set<string>();
      for (let u = 0; u < g.nodeCount; u++) for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) if (g.edgeTarget[e] !== u) pairs.add(`${u}>${g.edgeTarget[e]}`);
      const drawn = Array.from({ length: v.edges.length / 2 }, (_, i) => `${v.edges[2 * i]}>${v.edges[2 * i + 1]}`);
      expect(drawn.sort()).toEqual([...pairs].sort());
    }
  });

  it('lays bigger levels out in depth layers: x by depth, each layer spread over the height, deterministically', () => {
    const g = bruteForceGraph(maze, 2);
    const forced = graphView(g, 1, g.nodeCount) as StatesView;
    expect(forced.layout).toBe('forceatlas2');
    const v = graphView(g, 1, Infinity, 0) as StatesView;
    expect(v.layout).toBe('depth-layers');
    expect(graphView(g, 1, Infinity, 0)).toEqual(v);
    const maxDepth = Math.max(...v.depth);
    for (let u = 0; u < g.nodeCount; u++) expect(v.x[u]).toBeCloseTo(v.depth[u] / maxDepth, 4);
    for (let d = 1; d <= maxDepth; d++) {
      const layer = v.depth.flatMap((dd, u) => (dd === d ? [u] : []));
      const ys = layer.map((u) => v.y[u]).sort((a, b) => a - b);
      if (layer.length > 1) expect([ys[0], ys[ys.length - 1]]).toEqual([0, 1]);
      // children keep their parents' order: sorted by y, their parents' y never decreases
      const byY = [...layer].sort((a, b) => v.y[a] - v.y[b]).map((u) => v.y[v.parent[u]]);
      expect(byY).toEqual([...byY].sort((a, b) => a - b));
    }
    for (const c of [...v.x, ...v.y]) expect(c >= 0 && c <= 1).toBe(true);
  });
});

describe('graphView: condensed', () => {
  it('groups states by depth and kind, counts them all, and sums the moves between groups', () => {
    const g = bruteForceGraph(maze, 2);
    const v = graphView(g, 1, 10) as CondensedView;
    expect(v.view).toBe('condensed');
    expect(v.states).toBe(g.nodeCount);
    expect(v.groups.reduce((s, grp) => s + grp.count, 0)).toBe(g.nodeCount);
    const full = graphView(g) as StatesView;
    // brute force: group of each state from the full view
    const key = (u: number): string => `${full.depth[u]}/${full.kind[u]}`;
    const index = new Map(v.groups.map((grp, i) => [`${grp.depth}/${grp.kind}`, i]));
    const expected = new Map<string, number>();
    for (let u = 0; u < g.nodeCount; u++) {
      for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) {
        const [a, b] = [index.get(key(u))!, index.get(key(g.edgeTarget[e]))!];
        if (a !== b) expected.set(`${a}>${b}`, (expected.get(`${a}>${b}`) ?? 0) + 1);
      }
    }
    const got = new Map<string, number>();
    for (let i = 0; i < v.edges.length; i += 3) got.set(`${v.edges[i]}>${v.edges[i + 1]}`, v.edges[i + 2]);
    expect(got).toEqual(expected);
    for (const grp of v.groups) {
      const u = [...Array(g.nodeCount).keys()].find((w) => key(w) === `${grp.depth}/${grp.kind}`)!;
      expect(grp.example).toEqual(Array.from(bfsPath(g, u), codeName).slice(0, PATH_SHOWN));
    }
  });

  it('gives each group of a corridor 100,000 states deep the first actions of its path, not the whole path', () => {
    // 100,000 groups: their whole paths would be 5 billion actions. From cell 1, ACTION1 steps
    // right (to the win at the far end) and ACTION2 left (into the loss at cell 0).
    const g = walkGraph(corridor(100_001, 1));
    const v = graphView(g) as CondensedView;
    expect(v.view).toBe('condensed');
    expect(v.groups.reduce((s, grp) => s + grp.count, 0)).toBe(g.nodeCount);
    const right = (n: number): string[] => Array(Math.min(n, PATH_SHOWN)).fill('ACTION1');
    const kinds = new Set<string>();
    for (const grp of v.groups) {
      const kind = VIEW_KINDS[grp.kind];
      kinds.add(kind);
      expect(grp.example).toEqual(kind === 'lost' ? ['ACTION2'] : right(grp.depth));
      if (kind === 'won') expect(grp.depth).toBe(100_000);
    }
    expect([...kinds].sort()).toEqual(['lost', 'start', 'state', 'won']);
  });
});

describe('framePng', () => {
  it('writes every cell in its palette colour (decoded back with pngjs)', () => {
    const frame = new Uint8Array(CELLS).map((_, i) => (i * 7 + (i >> 6)) % 16);
    const png = PNG.sync.read(framePng(frame));
    expect([png.width, png.height]).toEqual([64, 64]);
    for (let i = 0; i < CELLS; i++) {
      const hex = `#${[0, 1, 2].map((c) => png.data[4 * i + c].toString(16).padStart(2, '0')).join('')}`.toUpperCase();
      expect(hex).toBe(PALETTE[frame[i]]);
    }
  });
});
