/**
 * Trapdoors and gravity for gv08: which cells are solid under a set of flipped groups, flipping a
 * group (unless a trapdoor of it would close on a ball), and letting the balls fall until they rest.
 */
import { Cell, type DropLevel } from './levels.js';

/** True when the trapdoor at `cell` is open (or its switch slope rolls right), given the flipped groups. */
export function isOpen(level: DropLevel, flipped: number, cell: number): boolean {
  return (level.startsOpen[cell] ^ ((flipped >> level.group[cell]) & 1)) === 1;
}

function solid(level: DropLevel, flipped: number, cell: number): boolean {
  const k = level.kind[cell];
  return k === Cell.TRAPDOOR ? !isOpen(level, flipped, cell) : k !== Cell.EMPTY;
}

/** Flipping `group` is jammed when one of its open trapdoors holds a ball and would close on it. */
export function jammed(level: DropLevel, flipped: number, group: number, balls: Uint8Array): boolean {
  for (const cell of level.trapdoors[group]) if (isOpen(level, flipped, cell) && balls.includes(cell)) return true;
  return false;
}

/**
 * Moves the balls (cells, modified in place) one cell at a time, lowest ball first, until none can
 * move: down into a free cell, or sideways off a slope or switch slope. Then restores canonical order (sorted
 * within each colour). Returns `balls`.
 */
export function settle(level: DropLevel, flipped: number, balls: Uint8Array): Uint8Array {
  const { w } = level;
  const free = (cell: number): boolean => !solid(level, flipped, cell) && !balls.includes(cell);
  const order = Array.from(balls.keys());
  for (let sweeps = 0, moved = true; moved; sweeps++) {
    if (sweeps > level.w * level.h) throw new Error('balls never come to rest: a level design error');
    moved = false;
    order.sort((a, b) => balls[b] - balls[a]);
    for (const b of order) {
      const cell = balls[b];
      const below = cell + w;
      const under = level.kind[below];
      let to = -1;
      if (free(below)) to = below;
      else {
        const right = under === Cell.SLOPE_RIGHT || (under === Cell.SWITCH && isOpen(level, flipped, below));
        const left = under === Cell.SLOPE_LEFT || (under === Cell.SWITCH && !isOpen(level, flipped, below));
        if (right && free(cell + 1)) to = cell + 1;
        else if (left && free(cell - 1)) to = cell - 1;
      }
      if (to >= 0) {
        balls[b] = to;
        moved = true;
      }
    }
  }
  return canonical(level, balls);
}

/** Sorts the cells of same-coloured balls, which are interchangeable. */
function canonical(level: DropLevel, balls: Uint8Array): Uint8Array {
  for (let i = 1; i < balls.length; i++) {
    for (let j = i; j > 0 && level.ballColour[j - 1] === level.ballColour[j] && balls[j - 1] > balls[j]; j--) {
      const t = balls[j];
      balls[j] = balls[j - 1];
      balls[j - 1] = t;
    }
  }
  return balls;
}

/** True when every cup holds a ball of its colour. */
export function cupsFilled(level: DropLevel, balls: Uint8Array): boolean {
  for (let cell = 0; cell < level.cup.length; cell++) {
    if (level.cup[cell] === 0) continue;
    const b = balls.indexOf(cell);
    if (b < 0 || level.ballColour[b] + 1 !== level.cup[cell]) return false;
  }
  return true;
}
