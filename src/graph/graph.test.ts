import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import maze from '../../test/fixtures/maze.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import { bfsPath, bfsTree, depthOf, treePath } from './graph.js';

describe('BFS tree of a breadth-first numbered graph', () => {
  it.each([
    ['lights', lights, 2],
    ['maze', maze, 2],
  ] as const)('%s: depths, paths and the tree agree, with layers or by search', async (_name, game, level) => {
    const g = bruteForceGraph(game, level);
    const tree = bfsTree(g);
    // Without layers: the breadth-first search gives the same tree.
    const { layerStart, ...plain } = g;
    expect(layerStart).toBeDefined();
    const searched = bfsTree(plain);
    expect(searched).toEqual(tree);
    for (let u = 0; u < g.nodeCount; u++) {
      const path = bfsPath(g, u);
      expect(depthOf(g, u)).toBe(path.length);
      expect(tree.depth[u]).toBe(path.length);
      expect([...treePath(tree, u)]).toEqual([...path]);
      // The parent is the first node of the layer before with an edge into u.
      if (u === 0) expect(tree.parent[u]).toBe(-1);
      else {
        const before = Array.from({ length: g.nodeCount }, (_, w) => w).filter((w) => tree.depth[w] === tree.depth[u] - 1);
        const first = before.find((w) => g.edgeTarget.subarray(g.edgeStart[w], g.edgeStart[w + 1]).includes(u));
        expect(tree.parent[u]).toBe(first);
      }
    }
  });
});
