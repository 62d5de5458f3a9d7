/** Draws a gv08 state: every map cell as a 4x4 picture, balls on top, the timer bar in the floor. */
import type { Frame } from '../../src/engine/index.js';
import { Camera, Canvas, Colour, TRANSPARENT, sprite, type Sprite } from '../../src/toolkit/index.js';
import { Cell, type DropLevel } from './levels.js';
import { isOpen } from './physics.js';

/** Pixels per map cell on the level canvas. */
export const TILE = 4;

const _ = TRANSPARENT;
const BACKGROUND = Colour.BLACK;
const WALL = Colour.DARK_GREY;
const SLOPE = Colour.LIGHT_GREY;
export const GROUP_COLOURS = [Colour.RED, Colour.BLUE, Colour.GREEN, Colour.YELLOW] as const;
export const BALL_COLOURS = [Colour.ORANGE, Colour.PURPLE] as const;

const ball = (c: number): Sprite => sprite([[_, c, c, _], [c, c, c, c], [c, c, c, c], [_, c, c, _]]);
const cup = (c: number): Sprite => sprite([[_, _, _, _], [c, _, _, c], [c, _, _, c], [c, c, c, c]]);
const closedDoor = (c: number): Sprite => sprite([[c, c, c, c], [c, _, _, c], [c, _, _, c], [c, c, c, c]]);
const openDoor = (c: number): Sprite => sprite([[c, _, _, c], [_, _, _, _], [_, _, _, _], [c, _, _, c]]);
/** A lever on a wall block: the handle leans left at the start, right once flipped. */
const lever = (c: number, flipped: boolean): Sprite =>
  flipped
    ? sprite([[WALL, WALL, WALL, c], [WALL, WALL, c, WALL], [WALL, c, WALL, WALL], [c, c, c, c]])
    : sprite([[c, WALL, WALL, WALL], [WALL, c, WALL, WALL], [WALL, WALL, c, WALL], [c, c, c, c]]);
const slopeRight = (c: number): Sprite => sprite([[c, _, _, _], [c, c, _, _], [c, c, c, _], [c, c, c, c]]);
const slopeLeft = (c: number): Sprite => sprite([[_, _, _, c], [_, _, c, c], [_, c, c, c], [c, c, c, c]]);
const SLOPE_RIGHT = slopeRight(SLOPE);
const SLOPE_LEFT = slopeLeft(SLOPE);

export function cameraFor(level: DropLevel): Camera {
  return new Camera(level.w * TILE, level.h * TILE);
}

export function renderDrop(level: DropLevel, camera: Camera, flipped: number, balls: Uint8Array, spent: number): Frame {
  const canvas = new Canvas(level.w * TILE, level.h * TILE, BACKGROUND);
  for (let cell = 0; cell < level.w * level.h; cell++) {
    const x = (cell % level.w) * TILE;
    const y = Math.floor(cell / level.w) * TILE;
    const g = level.group[cell];
    switch (level.kind[cell]) {
      case Cell.WALL:
        canvas.fill(x, y, TILE, TILE, WALL);
        break;
      case Cell.LEVER:
        canvas.draw(lever(GROUP_COLOURS[g], ((flipped >> g) & 1) === 1), x, y);
        break;
      case Cell.TRAPDOOR:
        canvas.draw(isOpen(level, flipped, cell) ? openDoor(GROUP_COLOURS[g]) : closedDoor(GROUP_COLOURS[g]), x, y);
        break;
      case Cell.SLOPE_LEFT:
        canvas.draw(SLOPE_LEFT, x, y);
        break;
      case Cell.SLOPE_RIGHT:
        canvas.draw(SLOPE_RIGHT, x, y);
        break;
      case Cell.SWITCH:
        canvas.draw(isOpen(level, flipped, cell) ? slopeRight(GROUP_COLOURS[g]) : slopeLeft(GROUP_COLOURS[g]), x, y);
        break;
    }
    if (level.cup[cell]) canvas.draw(cup(BALL_COLOURS[level.cup[cell] - 1]), x, y);
  }
  balls.forEach((cell, b) => canvas.draw(ball(BALL_COLOURS[level.ballColour[b]]), (cell % level.w) * TILE, Math.floor(cell / level.w) * TILE));
  // the timer bar runs along the middle of the floor
  const barW = level.w * TILE - 2;
  const barY = (level.h - 1) * TILE + 1;
  const left = Math.ceil(((level.budget - spent) * barW) / level.budget);
  canvas.fill(1, barY, barW, 2, Colour.CHARCOAL).fill(1, barY, left, 2, Colour.LIGHT_BLUE);
  return camera.render(canvas);
}
