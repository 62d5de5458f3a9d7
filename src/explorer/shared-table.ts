/**
 * The explorer's fingerprint table, shared by the coordinator and its worker threads: a lockless
 * open-addressing hash set of 64-bit fingerprints in SharedArrayBuffers (the way LTSmin's table and
 * TLC's FPSet work), so a worker learns on its own whether a successor is new.
 *
 * A slot is three 32-bit words: a tag, then the fingerprint's low and high halves. The tag says
 * EMPTY, CLAIMING (a thread is writing the fingerprint), a ticket (claimed by a worker: its name
 * for the state, whose node id the coordinator writes elsewhere, see tickets.ts) or id + ID_BASE
 * (inserted by the coordinator, which numbers as it inserts). A thread claims an empty slot with
 * Atomics.compareExchange on the tag, writes the fingerprint, then publishes its ticket; a reader
 * that meets CLAIMING waits for it. A tag, once published, never changes.
 *
 * Home slots are the fingerprint's low half scaled to the capacity (not masked), so the capacity
 * needs not be a power of two: the table grows by a quarter (load stays between 0.6 and 0.75, not
 * 0.375 and 0.75 as doubling would leave it), and a grown table keeps its entries in the same order
 * (the rehash writes sequentially).
 * Slots live in pages of 2^26 (768 MB), as one typed array holds at most 2^32 elements.
 */
export const EMPTY = 0;
export const CLAIMING = 1;
/** A tag at or above ID_BASE holds the node id tag - ID_BASE; a negative tag holds the ticket -1 - tag. */
export const ID_BASE = 2;
/** Node ids are Int32 and tags hold id + ID_BASE: the most nodes a table can number. */
export const MAX_NODES = 2 ** 31 - 1 - ID_BASE;

const WORDS = 3;
const PAGE_BITS = 26;
const PAGE_SLOTS = 2 ** PAGE_BITS;
const PAGE_MASK = PAGE_SLOTS - 1;

/** Counter words: claims reserved (an upper bound on the slots in use), then the reservation limit. */
const RESERVED = 0;
const LIMIT = 1;

/** Claims a thread reserves at most at a time (one atomic add on the shared counter per block, not per claim). */
export const RESERVE_BLOCK = 1024;

/** What a worker needs to use the table: plain data and SharedArrayBuffers, cloned by postMessage. */
export interface TableHandle {
  pages: SharedArrayBuffer[];
  counter: SharedArrayBuffer;
  capacity: number;
}

/** Result codes of `claim`, besides an id (>= 0): this call claimed the slot, or found another claim's ticket there (in `ticket`). */
export const CLAIMED = -1;
export const FOUND_TICKET = -2;
const ABSENT = -3;

export class SharedTable {
  readonly capacity: number;
  private readonly pages: Int32Array[];
  private readonly counter: Int32Array;
  private readonly scale: number;
  /** The slot the last `claim` or `find` stopped at. */
  slot = 0;
  /** The ticket the last `claim` that returned FOUND_TICKET found. */
  ticket = 0;
  /** Claims this thread may still make without touching the shared counter. */
  private reserved = 0;
  /**
   * Claims reserved at a time: at most 1/256 of the slots, so that blocks held by other threads
   * never fill a small table (the 15% between growth and the limit) before its claims do.
   */
  private readonly block: number;

  constructor(readonly handle: TableHandle) {
    this.capacity = handle.capacity;
    this.pages = handle.pages.map((b) => new Int32Array(b));
    this.counter = new Int32Array(handle.counter);
    this.scale = handle.capacity / 2 ** 32;
    this.block = Math.max(1, Math.min(RESERVE_BLOCK, handle.capacity >>> 8));
  }

