/** The shape numbers of a state graph: depths, cycles, terminals, frontier. */
import { NodeFlag, TERMINAL, type StateGraph } from './graph.js';
import { componentSizes } from './scc.js';

/** The depth histogram lists at most this many depths (a deeper graph is a corridor, and its histogram would be as long as the graph). */
export const HISTOGRAM_DEPTHS = 100_000;

/** The structural measures of an explored graph that the ARC-AGI-3 pipeline tracks. */
export interface GraphMeasures {
  nodes: number;
  /** Distinct (source, target) edges, self-loops included. */
  edges: number;
  maxDepth: number;
  /** Nodes per BFS depth, index = depth (the first HISTOGRAM_DEPTHS depths). */
  depthHistogram: number[];
  /** Strongly connected components of more than one node (cycles between states), and self-loop edges. */
  cycles: { nonTrivial: number; largest: number; selfLoops: number };
  terminals: { won: number; lost: number; complete: number };
  /** Nodes neither terminal nor expanded. */
  frontier: number;
}

/** Nodes per depth (the first HISTOGRAM_DEPTHS), and the deepest: the explorer's layers, or a breadth-first search from node 0 for a graph without them. */
function depthHistogram(g: StateGraph): { histogram: number[]; maxDepth: number } {
  const layers = g.layerStart;
  if (layers) {
    const depths = layers.length - 1;
    return { histogram: Array.from({ length: Math.min(depths, HISTOGRAM_DEPTHS) }, (_, d) => layers[d + 1] - layers[d]), maxDepth: depths - 1 };
  }
  const n = g.nodeCount;
  const depth = new Int32Array(n).fill(-1);
  const queue = new Int32Array(n);
  let tail = 0;
  let max = -1;
  if (n > 0) {
    depth[0] = 0;
    queue[tail++] = 0;
  }
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    max = depth[u];
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) {
      const v = g.edgeTarget[e];
      if (depth[v] < 0) (depth[v] = depth[u] + 1), (queue[tail++] = v);
    }
  }
  const sizes = new Uint32Array(Math.min(max + 1, HISTOGRAM_DEPTHS));
  for (let v = 0; v < n; v++) if (depth[v] >= 0 && depth[v] < HISTOGRAM_DEPTHS) sizes[depth[v]]++;
  return { histogram: Array.from(sizes), maxDepth: max };
}

export function measureGraph(g: StateGraph): GraphMeasures {
  const terminals = { won: 0, lost: 0, complete: 0 };
  let frontier = 0;
  let selfLoops = 0;
  for (let u = 0; u < g.nodeCount; u++) {
    const f = g.flags[u];
    if (f & NodeFlag.WON) terminals.won++;
    if (f & NodeFlag.COMPLETE) terminals.complete++;
    if (f & NodeFlag.LOST) terminals.lost++;
    if (!(f & TERMINAL) && !(f & NodeFlag.EXPANDED)) frontier++;
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) if (g.edgeTarget[e] === u) selfLoops++;
  }
  const { histogram, maxDepth } = depthHistogram(g);
  const { nonTrivial, largest } = componentSizes(g);
  return {
    nodes: g.nodeCount,
    edges: g.edgeCount,
    maxDepth,
    depthHistogram: histogram,
    cycles: { nonTrivial, largest, selfLoops },
    terminals,
    frontier,
  };
}
