/**
 * rt42 "Turnkey": walk a maze against a timer bar with three lives. Switches on the floor turn
 * the key and change its colour, a toggle flips the doors, refills top the timer up and one-way
 * tiles forbid going back; the exit opens only while the key matches the target picture.
 * Running out of time costs a life and restarts the level from its start with a full timer.
 */
import { GameAction, type Action } from '../../src/engine/index.js';
import type { Frame, Game, Status } from '../../src/engine/index.js';
import { ByteReader, ByteWriter, Camera, Canvas, Colour, TRANSPARENT, rotate, sprite, type Sprite } from '../../src/toolkit/index.js';
import { RT42_LEVELS, type Rt42Level } from './levels.js';

export interface Rt42State {
  readonly level: number;
  /** Player cell, y*w + x. */
  readonly pos: number;
  /** Quarter turns of the key, clockwise, 0..3. */
  readonly turn: number;
  readonly colour: number;
  /** 0 while the doors are as drawn, 1 once toggled an odd number of times. */
  readonly doors: number;
  /** Refills used this attempt, bit i for the i-th refill in reading order. */
  readonly taken: number;
  /** Moves left in this attempt. */
  readonly timer: number;
  readonly lives: number;
}

export const LIVES = 3;
export const KEY_COLOURS = [Colour.RED, Colour.BLUE, Colour.PINK] as const;

const enum Cell { Wall, Floor, Exit, TurnCw, TurnCcw, Paint, Toggle, DoorClosed, DoorOpen, Refill, OneWay }

/** A level parsed once: cell kinds, one-way directions and refill numbers by cell. */
interface Board {
  readonly spec: Rt42Level;
  readonly w: number;
  readonly h: number;
  readonly cells: Uint8Array;
  /** For one-way tiles the only action that may enter; for refills their bit index. */
  readonly extra: Uint8Array;
  readonly start: number;
  readonly exit: number;
}

const KINDS: Record<string, Cell> = {
  '#': Cell.Wall, '.': Cell.Floor, S: Cell.Floor, E: Cell.Exit, R: Cell.TurnCw, L: Cell.TurnCcw, C: Cell.Paint,
  T: Cell.Toggle, D: Cell.DoorClosed, d: Cell.DoorOpen, '+': Cell.Refill, '^': Cell.OneWay, v: Cell.OneWay, '<': Cell.OneWay, '>': Cell.OneWay,
};
const ONE_WAY_ACTION: Record<string, number> = { '^': GameAction.ACTION1, v: GameAction.ACTION2, '<': GameAction.ACTION3, '>': GameAction.ACTION4 };

function parse(spec: Rt42Level): Board {
  const h = spec.rows.length;
  const w = spec.rows[0].length;
  const cells = new Uint8Array(w * h);
  const extra = new Uint8Array(w * h);
  let start = -1;
  let exit = -1;
  let refills = 0;
  spec.rows.forEach((row, y) => {
    if (row.length !== w) throw new Error(`rt42: row ${y} has ${row.length} cells, expected ${w}`);
    [...row].forEach((ch, x) => {
      const i = y * w + x;
      const kind = KINDS[ch];
      if (kind === undefined) throw new Error(`rt42: unknown cell '${ch}'`);
      cells[i] = kind;
      if (ch === 'S') start = i;
      if (ch === 'E') exit = i;
      if (kind === Cell.OneWay) extra[i] = ONE_WAY_ACTION[ch];
      if (kind === Cell.Refill) extra[i] = refills++;
    });
  });
  if (start < 0 || exit < 0) throw new Error('rt42: a level needs S and E');
  return { spec, w, h, cells, extra, start, exit };
}

export const BOARDS: readonly Board[] = RT42_LEVELS.map(parse);

function attempt(level: number, lives: number): Rt42State {
  const b = BOARDS[level - 1];
  return { level, pos: b.start, turn: b.spec.startTurn, colour: b.spec.startColour, doors: 0, taken: 0, timer: b.spec.timer, lives };
}

export function keyMatches(s: Rt42State): boolean {
  const spec = BOARDS[s.level - 1].spec;
  return s.turn === spec.targetTurn && s.colour === spec.targetColour;
}

