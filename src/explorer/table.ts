/**
 * The fingerprint -> node id hash table of the explorer's store. Open addressing on the
 * fingerprint's low bits, linear probing; a slot is three words: node id + 1 (0 = empty),
 * fingerprint high half, low half, so a probe touches one place in memory.
 */
const SLOT = 3;

export class FingerprintTable {
  /** The slots; replaced when the table grows. */
  words: Uint32Array;
  private mask: number;
  private count = 0;

  /** Room for `expected` entries before the first growth. */
  constructor(expected = 0) {
    let slots = 1 << 12;
    while (expected * 10 > slots * 7) slots *= 2;
    this.words = new Uint32Array(SLOT * slots);
    this.mask = slots - 1;
  }

  get size(): number {
    return this.count;
  }

  /**
   * The id stored for this fingerprint, or, when it is absent, -1 - the empty slot it would take:
   * `insert` then fills that slot without probing again (the probe is a cache miss in a big table).
   */
  lookup(lo: number, hi: number): number {
    const { words, mask } = this;
    for (let slot = lo & mask; ; slot = (slot + 1) & mask) {
      const entry = words[SLOT * slot];
      if (entry === 0) return -1 - slot;
      if (words[SLOT * slot + 1] === hi && words[SLOT * slot + 2] === lo) return entry - 1;
    }
  }

  /** The id stored for this fingerprint, or -1. */
  find(lo: number, hi: number): number {
    return Math.max(-1, this.lookup(lo, hi));
  }

  /**
   * Stores `id` for a fingerprint the caller knows is absent. `missing` is what `lookup` returned
   * for it, when nothing was inserted since.
   */
  insert(id: number, lo: number, hi: number, missing?: number): void {
    if (++this.count * 10 > (this.mask + 1) * 7) {
      this.grow();
      missing = undefined;
    }
    this.fill(missing === undefined ? this.emptySlot(lo) : -1 - missing, id + 1, hi, lo);
  }

  /** The first empty slot of the probe sequence from `lo`'s home slot. */
  private emptySlot(lo: number): number {
    let slot = lo & this.mask;
    while (this.words[SLOT * slot] !== 0) slot = (slot + 1) & this.mask;
    return slot;
  }

  private fill(slot: number, entry: number, hi: number, lo: number): void {
    this.words[SLOT * slot] = entry;
    this.words[SLOT * slot + 1] = hi;
    this.words[SLOT * slot + 2] = lo;
  }

  /** Doubles the slots. */
  private grow(): void {
    const old = this.words;
    const slots = 2 * (this.mask + 1);
    this.words = new Uint32Array(SLOT * slots);
    this.mask = slots - 1;
    for (let s = 0; s < old.length; s += SLOT) if (old[s] !== 0) this.fill(this.emptySlot(old[s + 2]), old[s], old[s + 1], old[s + 2]);
  }
}
