/**
 * The states waiting to be expanded, in id order. Their canonical bytes stay where they arrived
 * (the byte arrays of expansion results, no copy and no object per state) and are dropped array
 * by array once every state in them has been dispatched.
 */
export interface Batch {
  ids: Int32Array;
  states: Uint8Array;
  ends: Uint32Array;
}

export class FrontierQueue {
  /** The byte arrays holding queued states; entries before `firstLive` are released. */
  private chunks: (Uint8Array | undefined)[] = [];
  private firstLive = 0;
  private ids = new Int32Array(1024);
  /** Chunk index and offset of each queued state's bytes, and its length. */
  private chunkOf = new Int32Array(1024);
  private offset = new Uint32Array(1024);
  private length = new Uint32Array(1024);
  private head = 0;
  private tail = 0;
  /** Bytes of the live chunks. */
  private chunkBytes = 0;

  get size(): number {
    return this.tail - this.head;
  }

  /** Memory the queue holds: the byte arrays of its states and its index. */
  get bytes(): number {
    return this.chunkBytes + 16 * this.ids.length;
  }

  /** Queues state `id` with its bytes, source[start..end). Keeps `source`, which must not change afterwards. */
  push(id: number, source: Uint8Array, start = 0, end = source.length): void {
    if (this.chunks[this.chunks.length - 1] !== source) {
      this.chunks.push(source);
      this.chunkBytes += source.byteLength;
    }
    if (this.tail === this.ids.length) this.makeRoom();
    const t = this.tail++;
    this.ids[t] = id;
    this.chunkOf[t] = this.chunks.length - 1;
    this.offset[t] = start;
    this.length[t] = end - start;
  }

  /** Removes the next `count` states (at most), copying their bytes into one buffer. */
  take(count: number): Batch {
    const n = Math.min(count, this.size);
    let total = 0;
    for (let i = 0; i < n; i++) total += this.length[this.head + i];
    const states = new Uint8Array(total);
    const ends = new Uint32Array(n);
    const ids = this.ids.slice(this.head, this.head + n);
    // States queued one after another sit back to back in a chunk: copy them in runs.
    let pos = 0;
    let runChunk = -1;
    let runStart = 0;
    let runEnd = 0;
    const flush = (): void => {
      if (runChunk >= 0) states.set(this.chunks[runChunk]!.subarray(runStart, runEnd), pos - (runEnd - runStart));
    };
    for (let i = 0; i < n; i++) {
      const q = this.head + i;
      if (this.chunkOf[q] !== runChunk || this.offset[q] !== runEnd) {
        flush();
        runChunk = this.chunkOf[q];
        runStart = runEnd = this.offset[q];
      }
      runEnd += this.length[q];
      pos += this.length[q];
      ends[i] = pos;
    }
    flush();
    this.head += n;
    // Release the arrays every remaining state is past.
    const keep = this.size > 0 ? this.chunkOf[this.head] : this.chunks.length;
    for (; this.firstLive < keep; this.firstLive++) {
      this.chunkBytes -= this.chunks[this.firstLive]!.byteLength;
      this.chunks[this.firstLive] = undefined;
    }
    return { ids, states, ends };
  }

  private makeRoom(): void {
    const live = this.size;
    if (this.head > 0 && live * 2 <= this.ids.length) {
      for (const a of [this.ids, this.chunkOf, this.offset, this.length]) a.copyWithin(0, this.head, this.tail);
    } else {
      const cap = this.ids.length * 2;
      const grow = <T extends Int32Array | Uint32Array>(a: T): T => {
        const next = new (a.constructor as new (n: number) => T)(cap);
        next.set(a.subarray(this.head, this.tail));
        return next;
      };
      this.ids = grow(this.ids);
      this.chunkOf = grow(this.chunkOf);
      this.offset = grow(this.offset);
      this.length = grow(this.length);
    }
    this.head = 0;
    this.tail = live;
  }
}
