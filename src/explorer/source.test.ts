import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import { fingerprint, initIdentity } from '../engine/identity.js';
import { InputError } from '../errors.js';
import { checkLevel, openGame, openLevel } from './source.js';
import { defaultWorkers, Watchdog } from '../parallel/index.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

describe('openLevel', () => {
  it('gives the root as the explorer stores it: canonical bytes, their fingerprint, the status', async () => {
    const opened = await openLevel(lights, 2);
    const root = await opened.root();
    await initIdentity();
    const state = lights.init(2);
    expect([...root.bytes]).toEqual([...lights.encode(state)]);
    const fp = fingerprint(lights.encode(state));
    expect({ lo: root.lo, hi: root.hi }).toEqual({ lo: fp.lo, hi: fp.hi });
    expect(root.status).toBe(lights.status(state));
    expect({ level: opened.level, lastLevel: opened.lastLevel, workers: opened.workers, module: opened.module }).toEqual({ level: 2, lastLevel: lights.levels === 2, workers: 1, module: undefined });
    expect(opened.expander(new Watchdog()).workers).toBe(1);
  });

  it('picks the worker count in one place: as asked (at least 1), every core by default (one left to the coordinator from 16 cores up), 1 for a game object', async () => {
    expect((await openGame(fixture('lights'), 3)).workers).toBe(3);
    expect((await openGame(fixture('lights'), 0)).workers).toBe(1);
    expect((await openGame(fixture('lights'))).workers).toBe(defaultWorkers());
    expect([1, 2, 8, 15, 16, 64].map((cores) => defaultWorkers(cores))).toEqual([1, 2, 8, 15, 15, 63]);
    expect((await openGame(lights, 8)).workers).toBe(1);
    expect((await openGame(fixture('lights'))).module).toMatch(/dist.*lights\.js$/);
  });

  it('rejects a level the game does not have as bad input', async () => {
    for (const level of [0, lights.levels + 1, 1.5]) {
      await expect(openLevel(lights, level)).rejects.toThrow(InputError);
      expect(() => checkLevel(lights, level)).toThrow(`level ${level} does not exist: ${lights.id} has levels 1..${lights.levels}`);
    }
  });
});
