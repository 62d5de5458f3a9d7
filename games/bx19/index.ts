/**
 * bx19 "Crates": push blocks onto the targets of their colour within a move budget. Holes swallow
 * a pushed block and become floor, blocks pushed onto ice slide, and ACTION7 undoes the last
 * board change. The undo history (the last HISTORY boards) is part of the state, and every action,
 * an undo or a push into a wall included, spends one unit of the budget.
 */
import { GameAction, type Action } from '../../src/engine/index.js';
import type { Frame, Game, Status } from '../../src/engine/index.js';
import { ByteReader, ByteWriter, Camera, Canvas, Colour, TRANSPARENT, sprite, type Sprite } from '../../src/toolkit/index.js';
import { BX19_LEVELS, type Bx19Level } from './levels.js';

/** How many earlier boards the undo history keeps. */
export const HISTORY = 4;
/** A block that fell into a hole. */
export const SUNK = 255;

export interface Bx19State {
  readonly level: number;
  readonly player: number;
  /** Block cells, 255 once sunk, sorted within each colour so equal boards are equal bytes. */
  readonly blocks: Uint8Array;
  /** Holes filled, bit i for the i-th hole in reading order. */
  readonly filled: number;
  /** Actions spent this attempt. */
  readonly used: number;
  /** Earlier boards, oldest first, each `player, blocks..., filled` (2 + blocks bytes). */
  readonly history: Uint8Array;
}

const enum Cell { Wall, Floor, Ice, Hole }

interface Board {
  readonly spec: Bx19Level;
  readonly w: number;
  readonly h: number;
  readonly cells: Uint8Array;
  /** Hole number by cell (for holes). */
  readonly holeIndex: Uint8Array;
  /** Target colour + 1 by cell, 0 where there is no target. */
  readonly target: Uint8Array;
  /** Colour of block i; blocks are grouped by colour, first colour first. */
  readonly colours: Uint8Array;
  /** [start, end) of each colour's blocks in `blocks`. */
  readonly groups: readonly [number, number][];
  readonly player: number;
  readonly blocks: Uint8Array;
}

function parse(spec: Bx19Level): Board {
  const h = spec.rows.length;
  const w = spec.rows[0].length;
  if (w * h > 255) throw new Error('bx19: a level must have fewer than 255 cells');
  const cells = new Uint8Array(w * h);
  const holeIndex = new Uint8Array(w * h);
  const target = new Uint8Array(w * h);
  const byColour: number[][] = [[], []];
  let player = -1;
  let holes = 0;
  spec.rows.forEach((row, y) => {
    if (row.length !== w) throw new Error(`bx19: row ${y} has ${row.length} cells, expected ${w}`);
    [...row].forEach((ch, x) => {
      const i = y * w + x;
      cells[i] = ch === '#' ? Cell.Wall : ch === '~' ? Cell.Ice : ch === 'o' ? Cell.Hole : Cell.Floor;
      if (ch === 'o') holeIndex[i] = holes++;
      if ('xyAB'.includes(ch)) target[i] = ch === 'x' || ch === 'A' ? 1 : 2;
      if ('abAB'.includes(ch)) byColour[ch === 'a' || ch === 'A' ? 0 : 1].push(i);
      if (ch === '@') player = i;
      if (!'#.~o@abxyAB'.includes(ch)) throw new Error(`bx19: unknown cell '${ch}'`);
    });
  });
  if (player < 0) throw new Error('bx19: a level needs a player @');
  const colours = Uint8Array.from([...byColour[0].map(() => 0), ...byColour[1].map(() => 1)]);
  const groups: [number, number][] = [[0, byColour[0].length], [byColour[0].length, colours.length]];
  return { spec, w, h, cells, holeIndex, target, colours, groups, player, blocks: Uint8Array.from(byColour.flat()) };
}

export const BOARDS: readonly Board[] = BX19_LEVELS.map(parse);

function init(level: number): Bx19State {
  const b = BOARDS[level - 1];
  return { level, player: b.player, blocks: b.blocks.slice(), filled: 0, used: 0, history: new Uint8Array(0) };
}

