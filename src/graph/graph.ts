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
 * edgeStart[u] .. edgeStart[u+1]-1, empty for nodes that were not expanded. Every array is typed
 * (no JavaScript array grows with the graph: V8 aborts the process past about 1.2e8 elements):
 * at most 2^31 - 4 nodes and 2^32 - 1 edges.
 */
export interface StateGraph {
  readonly nodeCount: number;
  readonly edgeCount: number;
  readonly edgeStart: Uint32Array;
  readonly edgeTarget: Int32Array;
  /** Bit k set when the keyboard action ACTIONk (k != 6) leads along this edge. */
  readonly edgeKeys: Uint8Array;
  /** How many of the 4,096 click cells lead along this edge; absent when ACTION6 is not available. */
  readonly edgeCells?: Uint16Array;
  /** One action code (see engine/actions) that takes this edge, the first in action order; absent when keyboard bits say it (see `edgeAction`). */
  readonly edgeAction?: Uint16Array;
  readonly flags: Uint8Array;
  /**
   * Breadth-first layers, when nodes are numbered breadth-first (the explorer's graphs): layer d
   * (depth d) is nodes layerStart[d] .. layerStart[d+1]-1. A node's BFS parent is the first node
   * of the layer before with an edge into it.
   */
  readonly layerStart?: Uint32Array;
  /** Each node's 64-bit fingerprint halves, when the graph came from the explorer (and has at most FINGERPRINT_LIMIT nodes). */
  readonly fingerprintLo?: Uint32Array;
  readonly fingerprintHi?: Uint32Array;
  /** The game's available actions (the policy needs them). */
  readonly actions: readonly PlayerAction[];
}

/** The explorer keeps per-node fingerprints for graphs up to this many nodes (8 bytes a node). */
export const FINGERPRINT_LIMIT = 2 ** 24;

/** The action code of edge e: its stored first action, else its first keyboard action in the game's action order. */
export function edgeAction(g: Pick<StateGraph, 'edgeAction' | 'edgeKeys' | 'actions'>, e: number): number {
  if (g.edgeAction) return g.edgeAction[e];
  for (const a of g.actions) if (g.edgeKeys[e] & (1 << a)) return a;
  throw new Error(`edge ${e} has no action`);
}

/** The BFS depth of node u (the graph must have layers). */
export function depthOf(g: Pick<StateGraph, 'layerStart'>, u: number): number {
  const layers = g.layerStart!;
  let lo = 0;
  let hi = layers.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (layers[mid] <= u) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The action codes from the root to node `u` along breadth-first parents (a shortest path): the
 * parent of v is the first node of the layer before whose edges reach v. Scans one layer's edges
 * per step, so a path costs at most one pass over the edges. Action codes fit 16 bits.
 */
export function bfsPath(g: StateGraph, u: number): Uint16Array {
  const path = new Uint16Array(depthOf(g, u));
  for (let v = u, d = path.length; d > 0; d--) {
    const from = g.layerStart![d - 1];
    const to = g.layerStart![d];
    let parent = -1;
    for (let w = from; w < to && parent < 0; w++) {
      for (let e = g.edgeStart[w]; e < g.edgeStart[w + 1]; e++) {
        if (g.edgeTarget[e] === v) {
          parent = w;
          path[d - 1] = edgeAction(g, e);
          break;
        }
      }
    }
    if (parent < 0) throw new Error(`node ${v} at depth ${d} has no parent in the layer before`);
    v = parent;
  }
  return path;
}

/** Each node's BFS depth, the node it was first reached from (-1 for the root and unreached nodes) and the action code from it. */
export interface BfsTree {
  depth: Uint32Array;
  parent: Int32Array;
  parentAction: Uint16Array;
}

/**
 * The whole BFS tree in one pass over the edges (10 bytes a node), for a report that draws or
 * walks it: parents in id order, edges in order, the first to reach a node of the next layer is
 * its parent. A graph without layers gets a breadth-first search from node 0 (unreached nodes at
 * depth 0).
 */
export function bfsTree(g: StateGraph): BfsTree {
  const n = g.nodeCount;
  const depth = new Uint32Array(n);
  const parent = new Int32Array(n).fill(-1);
  const parentAction = new Uint16Array(n);
  const reach = (u: number, v: number, e: number): void => {
    parent[v] = u;
    parentAction[v] = edgeAction(g, e);
  };
  const layers = g.layerStart;
  if (layers) {
    for (let d = 1; d < layers.length - 1; d++) {
      for (let v = layers[d]; v < layers[d + 1]; v++) depth[v] = d;
      for (let u = layers[d - 1]; u < layers[d]; u++) {
        for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) {
          const v = g.edgeTarget[e];
          if (v >= layers[d] && v < layers[d + 1] && parent[v] < 0) reach(u, v, e);
        }
      }
    }
    return { depth, parent, parentAction };
  }
  const seen = new Uint8Array(n);
  const queue = new Int32Array(n);
  let tail = 0;
  if (n > 0) (seen[0] = 1), (queue[tail++] = 0);
  for (let head = 0; head < tail; head++) {
    const u = queue[head];
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) {
      const v = g.edgeTarget[e];
      if (seen[v]) continue;
      seen[v] = 1;
      depth[v] = depth[u] + 1;
      reach(u, v, e);
      queue[tail++] = v;
    }
  }
  return { depth, parent, parentAction };
}

/** The action codes from the root to node u along a BFS tree's parents. */
export function treePath(tree: BfsTree, u: number): Uint16Array {
  const path = new Uint16Array(tree.depth[u]);
  for (let v = u, i = path.length - 1; tree.parent[v] >= 0; v = tree.parent[v]) path[i--] = tree.parentAction[v];
  return path;
}