  /** A new empty table of `capacity` slots; claims are refused past `limit` (a share of the capacity). */
  static create(capacity: number, limit = Math.floor(capacity * 0.9)): SharedTable {
    const pages: SharedArrayBuffer[] = [];
    for (let first = 0; first < capacity; first += PAGE_SLOTS) pages.push(new SharedArrayBuffer(WORDS * 4 * Math.min(PAGE_SLOTS, capacity - first)));
    const counter = new SharedArrayBuffer(8);
    new Int32Array(counter)[LIMIT] = limit;
    return new SharedTable({ pages, counter, capacity });
  }

  /** Bytes of the slots. */
  get bytes(): number {
    return WORDS * 4 * this.capacity;
  }

  /**
   * Bytes of the slots the system has committed, about: a 4 KB page is committed when first
   * written, and claims land on uniformly spread slots, so a page stays untouched with probability
   * e^-(claims a page). A table sized for a node limit far above the states found is mostly untouched.
   */
  get residentBytes(): number {
    const pages = this.bytes / 4096;
    return this.bytes * (1 - Math.exp(-this.claims / pages));
  }

  /** Claims reserved so far by every thread (an upper bound on the slots in use). */
  get claims(): number {
    return Atomics.load(this.counter, RESERVED);
  }

  private home(lo: number): number {
    return Math.min(this.capacity - 1, Math.floor((lo >>> 0) * this.scale));
  }

  /**
   * Reserves room for `count` claims before they are made (so the table never fills past its
   * limit, whatever the threads do at once). False when the limit would be passed: the caller
   * then claims nothing more until the table has grown.
   */
  reserve(count: number): boolean {
    if (count <= this.reserved) return true;
    const need = count - this.reserved;
    // A block at a time, or near the limit just what is needed.
    for (const block of need < this.block ? [this.block, need] : [need]) {
      if (Atomics.add(this.counter, RESERVED, block) + block <= Atomics.load(this.counter, LIMIT)) {
        this.reserved += block;
        return true;
      }
      Atomics.sub(this.counter, RESERVED, block);
    }
    return false;
  }

  /** Gives back what this thread reserved and did not claim (at the end of a batch). */
  release(): void {
    if (this.reserved > 0) Atomics.sub(this.counter, RESERVED, this.reserved);
    this.reserved = 0;
  }

  /**
   * Looks the fingerprint up, claiming an empty slot for it under `ticket` (>= 0) when absent
   * (within a reservation). Returns its node id (>= 0), FOUND_TICKET (claimed under
   * `this.ticket`) or CLAIMED (this call claimed it); `slot` is where it is.
   */
  claim(lo: number, hi: number, ticket: number): number {
    return this.probe(lo, hi, -1 - ticket);
  }

  /** The fingerprint's slot, or -1 (no claim). */
  find(lo: number, hi: number): number {
    return this.probe(lo, hi, EMPTY) === ABSENT ? -1 : this.slot;
  }

  /** The probe sequence from the fingerprint's home slot, to its slot or the first empty one (claimed with tag `claim`, or ABSENT when that is EMPTY). */
  private probe(lo: number, hi: number, claim: number): number {
    const { pages, capacity } = this;
    let slot = this.home(lo);
    // The words are Int32: compare the halves as signed.
    lo |= 0;
    hi |= 0;
    for (;;) {
      const page = pages[slot >>> PAGE_BITS];
      const at = WORDS * (slot & PAGE_MASK);
      let tag = Atomics.load(page, at);
      if (tag === EMPTY) {
        if (claim === EMPTY) return ABSENT;
        tag = Atomics.compareExchange(page, at, EMPTY, CLAIMING);
        if (tag === EMPTY) {
          page[at + 1] = lo;
          page[at + 2] = hi;
          Atomics.store(page, at, claim);
          this.reserved--;
          this.slot = slot;
          return CLAIMED;
        }
      }
      if (tag === CLAIMING) tag = waitClaimed(page, at);
      if (page[at + 1] === lo && page[at + 2] === hi) {
        this.slot = slot;
        if (tag >= ID_BASE) return tag - ID_BASE;
        this.ticket = -1 - tag;
        return FOUND_TICKET;
      }
      slot = slot + 1 === capacity ? 0 : slot + 1;
    }
  }

