import { TRANSPARENT } from './palette.js';

/** A small picture: rows of colour indices, TRANSPARENT (-1) where the background shows through. */
export interface Sprite {
  readonly w: number;
  readonly h: number;
  readonly pixels: Int8Array;
}

/** Builds a sprite from rows of colour indices (-1 transparent). */
export function sprite(rows: readonly (readonly number[])[]): Sprite {
  const h = rows.length;
  const w = h ? rows[0].length : 0;
  const pixels = new Int8Array(w * h);
  rows.forEach((row, y) => {
    if (row.length !== w) throw new Error(`sprite row ${y} has ${row.length} pixels, expected ${w}`);
    row.forEach((c, x) => (pixels[y * w + x] = c));
  });
  return { w, h, pixels };
}

/** A solid rectangle sprite. */
export function block(w: number, h: number, colour: number): Sprite {
  return { w, h, pixels: new Int8Array(w * h).fill(colour) };
}

/** Sprite rotated a quarter turn clockwise, `turns` times. */
export function rotate(s: Sprite, turns = 1): Sprite {
  let cur = s;
  for (let t = ((turns % 4) + 4) % 4; t > 0; t--) {
    const out = new Int8Array(cur.w * cur.h);
    for (let y = 0; y < cur.h; y++) for (let x = 0; x < cur.w; x++) out[x * cur.h + (cur.h - 1 - y)] = cur.pixels[y * cur.w + x];
    cur = { w: cur.h, h: cur.w, pixels: out };
  }
  return cur;
}

/** True when the opaque pixels of two placed sprites overlap (pixel-exact collision). */
export function collides(a: Sprite, ax: number, ay: number, b: Sprite, bx: number, by: number): boolean {
  const x0 = Math.max(ax, bx);
  const x1 = Math.min(ax + a.w, bx + b.w);
  const y0 = Math.max(ay, by);
  const y1 = Math.min(ay + a.h, by + b.h);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (a.pixels[(y - ay) * a.w + (x - ax)] !== TRANSPARENT && b.pixels[(y - by) * b.w + (x - bx)] !== TRANSPARENT) return true;
    }
  }
  return false;
}
