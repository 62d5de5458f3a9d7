import { GRID } from '../engine/index.js';
import type { Frame } from '../engine/index.js';
import { TRANSPARENT } from './palette.js';
import type { Sprite } from './sprite.js';

/**
 * A level-sized drawing surface (any size up to 64x64): sprites are layered in draw order, later
 * ones on top, transparent pixels leave what is below. A camera turns it into a 64x64 frame.
 */
export class Canvas {
  readonly pixels: Uint8Array;

  constructor(
    readonly w: number,
    readonly h: number,
    background = 0,
  ) {
    if (w < 1 || h < 1 || w > GRID || h > GRID) throw new Error(`canvas ${w}x${h} must fit in 64x64`);
    this.pixels = new Uint8Array(w * h).fill(background);
  }

  set(x: number, y: number, colour: number): this {
    if (x >= 0 && y >= 0 && x < this.w && y < this.h) this.pixels[y * this.w + x] = colour;
    return this;
  }

  get(x: number, y: number): number {
    return this.pixels[y * this.w + x];
  }

  fill(x: number, y: number, w: number, h: number, colour: number): this {
    for (let yy = y; yy < y + h; yy++) for (let xx = x; xx < x + w; xx++) this.set(xx, yy, colour);
    return this;
  }

  /** Draws a sprite with its top-left at (x, y), clipped to the canvas. */
  draw(s: Sprite, x: number, y: number): this {
    for (let sy = 0; sy < s.h; sy++) {
      for (let sx = 0; sx < s.w; sx++) {
        const c = s.pixels[sy * s.w + sx];
        if (c !== TRANSPARENT) this.set(x + sx, y + sy, c);
      }
    }
    return this;
  }
}

/**
 * The camera of the official engine: scales a level grid up by the largest integer factor that
 * fits 64x64 and centres it, letterboxing the rest in `border`.
 */
export class Camera {
  readonly scale: number;
  readonly offsetX: number;
  readonly offsetY: number;

  constructor(
    readonly w: number,
    readonly h: number,
    readonly border = 5,
  ) {
    this.scale = Math.max(1, Math.floor(GRID / Math.max(w, h)));
    this.offsetX = Math.floor((GRID - w * this.scale) / 2);
    this.offsetY = Math.floor((GRID - h * this.scale) / 2);
  }

  render(canvas: Canvas): Frame {
    const frame = new Uint8Array(GRID * GRID).fill(this.border);
    const { scale, offsetX, offsetY } = this;
    // Draw each level row once, scaled sideways, then copy it down: the frame is the hot output
    // of every fuzz step and every report picture.
    for (let y = 0; y < canvas.h; y++) {
      const top = (offsetY + y * scale) * GRID;
      let p = top + offsetX;
      for (let x = 0; x < canvas.w; x++) {
        const c = canvas.pixels[y * canvas.w + x];
        for (let k = 0; k < scale; k++) frame[p++] = c;
      }
      for (let dy = 1; dy < scale; dy++) frame.copyWithin(top + dy * GRID, top, top + GRID);
    }
    return frame;
  }

  /** The level cell under a frame cell, or undefined in the letterbox. */
  toLevel(x: number, y: number): { x: number; y: number } | undefined {
    const lx = Math.floor((x - this.offsetX) / this.scale);
    const ly = Math.floor((y - this.offsetY) / this.scale);
    return lx >= 0 && ly >= 0 && lx < this.w && ly < this.h ? { x: lx, y: ly } : undefined;
  }

  /** The frame rectangle that shows level cell (x, y): a click target. */
  cellRect(x: number, y: number): { x: number; y: number; w: number; h: number } {
    return { x: this.offsetX + x * this.scale, y: this.offsetY + y * this.scale, w: this.scale, h: this.scale };
  }
}
