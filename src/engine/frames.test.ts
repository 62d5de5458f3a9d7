import { describe, expect, it } from 'vitest';
import { CELLS, GameAction, parseAction, type Action } from './actions.js';
import { framesAlong, PathError } from './frames.js';
import type { Game } from './game.js';

/** A counter: each ACTION1 adds one, ACTION6 adds x; at 5 the level is won, ACTION2 throws. Its frame shows the count as that many green cells. */
const counter: Game<number> = {
  id: 'cnt1',
  title: 'Counter',
  levels: 1,
  tutorialLevels: 0,
  actions: [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION6],
  init: () => 0,
  step(n, a: Action) {
    if (a.id === GameAction.ACTION2) throw new Error('two is broken');
    return a.id === GameAction.ACTION6 ? n + (a.x ?? 0) : n + 1;
  },
  status: (n) => (n >= 5 ? 'won' : 'playing'),
  render(n) {
    const f = new Uint8Array(CELLS);
    f.fill(14, 0, n);
    return [new Uint8Array(CELLS).fill(9), f]; // two layers: the last is the settled frame
  },
  encode: (n) => Uint8Array.of(n),
  decode: (b) => b[0],
};
const greens = (f: Uint8Array): number => f.filter((c) => c === 14).length;

describe('framesAlong', () => {
  it('gives the start and one settled frame per action, with the action under each', () => {
    const actions = ['ACTION1', 'ACTION6(2,7)', 'ACTION1', 'ACTION1'].map(parseAction);
    const frames = framesAlong(counter, 1, actions);
    expect(frames).toHaveLength(actions.length + 1);
    expect(frames.map((f) => greens(f.frame))).toEqual([0, 1, 3, 4, 5]);
    expect(frames.map((f) => f.action)).toEqual([null, 'ACTION1', 'ACTION6(2,7)', 'ACTION1', 'ACTION1']);
    expect(frames.map((f) => f.status)).toEqual(['playing', 'playing', 'playing', 'playing', 'won']);
  });

  it('names the step at which the game throws, or at which the path outlives the level', () => {
    const throws = (): unknown => framesAlong(counter, 1, ['ACTION1', 'ACTION2'].map(parseAction));
    expect(throws).toThrow(PathError);
    expect(throws).toThrow('action 2 of the path failed: two is broken');
    const past = ['ACTION6(5,0)', 'ACTION1'].map(parseAction);
    expect(() => framesAlong(counter, 1, past)).toThrow('action 2 of the path failed: the level already ended (won) before ACTION1');
    const noLayer = { ...counter, render: () => [] };
    expect(() => framesAlong(noLayer, 1, [])).toThrow('the start of the level cannot be built or drawn: render gave no layer');
  });
});