  /**
   * For a coordinator that alone writes the table (no thread claims, so every tag is an id):
   * the fingerprint's node id, or -1 - the empty slot where it goes. Plain reads, one probe.
   */
  lookup(lo: number, hi: number): number {
    const { pages, capacity } = this;
    let slot = this.home(lo);
    lo |= 0;
    hi |= 0;
    for (;;) {
      const page = pages[slot >>> PAGE_BITS];
      const at = WORDS * (slot & PAGE_MASK);
      const tag = page[at];
      if (tag === EMPTY) return -1 - slot;
      if (page[at + 1] === lo && page[at + 2] === hi) return tag - ID_BASE;
      slot = slot + 1 === capacity ? 0 : slot + 1;
    }
  }

  /** The tag at the fingerprint's home slot, read only to bring its cache line in ahead of a lookup. */
  touch(lo: number): number {
    const slot = this.home(lo);
    return this.pages[slot >>> PAGE_BITS][WORDS * (slot & PAGE_MASK)];
  }

  /** Stores a new fingerprint with its id at the slot `lookup` returned (the coordinator alone; no atomics). */
  insertAt(slot: number, lo: number, hi: number, id: number): void {
    const page = this.pages[slot >>> PAGE_BITS];
    const at = WORDS * (slot & PAGE_MASK);
    page[at] = id + ID_BASE;
    page[at + 1] = lo;
    page[at + 2] = hi;
    this.counter[RESERVED]++;
  }

  /** The tag of a slot (ID_BASE + id, or -1 - ticket). */
  tag(slot: number): number {
    return Atomics.load(this.pages[slot >>> PAGE_BITS], WORDS * (slot & PAGE_MASK));
  }

  /** Calls `fn(lo, hi, tag)` for every occupied slot, in slot order (halves unsigned, as fingerprints are). */
  forEach(fn: (lo: number, hi: number, tag: number) => void): void {
    for (const page of this.pages) {
      for (let at = 0; at < page.length; at += WORDS) if (page[at] !== EMPTY) fn(page[at + 1] >>> 0, page[at + 2] >>> 0, page[at]);
    }
  }

  /**
   * A copy with `capacity` slots, holding the same entries, each tag as `retag` gives it (no
   * thread may use this table meanwhile). Reading the old slots in order, homes rise with them, so
   * the new table is written front to back, not at random.
   */
  grown(capacity: number, retag: (tag: number) => number = (tag) => tag, limit = Math.floor(capacity * 0.9)): SharedTable {
    const next = SharedTable.create(capacity, limit);
    let count = 0;
    this.forEach((lo, hi, tag) => {
      next.put(lo, hi, retag(tag));
      count++;
    });
    next.counter[RESERVED] = count;
    return next;
  }

  /** Stores an entry known to be absent (single-threaded: while rebuilding). */
  private put(lo: number, hi: number, tag: number): void {
    let slot = this.home(lo);
    for (;;) {
      const page = this.pages[slot >>> PAGE_BITS];
      const at = WORDS * (slot & PAGE_MASK);
      if (page[at] === EMPTY) {
        page[at] = tag;
        page[at + 1] = lo;
        page[at + 2] = hi;
        return;
      }
      slot = slot + 1 === this.capacity ? 0 : slot + 1;
    }
  }
}

/**
 * Waits out a claim in progress: the claiming thread writes two words and publishes, so this is
 * nanoseconds, unless that thread was descheduled in between (more threads than cores): then
 * sleep in short waits rather than spin a whole time slice.
 */
function waitClaimed(page: Int32Array, at: number): number {
  for (let spins = 0; ; spins++) {
    const tag = Atomics.load(page, at);
    if (tag !== CLAIMING) return tag;
    if (spins > 256) Atomics.wait(page, at, CLAIMING, 1);
  }
}
