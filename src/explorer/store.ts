import { NodeFlag, type StateGraph } from './graph.js';
import type { PlayerAction } from '../engine/actions.js';

/** Growth factor of the typed arrays: 1.5 keeps the unused tail to a quarter on average. */
const GROW = 1.5;

/** Words per hash-table slot: node id + 1 (0 = empty), fingerprint high half, low half. */
const SLOT = 3;

function grown<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(a: T, need: number): T {
  if (need <= a.length) return a;
  const next = new (a.constructor as new (n: number) => T)(Math.max(need, Math.ceil(a.length * GROW), 1024));
  next.set(a);
  return next;
}

/**
 * The explorer's compact store: nodes keyed by 64-bit fingerprint in an open-addressing table of
 * node ids, per-node typed arrays (fingerprint, depth, BFS parent and action, flags) and CSR edge
 * arrays appended as nodes are expanded in id order. About 35 bytes a node plus 9 an edge.
 */
export class Store {
  nodeCount = 0;
  edgeCount = 0;
  /**
   * Open addressing on the fingerprint's low bits, linear probing. A slot holds the node id + 1
   * (0 = empty) and both fingerprint halves, so a probe touches one place in memory and never the
   * node arrays: the coordinator's merge is bound by these cache misses.
   */
  private table = new Uint32Array(SLOT << 12);
  private mask = (1 << 12) - 1;
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

  /** The empty slot where the last unsuccessful `find` stopped, and for which fingerprint: `add` fills it without probing again. */
  private freeSlot = -1;
  private freeLo = 0;
  private freeHi = 0;

  /** The node with this fingerprint, or -1. */
  find(lo: number, hi: number): number {
    const { table, mask } = this;
    for (let slot = lo & mask; ; slot = (slot + 1) & mask) {
      const entry = table[SLOT * slot];
      if (entry === 0) {
        this.freeSlot = slot;
        this.freeLo = lo;
        this.freeHi = hi;
        return -1;
      }
      if (table[SLOT * slot + 1] === hi && table[SLOT * slot + 2] === lo) return entry - 1;
    }
  }

  /** Adds a node (the caller checked it is new) and returns its id; fastest right after `find` returned -1 for it. */
  add(lo: number, hi: number, depth: number, parent: number, parentAction: number, flags: number): number {
    const id = this.nodeCount++;
    if (id >= this.fpLo.length) this.growNodes(id + 1);
    this.fpLo[id] = lo;
    this.fpHi[id] = hi;
    this.depth[id] = depth;
    this.parent[id] = parent;
    this.parentAction[id] = parentAction;
    this.flags[id] = flags;
    const slot = this.freeSlot;
    this.freeSlot = -1;
    if (this.nodeCount * 10 * SLOT > this.table.length * 7) {
      this.rehash();
    } else if (slot >= 0 && this.freeLo === lo && this.freeHi === hi) {
      this.table[SLOT * slot] = id + 1;
      this.table[SLOT * slot + 1] = hi;
      this.table[SLOT * slot + 2] = lo;
    } else {
      this.place(id);
    }
    return id;
  }

  /**
   * `expectedNodes` (a node limit, when there is one) sizes the arrays and the table up front, so
   * the search does not pause to grow and rehash them.
   */
  constructor(expectedNodes?: number) {
    if (expectedNodes === undefined) return;
    const nodes = Math.min(expectedNodes, 1 << 25);
    this.growNodes(nodes);
    let slots = this.table.length / SLOT;
    while (nodes * 10 > slots * 7) slots *= 2;
    this.table = new Uint32Array(SLOT * slots);
    this.mask = slots - 1;
  }

  /** Starts the edge list of node `u`: call before `addEdge` for it (nodes expand in id order). */
  beginEdges(u: number): void {
    this.edgeStart[u] = this.edgeCount;
    this.flags[u] |= NodeFlag.EXPANDED;
  }

  addEdge(target: number, keys: number, cells: number, action: number): void {
    const e = this.edgeCount++;
    if (e >= this.edgeTarget.length) {
      this.edgeTarget = grown(this.edgeTarget, e + 1);
      this.edgeKeys = grown(this.edgeKeys, e + 1);
      this.edgeCells = grown(this.edgeCells, e + 1);
      this.edgeAction = grown(this.edgeAction, e + 1);
    }
    this.edgeTarget[e] = target;
    this.edgeKeys[e] = keys;
    this.edgeCells[e] = cells;
    this.edgeAction[e] = action;
  }

  /** Bytes held by the store's arrays (allocated, including spare capacity). */
  get bytes(): number {
    const arrays = [this.table, this.fpLo, this.fpHi, this.depth, this.parent, this.parentAction, this.flags, this.edgeStart, this.edgeTarget, this.edgeKeys, this.edgeCells, this.edgeAction];
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

  private place(id: number): void {
    const { table, mask } = this;
    let slot = this.fpLo[id] & mask;
    while (table[SLOT * slot] !== 0) slot = (slot + 1) & mask;
    table[SLOT * slot] = id + 1;
    table[SLOT * slot + 1] = this.fpHi[id];
    table[SLOT * slot + 2] = this.fpLo[id];
  }

  /** Doubles the table when it is 70% full. */
  private rehash(): void {
    this.table = new Uint32Array(this.table.length * 2);
    this.mask = this.table.length / SLOT - 1;
    for (let id = 0; id < this.nodeCount; id++) this.place(id);
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
