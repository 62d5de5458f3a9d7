import { CELLS, GRID, GameAction, type Action, type PlayerAction } from './actions.js';

/** A frame: 64x64 colour indices 0..15, row-major (index = y*64 + x). */
export type Frame = Uint8Array;

/** What a level state is: still playing, this level won, or game over (timer, lives, budget). */
export type Status = 'playing' | 'won' | 'lost';

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
  /** Canonical identity bytes: equal states give identical bytes, and they hold all hidden state. */
  encode(state: S): Uint8Array;
  /** Inverse of `encode`: ships states between threads. */
  decode(bytes: Uint8Array): S;
  /**
   * Optional partition of the click cells: disjoint rectangles, each a class whose clicks act alike;
   * every cell outside them forms one more class. Without it, clicks are tried on all 4,096 cells.
   */
  clickTargets?(state: S): readonly ClickTarget[];
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
  if (g.clickTargets !== undefined && !actions.includes(GameAction.ACTION6)) bad('clickTargets', 'is given but ACTION6 is not available');
  return value as Game;
}

/** The click classes of a state: the game's targets, then the rest of the grid as one class. */
export function clickClasses(game: Game, state: unknown): ClickClass[] {
  if (!game.clickTargets) {
    const all: ClickClass[] = new Array(CELLS);
    for (let c = 0; c < CELLS; c++) all[c] = { x: c % GRID, y: (c / GRID) | 0, cells: 1 };
    return all;
  }
  const covered = new Uint8Array(CELLS);
  const classes: ClickClass[] = [];
  for (const t of game.clickTargets(state)) {
    let cells = 0;
    for (let y = Math.max(0, t.y); y < Math.min(GRID, t.y + t.h); y++) {
      for (let x = Math.max(0, t.x); x < Math.min(GRID, t.x + t.w); x++) {
        if (covered[y * GRID + x] === 0) cells++;
        covered[y * GRID + x] = 1;
      }
    }
    if (cells > 0) classes.push({ x: Math.max(0, t.x), y: Math.max(0, t.y), cells });
  }
  const rest = covered.indexOf(0);
  if (rest >= 0) {
    let cells = 0;
    for (let c = rest; c < CELLS; c++) if (covered[c] === 0) cells++;
    classes.push({ x: rest % GRID, y: (rest / GRID) | 0, cells });
  }
  return classes;
}

/** A blank frame of one colour. */
export function blankFrame(colour = 0): Frame {
  return new Uint8Array(CELLS).fill(colour);
}
