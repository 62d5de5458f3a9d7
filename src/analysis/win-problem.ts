/** The win-probability problem of a graph: Prob0/Prob1 settled by graph search, the rest split into components for the solvers (reachability.ts holds the plain graph searches it uses). */
import { NodeFlag, type StateGraph } from '../graph/index.js';
import type { TransitionWeights } from './policy.js';
import { backwardReach, isFrontier, type ReverseEdges } from './reachability.js';
import { stronglyConnected, type Components } from '../graph/index.js';

/** Node value codes: won (probability 1), lost (0), or to be solved. */
export const WIN = 1;
export const LOSS = 0;
export const UNKNOWN = -1;

/**
 * A reachability problem of the absorbing chain: the probability of reaching a winning node from
 * the root. `value` holds what graph search settles (Prob0 and Prob1 included); the unknown nodes
 * reachable from the root are split into components, successors first, for the numeric solvers.
 */
export interface ReachProblem {
  readonly graph: StateGraph;
  readonly weights: TransitionWeights;
  readonly value: Int8Array;
  readonly components: Components;
  /** The graph's reverse edges (interval iteration orders its sweeps by them). */
  readonly rev: ReverseEdges;
}

/**
 * Sets up the problem with frontier nodes counted as `frontierValue` (0 for the lower bound, 1 for
 * the upper), then settles Prob0 (no path to a win) and Prob1 (no path to a loss that avoids the
 * wins) by graph search.
 */
export function reachProblem(
  graph: StateGraph,
  weights: TransitionWeights,
  rev: ReverseEdges,
  frontierValue: typeof WIN | typeof LOSS,
): ReachProblem {
  const n = graph.nodeCount;
  const value = new Int8Array(n);
  for (let v = 0; v < n; v++) {
    const f = graph.flags[v];
    value[v] = f & NodeFlag.WON ? WIN : f & NodeFlag.LOST ? LOSS : isFrontier(f) ? frontierValue : UNKNOWN;
  }
  const unknown = (u: number): boolean => value[u] === UNKNOWN;
  const seeds = (code: number): Uint8Array => {
    const marked = new Uint8Array(n);
    for (let v = 0; v < n; v++) if (value[v] === code) marked[v] = 1;
    return marked;
  };

  const canWin = backwardReach(rev, seeds(WIN), unknown);
  for (let v = 0; v < n; v++) if (value[v] === UNKNOWN && !canWin[v]) value[v] = LOSS;
  const canLose = backwardReach(rev, seeds(LOSS), unknown);
  for (let v = 0; v < n; v++) if (value[v] === UNKNOWN && !canLose[v]) value[v] = WIN;

  return { graph, weights, value, components: stronglyConnected(graph, unknownFromRoot(graph, value)), rev };
}

/** The unknown nodes the root reaches through unknown nodes: the only ones its value depends on. */
function unknownFromRoot(graph: StateGraph, value: Int8Array): Uint8Array {
  const n = graph.nodeCount;
  const inside = new Uint8Array(n);
  if (n === 0 || value[0] !== UNKNOWN) return inside;
  const queue = new Int32Array(n);
  let tail = 0;
  inside[0] = 1;
  queue[tail++] = 0;
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
      const v = graph.edgeTarget[e];
      if (inside[v] || value[v] !== UNKNOWN) continue;
      inside[v] = 1;
      queue[tail++] = v;
    }
  }
  return inside;
}
