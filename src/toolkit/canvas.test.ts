import { describe, expect, it } from 'vitest';
import { GRID } from '../engine/actions.js';
import { Camera, Canvas } from './canvas.js';
import { TRANSPARENT } from './palette.js';
import { block, sprite } from './sprite.js';

describe('Camera', () => {
  it.each([
    [5, 5, 12, 2, 2],
    [7, 1, 9, 0, 27],
    [64, 64, 1, 0, 0],
    [8, 8, 8, 0, 0],
    [10, 3, 6, 2, 23],
    [33, 2, 1, 15, 31],
  ])('fits %dx%d with scale %d and letterbox offsets (%d, %d)', (w, h, scale, ox, oy) => {
    const cam = new Camera(w, h);
    expect([cam.scale, cam.offsetX, cam.offsetY]).toEqual([scale, ox, oy]);
    // the largest integer scale that fits, centred
    expect(w * scale <= GRID && h * scale <= GRID).toBe(true);
    expect(w * (scale + 1) > GRID || h * (scale + 1) > GRID).toBe(true);
  });

  it('renders each level cell as a scale x scale block and letterboxes the rest (brute force)', () => {
    for (const [w, h] of [
      [5, 5],
      [7, 1],
      [11, 6],
      [64, 64],
    ]) {
      const canvas = new Canvas(w, h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) canvas.set(x, y, (x * 7 + y * 3) % 16);
      const cam = new Camera(w, h, 4);
      const frame = cam.render(canvas);
      for (let fy = 0; fy < GRID; fy++) {
        for (let fx = 0; fx < GRID; fx++) {
          const lx = Math.floor((fx - cam.offsetX) / cam.scale);
          const ly = Math.floor((fy - cam.offsetY) / cam.scale);
          const inside = fx >= cam.offsetX && fy >= cam.offsetY && lx < w && ly < h;
          expect(frame[fy * GRID + fx]).toBe(inside ? canvas.get(lx, ly) : 4);
          expect(cam.toLevel(fx, fy)).toEqual(inside ? { x: lx, y: ly } : undefined);
        }
      }
    }
  });

  it('cellRect and toLevel are inverse: every cell of a rect maps back to its level cell', () => {
    const cam = new Camera(9, 4);
    let covered = 0;
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 9; x++) {
        const r = cam.cellRect(x, y);
        expect(r.w * r.h).toBe(cam.scale ** 2);
        for (let fy = r.y; fy < r.y + r.h; fy++) for (let fx = r.x; fx < r.x + r.w; fx++) expect(cam.toLevel(fx, fy)).toEqual({ x, y });
        covered += r.w * r.h;
      }
    }
    let inside = 0;
    for (let fy = 0; fy < GRID; fy++) for (let fx = 0; fx < GRID; fx++) if (cam.toLevel(fx, fy)) inside++;
    expect(inside).toBe(covered);
  });
});

describe('Canvas', () => {
  it('layers sprites in draw order, transparent pixels showing what is below, clipped at the edges', () => {
    const canvas = new Canvas(4, 3, 0);
    canvas.draw(block(2, 2, 9), 0, 0);
    canvas.draw(sprite([[TRANSPARENT, 8], [8, TRANSPARENT]]), 1, 1);
    canvas.draw(block(3, 3, 14), 3, 2); // only (3, 2) is inside
    expect([0, 1, 2].map((y) => [0, 1, 2, 3].map((x) => canvas.get(x, y)))).toEqual([
      [9, 9, 0, 0],
      [9, 9, 8, 0],
      [0, 8, 0, 14],
    ]);
  });

  it('fills rectangles and refuses sizes beyond 64x64', () => {
    const canvas = new Canvas(3, 3, 1).fill(1, 1, 5, 5, 2);
    expect([...canvas.pixels]).toEqual([1, 1, 1, 1, 2, 2, 1, 2, 2]);
    expect(() => new Canvas(65, 1)).toThrow('must fit');
    expect(() => new Canvas(0, 1)).toThrow('must fit');
  });
});
