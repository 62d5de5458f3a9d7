/** The compact state graph: node flags, BFS depth and parents, CSR edges with their action sets. */
import type { PlayerAction } from '../engine/index.js';

/** Node flags in the compact graph. A node is on the frontier when it is neither terminal nor expanded. */
export const NodeFlag = {
  /** The level is won here (terminal). */
  WON: 1,
  /** Game over here (terminal). */
  LOST: 2,
  /** Won on the game's last level: the game is complete (also WON). */
  COMPLETE: 4,
  /** Its successors are all in the graph. */
  EXPANDED: 8,
} as const;

export const TERMINAL = NodeFlag.WON | NodeFlag.LOST;

/**
 * The explored state graph in compact arrays (what analysis runs on; Graphology is built from it).
 * Nodes are numbered 0..nodeCount-1 in breadth-first discovery order, 0 being the reset state.
 * Edges are distinct (source, target) pairs in CSR form: the edges of node u are
 * edgeStart[u] .. edgeStart[u+1]-1, empty for nodes that were not expanded.
 */
export interface StateGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly edgeStart: Int32Array;
  readonly edgeTarget: Int32Array;
  /** Bit k set when the keyboard action ACTIONk (k != 6) leads along this edge. */
  readonly edgeKeys: Uint8Array;
  /** How many of the 4,096 click cells lead along this edge (0 when ACTION6 is not available). */
  readonly edgeCells: Uint16Array;
  /** One action code (see engine/actions) that takes this edge: the first in action order. */
  readonly edgeAction: Uint16Array;
  readonly flags: Uint8Array;
  readonly depth: Uint32Array;
  /** BFS tree: the node this one was first reached from (-1 for the root) and by which action code. */
  readonly parent: Int32Array;
  readonly parentAction: Uint16Array;
  /** Each node's 64-bit fingerprint halves, when the graph came from the explorer. */
  readonly fingerprintLo?: Uint32Array;
  readonly fingerprintHi?: Uint32Array;
  /** The game's available actions (the policy needs them). */
  readonly actions: readonly PlayerAction[];
}

/** The action codes from the root to node `u` along breadth-first parents (a shortest path). */
export function bfsPath(graph: Pick<StateGraph, 'parent' | 'parentAction'>, u: number): number[] {
  const path: number[] = [];
  for (let v = u; graph.parent[v] >= 0; v = graph.parent[v]) path.push(graph.parentAction[v]);
  return path.reverse();
}
