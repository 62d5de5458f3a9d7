import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import ruin from '../../test/fixtures/ruin.js';
import { CELLS, GRID, GameAction } from './actions.js';
import { blankFrame, clickClasses, validateGame, type Game } from './game.js';

/** A valid game object to break one member at a time. */
const valid = (): Record<string, unknown> => ({ ...ruin });

describe('validateGame', () => {
  it('accepts every fixture shape and returns it', () => {
    expect(validateGame(ruin)).toBe(ruin);
    expect(validateGame(lights)).toBe(lights);
  });

  it('rejects a value that is not an object', () => {
    expect(() => validateGame(null, 'mod.js')).toThrow('mod.js is not an object');
    expect(() => validateGame(42)).toThrow('not an object');
  });

  it.each(['id', 'title', 'init', 'step', 'status', 'render', 'encode', 'decode'])('names a missing %s', (member) => {
    const g = valid();
    delete g[member];
    expect(() => validateGame(g, 'x.js')).toThrow(`x.js: member '${member}'`);
  });

  it.each([
    ['id', 'ruins', 'four letters'],
    ['id', 'ab-c', 'four letters'],
    ['levels', 0, 'positive integer'],
    ['levels', 2.5, 'positive integer'],
    ['tutorialLevels', 7, 'in 0..levels'],
    ['tutorialLevels', -1, 'in 0..levels'],
    ['actions', [], 'non-empty'],
    ['actions', [0], 'RESET is never available'],
    ['actions', [8], 'action ids are 1..7'],
    ['actions', [4, 3], 'increasing order'],
    ['actions', [3, 3], 'increasing order'],
    ['baselineActions', [1, 2], 'one positive integer per level'],
    ['baselineActions', [1, 2, 3, 4, 5, 0], 'one positive integer per level'],
    ['step', 'not a function', 'not a function'],
    ['clickTargets', 3, 'must be a function'],
    ['clickTargets', () => [], 'ACTION6 is not available'],
  ])('rejects %s = %j (%s)', (member, value, why) => {
    const g = { ...valid(), [member]: value };
    expect(() => validateGame(g)).toThrow(new RegExp(`member '${member}'.*${why.replace(/[.*()]/g, '\\$&')}`));
  });
});

describe('clickClasses', () => {
  it('partitions the 4,096 cells of the lights board into 9 lights and the rest', () => {
    const state = lights.init(1);
    const classes = clickClasses(lights, state);
    expect(classes).toHaveLength(10);
    expect(classes.reduce((n, c) => n + c.cells, 0)).toBe(CELLS);
  });

  it('puts cells in one class exactly when their clicks lead to the same state (brute force)', () => {
    const state = lights.init(2);
    const targets = lights.clickTargets!(state);
    const classOf = (x: number, y: number): number => {
      const t = targets.findIndex((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h);
      return t < 0 ? targets.length : t;
    };
    const resultOfClass = new Map<number, string>();
    const classOfResult = new Map<string, number>();
    for (let y = 0; y < GRID; y++) {
      for (let x = 0; x < GRID; x++) {
        const next = lights.encode(lights.step(state, { id: GameAction.ACTION6, x, y })).join();
        const k = classOf(x, y);
        expect(resultOfClass.get(k) ?? next).toBe(next);
        expect(classOfResult.get(next) ?? k).toBe(k);
        resultOfClass.set(k, next);
        classOfResult.set(next, k);
      }
    }
    expect(resultOfClass.size).toBe(10);
    // each representative cell belongs to its own class
    clickClasses(lights, state).forEach((c, i) => expect(classOf(c.x, c.y)).toBe(i));
  });

  it('gives one class per cell without clickTargets', () => {
    const noTargets: Game = { ...lights, clickTargets: undefined };
    const classes = clickClasses(noTargets, lights.init(1));
    expect(classes).toHaveLength(CELLS);
    expect(classes[GRID + 2]).toEqual({ x: 2, y: 1, cells: 1 });
  });
});

it('blankFrame is 64x64 of one colour', () => {
  const f = blankFrame(7);
  expect(f).toHaveLength(CELLS);
  expect(f.every((c) => c === 7)).toBe(true);
});
