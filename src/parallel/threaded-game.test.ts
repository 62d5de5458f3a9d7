import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GameAction, KEY_ACTIONS } from '../engine/actions.js';
import { PACKAGE_ROOT, loadGame } from '../suite/loader.js';
import { StepTimeout, threadedGame } from './threaded-game.js';

const fixture = (name: string): string => join(PACKAGE_ROOT, 'test/fixtures', `${name}.ts`);
const RIGHT = KEY_ACTIONS[GameAction.ACTION4];

describe('threadedGame', () => {
  it('answers as the game does on this thread: status, bytes, frames, clicks', async () => {
    const { game, module } = await loadGame(fixture('clicks'));
    const remote = threadedGame(module, 5);
    try {
      expect({ id: remote.id, levels: remote.levels, actions: remote.actions }).toEqual({ id: game.id, levels: game.levels, actions: game.actions });
      let here = game.init(1);
      let there = remote.init(1);
      for (let i = 0; i < 6; i++) {
        expect(remote.status(there)).toBe(game.status(here));
        expect(remote.encode(there)).toEqual(game.encode(here));
        expect(remote.render(there)).toEqual(game.render(here));
        expect(remote.clickTargets?.(there)).toEqual(game.clickTargets?.(here));
        const action = { id: GameAction.ACTION6, x: 3 * i, y: 2 * i };
        here = game.step(here, action);
        there = remote.step(there, action);
      }
      expect(remote.encode(remote.decode(game.encode(here)))).toEqual(game.encode(here));
    } finally {
      remote.close();
    }
  }, 30_000);

  it('throws what the game threw, and stops a step that never returns at the limit', async () => {
    const boom = threadedGame((await loadGame(fixture('boom'))).module, 5);
    const a1 = KEY_ACTIONS[GameAction.ACTION1];
    const a2 = KEY_ACTIONS[GameAction.ACTION2];
    const s = [a1, a1, a2].reduce((state, a) => boom.step(state, a), boom.init(1));
    expect(() => boom.step(s, a2)).toThrow(/boom: counter overflow/);
    boom.close();

    const hang = threadedGame((await loadGame(fixture('hang'))).module, 2);
    const five = hang.step(hang.step(hang.init(1), RIGHT), RIGHT);
    const started = performance.now();
    expect(() => hang.step(five, RIGHT)).toThrow(StepTimeout);
    expect(performance.now() - started).toBeLessThan(10_000);
    // The thread is gone: every later call says why at once.
    expect(() => hang.init(1)).toThrow(/did not return within 2 s/);
  }, 30_000);
});
