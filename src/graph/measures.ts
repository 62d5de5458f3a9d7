/** The shape numbers of a state graph: depths, cycles, terminals, frontier. */
import { NodeFlag, TERMINAL, type StateGraph } from './graph.js';
import { stronglyConnected } from './scc.js';

/** The structural measures of an explored graph that the ARC-AGI-3 pipeline tracks. */
export interface GraphMeasures {
  nodes: number;
  /** Distinct (source, target) edges, self-loops included. */
  edges: number;
  maxDepth: number;
  /** Nodes per BFS depth, index = depth. */
  depthHistogram: number[];
  /** Strongly connected components of more than one node (cycles between states), and self-loop edges. */
  cycles: { nonTrivial: number; largest: number; selfLoops: number };
  terminals: { won: number; lost: number; complete: number };
  /** Nodes neither terminal nor expanded. */
  frontier: number;
}

export function measureGraph(g: StateGraph): GraphMeasures {
  const histogram: number[] = [];
  const terminals = { won: 0, lost: 0, complete: 0 };
  let frontier = 0;
  for (let u = 0; u < g.nodeCount; u++) {
    histogram[g.depth[u]] = (histogram[g.depth[u]] ?? 0) + 1;
    const f = g.flags[u];
    if (f & NodeFlag.WON) terminals.won++;
    if (f & NodeFlag.COMPLETE) terminals.complete++;
    if (f & NodeFlag.LOST) terminals.lost++;
    if (!(f & TERMINAL) && !(f & NodeFlag.EXPANDED)) frontier++;
  }
  const { count, compStart } = stronglyConnected(g);
  let selfLoops = 0;
  for (let u = 0; u < g.nodeCount; u++) {
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) if (g.edgeTarget[e] === u) selfLoops++;
  }
  let nonTrivial = 0;
  let largest = 0;
  for (let c = 0; c < count; c++) {
    const size = compStart[c + 1] - compStart[c];
    if (size > 1) {
      nonTrivial++;
      largest = Math.max(largest, size);
    }
  }
  for (let d = 0; d < histogram.length; d++) histogram[d] ??= 0;
  return {
    nodes: g.nodeCount,
    edges: g.edgeCount,
    maxDepth: histogram.length - 1,
    depthHistogram: histogram,
    cycles: { nonTrivial, largest, selfLoops },
    terminals,
    frontier,
  };
}
