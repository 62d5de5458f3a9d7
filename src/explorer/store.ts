/** The explorer's graph under construction: fingerprint table, node arrays and CSR edges that grow in place. */
import { NodeFlag, type StateGraph } from '../graph/index.js';
import type { PlayerAction } from '../engine/index.js';
import { FingerprintTable } from './table.js';

/** Growth factor of the typed arrays: 1.5 keeps the unused tail to a quarter on average. */
const GROW = 1.5;

function grown<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, Math.ceil(a.length * GROW), 1024));
  next.set(a);
  return next;
}

/**
 * The explorer's compact store: nodes keyed by 64-bit fingerprint in a hash table of node ids
 * (table.ts), per-node typed arrays (fingerprint, depth, BFS parent and action, flags) and CSR edge
 * arrays appended as nodes are expanded in id order. About 35 bytes a node plus 9 an edge.
 */
export class Store {
  nodeCount = 0;
  edgeCount = 0;
  /** Fingerprint -> node id. */
  readonly table: FingerprintTable;
  fpLo = new Uint32Array(1024);
  fpHi = new Uint32Array(1024);
  depth = new Uint32Array(1024);
  parent = new Int32Array(1024);
  parentAction = new Uint16Array(1024);
  flags = new Uint8Array(1024);
  /** First edge of each expanded node (filled in for the others by `graph()`). */
  edgeStart = new Int32Array(1025);
  edgeTarget = new Int32Array(4096);
  edgeKeys = new Uint8Array(4096);
  edgeCells = new Uint16Array(4096);
  edgeAction = new Uint16Array(4096);

  /** The node with this fingerprint, or -1. */
  find(lo: number, hi: number): number {
    return this.table.find(lo, hi);
  }

  /** The node with this fingerprint, or a negative code for `add` (FingerprintTable.lookup). */
  lookup(lo: number, hi: number): number {
    return this.table.lookup(lo, hi);
  }

  /**
   * Adds a node (the caller checked it is new) and returns its id. `missing` is what `lookup`
   * returned for it, when no node was added since.
   */
  add(lo: number, hi: number, depth: number, parent: number, parentAction: number, flags: number, missing?: number): number {
    const id = this.nodeCount++;
    if (id >= this.fpLo.length) this.growNodes(id + 1);
    this.fpLo[id] = lo;
    this.fpHi[id] = hi;
    this.depth[id] = depth;
    this.parent[id] = parent;
    this.parentAction[id] = parentAction;
    this.flags[id] = flags;
    this.table.insert(id, lo, hi, missing);
    return id;
  }

  /**
   * `expectedNodes` (a node limit, when there is one) sizes the arrays and the table up front, so
   * the search does not pause to grow and rehash them.
   */
  constructor(expectedNodes?: number) {
    const nodes = expectedNodes === undefined ? 0 : Math.min(expectedNodes, 1 << 25);
    this.table = new FingerprintTable(nodes);
    if (nodes > 0) this.growNodes(nodes);
  }

  /**
   * Appends the edges of newly expanded nodes (the next in id order), all in one copy: node
   * ids[i] has the records recordEnds[i - 1] .. recordEnds[i] of the given arrays as its edges.
   */
  addExpanded(ids: Int32Array, recordEnds: Uint32Array, target: Int32Array, keys: Uint8Array, cells: Uint16Array, action: Uint16Array): void {
    const base = this.edgeCount;
    for (let i = 0; i < ids.length; i++) {
      this.edgeStart[ids[i]] = base + (i > 0 ? recordEnds[i - 1] : 0);
      this.flags[ids[i]] |= NodeFlag.EXPANDED;
    }
    const count = ids.length > 0 ? recordEnds[ids.length - 1] : 0;
    const need = base + count;
    if (need > this.edgeTarget.length) {
      this.edgeTarget = grown(this.edgeTarget, need);
      this.edgeKeys = grown(this.edgeKeys, need);
      this.edgeCells = grown(this.edgeCells, need);
      this.edgeAction = grown(this.edgeAction, need);
    }
    this.edgeTarget.set(target.subarray(0, count), base);
    this.edgeKeys.set(keys.subarray(0, count), base);
    this.edgeCells.set(cells.subarray(0, count), base);
    this.edgeAction.set(action.subarray(0, count), base);
    this.edgeCount = need;
  }

  /** Bytes held by the store's arrays (allocated, including spare capacity). */
  get bytes(): number {
    const arrays = [this.table.words, this.fpLo, this.fpHi, this.depth, this.parent, this.parentAction, this.flags, this.edgeStart, this.edgeTarget, this.edgeKeys, this.edgeCells, this.edgeAction];
    return arrays.reduce((sum, a) => sum + a.byteLength, 0);
  }

  /** The graph view of the store: views of its arrays (the store must not grow after), with edgeStart completed for unexpanded nodes. */
  graph(actions: readonly PlayerAction[]): StateGraph {
    const n = this.nodeCount;
    const edgeStart = new Int32Array(n + 1);
    edgeStart[n] = this.edgeCount;
    for (let u = n - 1; u >= 0; u--) edgeStart[u] = this.flags[u] & NodeFlag.EXPANDED ? this.edgeStart[u] : edgeStart[u + 1];
    const e = this.edgeCount;
    return {
      nodeCount: n,
      edgeCount: e,
      edgeStart,
      edgeTarget: this.edgeTarget.subarray(0, e),
      edgeKeys: this.edgeKeys.subarray(0, e),
      edgeCells: this.edgeCells.subarray(0, e),
      edgeAction: this.edgeAction.subarray(0, e),
      flags: this.flags.subarray(0, n),
      depth: this.depth.subarray(0, n),
      parent: this.parent.subarray(0, n),
      parentAction: this.parentAction.subarray(0, n),
      fingerprintLo: this.fpLo.subarray(0, n),
      fingerprintHi: this.fpHi.subarray(0, n),
      actions,
    };
  }

  private growNodes(need: number): void {
    this.fpLo = grown(this.fpLo, need);
    this.fpHi = grown(this.fpHi, need);
    this.depth = grown(this.depth, need);
    this.parent = grown(this.parent, need);
    this.parentAction = grown(this.parentAction, need);
    this.flags = grown(this.flags, need);
    // One more slot than the node arrays, which grow by their own length: keep it in step with them.
    this.edgeStart = grown(this.edgeStart, this.fpLo.length + 1);
  }
}
