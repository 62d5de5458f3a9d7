/** The explorer's graph under construction: node flags, BFS layers and CSR edges in typed arrays that double as they fill. */
import { NodeFlag, type StateGraph } from '../graph/index.js';
import type { PlayerAction } from '../engine/index.js';
import { MAX_NODES } from './shared-table.js';

/** Typed arrays hold at most 2^32 elements: the most edges a graph can have (edge offsets are Uint32). */
export const MAX_EDGES = 2 ** 32 - 1;

type Column = Uint8Array | Uint16Array | Uint32Array | Int32Array;

/** A copy of `a` with room for `length` elements (zeros past the old ones), or undefined when the system refuses the memory. */
function widened<T extends Column>(a: T, length: number): T | undefined {
  try {
    const next = new (a.constructor as new (n: number) => T)(length);
    next.set(a);
    return next;
  } catch (err) {
    if (err instanceof RangeError) return undefined;
    throw err;
  }
}

export interface StoreCapacity {
  /** Room to start with (the columns double as they fill, up to MAX_NODES and MAX_EDGES). */
  nodes: number;
  edges: number;
  /** The game has ACTION6: edges keep their click-cell count and their first action code. */
  clicks: boolean;
}

/**
 * Nodes are numbered in breadth-first order, so a node's depth is its layer (layerStart) and its
 * BFS parent is the first node of the layer before with an edge into it: neither is stored. Per
 * node: flags (1 byte) and the first edge (4); per edge: target (4) and keyboard-action bits (1),
 * plus click cells and first action (2 + 2) for click games.
 *
 * The columns double when they fill. The system commits a new array's memory only as it is
 * written, so the empty half costs nothing; the copy briefly holds the old array too. (Reserving
 * the largest array the budget allows up front would avoid the copies, but V8 counts such an
 * allocation as memory in use and collects garbage over and over: a small exploration took 4x
 * as long.)
 */
export class Store {
  nodeCount = 0;
  edgeCount = 0;
  flags: Uint8Array;
  /** First edge of each expanded node (filled in for the others by `graph()`); one more entry than nodes. */
  edgeStart: Uint32Array;
  edgeTarget: Int32Array;
  edgeKeys: Uint8Array;
  /** Click cells and first action code of each edge: click games only (keyboard edges derive their action from the keys). */
  edgeCells?: Uint16Array;
  edgeAction?: Uint16Array;
  /** Layer d is nodes layerStart[d] .. layerStart[d + 1] - 1; `layers` of them, the last open. */
  private layerStart = new Uint32Array(64);
  layers = 0;

  constructor(capacity: StoreCapacity) {
    const nodes = Math.max(16, Math.min(capacity.nodes, MAX_NODES));
    const edges = Math.max(16, Math.min(capacity.edges, MAX_EDGES));
    this.flags = new Uint8Array(nodes);
    this.edgeStart = new Uint32Array(nodes + 1);
    this.edgeTarget = new Int32Array(edges);
    this.edgeKeys = new Uint8Array(edges);
    if (capacity.clicks) {
      this.edgeCells = new Uint16Array(edges);
      this.edgeAction = new Uint16Array(edges);
    }
  }

  /** Bytes the columns' used parts would take again while they double (the old arrays live until collected). */
  growthBytes(nodes: number, edges: number): number {
    const perEdge = 5 + (this.edgeCells ? 4 : 0);
    return (nodes > this.flags.length ? 5 * this.nodeCount : 0) + (edges > this.edgeTarget.length ? perEdge * this.edgeCount : 0);
  }

  /**
   * Room for `nodes` nodes and `edges` edges, the columns doubled as needed: false past
   * MAX_NODES or MAX_EDGES, or when the system refuses the memory (nothing is added then).
   */
  ensure(nodes: number, edges: number): boolean {
    if (nodes > MAX_NODES || edges > MAX_EDGES) return false;
    if (nodes > this.flags.length) {
      const length = Math.min(MAX_NODES, Math.max(nodes, 2 * this.flags.length));
      const flags = widened(this.flags, length);
      const edgeStart = flags && widened(this.edgeStart, length + 1);
      if (!flags || !edgeStart) return false;
      this.flags = flags;
      this.edgeStart = edgeStart;
    }
    if (edges > this.edgeTarget.length) {
      const length = Math.min(MAX_EDGES, Math.max(edges, 2 * this.edgeTarget.length));
      const target = widened(this.edgeTarget, length);
      const keys = target && widened(this.edgeKeys, length);
      const cells = keys && this.edgeCells ? widened(this.edgeCells, length) : undefined;
      const action = cells && this.edgeAction ? widened(this.edgeAction, length) : undefined;
      if (!target || !keys || (this.edgeCells && (!cells || !action))) return false;
      this.edgeTarget = target;
      this.edgeKeys = keys;
      if (cells) this.edgeCells = cells;
      if (action) this.edgeAction = action;
    }
    return true;
  }

