/** The shape numbers of a state graph: depths, cycles, terminals, frontier. */
import { NodeFlag, TERMINAL, type StateGraph } from './graph.js';
import { stronglyConnected } from './scc.js';

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

/** Nodes per depth: the explorer's layers, or a breadth-first search from node 0 for a graph without them. */
function layerSizes(g: StateGraph): Uint32Array {
  if (g.layerStart) return g.layerStart.subarray(1).map((end, d) => end - g.layerStart![d]);
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
  const sizes = new Uint32Array(max + 1);
  for (let v = 0; v < n; v++) if (depth[v] >= 0) sizes[depth[v]]++;
  return sizes;
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
  const sizes = layerSizes(g);
  const { count, compStart } = stronglyConnected(g);
  let nonTrivial = 0;
  let largest = 0;
  for (let c = 0; c < count; c++) {
    const size = compStart[c + 1] - compStart[c];
    if (size > 1) {
      nonTrivial++;
      largest = Math.max(largest, size);
    }
  }
  return {
    nodes: g.nodeCount,
    edges: g.edgeCount,
    maxDepth: sizes.length - 1,
    depthHistogram: Array.from(sizes.subarray(0, HISTOGRAM_DEPTHS)),
    cycles: { nonTrivial, largest, selfLoops },
    terminals,
    frontier,
  };
}
