import { clickClassViolations } from '../../test/support/games.js';
import { describe, expect, it } from 'vitest';
import { GRID, GameAction, type Action } from '../../src/engine/actions.js';
import { clickClasses, validateGame, type ClickTarget } from '../../src/engine/game.js';
import game, { LEVELS, type MosaicState } from './index.js';
import { layoutOf } from './layout.js';

const submit: Action = { id: GameAction.ACTION5 };
const centre = (r: ClickTarget): Action => ({ id: GameAction.ACTION6, x: r.x + (r.w >> 1), y: r.y + (r.h >> 1) });
const hex = (s: MosaicState): string => Buffer.from(game.encode(s)).toString('hex');
/** A click on board cell i of the state's level. */
function clickCell(s: MosaicState, i: number): MosaicState {
  const level = LEVELS[s.level - 1];
  const rects = game.clickTargets!(s);
  const k = Array.from({ length: i }, (_, j) => j).filter((j) => !level.locked[j]).length;
  return game.step(s, centre(rects[k]));
}
const background: Action = { id: GameAction.ACTION6, x: 0, y: 0 };

/** Every state reachable from init(level), by click class, up to `cap` states. */
function reachable(level: number, cap: number): { count: number; wins: number; losses: number; complete: boolean } {
  const start = game.init(level);
  const seen = new Set([hex(start)]);
  const queue = [start];
  let wins = 0;
  let losses = 0;
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q];
    const st = game.status(s);
    if (st !== 'playing') {
      if (st === 'won') wins++;
      else losses++;
      continue;
    }
    const moves: Action[] = [submit, ...clickClasses(game, s).map((c) => ({ id: GameAction.ACTION6, x: c.x, y: c.y }))];
    for (const a of moves) {
      const n = game.step(s, a);
      const k = hex(n);
      if (seen.has(k)) continue;
      if (seen.size >= cap) return { count: seen.size, wins, losses, complete: false };
      seen.add(k);
      queue.push(n);
    }
  }
  return { count: seen.size, wins, losses, complete: true };
}

/** Fewest clicks (cell indices) turning start into target, by breadth-first search over colourings. */
function solveColours(level: number): number[] {
  const l = LEVELS[level - 1];
  const key = (c: Uint8Array): string => c.join('');
  const prev = new Map<string, [string, number] | null>([[key(l.start), null]]);
  const queue = [l.start];
  for (let q = 0; q < queue.length; q++) {
    const c = queue[q];
    if (key(c) === key(l.target)) break;
    l.effects.forEach((effect, i) => {
      if (!effect) return;
      const n = c.slice();
      for (const j of effect) n[j] = (n[j] + 1) % l.cycle[j];
      if (!prev.has(key(n))) {
        prev.set(key(n), [key(c), i]);
        queue.push(n);
      }
    });
  }
  const clicks: number[] = [];
  for (let k = key(l.target); prev.get(k); k = prev.get(k)![0]) clicks.unshift(prev.get(k)![1]);
  return clicks;
}

