/** The explorer's graph under construction: node flags, BFS layers and CSR edges in typed arrays reserved once. */
import { NodeFlag, type StateGraph } from '../graph/index.js';
import type { PlayerAction } from '../engine/index.js';

/** Typed arrays hold at most 2^32 elements: the most edges a graph can have (edge offsets are Uint32). */
export const MAX_EDGES = 2 ** 32 - 1;

/**
 * A zero-filled typed array of `length` elements, or of fewer when the system refuses that much
 * address space (halving down to `min`). Its memory is committed by the system only as it is
 * written, so reserving for the largest graph the memory budget allows costs nothing up front
 * and the arrays never grow by copying (no 2.5x peak while one is copied into a larger one).
 */
export function reserve<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(make: (n: number) => T, length: number, min = 1024): T {
  for (let n = length; ; n = Math.max(min, Math.floor(n / 2))) {
    try {
      return make(n);
    } catch (err) {
      if (!(err instanceof RangeError) || n <= min) throw err;
    }
  }
}

export interface StoreCapacity {
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
 */
export class Store {
  nodeCount = 0;
  edgeCount = 0;
  readonly flags: Uint8Array;
  /** First edge of each expanded node (filled in for the others by `graph()`); one more entry than nodes. */
  readonly edgeStart: Uint32Array;
  readonly edgeTarget: Int32Array;
  readonly edgeKeys: Uint8Array;
  /** Click cells and first action code of each edge: click games only (keyboard edges derive their action from the keys). */
  readonly edgeCells?: Uint16Array;
  readonly edgeAction?: Uint16Array;
  /** Layer d is nodes layerStart[d] .. layerStart[d + 1] - 1; `layers` of them, the last open. */
  private layerStart = new Uint32Array(64);
  layers = 0;
  readonly nodeCapacity: number;
  readonly edgeCapacity: number;

  constructor(capacity: StoreCapacity) {
    this.flags = reserve((n) => new Uint8Array(n), capacity.nodes);
    this.edgeStart = reserve((n) => new Uint32Array(n), this.flags.length + 1);
    this.nodeCapacity = Math.min(this.flags.length, this.edgeStart.length - 1);
    this.edgeTarget = reserve((n) => new Int32Array(n), Math.min(capacity.edges, MAX_EDGES));
    this.edgeKeys = reserve((n) => new Uint8Array(n), this.edgeTarget.length);
    let edges = Math.min(this.edgeTarget.length, this.edgeKeys.length);
    if (capacity.clicks) {
      this.edgeCells = reserve((n) => new Uint16Array(n), edges);
      this.edgeAction = reserve((n) => new Uint16Array(n), edges);
      edges = Math.min(edges, this.edgeCells.length, this.edgeAction.length);
    }
    this.edgeCapacity = edges;
  }

  /** Adds a node at `depth` (the last layer or a new one after it) and returns its id. */
  addNode(flags: number, depth: number): number {
    const id = this.nodeCount++;
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
    if (base + count > this.edgeCapacity) throw new Error(`edge store full: ${base + count} > ${this.edgeCapacity}`);
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