/** Whether the player may step into cell `to` with `action` in state `s`. */
function enterable(b: Board, s: Rt42State, to: number, action: number): boolean {
  switch (b.cells[to]) {
    case Cell.Wall: return false;
    case Cell.DoorClosed: return s.doors === 1;
    case Cell.DoorOpen: return s.doors === 0;
    case Cell.OneWay: return b.extra[to] === action;
    case Cell.Exit: return keyMatches(s);
    default: return true;
  }
}

function step(s: Rt42State, action: Action): Rt42State {
  if (s.lives === 0 || s.pos === BOARDS[s.level - 1].exit) return s;
  const id = action.id;
  if (id < GameAction.ACTION1 || id > GameAction.ACTION4) return s;
  const b = BOARDS[s.level - 1];
  const x = s.pos % b.w;
  const y = (s.pos - x) / b.w;
  const nx = x + (id === GameAction.ACTION3 ? -1 : id === GameAction.ACTION4 ? 1 : 0);
  const ny = y + (id === GameAction.ACTION1 ? -1 : id === GameAction.ACTION2 ? 1 : 0);
  const to = ny * b.w + nx;
  let { pos, turn, colour, doors, taken } = s;
  let timer = s.timer - 1;
  if (nx >= 0 && ny >= 0 && nx < b.w && ny < b.h && enterable(b, s, to, id)) {
    pos = to;
    switch (b.cells[to]) {
      case Cell.TurnCw: turn = (turn + 1) & 3; break;
      case Cell.TurnCcw: turn = (turn + 3) & 3; break;
      case Cell.Paint: colour = (colour + 1) % KEY_COLOURS.length; break;
      case Cell.Toggle: doors ^= 1; break;
      case Cell.Refill:
        if ((taken & (1 << b.extra[to])) === 0) {
          taken |= 1 << b.extra[to];
          timer = b.spec.timer;
        }
        break;
      case Cell.Exit: return { level: s.level, pos, turn, colour, doors, taken, timer, lives: s.lives };
    }
  }
  if (timer === 0) return s.lives > 1 ? attempt(s.level, s.lives - 1) : { level: s.level, pos, turn, colour, doors, taken, timer, lives: 0 };
  return { level: s.level, pos, turn, colour, doors, taken, timer, lives: s.lives };
}

function status(s: Rt42State): Status {
  if (s.pos === BOARDS[s.level - 1].exit) return 'won';
  return s.lives === 0 ? 'lost' : 'playing';
}

function encode(s: Rt42State): Uint8Array {
  return new ByteWriter(16).uint(s.level).uint(s.pos).u8(s.turn).u8(s.colour).u8(s.doors).uint(s.taken).uint(s.timer).u8(s.lives).finish();
}

function decode(bytes: Uint8Array): Rt42State {
  const r = new ByteReader(bytes);
  return { level: r.uint(), pos: r.uint(), turn: r.u8(), colour: r.u8(), doors: r.u8(), taken: r.uint(), timer: r.uint(), lives: r.u8() };
}

// ---- pictures: every cell is 3x3 pixels; a HUD under the maze shows key, target, lives and timer.
const _ = TRANSPARENT;
const px = (c: number, rows: string[]): Sprite => sprite(rows.map((r) => [...r].map((ch) => (ch === '#' ? c : _))));
const SPRITES = {
  wall: px(Colour.GREY, ['###', '###', '###']),
  player: px(Colour.WHITE, ['###', '###', '###']),
  exitLocked: px(Colour.PURPLE, ['###', '#.#', '###']),
  exitOpen: px(Colour.GREEN, ['###', '###', '###']),
  turnCw: px(Colour.LIGHT_BLUE, ['##.', '..#', '.##']),
  turnCcw: px(Colour.LIGHT_BLUE, ['.##', '#..', '##.']),
  toggle: px(Colour.ORANGE, ['#.#', '.#.', '#.#']),
  doorClosed: px(Colour.ORANGE, ['###', '###', '###']),
  doorOpen: px(Colour.ORANGE, ['#.#', '...', '#.#']),
  refill: px(Colour.GREEN, ['.#.', '.#.', '.#.']),
  oneWayRight: px(Colour.LIGHT_GREY, ['#..', '.#.', '#..']),
};
const PAINT = sprite([[KEY_COLOURS[0], _, _], [_, KEY_COLOURS[1], _], [_, _, KEY_COLOURS[2]]]);
/** One-way sprites by the action that may enter them. */
const ONE_WAY: Record<number, Sprite> = {
  [GameAction.ACTION4]: SPRITES.oneWayRight,
  [GameAction.ACTION2]: rotate(SPRITES.oneWayRight, 1),
  [GameAction.ACTION3]: rotate(SPRITES.oneWayRight, 2),
  [GameAction.ACTION1]: rotate(SPRITES.oneWayRight, 3),
};
const HUD = 7;

