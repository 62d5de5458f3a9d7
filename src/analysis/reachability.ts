import { codeName } from '../engine/index.js';
import { depthOf, edgeAction, NodeFlag, TERMINAL, type StateGraph } from '../graph/index.js';

/** The graph's edges reversed, in CSR form: the predecessors of v are revSource[revStart[v] .. revStart[v+1]-1]. */
export interface ReverseEdges {
  readonly revStart: Uint32Array;
  readonly revSource: Int32Array;
}

/** Predecessors listed in increasing order; built in place (each bucket filled from its end), with no array besides the two it returns. */
export function reverseEdges(graph: StateGraph): ReverseEdges {
  const { nodeCount, edgeCount, edgeStart, edgeTarget } = graph;
  const revStart = new Uint32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) revStart[edgeTarget[e]]++;
  // revStart[v] = the end of v's bucket; filling it backwards leaves its start there.
  for (let v = 1; v < nodeCount; v++) revStart[v] += revStart[v - 1];
  const revSource = new Int32Array(edgeCount);
  for (let u = nodeCount - 1; u >= 0; u--) {
    for (let e = edgeStart[u + 1]; e-- > edgeStart[u]; ) revSource[--revStart[edgeTarget[e]]] = u;
  }
  revStart[nodeCount] = edgeCount;
  return { revStart, revSource };
}

/** A node is on the frontier when it is neither terminal nor expanded: its successors are unknown. */
export const isFrontier = (flags: number): boolean => (flags & (TERMINAL | NodeFlag.EXPANDED)) === 0;

/** An expanded state that is not terminal: its moves are known and the level goes on. */
export const isExpandedPlaying = (flags: number): boolean => (flags & (TERMINAL | NodeFlag.EXPANDED)) === NodeFlag.EXPANDED;

/**
 * Dead ends (1): expanded, non-terminal states that reach neither a win nor (on a partial graph)
 * the frontier. `mayWin`, when the caller has it, marks the states that reach either.
 */
export function deadEndNodes(graph: StateGraph, rev: ReverseEdges = reverseEdges(graph), mayWin?: Uint8Array): Uint8Array {
  const { flags, nodeCount } = graph;
  const through = (u: number): boolean => isExpandedPlaying(flags[u]);
  if (!mayWin) {
    const seeds = new Uint8Array(nodeCount);
    for (let v = 0; v < nodeCount; v++) if (flags[v] & NodeFlag.WON || isFrontier(flags[v])) seeds[v] = 1;
    mayWin = backwardReach(rev, seeds, through);
  }
  return mayWin.map((m, v) => (!m && through(v) ? 1 : 0));
}

/**
 * Marks (1) every node that can reach a seed: the seeds, then backwards over predecessors for
 * which `through(u)` holds (those whose moves may be followed; unset means all).
 */
export function backwardReach(
  rev: ReverseEdges,
  seeds: Uint8Array,
  through?: (u: number) => boolean,
): Uint8Array {
  const n = seeds.length;
  const marked = new Uint8Array(n);
  const queue = new Int32Array(n);
  let tail = 0;
  for (let v = 0; v < n; v++) if (seeds[v]) (marked[v] = 1), (queue[tail++] = v);
  for (let head = 0; head < tail; head++) {
    const v = queue[head];
    for (let r = rev.revStart[v]; r < rev.revStart[v + 1]; r++) {
      const u = rev.revSource[r];
      if (marked[u] || (through && !through(u))) continue;
      marked[u] = 1;
      queue[tail++] = u;
    }
  }
  return marked;
}

/** Breadth-first search from the reset state (node 0): each node's distance and the node it was first reached from. */
export interface RootSearch {
  /** -1 when unreachable. */
  dist(v: number): number;
  /** -1 for the root and unreached nodes. */
  from(v: number): number;
}

/**
 * The search from the root. A graph the explorer numbered breadth-first already holds it: a
 * node's distance is its layer and the node it was first reached from is its first predecessor
 * in the layer before (the explorer numbers a state at the first parent, in id order, that
 * reaches it), so nothing is stored (12 bytes a node less at the analysis' peak). Other graphs
 * get a breadth-first search in arrays.
 */
export function searchFromRoot(graph: StateGraph, rev: ReverseEdges): RootSearch {
  const layers = graph.layerStart;
  if (layers) {
    // Loops ask in node order, paths walk up a layer at a time: keep the last layer found.
    let d = 0;
    const dist = (v: number): number => {
      if (v >= layers[d] && v < layers[d + 1]) return d;
      if (d > 0 && v >= layers[d - 1] && v < layers[d]) return --d;
      if (v >= layers[d + 1] && v < layers[d + 2]) return ++d;
      return (d = depthOf(graph, v));
    };
    const from = (v: number): number => {
      const dv = dist(v);
      if (dv === 0) return -1;
      for (let r = rev.revStart[v]; r < rev.revStart[v + 1]; r++) {
        const u = rev.revSource[r];
        if (u >= layers[dv - 1] && u < layers[dv]) return u;
      }
      throw new Error(`node ${v} at depth ${dv} has no predecessor in the layer before`);
    };
    return { dist, from };
  }
  const n = graph.nodeCount;
  const dist = new Int32Array(n).fill(-1);
  const from = new Int32Array(n).fill(-1);
  if (n > 0) {
    const queue = new Int32Array(n);
    let tail = 0;
    dist[0] = 0;
    queue[tail++] = 0;
    for (let head = 0; head < tail; head++) {
      const u = queue[head];
      for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
        const v = graph.edgeTarget[e];
        if (dist[v] >= 0) continue;
        dist[v] = dist[u] + 1;
        from[v] = u;
        queue[tail++] = v;
      }
    }
  }
  return { dist: (v) => dist[v], from: (v) => from[v] };
}

/** A reproducible action sequence from the reset state. */
export interface ActionPath {
  readonly length: number;
  /** Printed as `actionName` prints them (`ACTION3`, `ACTION6(10,20)`); the first PATH_ACTIONS of a longer path. */
  readonly actions: string[];
}

/** A path lists at most this many actions (a path as long as a corridor of 10^8 states would not fit a JavaScript array). */
export const PATH_ACTIONS = 100_000;

/** The shortest action sequence from the root to `node` (which the search reached). */
export function pathTo(graph: StateGraph, search: RootSearch, node: number): ActionPath {
  let length = 0;
  for (let v = node; search.from(v) >= 0; v = search.from(v)) length++;
  // Walked back from the node: skip to the first PATH_ACTIONS steps from the root.
  let v = node;
  for (let skip = length - Math.min(length, PATH_ACTIONS); skip > 0; skip--) v = search.from(v);
  const actions: string[] = new Array(Math.min(length, PATH_ACTIONS));
  for (let i = actions.length - 1; i >= 0; i--) {
    const u = search.from(v);
    actions[i] = codeName(edgeAction(graph, edgeInto(graph, u, v)));
    v = u;
  }
  return { length, actions };
}

/** The edge from u to v (edges are distinct pairs, so the one the search came by). */
function edgeInto(graph: StateGraph, u: number, v: number): number {
  for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) if (graph.edgeTarget[e] === v) return e;
  throw new Error(`no edge ${u} -> ${v}`);
}

/** The node of `set` nearest the root (smallest distance, then smallest id), or -1. */
export function nearest(search: RootSearch, set: Uint8Array): number {
  let best = -1;
  let bestDist = 0;
  for (let v = 0; v < set.length; v++) {
    if (!set[v]) continue;
    const d = search.dist(v);
    if (d >= 0 && (best < 0 || d < bestDist)) (best = v), (bestDist = d);
  }
  return best;
}
