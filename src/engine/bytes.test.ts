import { describe, expect, it } from 'vitest';
import { ByteReader, ByteWriter } from './bytes.js';

describe('ByteWriter varints', () => {
  it.each([
    [0, [0]],
    [1, [1]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [300, [0xac, 0x02]],
    [16384, [0x80, 0x80, 0x01]],
  ])('writes %d as LEB128 %j', (v, bytes) => {
    expect([...new ByteWriter().uint(v).finish()]).toEqual(bytes);
  });

  it.each([
    [0, 0],
    [-1, 1],
    [1, 2],
    [-2, 3],
    [2, 4],
  ])('zigzags %d to %d', (v, z) => {
    expect([...new ByteWriter().int(v).finish()]).toEqual([...new ByteWriter().uint(z).finish()]);
  });

  it('rejects negative and unsafe unsigned integers', () => {
    expect(() => new ByteWriter().uint(-1)).toThrow(RangeError);
    expect(() => new ByteWriter().uint(2 ** 53)).toThrow(RangeError);
    expect(() => new ByteWriter().uint(1.5)).toThrow(RangeError);
  });
});

describe('ByteWriter/ByteReader round trips', () => {
  it('reads back every kind of field in order, growing past the initial capacity', () => {
    const values = [0, 1, 127, 128, 255, 65535, 2 ** 31, 2 ** 32 + 7, Number.MAX_SAFE_INTEGER];
    const ints = [0, -1, 1, -64, 64, -(2 ** 40), 2 ** 40, -(2 ** 51), 2 ** 51 - 1];
    const blob = Uint8Array.from({ length: 300 }, (_, i) => (i * 37) & 255);
    const w = new ByteWriter(4);
    w.u8(200).bool(true).bool(false);
    for (const v of values) w.uint(v);
    for (const v of ints) w.int(v);
    w.bytes(blob).uints(values).bytes(new Uint8Array(0));
    const r = new ByteReader(w.finish());
    expect(r.u8()).toBe(200);
    expect(r.bool()).toBe(true);
    expect(r.bool()).toBe(false);
    for (const v of values) expect(r.uint()).toBe(v);
    for (const v of ints) expect(r.int()).toBe(v);
    expect(r.bytes()).toEqual(blob);
    expect(r.uints()).toEqual(values);
    expect(r.bytes()).toEqual(new Uint8Array(0));
    expect(r.done).toBe(true);
  });

  it('round-trips random integers (property)', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const v = next() * 2 ** (next() % 20);
      const s = next() % 2 ? -v : v;
      const r = new ByteReader(new ByteWriter().uint(v).int(s).finish());
      expect(r.uint()).toBe(v);
      expect(r.int()).toBe(s);
      expect(r.done).toBe(true);
    }
  });

  it('throws when reading past the end', () => {
    expect(() => new ByteReader(new Uint8Array(0)).u8()).toThrow('past the end');
    expect(() => new ByteReader(Uint8Array.of(0x80)).uint()).toThrow('past the end');
    expect(() => new ByteReader(Uint8Array.of(5, 1, 2)).bytes()).toThrow('past the end');
  });

  it('returns a copy, so later writes do not change finished bytes', () => {
    const w = new ByteWriter(2).u8(1);
    const first = w.finish();
    w.u8(2);
    expect([...first]).toEqual([1]);
  });
});
