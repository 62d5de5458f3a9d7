/**
 * A small map of recently numbered states, fingerprint -> node id, for the coordinator: the
 * states numbered at a record that found them claimed by another batch, which the claimer's own
 * record must then find numbered (see Coordinator.numbered). Ids are added in increasing order;
 * `forgetBelow` says which ids no batch still in flight will ask about, and those entries are
 * dropped at the next rebuild, so the map stays small and in cache. Open addressing with linear
 * probing; a lookup of a dropped entry may still find it, which is harmless (the id is right).
 */
export class RecentIds {
  /** Slots: lo, hi, id + 1 (0 = empty). */
  private slots = new Int32Array(3 * 4096);
  private mask = 4095;
  /** Occupied slots, entries past `oldest` included. */
  private used = 0;
  /** Ids below this may be dropped. */
  private oldest = 0;
  /** The highest id added, plus one. */
  private end = 0;
  /** One bit per value of 16 bits of a fingerprint's low half, set for each entry: most lookups miss, and stop here. */
  private filter = new Int32Array(2048);

  /** Bytes held. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  /** The id of this fingerprint, or -1. */
  get(lo: number, hi: number): number {
    const { slots, mask } = this;
    // The words are Int32: compare the halves as signed.
    lo |= 0;
    hi |= 0;
    const bit = lo >>> 16;
    if ((this.filter[bit >>> 5] & (1 << (bit & 31))) === 0) return -1;
    for (let s = (lo ^ (hi >>> 7)) & mask; ; s = (s + 1) & mask) {
      const id = slots[3 * s + 2];
      if (id === 0) return -1;
      if (slots[3 * s] === lo && slots[3 * s + 1] === hi) return id - 1;
    }
  }

  /** Adds a fingerprint known to be absent, with an id above every id added before. */
  add(lo: number, hi: number, id: number): void {
    // Rebuild when half full, or when most entries are past `oldest` (it shrinks back then).
    if ((this.used + 1) * 2 > this.mask + 1) this.rebuild();
    this.insert(lo | 0, hi | 0, id);
    this.used++;
    this.end = id + 1;
  }

  /** Ids below `id` will not be looked up again: their entries may go. */
  forgetBelow(id: number): void {
    this.oldest = Math.max(this.oldest, id);
  }

  private insert(lo: number, hi: number, id: number): void {
    const { slots, mask } = this;
    let s = (lo ^ (hi >>> 7)) & mask;
    while (slots[3 * s + 2] !== 0) s = (s + 1) & mask;
    slots[3 * s] = lo;
    slots[3 * s + 1] = hi;
    slots[3 * s + 2] = id + 1;
    const bit = lo >>> 16;
    this.filter[bit >>> 5] |= 1 << (bit & 31);
  }

  /** Keeps the entries at or above `oldest`, in a table four times their number (so rebuilds stay rare). */
  private rebuild(): void {
    const old = this.slots;
    let live = 0;
    for (let s = 2; s < old.length; s += 3) if (old[s] > this.oldest) live++;
    let size = 4096;
    while (size < 4 * (live + 1)) size *= 2;
    this.slots = new Int32Array(3 * size);
    this.mask = size - 1;
    this.used = 0;
    this.filter.fill(0);
    for (let s = 0; s < old.length; s += 3) {
      if (old[s + 2] > this.oldest) {
        this.insert(old[s], old[s + 1], old[s + 2] - 1);
        this.used++;
      }
    }
  }
}
