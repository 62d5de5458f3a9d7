/**
 * The states waiting to be expanded, in id order: their canonical bytes in an arena of large
 * chunks (no object per state), dropped chunk by chunk once dispatched.
 */
const CHUNK = 1 << 20;

export interface Batch {
  ids: Int32Array;
  states: Uint8Array;
  ends: Uint32Array;
}

export class FrontierQueue {
  private chunks: (Uint8Array | undefined)[] = [];
  private writeChunk = -1;
  private writePos = CHUNK;
  private ids = new Int32Array(1024);
  /** Chunk index and offset of each queued state's bytes, and its length. */
  private chunkOf = new Int32Array(1024);
  private offset = new Uint32Array(1024);
  private length = new Uint32Array(1024);
  private head = 0;
  private tail = 0;

  get size(): number {
    return this.tail - this.head;
  }

  /** Queues state `id` with its bytes, source[start..end). */
  push(id: number, source: Uint8Array, start = 0, end = source.length): void {
    const length = end - start;
    if (this.writePos + length > (this.chunks[this.writeChunk]?.length ?? 0)) {
      this.chunks.push(new Uint8Array(Math.max(CHUNK, length)));
      this.writeChunk = this.chunks.length - 1;
      this.writePos = 0;
    }
    const chunk = this.chunks[this.writeChunk]!;
    // Most states are a few dozen bytes: a plain loop beats making a subarray for set().
    if (length < 128) for (let i = 0; i < length; i++) chunk[this.writePos + i] = source[start + i];
    else chunk.set(source.subarray(start, end), this.writePos);
    if (this.tail === this.ids.length) this.makeRoom();
    const t = this.tail++;
    this.ids[t] = id;
    this.chunkOf[t] = this.writeChunk;
    this.offset[t] = this.writePos;
    this.length[t] = length;
    this.writePos += length;
  }

  /** Removes the next `count` states (at most), copying their bytes into one transferable buffer. */
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
    // Free the chunks every remaining state is past.
    const keep = this.size > 0 ? this.chunkOf[this.head] : this.writeChunk;
    for (let c = 0; c < keep; c++) this.chunks[c] = undefined;
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
