import { describe, expect, it } from 'vitest';
import { TRANSPARENT } from './palette.js';
import { block, collides, rotate, sprite, type Sprite } from './sprite.js';

const rows = (s: Sprite): number[][] => Array.from({ length: s.h }, (_, y) => Array.from(s.pixels.subarray(y * s.w, (y + 1) * s.w)));

describe('sprite', () => {
  it('builds from rows and rejects ragged rows', () => {
    const s = sprite([[1, 2, 3], [4, 5, TRANSPARENT]]);
    expect([s.w, s.h]).toEqual([3, 2]);
    expect(rows(s)).toEqual([[1, 2, 3], [4, 5, -1]]);
    expect(() => sprite([[1, 2], [3]])).toThrow('row 1');
  });
});

describe('rotate', () => {
  const s = sprite([[1, 2, 3], [4, 5, 6]]);

  it('turns a quarter clockwise', () => {
    expect(rows(rotate(s))).toEqual([[4, 1], [5, 2], [6, 3]]);
    expect(rows(rotate(s, 2))).toEqual([[6, 5, 4], [3, 2, 1]]);
  });

  it('is the identity after four turns, and negative turns go the other way', () => {
    expect(rows(rotate(s, 4))).toEqual(rows(s));
    expect(rows(rotate(s, -1))).toEqual(rows(rotate(s, 3)));
    expect(rows(rotate(rotate(s), -1))).toEqual(rows(s));
  });
});

describe('collides', () => {
  it('agrees with the intersection of opaque pixel sets (brute force over random sprites)', () => {
    let seed = 99;
    const rand = (n: number) => (seed = (seed * 16807) % 2147483647) % n;
    const randomSprite = (): Sprite => {
      const w = 1 + rand(4);
      const h = 1 + rand(4);
      return sprite(Array.from({ length: h }, () => Array.from({ length: w }, () => (rand(3) === 0 ? TRANSPARENT : rand(16)))));
    };
    const opaque = (s: Sprite, ox: number, oy: number): Set<string> => {
      const cells = new Set<string>();
      for (let y = 0; y < s.h; y++) for (let x = 0; x < s.w; x++) if (s.pixels[y * s.w + x] !== TRANSPARENT) cells.add(`${ox + x},${oy + y}`);
      return cells;
    };
    let hits = 0;
    for (let i = 0; i < 2000; i++) {
      const a = randomSprite();
      const b = randomSprite();
      const [ax, ay, bx, by] = [rand(6), rand(6), rand(6), rand(6)];
      const cellsA = opaque(a, ax, ay);
      const expected = [...opaque(b, bx, by)].some((c) => cellsA.has(c));
      expect(collides(a, ax, ay, b, bx, by)).toBe(expected);
      if (expected) hits++;
    }
    expect(hits).toBeGreaterThan(100);
    expect(hits).toBeLessThan(1900);
  });

  it('ignores overlapping bounding boxes whose opaque pixels miss each other', () => {
    const diag = sprite([[1, TRANSPARENT], [TRANSPARENT, 1]]);
    const anti = sprite([[TRANSPARENT, 2], [2, TRANSPARENT]]);
    expect(collides(diag, 0, 0, anti, 0, 0)).toBe(false);
    expect(collides(diag, 0, 0, block(1, 1, 3), 1, 1)).toBe(true);
  });
});