function keySprite(mask: number, turn: number, colour: number): Sprite {
  const rows: string[] = [];
  for (let y = 0; y < 3; y++) rows.push([0, 1, 2].map((x) => (mask & (1 << (y * 3 + x)) ? '#' : '.')).join(''));
  return rotate(px(KEY_COLOURS[colour], rows), turn);
}

function render(s: Rt42State): Frame[] {
  const b = BOARDS[s.level - 1];
  const W = b.w * 3;
  const top = b.h * 3;
  const canvas = new Canvas(W, top + HUD, Colour.BLACK);
  for (let i = 0; i < b.cells.length; i++) {
    const x = (i % b.w) * 3;
    const y = Math.floor(i / b.w) * 3;
    const art = cellSprite(b, s, i);
    if (art) canvas.draw(art, x, y);
  }
  canvas.draw(SPRITES.player, (s.pos % b.w) * 3, Math.floor(s.pos / b.w) * 3);
  // HUD: the key in a white frame (left), the target in the exit's purple frame (right), lives between.
  canvas.fill(0, top + 1, 5, 5, Colour.WHITE).fill(1, top + 2, 3, 3, Colour.BLACK);
  canvas.draw(keySprite(b.spec.key, s.turn, s.colour), 1, top + 2);
  canvas.fill(W - 5, top + 1, 5, 5, Colour.PURPLE).fill(W - 4, top + 2, 3, 3, Colour.BLACK);
  canvas.draw(keySprite(b.spec.key, b.spec.targetTurn, b.spec.targetColour), W - 4, top + 2);
  const livesX = Math.floor(W / 2) - 3;
  for (let l = 0; l < LIVES; l++) canvas.fill(livesX + 2 * l, top + 3, 1, 1, l < s.lives ? Colour.RED : Colour.CHARCOAL);
  canvas.fill(0, top + HUD - 1, Math.ceil((W * s.timer) / b.spec.timer), 1, Colour.YELLOW);
  return [new Camera(canvas.w, canvas.h).render(canvas)];
}

function cellSprite(b: Board, s: Rt42State, i: number): Sprite | undefined {
  switch (b.cells[i]) {
    case Cell.Wall: return SPRITES.wall;
    case Cell.Exit: return keyMatches(s) ? SPRITES.exitOpen : SPRITES.exitLocked;
    case Cell.TurnCw: return SPRITES.turnCw;
    case Cell.TurnCcw: return SPRITES.turnCcw;
    case Cell.Paint: return PAINT;
    case Cell.Toggle: return SPRITES.toggle;
    case Cell.DoorClosed: return s.doors === 0 ? SPRITES.doorClosed : SPRITES.doorOpen;
    case Cell.DoorOpen: return s.doors === 0 ? SPRITES.doorOpen : SPRITES.doorClosed;
    case Cell.Refill: return s.taken & (1 << b.extra[i]) ? undefined : SPRITES.refill;
    case Cell.OneWay: return ONE_WAY[b.extra[i]];
    default: return undefined;
  }
}

const game: Game<Rt42State> = {
  id: 'rt42',
  title: 'Turnkey',
  levels: RT42_LEVELS.length,
  tutorialLevels: 1,
  actions: [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4],
  baselineActions: RT42_LEVELS.map((l) => l.baseline),
  init: (level) => attempt(level, LIVES),
  step,
  status,
  render,
  encode,
  decode,
};

export default game;
