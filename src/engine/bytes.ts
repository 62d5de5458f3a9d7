/**
 * Building blocks for canonical `encode`/`decode`: fields are written in a fixed order, integers
 * as unsigned LEB128 varints, so equal states give identical bytes whatever built them.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private len = 0;

  constructor(capacity = 64) {
    this.buf = new Uint8Array(capacity);
  }

  private room(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }

  u8(v: number): this {
    this.room(1);
    this.buf[this.len++] = v;
    return this;
  }

  /** Non-negative integer up to 2^53. */
  uint(v: number): this {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`uint out of range: ${v}`);
    this.room(8);
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.len++] = v;
    return this;
  }

  /** Signed integer, zigzag-encoded. */
  int(v: number): this {
    return this.uint(v < 0 ? -2 * v - 1 : 2 * v);
  }

  bool(v: boolean): this {
    return this.u8(v ? 1 : 0);
  }

  /** Length-prefixed bytes. */
  bytes(v: ArrayLike<number>): this {
    this.uint(v.length);
    this.room(v.length);
    this.buf.set(v, this.len);
    this.len += v.length;
    return this;
  }

  /** Length-prefixed list of non-negative integers. */
  uints(v: ArrayLike<number>): this {
    this.uint(v.length);
    for (let i = 0; i < v.length; i++) this.uint(v[i]);
    return this;
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.len);
  }
}

export class ByteReader {
  private pos = 0;

  constructor(private readonly buf: Uint8Array) {}

  u8(): number {
    if (this.pos >= this.buf.length) throw new RangeError('read past the end of the state bytes');
    return this.buf[this.pos++];
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.u8();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 1 ? -(z + 1) / 2 : z / 2;
  }

  bool(): boolean {
    return this.u8() !== 0;
  }

  bytes(): Uint8Array {
    const n = this.uint();
    if (this.pos + n > this.buf.length) throw new RangeError('read past the end of the state bytes');
    const out = this.buf.slice(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  uints(): number[] {
    const n = this.uint();
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.uint();
    return out;
  }

  get done(): boolean {
    return this.pos === this.buf.length;
  }
}
