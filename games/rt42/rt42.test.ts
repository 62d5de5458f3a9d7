import { describe, expect, it } from 'vitest';
import { GameAction, type Action } from '../../src/engine/actions.js';
import { validateGame, type Game } from '../../src/engine/game.js';
import game, { BOARDS, LIVES, type Rt42State } from './index.js';

const UP = { id: GameAction.ACTION1 };
const DOWN = { id: GameAction.ACTION2 };
const LEFT = { id: GameAction.ACTION3 };
const RIGHT = { id: GameAction.ACTION4 };
const MOVES = [UP, DOWN, LEFT, RIGHT];

function play(level: number, actions: Action[]): Rt42State {
  return actions.reduce((s, a) => game.step(s, a), game.init(level));
}
const cell = (level: number, x: number, y: number): number => y * BOARDS[level - 1].w + x;
const key = (g: Game, s: unknown): string => Buffer.from(g.encode(s)).toString('latin1');

/** Breadth-first search over encoded states: the shortest win, whether a loss is reachable, the count. */
function search(level: number): { win?: Action[]; lost: boolean; states: number } {
  const root = game.init(level);
  const parent = new Map<string, [string, Action] | null>([[key(game, root), null]]);
  let frontier = [root];
  let win: string | undefined;
  let lost = false;
  while (frontier.length) {
    const next: Rt42State[] = [];
    for (const s of frontier) {
      for (const a of MOVES) {
        const t = game.step(s, a);
        const k = key(game, t);
        if (parent.has(k)) continue;
        parent.set(k, [key(game, s), a]);
        const status = game.status(t);
        if (status === 'won') win ??= k;
        else if (status === 'lost') lost = true;
        else next.push(t);
      }
    }
    frontier = next;
  }
  if (win === undefined) return { lost, states: parent.size };
  const path: Action[] = [];
  for (let k = win; parent.get(k); k = parent.get(k)![0]) path.push(parent.get(k)![1]);
  return { win: path.reverse(), lost, states: parent.size };
}

function randomStates(count: number): Rt42State[] {
  let seed = 7;
  const rnd = (n: number): number => ((seed = (seed * 1103515245 + 12345) >>> 0) % n);
  const out: Rt42State[] = [];
  for (let level = 1; level <= game.levels; level++) {
    let s = game.init(level);
    for (let i = 0; i < count; i++) {
      s = game.step(s, MOVES[rnd(4)]);
      out.push(s);
      if (game.status(s) !== 'playing') s = game.init(level);
    }
  }
  return out;
}

describe('rt42 contract', () => {
  it('fulfils the game contract with six levels, a tutorial and a baseline per level', () => {
    expect(validateGame(game)).toBe(game);
    expect(game.levels).toBeGreaterThanOrEqual(6);
    expect(game.tutorialLevels).toBe(1);
    expect(game.baselineActions).toHaveLength(game.levels);
  });

  it('step never mutates its input and is deterministic', () => {
    for (const s of randomStates(300)) {
      const before = JSON.stringify(s);
      for (const a of MOVES) {
        const once = game.step(s, a);
        expect(key(game, game.step(s, a))).toBe(key(game, once));
      }
      expect(JSON.stringify(s)).toBe(before);
    }
  });

  it('decode inverts encode, and equal states encode equally', () => {
    for (const s of randomStates(300)) {
      const back = game.decode(game.encode(s));
      expect(back).toEqual(s);
      expect(key(game, back)).toBe(key(game, { ...s }));
    }
  });

  it('renders a 64x64 frame of palette colours', () => {
    for (let level = 1; level <= game.levels; level++) {
      const frames = game.render(game.init(level));
      expect(frames.at(-1)!.length).toBe(64 * 64);
      expect(Math.max(...frames.at(-1)!)).toBeLessThan(16);
    }
  });
});

