/**
 * Where things sit on a cm16 level canvas, and which board cell a frame click lands on.
 * A board cell is a 4x5 block (4x4 colour over a one-pixel strip showing its cycle) at a pitch of
 * 5 across and 6 down; the target picture sits right of the board at 2x2 per cell, pitch 3.
 */
import { CELLS, GRID } from '../../src/engine/index.js';
import type { ClickTarget } from '../../src/engine/index.js';
import { Camera } from '../../src/toolkit/index.js';
import type { MosaicLevel } from './levels.js';

export const CELL_W = 4;
export const CELL_H = 5;
export const PITCH_X = CELL_W + 1;
export const PITCH_Y = CELL_H + 1;
export const TARGET_PITCH = 3;

export interface MosaicLayout {
  readonly camera: Camera;
  readonly width: number;
  readonly height: number;
  /** Top-left of the board and of the target picture on the canvas. */
  readonly boardX: number;
  readonly boardY: number;
  readonly targetX: number;
  readonly targetY: number;
  /** Row of the timer bar and of the lives pips. */
  readonly barY: number;
  readonly livesY: number;
  /** Per frame cell (y*64+x), the board cell a click there hits, or -1. */
  readonly hit: Int16Array;
  /** Per board cell, its frame rectangle. */
  readonly rects: readonly ClickTarget[];
}

export function layoutOf(level: MosaicLevel): MosaicLayout {
  const boardW = level.w * PITCH_X - 1;
  const boardH = level.h * PITCH_Y - 1;
  const targetW = level.w * TARGET_PITCH - 1;
  const targetH = level.h * TARGET_PITCH - 1;
  const boardX = 1;
  const boardY = 1;
  const targetX = boardX + boardW + 2;
  const targetY = 1;
  const livesY = targetY + targetH + 2;
  const barY = Math.max(boardY + boardH, livesY + 1) + 1;
  const width = targetX + targetW + 1;
  const height = barY + 2;
  const camera = new Camera(width, height);
  const rects = Array.from({ length: level.w * level.h }, (_, i): ClickTarget => {
    const r = camera.cellRect(boardX + (i % level.w) * PITCH_X, boardY + Math.floor(i / level.w) * PITCH_Y);
    return { x: r.x, y: r.y, w: r.w * CELL_W, h: r.h * CELL_H };
  });
  const hit = new Int16Array(CELLS).fill(-1);
  rects.forEach((r, i) => {
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) hit[y * GRID + x] = i;
  });
  return { camera, width, height, boardX, boardY, targetX, targetY, barY, livesY, hit, rects };
}
