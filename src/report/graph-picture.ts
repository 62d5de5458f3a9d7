/**
 * The state graph of a small level laid out for a picture, in the manner of the ARC-AGI-3 paper's
 * figure: every state a dot, the start, wins, game overs and dead ends marked, edges inside
 * cycles (strongly connected components) told apart. Laid out by Graphology's ForceAtlas2 from
 * seeded random positions, so the same graph always gives the same picture.
 */
import * as forceAtlas2Module from 'graphology-library/layout-forceatlas2.js';
import type forceAtlas2Layout from 'graphology-layout-forceatlas2';
import { random as randomLayout } from 'graphology-library/layout.js';
import { deadEndNodes, isFrontier } from '../analysis/index.js';
import { toGraphology } from '../graph/index.js';
import { NodeFlag, type StateGraph } from '../graph/index.js';
import { stronglyConnected } from '../graph/index.js';
import { Rng } from '../player/index.js';

// graphology-library re-exports the layout's CommonJS function as the default, which its typings omit
const forceAtlas2 = (forceAtlas2Module as unknown as { default: typeof forceAtlas2Layout.default }).default;

/** Levels with at most this many states are laid out by ForceAtlas2 (quadratic-ish); bigger ones in depth layers. */
export const PICTURE_LIMIT = 2_000;

export type PictureKind = 'start' | 'won' | 'lost' | 'dead' | 'frontier' | 'state';

export interface GraphPicture {
  /** Node positions in 0..1 (both axes scaled alike), in node order, with their kind. */
  nodes: { x: number; y: number; kind: PictureKind }[];
  /** Distinct edges between different states; `cycle` when both ends lie in one strongly connected component. */
  edges: { from: number; to: number; cycle: boolean }[];
  selfLoops: number;
}

export function kindOf(g: StateGraph, u: number, dead: Uint8Array): PictureKind {
  const f = g.flags[u];
  if (f & NodeFlag.WON) return 'won';
  if (f & NodeFlag.LOST) return 'lost';
  if (u === 0) return 'start';
  if (dead[u]) return 'dead';
  return isFrontier(f) ? 'frontier' : 'state';
}

export function layoutGraph(g: StateGraph, seed = 1): GraphPicture {
  const graph = toGraphology(g);
  const rng = new Rng(seed);
  randomLayout.assign(graph, { rng: () => rng.next() / 2 ** 32, scale: Math.sqrt(g.nodeCount) * 10 });
  if (g.nodeCount > 1) {
    forceAtlas2.assign(graph, {
      iterations: g.nodeCount > 200 ? 120 : 300,
      getEdgeWeight: null,
      settings: { ...forceAtlas2.inferSettings(graph), barnesHutOptimize: g.nodeCount > 200 },
    });
  }
  const xs: number[] = [];
  const ys: number[] = [];
  graph.forEachNode((_key, attrs) => {
    xs.push(attrs.x as number);
    ys.push(attrs.y as number);
  });
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const span = Math.max(Math.max(...xs) - minX, Math.max(...ys) - minY) || 1;

  const dead = deadEndNodes(g);
  const nodes = xs.map((x, u) => ({ x: (x - minX) / span, y: (ys[u] - minY) / span, kind: kindOf(g, u, dead) }));
  const { compOf: of } = stronglyConnected(g);
  const edges: GraphPicture['edges'] = [];
  let selfLoops = 0;
  for (let u = 0; u < g.nodeCount; u++) {
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) {
      const v = g.edgeTarget[e];
      if (v === u) selfLoops++;
      else edges.push({ from: u, to: v, cycle: of[u] === of[v] });
    }
  }
  return { nodes, edges, selfLoops };
}
