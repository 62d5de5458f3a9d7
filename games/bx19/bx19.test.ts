import { describe, expect, it } from 'vitest';
import { GameAction, type Action } from '../../src/engine/actions.js';
import { validateGame } from '../../src/engine/game.js';
import game, { BOARDS, HISTORY, SUNK, type Bx19State } from './index.js';
import { winningActions } from './solver.js';

const UP = { id: GameAction.ACTION1 };
const DOWN = { id: GameAction.ACTION2 };
const LEFT = { id: GameAction.ACTION3 };
const RIGHT = { id: GameAction.ACTION4 };
const UNDO = { id: GameAction.ACTION7 };
const MOVES = [UP, DOWN, LEFT, RIGHT];
const ALL = [...MOVES, UNDO];

const play = (level: number, actions: Action[], from = game.init(level)): Bx19State => actions.reduce((s, a) => game.step(s, a), from);
const cell = (level: number, x: number, y: number): number => y * BOARDS[level - 1].w + x;
const key = (s: Bx19State): string => Buffer.from(game.encode(s)).toString('latin1');
const board = (s: Bx19State): string => `${s.player}|${s.blocks.join('.')}|${s.filled}`;

function randomStates(count: number): Bx19State[] {
  let seed = 11;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
  const out: Bx19State[] = [];
  for (let level = 1; level <= game.levels; level++) {
    let s = game.init(level);
    for (let i = 0; i < count; i++) {
      s = game.step(s, ALL[rnd(5)]);
      out.push(s);
      if (game.status(s) !== 'playing') s = game.init(level);
    }
  }
  return out;
}

describe('bx19 contract', () => {
  it('fulfils the game contract with six levels, a tutorial, undo and a baseline per level', () => {
    expect(validateGame(game)).toBe(game);
    expect(game.levels).toBeGreaterThanOrEqual(6);
    expect(game.tutorialLevels).toBe(1);
    expect(game.actions).toContain(GameAction.ACTION7);
    expect(game.baselineActions).toHaveLength(game.levels);
  });

  it('step never mutates its input and is deterministic', () => {
    for (const s of randomStates(300)) {
      const before = key(s);
      const blocks = s.blocks.slice();
      const history = s.history.slice();
      for (const a of ALL) expect(key(game.step(s, a))).toBe(key(game.step(s, a)));
      expect(key(s)).toBe(before);
      expect(s.blocks).toEqual(blocks);
      expect(s.history).toEqual(history);
    }
  });

  it('decode inverts encode, history included', () => {
    for (const s of randomStates(300)) {
      const back = game.decode(game.encode(s));
      expect(back).toEqual(s);
      expect(key(back)).toBe(key(s));
    }
  });

  it('renders a 64x64 frame of palette colours', () => {
    for (let level = 1; level <= game.levels; level++) {
      const frame = game.render(game.init(level)).at(-1)!;
      expect(frame.length).toBe(64 * 64);
      expect(Math.max(...frame)).toBeLessThan(16);
    }
  });
});