describe('cm16 colour mosaic', () => {
  it('fulfils the game contract', () => {
    expect(validateGame(game).id).toBe('cm16');
    expect(game.levels).toBeGreaterThanOrEqual(6);
    expect(game.baselineActions).toHaveLength(game.levels);
  });

  it('never mutates the state it steps from, and encode/decode round-trips', () => {
    let s = game.init(7);
    let seed = 7;
    for (let n = 0; n < 300 && game.status(s) === 'playing'; n++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const a: Action = seed % 9 === 0 ? submit : { id: GameAction.ACTION6, x: seed % GRID, y: (seed >> 6) % GRID };
      const before = hex(s);
      const cells = s.cells.slice();
      const next = game.step(s, a);
      expect(hex(s)).toBe(before);
      expect(s.cells).toEqual(cells);
      expect(hex(game.decode(game.encode(next)))).toBe(hex(next));
      s = next;
    }
  });

  it('gives equal states identical bytes however they were reached', () => {
    const s = game.init(2);
    const ab = clickCell(clickCell(s, 0), 4);
    const ba = clickCell(clickCell(s, 4), 0);
    expect(hex(ab)).toBe(hex(ba));
    expect(hex(clickCell(clickCell(clickCell(s, 0), 0), 0))).toBe(hex(game.step(game.step(game.step(s, background), background), background)));
  });

  it('cycles a cell through as many colours as its cycle length', () => {
    const level = LEVELS[2];
    for (let i = 0; i < level.w * level.h; i++) {
      let s = game.init(3);
      const seen: number[] = [];
      for (let k = 0; k < level.cycle[i]; k++) {
        seen.push(s.cells[i]);
        s = clickCell(s, i);
      }
      expect(new Set(seen).size).toBe(level.cycle[i]);
      expect(s.cells[i]).toBe(level.start[i]);
    }
  });

  it('a click cycles the linked cells too', () => {
    // level 4: cells 0-1-2-5 form a chain; clicking 1 cycles 0, 1 and 2 only
    const s = clickCell(game.init(4), 1);
    expect(Array.from(s.cells)).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('locked cells cannot be clicked but follow their links', () => {
    const s0 = game.init(5);
    const level = LEVELS[4];
    expect(level.locked[1]).toBe(1);
    const onLocked = game.step(s0, centre(layoutOf(level).rects[1]));
    expect(hex(onLocked)).toBe(hex(game.step(s0, background)));
    // cell 0 is linked to locked cells 1 and 4
    const s = clickCell(s0, 0);
    expect([s.cells[0], s.cells[1], s.cells[4]]).toEqual([1, 1, 1]);
    expect(game.clickTargets!(s0)).toHaveLength(level.locked.length - level.locked.reduce((a, b) => a + b, 0));
  });

  it('on a mirrored board a click also acts on the mirrored cell', () => {
    // level 6, row 1: cells 4..7, cell 4 linked to 0 above; its mirror 7 linked to 3
    const s = clickCell(game.init(6), 4);
    expect([s.cells[0], s.cells[3], s.cells[4], s.cells[7], s.cells[5], s.cells[6]]).toEqual([1, 1, 1, 1, 0, 0]);
  });

  it('a wrong submit costs a life; three of them end the attempt', () => {
    let s = game.init(2);
    for (let k = 3; k > 0; k--) {
      expect(game.status(s)).toBe('playing');
      s = game.step(s, submit);
      expect(s.lives).toBe(k - 1);
    }
    expect(game.status(s)).toBe('lost');
    expect(hex(game.step(s, submit))).toBe(hex(s));
  });

  it('the timer bar runs out after the budget of actions', () => {
    let s = game.init(1);
    for (let k = 0; k < LEVELS[0].budget; k++) s = game.step(s, background);
    expect(game.status(s)).toBe('lost');
  });

  it('clicks in one class act alike, and so do all clicks outside the targets', () => {
    for (let level = 1; level <= game.levels; level++) {
      const s = clickCell(game.init(level), 0);
      expect(clickClassViolations(game, s, 7)).toEqual([]);
      expect(clickClasses(game, s).reduce((n, c) => n + c.cells, 0)).toBe(GRID * GRID);
    }
  });

  it('level 1 has exactly the states a count by hand gives', () => {
    // 4 two-colour cells, target 2 clicks away, budget 8, 3 lives; every action spends one unit.
    // States with t actions spent and l lives: colourings within t-(3-l) clicks of the start,
    // plus the lost-all-lives states and the won states (see README).
    const choose = (n: number, k: number): number => (k < 0 || k > n ? 0 : k === 0 ? 1 : (choose(n - 1, k - 1) * n) / k);
    const ball = (r: number): number => (r < 0 ? 0 : [0, 1, 2, 3, 4].filter((k) => k <= r).reduce((a, k) => a + choose(4, k), 0));
    const budget = LEVELS[0].budget;
    const d = 2;
    let count = 0;
    for (let t = 0; t <= budget; t++) for (let l = 1; l <= 3; l++) count += ball(t - (3 - l)) + (t >= 1 && d <= t - 1 - (3 - l) ? 1 : 0);
    for (let t = 3; t <= budget; t++) count += ball(t - 3) - (d <= t - 3 ? 1 : 0);
    const bfs = reachable(1, 10_000);
    expect(bfs.complete).toBe(true);
    expect(bfs.count).toBe(count);
    expect(bfs.wins).toBeGreaterThan(0);
    expect(bfs.losses).toBeGreaterThan(0);
  });

  it('level 2 is solvable and losable within its whole state graph', () => {
    const bfs = reachable(2, 50_000);
    expect(bfs.complete).toBe(true);
    expect(bfs.wins).toBeGreaterThan(0);
    expect(bfs.losses).toBeGreaterThan(0);
  });

  it('every level is won by its shortest colouring within the budget and baseline', () => {
    for (let level = 1; level <= game.levels; level++) {
      const clicks = solveColours(level);
      let s = game.init(level);
      for (const i of clicks) s = clickCell(s, i);
      expect(Array.from(s.cells)).toEqual(Array.from(LEVELS[level - 1].target));
      s = game.step(s, submit);
      expect(game.status(s)).toBe('won');
      expect(clicks.length + 1).toBeLessThanOrEqual(game.baselineActions![level - 1]);
      expect(game.baselineActions![level - 1]).toBeLessThan(LEVELS[level - 1].budget);
    }
  });

  it('renders 64x64 frames of palette colours', () => {
    for (let level = 1; level <= game.levels; level++) {
      const [frame] = game.render(game.init(level));
      expect(frame).toHaveLength(GRID * GRID);
      expect(frame.every((c) => c >= 0 && c <= 15)).toBe(true);
    }
  });
});