describe('rt42 mechanics', () => {
  it('entering the turn switch turns the key a quarter clockwise; the exit opens only when it matches', () => {
    const onSwitch = play(1, [RIGHT, RIGHT, RIGHT]);
    expect(onSwitch.pos).toBe(cell(1, 4, 1));
    expect(onSwitch.turn).toBe(1);
    // Back onto the switch once more: the key is at two turns and the exit stays shut.
    const overturned = play(1, [RIGHT, RIGHT, RIGHT, RIGHT, LEFT, RIGHT, DOWN, DOWN]);
    expect(overturned.turn).toBe(2);
    expect(overturned.pos).toBe(cell(1, 5, 2));
    expect(game.status(overturned)).toBe('playing');
    const won = play(1, [RIGHT, RIGHT, RIGHT, RIGHT, DOWN, DOWN]);
    expect(game.status(won)).toBe('won');
    expect(game.step(won, LEFT)).toBe(won);
  });

  it('the colour switch cycles the key colour; the counter-clockwise switch turns it back', () => {
    const painted = play(2, [DOWN, DOWN, DOWN, DOWN, RIGHT, RIGHT, RIGHT]);
    expect(painted.pos).toBe(cell(2, 4, 5));
    expect(painted.colour).toBe(1);
    // Level 5: the L switch sits at (9,3), reached from (9,4) below.
    const s = { ...game.init(5), pos: cell(5, 9, 4) };
    expect(game.step(s, UP).turn).toBe((s.turn + 3) % 4);
  });

  it('the toggle flips closed doors open and open doors shut', () => {
    const toggled = play(3, [DOWN, DOWN, DOWN]);
    expect(toggled.pos).toBe(cell(3, 1, 4));
    expect(toggled.doors).toBe(1);
    const atClosedDoor = { ...game.init(3), pos: cell(3, 5, 4) };
    expect(game.step(atClosedDoor, RIGHT).pos).toBe(cell(3, 5, 4));
    expect(game.step({ ...atClosedDoor, doors: 1 }, RIGHT).pos).toBe(cell(3, 6, 4));
    const atOpenDoor = { ...game.init(3), pos: cell(3, 4, 1) };
    expect(game.step(atOpenDoor, RIGHT).pos).toBe(cell(3, 5, 1));
    expect(game.step({ ...atOpenDoor, doors: 1 }, RIGHT).pos).toBe(cell(3, 4, 1));
  });

  it('a refill tops the timer up once per attempt', () => {
    const timer = BOARDS[3].spec.timer;
    const refilled = play(4, [RIGHT, RIGHT, RIGHT, RIGHT, RIGHT]);
    expect(refilled.pos).toBe(cell(4, 6, 1));
    expect(refilled.timer).toBe(timer);
    const again = play(4, [RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, LEFT]);
    expect(again.pos).toBe(cell(4, 6, 1));
    expect(again.timer).toBe(timer - 2);
  });

  it('a one-way tile lets the player in only in its direction', () => {
    const through = play(4, [RIGHT, RIGHT]);
    expect(through.pos).toBe(cell(4, 3, 1));
    const back = play(4, [RIGHT, RIGHT, RIGHT, LEFT]);
    expect(back.pos).toBe(cell(4, 4, 1));
  });

  it('running out of time costs a life and restarts the attempt; the last life ends the game', () => {
    const timer = BOARDS[0].spec.timer;
    const bumps = (n: number): Action[] => new Array(n).fill(UP);
    const turned = play(1, [RIGHT, RIGHT, RIGHT, ...bumps(timer - 3)]);
    expect(turned).toEqual({ ...game.init(1), lives: LIVES - 1 });
    const lastLife = play(1, bumps(timer * (LIVES - 1) + timer - 1));
    expect(lastLife.lives).toBe(1);
    expect(lastLife.timer).toBe(1);
    const over = game.step(lastLife, UP);
    expect(game.status(over)).toBe('lost');
    expect(game.step(over, DOWN)).toBe(over);
  });
});

describe('rt42 levels', () => {
  it('level 1 is solved in the six moves a person counts by hand (3 to the switch, 3 to the exit)', () => {
    const result = search(1);
    expect(result.win).toHaveLength(6);
    expect(result.states).toBeLessThan(5000);
  });

  it.each([1, 2, 3, 4, 5, 6])('level %i is winnable, the win replays, and game over is reachable', (level) => {
    const result = search(level);
    expect(result.win).toBeDefined();
    expect(game.status(play(level, result.win!))).toBe('won');
    expect(result.lost).toBe(true);
    expect(game.baselineActions![level - 1]).toBeGreaterThanOrEqual(result.win!.length);
    // Non-tutorial levels need more moves than one timer bar without a refill or a second life would allow by wandering.
    if (level > 1) expect(result.win!.length).toBeGreaterThanOrEqual(BOARDS[level - 1].spec.timer * 0.8);
  });
});