describe('bx19 mechanics', () => {
  it('pushes a block; a push into a wall spends an action and changes nothing else', () => {
    const pushed = play(1, [RIGHT, RIGHT]);
    expect(pushed.player).toBe(cell(1, 3, 1));
    expect([...pushed.blocks]).toEqual([cell(1, 4, 1)]);
    const bump = game.step(pushed, UP);
    expect(board(bump)).toBe(board(pushed));
    expect(bump.used).toBe(pushed.used + 1);
    expect(bump.history).toEqual(pushed.history);
  });

  it('undo restores the previous board, spends an action, and does nothing on an empty history', () => {
    const moved = play(1, [RIGHT, RIGHT]);
    const undone = game.step(moved, UNDO);
    expect(board(undone)).toBe(board(play(1, [RIGHT])));
    expect(undone.used).toBe(3);
    const twice = game.step(undone, UNDO);
    expect(board(twice)).toBe(board(game.init(1)));
    const empty = game.step(twice, UNDO);
    expect(board(empty)).toBe(board(twice));
    expect(empty.used).toBe(5);
  });

  it('keeps only the last HISTORY boards, and the history is part of the identity', () => {
    const walk = [DOWN, RIGHT, RIGHT, RIGHT, LEFT, LEFT];
    const s = play(2, walk);
    const boards = walk.map((_, i) => board(play(2, walk.slice(0, i))));
    let u = s;
    for (let i = 0; i < HISTORY; i++) {
      u = game.step(u, UNDO);
      expect(board(u)).toBe(boards[walk.length - 1 - i]);
    }
    expect(board(game.step(u, UNDO))).toBe(board(u));
    // Same board, same budget spent, different history: different states.
    const a = play(2, [RIGHT, LEFT, RIGHT, LEFT]);
    const b = play(2, [RIGHT, UP, DOWN, LEFT]);
    expect(board(a)).toBe(board(b));
    expect(a.used).toBe(b.used);
    expect(key(a)).not.toBe(key(b));
  });

  it('a block pushed onto ice slides until it leaves the ice or meets an obstacle', () => {
    // Level 3 (ice): the block at (2,5) pushed up from (2,6) slides over (2,4..2) to the floor at (2,1).
    const s = { ...game.init(3), player: cell(3, 2, 6) };
    const slid = game.step(s, UP);
    expect(slid.player).toBe(cell(3, 2, 5));
    expect(slid.blocks).toContain(cell(3, 2, 1));
  });

  it('a block pushed into a hole fills it: the block is gone and the hole becomes floor', () => {
    // Level 5 (holes): the hole is at (5,2); push the block from (3,2) east twice.
    const level = 5;
    const s0 = { ...game.init(level), player: cell(level, 2, 2), blocks: Uint8Array.of(cell(level, 3, 2), cell(level, 3, 3), cell(level, 2, 4)) };
    const atEdge = game.step(s0, RIGHT);
    expect(game.step({ ...atEdge, blocks: Uint8Array.of(cell(level, 3, 3), cell(level, 2, 4), SUNK) }, RIGHT).player).toBe(cell(level, 4, 2));
    const sunk = game.step(atEdge, RIGHT);
    expect(sunk.filled).toBe(1);
    expect([...sunk.blocks].filter((c) => c === SUNK)).toHaveLength(1);
    const across = play(level, [RIGHT, RIGHT], sunk);
    expect(across.player).toBe(cell(level, 6, 2));
    // Before it is filled, the player cannot walk into the hole.
    const edge = { ...game.init(level), player: cell(level, 4, 2) };
    expect(game.step(edge, RIGHT).player).toBe(cell(level, 4, 2));
  });

  it('only a block of the target colour counts', () => {
    const level = 4;
    const b = BOARDS[level - 1];
    const targets: number[][] = [[], []];
    b.target.forEach((t, c) => t && targets[t - 1].push(c));
    const home = { ...game.init(level), blocks: Uint8Array.of(targets[0][0], targets[1][0]) };
    expect(game.status(home)).toBe('won');
    const swapped = { ...game.init(level), blocks: Uint8Array.of(targets[1][0], targets[0][0]) };
    expect(game.status(swapped)).toBe('playing');
  });

  it('blocks of one colour are kept sorted, so a board has one encoding', () => {
    const level = 2;
    const first = game.init(level);
    expect([...first.blocks]).toEqual([...first.blocks].sort((p, q) => p - q));
    for (const s of randomStates(200)) {
      const b = BOARDS[s.level - 1];
      for (const [from, to] of b.groups) {
        const group = [...s.blocks.slice(from, to)];
        expect(group).toEqual([...group].sort((p, q) => p - q));
      }
    }
  });

  it('the budget ends the attempt: every action counts, and a spent budget is game over', () => {
    for (let level = 1; level <= game.levels; level++) {
      const budget = BOARDS[level - 1].spec.budget;
      const s = play(level, new Array(budget - 1).fill(UNDO));
      expect(game.status(s)).toBe('playing');
      const over = game.step(s, UNDO);
      expect(game.status(over)).toBe('lost');
      expect(game.step(over, RIGHT)).toBe(over);
    }
  });
});

describe('bx19 levels', () => {
  it('level 1 has a three-push solution and a few thousand states at most', () => {
    const seen = new Set([key(game.init(1))]);
    let frontier = [game.init(1)];
    let shortest = -1;
    let lost = false;
    for (let depth = 1; frontier.length; depth++) {
      const next: Bx19State[] = [];
      for (const s of frontier) {
        for (const a of ALL) {
          const t = game.step(s, a);
          if (seen.has(key(t))) continue;
          seen.add(key(t));
          const status = game.status(t);
          if (status === 'won' && shortest < 0) shortest = depth;
          if (status === 'lost') lost = true;
          if (status === 'playing') next.push(t);
        }
      }
      frontier = next;
    }
    expect(shortest).toBe(3);
    expect(lost).toBe(true);
    expect(seen.size).toBeGreaterThan(100);
    expect(seen.size).toBeLessThan(5000);
  });

  it.each([1, 2, 3, 4, 5, 6])('level %i has a push solution that wins within its budget', (level) => {
    const solution = winningActions(level);
    expect(solution).toBeDefined();
    const end = play(level, solution!);
    expect(game.status(end)).toBe('won');
    expect(solution!.length).toBeLessThanOrEqual(BOARDS[level - 1].spec.budget);
    expect(game.baselineActions![level - 1]).toBeGreaterThanOrEqual(solution!.length);
  });
});
