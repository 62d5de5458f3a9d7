/**
 * The storage of a sparse elimination (elimination.ts): rows of (column, BigInt) entries in one
 * growable pool, per-column lists of the rows that hold an entry, and the pivot heap. Typed arrays
 * throughout, but for the BigInt values, whose plain array is capped by the budget's `maxFill`.
 */
import { BudgetExceeded } from './rational.js';

/** Growable typed and plain arrays: entries of rows (column, value) appended, dead ones dropped on growth. */
export class RowPool {
  col: Int32Array;
  val: bigint[];
  readonly start: Int32Array;
  readonly len: Int32Array;
  top = 0;
  live = 0;
  constructor(
    m: number,
    capacity: number,
    private readonly maxFill: number,
  ) {
    this.col = new Int32Array(capacity);
    this.val = new Array<bigint>(capacity);
    this.start = new Int32Array(m);
    this.len = new Int32Array(m);
  }
  /** Room for `need` more entries at `top`, moving the live rows to fresh arrays when full. */
  reserve(need: number): void {
    if (this.top + need <= this.col.length) return;
    if (this.live + need > this.maxFill) throw new BudgetExceeded(`the elimination outgrew ${this.maxFill} stored numbers`);
    const capacity = Math.min(2 * this.maxFill, Math.max(this.col.length, 2 * (this.live + need)));
    const col = new Int32Array(capacity);
    const val = new Array<bigint>(capacity);
    let top = 0;
    for (let i = 0; i < this.start.length; i++) {
      const s = this.start[i];
      const l = this.len[i];
      col.set(this.col.subarray(s, s + l), top);
      for (let t = 0; t < l; t++) val[top + t] = this.val[s + t];
      this.start[i] = top;
      top += l;
    }
    this.col = col;
    this.val = val;
    this.top = top;
  }
}

/** Per-column lists of the rows that hold an entry there (stale entries are skipped when read). */
export class ColumnLists {
  row: Int32Array;
  readonly start: Int32Array;
  readonly len: Int32Array;
  readonly cap: Int32Array;
  top = 0;
  constructor(m: number, capacity: number) {
    this.row = new Int32Array(capacity);
    this.start = new Int32Array(m);
    this.len = new Int32Array(m);
    this.cap = new Int32Array(m);
  }
  add(j: number, i: number): void {
    if (this.len[j] === this.cap[j]) this.grow(j);
    this.row[this.start[j] + this.len[j]++] = i;
  }
  /** Moves list j to the end with twice the room (compacting every list when the array is full). */
  private grow(j: number): void {
    const cap = Math.max(4, 2 * this.cap[j]);
    if (this.top + cap > this.row.length) {
      let live = cap;
      for (let c = 0; c < this.start.length; c++) live += this.cap[c];
      const row = new Int32Array(Math.max(this.row.length, 2 * live));
      let top = 0;
      for (let c = 0; c < this.start.length; c++) {
        row.set(this.row.subarray(this.start[c], this.start[c] + this.len[c]), top);
        this.start[c] = top;
        top += this.cap[c];
      }
      this.row = row;
      this.top = top;
    }
    this.row.copyWithin(this.top, this.start[j], this.start[j] + this.len[j]);
    this.start[j] = this.top;
    this.cap[j] = cap;
    this.top += cap;
  }
}

/** A binary min-heap of (cost, node), ties to the smaller node: the pivot order is deterministic. */
export class PivotHeap {
  private key = new Float64Array(1024);
  private node = new Int32Array(1024);
  size = 0;
  private less(a: number, b: number): boolean {
    return this.key[a] < this.key[b] || (this.key[a] === this.key[b] && this.node[a] < this.node[b]);
  }
  private swap(a: number, b: number): void {
    const k = this.key[a];
    this.key[a] = this.key[b];
    this.key[b] = k;
    const n = this.node[a];
    this.node[a] = this.node[b];
    this.node[b] = n;
  }
  push(cost: number, v: number): void {
    if (this.size === this.key.length) {
      const key = new Float64Array(2 * this.size);
      key.set(this.key);
      this.key = key;
      const node = new Int32Array(2 * this.size);
      node.set(this.node);
      this.node = node;
    }
    let i = this.size++;
    this.key[i] = cost;
    this.node[i] = v;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (!this.less(i, up)) break;
      this.swap(i, up);
      i = up;
    }
  }
  /** Removes the least entry; `topCost`/`topNode` held it. */
  topCost = 0;
  topNode = 0;
  pop(): void {
    this.topCost = this.key[0];
    this.topNode = this.node[0];
    const last = --this.size;
    this.key[0] = this.key[last];
    this.node[0] = this.node[last];
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= last) break;
      const c = l + 1 < last && this.less(l + 1, l) ? l + 1 : l;
      if (!this.less(c, i)) break;
      this.swap(c, i);
      i = c;
    }
  }
}

/** Sorts entries [s, s+l) of the pool by column (rows of a state graph are short: insertion sort). */
export function sortRow(pool: RowPool, s: number, l: number): void {
  const { col, val } = pool;
  for (let a = s + 1; a < s + l; a++) {
    const c = col[a];
    const v = val[a];
    let b = a - 1;
    while (b >= s && col[b] > c) {
      col[b + 1] = col[b];
      val[b + 1] = val[b];
      b--;
    }
    col[b + 1] = c;
    val[b + 1] = v;
  }
}