  /** Adds a node at `depth` (the last layer or a new one after it) and returns its id. */
  addNode(flags: number, depth: number): number {
    const id = this.nodeCount++;
    if (id >= this.flags.length) throw new Error(`node store full: ${id} (ensure() first)`);
    if (depth === this.layers) {
      // One spare entry, for the end of the last layer in `graph()`.
      if (this.layers + 2 > this.layerStart.length) {
        const next = new Uint32Array(Math.ceil(1.5 * this.layerStart.length));
        next.set(this.layerStart);
        this.layerStart = next;
      }
      this.layerStart[this.layers++] = id;
    } else if (depth !== this.layers - 1) {
      throw new Error(`node ${id} at depth ${depth} breaks breadth-first order (last layer ${this.layers - 1})`);
    }
    this.flags[id] = flags;
    return id;
  }

  /** The layer (BFS depth) of node u. */
  depthOf(u: number): number {
    let lo = 0;
    let hi = this.layers - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.layerStart[mid] <= u) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The first node of layer d (nodeCount past the last). */
  layerFirst(d: number): number {
    return d < this.layers ? this.layerStart[d] : this.nodeCount;
  }

  /**
   * Appends the edges of newly expanded nodes (the next in id order), a column at a time: node
   * ids[i] has the records recordEnds[i - 1] .. recordEnds[i] of the given arrays as its edges.
   */
  addExpanded(ids: Int32Array, recordEnds: Uint32Array, target: Int32Array, keys: Uint8Array, cells: Uint16Array, action: Uint16Array): void {
    const base = this.edgeCount;
    for (let i = 0; i < ids.length; i++) {
      this.edgeStart[ids[i]] = base + (i > 0 ? recordEnds[i - 1] : 0);
      this.flags[ids[i]] |= NodeFlag.EXPANDED;
    }
    const count = ids.length > 0 ? recordEnds[ids.length - 1] : 0;
    if (base + count > this.edgeTarget.length) throw new Error(`edge store full: ${base + count} > ${this.edgeTarget.length} (ensure() first)`);
    this.edgeTarget.set(target.subarray(0, count), base);
    this.edgeKeys.set(keys.subarray(0, count), base);
    this.edgeCells?.set(cells.subarray(0, count), base);
    this.edgeAction?.set(action.subarray(0, count), base);
    this.edgeCount = base + count;
  }

  /** Bytes of the store in use (the reserved arrays are committed only where written). */
  get bytes(): number {
    const perEdge = 5 + (this.edgeCells ? 4 : 0);
    return 5 * this.nodeCount + perEdge * this.edgeCount + this.layerStart.byteLength;
  }

  /**
   * The graph view of the store: views of its arrays, with edgeStart completed in place for the
   * nodes never expanded (the store must not grow after).
   */
  graph(actions: readonly PlayerAction[], fingerprints?: { lo: Uint32Array; hi: Uint32Array }): StateGraph {
    const n = this.nodeCount;
    const e = this.edgeCount;
    const { edgeStart, flags } = this;
    edgeStart[n] = e;
    for (let u = n - 1; u >= 0; u--) if (!(flags[u] & NodeFlag.EXPANDED)) edgeStart[u] = edgeStart[u + 1];
    this.layerStart[this.layers] = n;
    const layerStart = this.layerStart.subarray(0, this.layers + 1);
    return {
      nodeCount: n,
      edgeCount: e,
      edgeStart: edgeStart.subarray(0, n + 1),
      edgeTarget: this.edgeTarget.subarray(0, e),
      edgeKeys: this.edgeKeys.subarray(0, e),
      ...(this.edgeCells && this.edgeAction ? { edgeCells: this.edgeCells.subarray(0, e), edgeAction: this.edgeAction.subarray(0, e) } : {}),
      flags: flags.subarray(0, n),
      layerStart,
      ...(fingerprints ? { fingerprintLo: fingerprints.lo, fingerprintHi: fingerprints.hi } : {}),
      actions,
    };
  }
}
