import { clickClassViolations } from '../../test/support/games.js';
import { describe, expect, it } from 'vitest';
import { GRID, GameAction, type Action } from '../../src/engine/actions.js';
import { clickClasses, validateGame, type ClickTarget } from '../../src/engine/game.js';
import game, { LEVELS, type DropState } from './index.js';
import { compileLevel } from './levels.js';
import { cupsFilled, jammed, settle } from './physics.js';

const hex = (s: DropState): string => Buffer.from(game.encode(s)).toString('hex');
const centre = (r: ClickTarget): Action => ({ id: GameAction.ACTION6, x: r.x + (r.w >> 1), y: r.y + (r.h >> 1) });
const background: Action = { id: GameAction.ACTION6, x: 0, y: 0 };
/** Clicks the first lever of `group` (1-based, as on the map). */
function pull(s: DropState, group: number): DropState {
  const k = LEVELS[s.level - 1].levers.findIndex((l) => l.group === group - 1);
  return game.step(s, centre(game.clickTargets!(s)[k]));
}
/** Cell index of map column x, row y. */
const at = (level: number, x: number, y: number): number => y * LEVELS[level - 1].w + x;

/** Breadth-first search over click classes: state count, shortest win and loss lengths. */
function search(level: number): { count: number; win: number; loss: number } {
  const start = game.init(level);
  const depth = new Map([[hex(start), 0]]);
  const queue = [start];
  let win = -1;
  let loss = -1;
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    const d = depth.get(hex(s))!;
    const st = game.status(s);
    if (st === 'won' && win < 0) win = d;
    if (st === 'lost' && loss < 0) loss = d;
    if (st !== 'playing') continue;
    for (const c of clickClasses(game, s)) {
      const n = game.step(s, { id: GameAction.ACTION6, x: c.x, y: c.y });
      if (!depth.has(hex(n))) {
        depth.set(hex(n), d + 1);
        queue.push(n);
      }
    }
  }
  return { count: depth.size, win, loss };
}

describe('gv08 gravity drop', () => {
  it('fulfils the game contract', () => {
    expect(validateGame(game).id).toBe('gv08');
    expect(game.actions).toEqual([GameAction.ACTION6]);
    expect(game.levels).toBeGreaterThanOrEqual(6);
  });

  it('never mutates the state it steps from, and encode/decode round-trips', () => {
    for (let level = 1; level <= game.levels; level++) {
      let s = game.init(level);
      let seed = level;
      while (game.status(s) === 'playing') {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        const targets = game.clickTargets!(s);
        const a = seed % 3 === 0 ? background : centre(targets[seed % targets.length]);
        const before = hex(s);
        const next = game.step(s, a);
        expect(hex(s)).toBe(before);
        expect(hex(game.decode(game.encode(next)))).toBe(hex(next));
        s = next;
      }
    }
  });

  it('a lever opens its trapdoors and the ball above falls to the next floor', () => {
    // tutorial: the purple ball rests on trapdoor b, lever 2 drops it onto trapdoor c below
    const s0 = game.init(1);
    expect(Array.from(s0.balls)).toContain(at(1, 4, 1));
    const s1 = pull(s0, 2);
    expect(Array.from(s1.balls)).toContain(at(1, 4, 3));
    expect(s1.spent).toBe(1);
    const s2 = pull(s1, 3);
    expect(game.status(s2)).toBe('won');
    // both orange balls fell too: lever 3 also opened the right trapdoor, lever 1 never pulled
    expect(Array.from(s2.balls).sort((a, b) => a - b)).toEqual([at(1, 1, 1), at(1, 7, 6), at(1, 4, 6)].sort((a, b) => a - b));
  });

  it('balls roll down slopes and stack: the order they arrive in decides the level', () => {
    // level 2: lever 1 drops an orange ball, lever 3 the right column's purple and then the orange
    // above it, lever 2 a purple ball; lever 4 opens the gate over the cups (y x y x, top down)
    const colour = (s: DropState, cell: number): string => 'op'[LEVELS[1].ballColour[Array.from(s.balls).indexOf(cell)]] ?? '.';
    const cups = (s: DropState): string => [10, 9, 8, 7].map((y) => colour(s, at(2, 5, y))).join('');
    const held = pull(pull(game.init(2), 1), 3);
    expect(cups(held)).toBe('....');
    const released = pull(held, 4);
    expect(cups(released)).toBe('opo.');
    const orangeFirst = pull(released, 2);
    expect(cups(orangeFirst)).toBe('opop');
    expect(game.status(orangeFirst)).toBe('won');
    const pairFirst = pull(pull(pull(pull(game.init(2), 3), 1), 4), 2);
    expect(cups(pairFirst)).toBe('poop');
    expect(game.status(pairFirst)).toBe('playing');
  });

  it('a trapdoor cannot close on a ball resting in it', () => {
    const level = compileLevel({ map: ['#####', '#o..#', '#A..#', '#o..#', '#b..#', '#...#', '#####'], budget: 5, baseline: 1 });
    const cell = (x: number, y: number): number => y * 5 + x;
    // the lower ball rests on the closed trapdoor b, the upper one inside the open trapdoor A on it
    const balls = settle(level, 0, level.ballStart.slice());
    expect(Array.from(balls)).toEqual([cell(1, 2), cell(1, 3)]);
    expect(jammed(level, 0, 0, balls)).toBe(true);
    expect(jammed(level, 0, 1, balls)).toBe(false);
    // opening b lets both fall; then A is free to close
    const fallen = settle(level, 0b10, balls.slice());
    expect(Array.from(fallen)).toEqual([cell(1, 4), cell(1, 5)]);
    expect(jammed(level, 0b10, 0, fallen)).toBe(false);
  });

  it('a switch slope rolls balls left or right by its lever', () => {
    const level = compileLevel({ map: ['#####', '##o##', '#...#', '#.e.#', '#####'], budget: 3, baseline: 1 });
    expect(Array.from(settle(level, 0, level.ballStart.slice()))).toEqual([3 * 5 + 1]);
    expect(Array.from(settle(level, 1, level.ballStart.slice()))).toEqual([3 * 5 + 3]);
  });

  it('clicks in one class act alike, and so do all clicks outside the levers', () => {
    for (let level = 1; level <= game.levels; level++) {
      const s = game.init(level);
      expect(clickClassViolations(game, s, 5)).toEqual([]);
    }
  });

  it('every level is solvable within its baseline and can end in game over', () => {
    for (let level = 1; level <= game.levels; level++) {
      const { win, loss } = search(level);
      expect(win).toBeGreaterThan(0);
      expect(win).toBeLessThanOrEqual(game.baselineActions![level - 1]);
      expect(loss).toBeGreaterThan(0);
    }
  });

  it('the timer bar runs out after the budget of clicks', () => {
    let s = game.init(3);
    for (let k = 0; k < LEVELS[2].budget; k++) s = game.step(s, background);
    expect(game.status(s)).toBe('lost');
    expect(hex(game.step(s, background))).toBe(hex(s));
  });

  it('renders 64x64 frames of palette colours', () => {
    for (let level = 1; level <= game.levels; level++) {
      const [frame] = game.render(game.init(level));
      expect(frame).toHaveLength(GRID * GRID);
      expect(frame.every((c) => c >= 0 && c <= 15)).toBe(true);
    }
  });
});
