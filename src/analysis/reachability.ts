import { codeName } from '../engine/index.js';
import { edgeAction, NodeFlag, TERMINAL, type StateGraph } from '../graph/index.js';

/** The graph's edges reversed, in CSR form: the predecessors of v are revSource[revStart[v] .. revStart[v+1]-1]. */
export interface ReverseEdges {
  readonly revStart: Int32Array;
  readonly revSource: Int32Array;
}

export function reverseEdges(graph: StateGraph): ReverseEdges {
  const { nodeCount, edgeCount, edgeStart, edgeTarget } = graph;
  const revStart = new Int32Array(nodeCount + 1);
  for (let e = 0; e < edgeCount; e++) revStart[edgeTarget[e] + 1]++;
  for (let v = 0; v < nodeCount; v++) revStart[v + 1] += revStart[v];
  const fill = revStart.slice(0, nodeCount);
  const revSource = new Int32Array(edgeCount);
  for (let u = 0; u < nodeCount; u++) {
    for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) revSource[fill[edgeTarget[e]]++] = u;
  }
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

/** Breadth-first search from the reset state (node 0): distances and the edge each node was first reached by. */
export interface RootSearch {
  /** -1 when unreachable. */
  readonly dist: Int32Array;
  /** Edge index into the node, -1 for the root and unreached nodes. */
  readonly viaEdge: Int32Array;
  /** The node each was reached from. */
  readonly from: Int32Array;
}

export function searchFromRoot(graph: StateGraph): RootSearch {
  const n = graph.nodeCount;
  const dist = new Int32Array(n).fill(-1);
  const viaEdge = new Int32Array(n).fill(-1);
  const from = new Int32Array(n).fill(-1);
  if (n === 0) return { dist, viaEdge, from };
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
      viaEdge[v] = e;
      from[v] = u;
      queue[tail++] = v;
    }
  }
  return { dist, viaEdge, from };
}

/** A reproducible action sequence from the reset state. */
export interface ActionPath {
  readonly length: number;
  /** Printed as `actionName` prints them (`ACTION3`, `ACTION6(10,20)`). */
  readonly actions: string[];
}

/** The shortest action sequence from the root to `node` (which the search reached). */
export function pathTo(graph: StateGraph, search: RootSearch, node: number): ActionPath {
  const actions: string[] = [];
  for (let v = node; search.from[v] >= 0; v = search.from[v]) actions.push(codeName(edgeAction(graph, search.viaEdge[v])));
  actions.reverse();
  return { length: actions.length, actions };
}

/** The node of `set` nearest the root (smallest distance, then smallest id), or -1. */
export function nearest(search: RootSearch, set: Uint8Array): number {
  let best = -1;
  for (let v = 0; v < set.length; v++) {
    if (set[v] && search.dist[v] >= 0 && (best < 0 || search.dist[v] < search.dist[best])) best = v;
  }
  return best;
}