/** Insertion sort of each colour's cells: at most a handful of blocks. */
function canonical(b: Board, blocks: Uint8Array): void {
  for (const [from, to] of b.groups) {
    for (let i = from + 1; i < to; i++) {
      const v = blocks[i];
      let j = i - 1;
      while (j >= from && blocks[j] > v) {
        blocks[j + 1] = blocks[j];
        j--;
      }
      blocks[j + 1] = v;
    }
  }
}

function blockAt(blocks: Uint8Array, cell: number): number {
  for (let i = 0; i < blocks.length; i++) if (blocks[i] === cell) return i;
  return -1;
}

/** The cell one step from `cell`, or -1 outside the grid. */
function neighbour(b: Board, cell: number, id: number): number {
  const x = cell % b.w;
  if (id === GameAction.ACTION1) return cell >= b.w ? cell - b.w : -1;
  if (id === GameAction.ACTION2) return cell + b.w < b.w * b.h ? cell + b.w : -1;
  if (id === GameAction.ACTION3) return x > 0 ? cell - 1 : -1;
  return x < b.w - 1 ? cell + 1 : -1;
}

/** Whether a block may move into `cell`: inside, not a wall, no other block. */
function freeForBlock(b: Board, blocks: Uint8Array, cell: number): boolean {
  return cell >= 0 && b.cells[cell] !== Cell.Wall && blockAt(blocks, cell) < 0;
}

const isOpenHole = (b: Board, filled: number, cell: number): boolean => b.cells[cell] === Cell.Hole && (filled & (1 << b.holeIndex[cell])) === 0;

/** The previous board appended to the history, the oldest dropped beyond HISTORY boards. */
function remember(s: Bx19State): Uint8Array {
  const size = 2 + s.blocks.length;
  const keep = Math.min(s.history.length / size, HISTORY - 1);
  const out = new Uint8Array((keep + 1) * size);
  out.set(s.history.subarray(s.history.length - keep * size));
  out[keep * size] = s.player;
  out.set(s.blocks, keep * size + 1);
  out[keep * size + 1 + s.blocks.length] = s.filled;
  return out;
}

function undo(s: Bx19State): Bx19State {
  const size = 2 + s.blocks.length;
  if (s.history.length === 0) return { ...s, used: s.used + 1 };
  const last = s.history.length - size;
  return {
    level: s.level,
    player: s.history[last],
    blocks: s.history.slice(last + 1, last + 1 + s.blocks.length),
    filled: s.history[last + size - 1],
    used: s.used + 1,
    history: s.history.slice(0, last),
  };
}

function step(s: Bx19State, action: Action): Bx19State {
  if (status(s) !== 'playing') return s;
  const id = action.id;
  if (id === GameAction.ACTION7) return undo(s);
  if (id < GameAction.ACTION1 || id > GameAction.ACTION4) return s;
  const b = BOARDS[s.level - 1];
  const spent = { ...s, used: s.used + 1 };
  const to = neighbour(b, s.player, id);
  if (to < 0 || b.cells[to] === Cell.Wall || isOpenHole(b, s.filled, to)) return spent;
  const pushed = blockAt(s.blocks, to);
  if (pushed < 0) return { ...spent, player: to, history: remember(s) };
  let cell = neighbour(b, to, id);
  if (!freeForBlock(b, s.blocks, cell)) return spent;
  const blocks = s.blocks.slice();
  let filled = s.filled;
  // The block moves one cell, then keeps sliding while it stands on ice and the way is free.
  for (;;) {
    if (isOpenHole(b, filled, cell)) {
      filled |= 1 << b.holeIndex[cell];
      blocks[pushed] = SUNK;
      break;
    }
    blocks[pushed] = cell;
    const next = neighbour(b, cell, id);
    if (b.cells[cell] !== Cell.Ice || !freeForBlock(b, blocks, next)) break;
    cell = next;
  }
  canonical(b, blocks);
  return { level: s.level, player: to, blocks, filled, used: s.used + 1, history: remember(s) };
}

