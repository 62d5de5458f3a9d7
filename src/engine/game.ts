import { CELLS, GRID, GameAction, type Action, type PlayerAction } from './actions.js';
import type { GameSession, SessionOptions } from './runtime.js';

/** A frame: 64x64 colour indices 0..15, row-major (index = y*64 + x). */
export type Frame = Uint8Array;

/** What a level state is: still playing, this level won, or game over (timer, lives, budget). */
export type Status = 'playing' | 'won' | 'lost';

export const STATUSES: readonly Status[] = ['playing', 'won', 'lost'];

/** A value as an error message names it: a string quoted, an object by its kind. */
function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || typeof value !== 'object') return String(value);
  const kind: string = value.constructor?.name ?? 'Object';
  return `${/^[AEIOU]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

/**
 * `status`'s answer, checked. Anything else is the game's bug, and must become a fault with its
 * reproduction: unchecked, 'WIN' read as playing in the explorer (a level passed as unwinnable)
 * and as a loss in random play.
 */
export function checkedStatus(status: unknown): Status {
  if (status === 'playing' || status === 'won' || status === 'lost') return status;
  throw new TypeError(`status returned ${shown(status)}, not "playing", "won" or "lost"`);
}

/** `encode`'s answer, checked: identity bytes are a Uint8Array (an array or a string hashes to nonsense, or breaks the frontier). */
export function checkedBytes(bytes: unknown): Uint8Array {
  if (bytes instanceof Uint8Array) return bytes;
  throw new TypeError(`encode returned ${shown(bytes)}, not a Uint8Array`);
}

/** A rectangle of cells (in 64x64 frame coordinates) whose clicks all have the same effect. */
export interface ClickTarget {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/**
 * The game contract: pure data and pure functions, so any state can be branched, hashed,
 * shipped to a worker and replayed. `S` is the game's own state type.
 */
export interface Game<S = any> {
  /** Four characters, as ARC-AGI-3 game ids. */
  readonly id: string;
  readonly title: string;
  /** Number of levels (levels are numbered 1..levels). */
  readonly levels: number;
  /** The leading levels that are tutorials (exempt from the random-win threshold). */
  readonly tutorialLevels: number;
  /** Available actions, a fixed subset of ACTION1..ACTION7 in increasing order. */
  readonly actions: readonly PlayerAction[];
  /** Human-style baseline action count per level (index 0 is level 1). */
  readonly baselineActions?: readonly number[];
  /** The reset state of a level (1-based). */
  init(level: number): S;
  /** Pure and deterministic: never mutates `state`. A blocked action returns an equal state. */
  step(state: S, action: Action): S;
  status(state: S): Status;
  /** One or more 64x64 layers; the last is the settled frame. */
  render(state: S): Frame[];
  /**
   * True when render's layers before the last are the animation of the step that reached the state,
   * not a function of the state (a real ARC game: its identity holds the settled frame only), so
   * two states of equal identity may show different animations: they are compared by their settled
   * frames alone.
   */
  readonly stepLayers?: boolean;
  /** Canonical identity bytes: equal states give identical bytes, and they hold all hidden state. */
  encode(state: S): Uint8Array;
  /** Inverse of `encode`: ships states between threads. */
  decode(bytes: Uint8Array): S;
  /**
   * Optional partition of the click cells: disjoint rectangles, each a class whose clicks act alike;
   * every cell outside them forms one more class. Without it, clicks are tried on all 4,096 cells.
   */
  clickTargets?(state: S): readonly ClickTarget[];
  /**
   * Optional: sessions the game runs itself (a real ARC game: the engine's perform_action, with its
   * RESET rules and level progression). Without it, replay and play use the runtime's Session.
   */
  session?(startLevel: number, options?: SessionOptions): GameSession<S>;
}

/** One class of equivalent clicks: a representative cell and how many cells it stands for. */
export interface ClickClass {
  readonly x: number;
  readonly y: number;
  readonly cells: number;
}

const PLAYER_ACTIONS: readonly number[] = [1, 2, 3, 4, 5, 6, 7];

/**
 * Checks that `value` fulfils the game contract; throws an Error naming the first missing or
 * invalid member. Returns it typed.
 */
export function validateGame(value: unknown, where = 'game'): Game {
  if (value === null || typeof value !== 'object') throw new Error(`${where} is not an object`);
  const g = value as Record<string, unknown>;
  const bad = (member: string, why: string): never => {
    throw new Error(`${where}: member '${member}' ${why}`);
  };
  if (typeof g.id !== 'string') bad('id', 'is missing or not a string');
  else if (!/^[a-z0-9]{4}$/i.test(g.id)) bad('id', `must be four letters or digits, got '${g.id}'`);
  if (typeof g.title !== 'string') bad('title', 'is missing or not a string');
  if (!Number.isInteger(g.levels) || (g.levels as number) < 1) bad('levels', 'must be a positive integer');
  if (!Number.isInteger(g.tutorialLevels) || (g.tutorialLevels as number) < 0 || (g.tutorialLevels as number) > (g.levels as number)) {
    bad('tutorialLevels', 'must be an integer in 0..levels');
  }
  if (!Array.isArray(g.actions) || g.actions.length === 0) bad('actions', 'must be a non-empty array of action ids 1..7');
  const actions = g.actions as unknown[];
  actions.forEach((a, i) => {
    if (!PLAYER_ACTIONS.includes(a as number)) bad('actions', `has ${JSON.stringify(a)}: action ids are 1..7 (RESET is never available)`);
    if (i > 0 && (a as number) <= (actions[i - 1] as number)) bad('actions', 'must be in increasing order without repeats');
  });
  if (g.baselineActions !== undefined) {
    const b = g.baselineActions;
    if (!Array.isArray(b) || b.length !== g.levels || !b.every((n) => Number.isInteger(n) && n > 0)) {
      bad('baselineActions', 'must list one positive integer per level');
    }
  }
  for (const fn of ['init', 'step', 'status', 'render', 'encode', 'decode'] as const) {
    if (typeof g[fn] !== 'function') bad(fn, 'is missing or not a function');
  }
  if (g.clickTargets !== undefined && typeof g.clickTargets !== 'function') bad('clickTargets', 'must be a function');
  if (g.session !== undefined && typeof g.session !== 'function') bad('session', 'must be a function');
  if (g.clickTargets !== undefined && !actions.includes(GameAction.ACTION6)) bad('clickTargets', 'is given but ACTION6 is not available');
  return value as Game;
}

/** Every cell as its own class: clicks tried on all 4,096 cells (games without click targets). */
const EVERY_CELL: readonly ClickClass[] = Array.from({ length: CELLS }, (_, c) => ({ x: c % GRID, y: (c / GRID) | 0, cells: 1 }));

/**
 * The click classes of a state: the game's targets (clipped to the grid), then the rest of the
 * grid as one class represented by its first cell in row-major order. Runs for every expanded
 * state, so it works on the rectangles, not on a 4,096-cell map. Overlapping targets are a bug in
 * the game (a cell would belong to two classes): it throws, naming them.
 */
export function clickClasses(game: Game, state: unknown): readonly ClickClass[] {
  if (!game.clickTargets) return EVERY_CELL;
  const rects: { x0: number; y0: number; x1: number; y1: number }[] = [];
  const classes: ClickClass[] = [];
  let covered = 0;
  for (const t of game.clickTargets(state)) {
    const r = { x0: Math.max(0, t.x), y0: Math.max(0, t.y), x1: Math.min(GRID, t.x + t.w), y1: Math.min(GRID, t.y + t.h) };
    if (r.x1 <= r.x0 || r.y1 <= r.y0) continue;
    for (const q of rects) {
      if (r.x0 < q.x1 && q.x0 < r.x1 && r.y0 < q.y1 && q.y0 < r.y1) {
        throw new Error(`${game.id}: click targets overlap: (${r.x0},${r.y0})-(${r.x1 - 1},${r.y1 - 1}) and (${q.x0},${q.y0})-(${q.x1 - 1},${q.y1 - 1})`);
      }
    }
    rects.push(r);
    const cells = (r.x1 - r.x0) * (r.y1 - r.y0);
    covered += cells;
    classes.push({ x: r.x0, y: r.y0, cells });
  }
  if (covered < CELLS) {
    // The first uncovered cell: walk each row, jumping over the targets that cover it.
    for (let y = 0, found = false; y < GRID && !found; y++) {
      for (let x = 0; x < GRID; ) {
        const hit = rects.find((r) => x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1);
        if (!hit) {
          classes.push({ x, y, cells: CELLS - covered });
          found = true;
          break;
        }
        x = hit.x1;
      }
    }
  }
  return classes;
}

/**
 * Every distinct move from a state, in action order: the keyboard actions, then one click per
 * click class (its representative cell). What searches and random attempts over a game try.
 */
export function playerMoves(game: Game, state: unknown): Action[] {
  const out: Action[] = [];
  for (const id of game.actions) {
    if (id !== GameAction.ACTION6) out.push({ id });
    else for (const c of clickClasses(game, state)) out.push({ id, x: c.x, y: c.y });
  }
  return out;
}

/** A blank frame of one colour. */
export function blankFrame(colour = 0): Frame {
  return new Uint8Array(CELLS).fill(colour);
}
