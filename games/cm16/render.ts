/** Draws a cm16 state: the board, the target picture, lives pips and the timer bar. */
import type { Frame } from '../../src/engine/index.js';
import { Canvas, Colour } from '../../src/toolkit/index.js';
import { CELL_H, CELL_W, PITCH_X, PITCH_Y, TARGET_PITCH, type MosaicLayout } from './layout.js';
import type { MosaicLevel } from './levels.js';

/** The colours a cell cycles through, in order (a cell of cycle length k uses the first k). */
export const CYCLE_COLOURS = [Colour.BLUE, Colour.YELLOW, Colour.RED, Colour.GREEN] as const;

const BACKGROUND = Colour.CHARCOAL;
const LINK = Colour.WHITE;
const LOCK = Colour.LIGHT_GREY;

export function renderMosaic(level: MosaicLevel, layout: MosaicLayout, cells: Uint8Array, spent: number, lives: number): Frame {
  const canvas = new Canvas(layout.width, layout.height, BACKGROUND);
  const { w, h } = level;
  const cellX = (i: number): number => layout.boardX + (i % w) * PITCH_X;
  const cellY = (i: number): number => layout.boardY + Math.floor(i / w) * PITCH_Y;
  for (let i = 0; i < w * h; i++) {
    const x = cellX(i);
    const y = cellY(i);
    canvas.fill(x, y, CELL_W, CELL_W, CYCLE_COLOURS[cells[i]]);
    for (let k = 0; k < level.cycle[i]; k++) canvas.set(x + k, y + CELL_W, CYCLE_COLOURS[k]);
    if (level.locked[i]) {
      for (const [dx, dy] of [[0, 0], [CELL_W - 1, 0], [0, CELL_W - 1], [CELL_W - 1, CELL_W - 1]]) canvas.set(x + dx, y + dy, LOCK);
    }
    const tx = layout.targetX + (i % w) * TARGET_PITCH;
    const ty = layout.targetY + Math.floor(i / w) * TARGET_PITCH;
    canvas.fill(tx, ty, 2, 2, CYCLE_COLOURS[level.target[i]]);
  }
  for (const [a, b] of level.links) {
    if (b === a + 1) canvas.fill(cellX(a) + CELL_W, cellY(a) + 1, 1, 2, LINK);
    else canvas.fill(cellX(a) + 1, cellY(a) + CELL_H, 2, 1, LINK);
  }
  if (level.mirror) {
    const axis = layout.boardX + (w / 2) * PITCH_X - 1;
    canvas.fill(axis, 0, 1, 1, LINK).fill(axis, layout.boardY + h * PITCH_Y - 1, 1, 1, LINK);
  }
  for (let k = 0; k < level.lives; k++) canvas.set(layout.targetX + 2 * k, layout.livesY, k < lives ? Colour.PINK : Colour.DARK_GREY);
  const barW = layout.width - 2;
  const left = Math.ceil(((level.budget - spent) * barW) / level.budget);
  canvas.fill(1, layout.barY, barW, 1, Colour.DARK_GREY).fill(1, layout.barY, left, 1, Colour.LIGHT_BLUE);
  return layout.camera.render(canvas);
}