function solved(b: Board, s: Bx19State): boolean {
  for (let cell = 0; cell < b.target.length; cell++) {
    if (b.target[cell] === 0) continue;
    const i = blockAt(s.blocks, cell);
    if (i < 0 || b.colours[i] !== b.target[cell] - 1) return false;
  }
  return true;
}

function status(s: Bx19State): Status {
  const b = BOARDS[s.level - 1];
  if (solved(b, s)) return 'won';
  return s.used >= b.spec.budget ? 'lost' : 'playing';
}

function encode(s: Bx19State): Uint8Array {
  return new ByteWriter(24 + s.history.length).uint(s.level).u8(s.player).bytes(s.blocks).uint(s.filled).uint(s.used).bytes(s.history).finish();
}

function decode(bytes: Uint8Array): Bx19State {
  const r = new ByteReader(bytes);
  return { level: r.uint(), player: r.u8(), blocks: r.bytes(), filled: r.uint(), used: r.uint(), history: r.bytes() };
}

// ---- pictures: every cell is 3x3 pixels; a budget bar runs along the bottom.
const _ = TRANSPARENT;
const px = (c: number, rows: string[]): Sprite => sprite(rows.map((r) => [...r].map((ch) => (ch === '#' ? c : _))));
export const BLOCK_COLOURS = [Colour.ORANGE, Colour.BLUE] as const;
const SPRITES = {
  wall: px(Colour.GREY, ['###', '###', '###']),
  ice: px(Colour.LIGHT_BLUE, ['###', '###', '###']),
  hole: px(Colour.CHARCOAL, ['###', '###', '###']),
  filledHole: px(Colour.DARK_GREY, ['#.#', '...', '#.#']),
  player: px(Colour.WHITE, ['.#.', '###', '.#.']),
  targets: BLOCK_COLOURS.map((c) => px(c, ['###', '#.#', '###'])),
  blocks: BLOCK_COLOURS.map((c) => px(c, ['###', '###', '###'])),
  blocksHome: BLOCK_COLOURS.map((c) => sprite([[c, c, c], [c, Colour.GREEN, c], [c, c, c]])),
};

function render(s: Bx19State): Frame[] {
  const b = BOARDS[s.level - 1];
  const W = b.w * 3;
  const H = b.h * 3;
  const canvas = new Canvas(W, H + 2, Colour.BLACK);
  const at = (cell: number, art: Sprite): void => void canvas.draw(art, (cell % b.w) * 3, Math.floor(cell / b.w) * 3);
  for (let cell = 0; cell < b.cells.length; cell++) {
    const kind = b.cells[cell];
    if (kind === Cell.Wall) at(cell, SPRITES.wall);
    if (kind === Cell.Ice) at(cell, SPRITES.ice);
    if (kind === Cell.Hole) at(cell, isOpenHole(b, s.filled, cell) ? SPRITES.hole : SPRITES.filledHole);
    if (b.target[cell]) at(cell, SPRITES.targets[b.target[cell] - 1]);
  }
  s.blocks.forEach((cell, i) => {
    if (cell === SUNK) return;
    const home = b.target[cell] === b.colours[i] + 1;
    at(cell, (home ? SPRITES.blocksHome : SPRITES.blocks)[b.colours[i]]);
  });
  at(s.player, SPRITES.player);
  const left = Math.max(0, b.spec.budget - s.used);
  canvas.fill(0, H + 1, Math.ceil((W * left) / b.spec.budget), 1, Colour.YELLOW);
  return [new Camera(canvas.w, canvas.h).render(canvas)];
}

const game: Game<Bx19State> = {
  id: 'bx19',
  title: 'Crates',
  levels: BX19_LEVELS.length,
  tutorialLevels: 1,
  actions: [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4, GameAction.ACTION7],
  baselineActions: BX19_LEVELS.map((l) => l.baseline),
  init,
  step,
  status,
  render,
  encode,
  decode,
};

export default game;
