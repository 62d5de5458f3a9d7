import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGame } from '../suite/loader.js';
import { exploreGraph, GameCrash } from './coordinator.js';
import type { Game } from '../engine/index.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

describe('explore under the step watchdog', () => {
  it('stops a step that never returns with the shortest path to it, and the shared pool stays usable', async () => {
    const hang = await loadGame(fixture('hang'));
    const started = performance.now();
    const err = await exploreGraph(hang, { level: 1, workers: 2, stepSeconds: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GameCrash);
    const crash = err as GameCrash;
    expect(crash.kind).toBe('hang');
    // 3 -> 4 -> 5, then right from 5 never returns.
    expect(crash.actions).toEqual(['ACTION4', 'ACTION4', 'ACTION4']);
    expect(crash.message).toMatch(/hang level 1 hung after 3 actions/);
    expect(performance.now() - started).toBeLessThan(15_000);
    // The aborted thread was replaced: the same pool explores another game to the end.
    const lights = await loadGame(fixture('lights'));
    const { result } = await exploreGraph(lights, { level: 1, workers: 2 });
    expect(result.fullyExplored).toBe(true);
  }, 60_000);

  it('keeps --max-seconds and an abort signal while a step is stuck', async () => {
    const hang = await loadGame(fixture('hang'));
    let started = performance.now();
    const timed = await exploreGraph(hang, { level: 1, workers: 2, stepSeconds: 60, maxSeconds: 1 });
    expect(timed.result.stopReason).toBe('max-seconds');
    expect(timed.result.fullyExplored).toBe(false);
    expect(performance.now() - started).toBeLessThan(10_000);
    const abort = new AbortController();
    started = performance.now();
    setTimeout(() => abort.abort(), 1000);
    const stopped = await exploreGraph(hang, { level: 1, workers: 2, stepSeconds: 60, signal: abort.signal });
    expect(stopped.result.stopReason).toBe('interrupted');
    expect(performance.now() - started).toBeLessThan(10_000);
    // The stuck threads are stopped a second after the exploration gave up on them.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const lights = await loadGame(fixture('lights'));
    const { result } = await exploreGraph(lights, { level: 1, workers: 2 });
    expect(result.fullyExplored).toBe(true);
  }, 60_000);

  it('names the step still running when its time budget stops the search (a hang the budget would hide)', async () => {
    const hang = await loadGame(fixture('hang'));
    const { result } = await exploreGraph(hang, { level: 1, workers: 2, stepSeconds: 60, maxSeconds: 2 });
    expect(result.stopReason).toBe('max-seconds');
    // from 3, right twice reaches 5, where stepping right never returns
    expect(result.stuckStep).toMatchObject({ actions: ['ACTION4', 'ACTION4', 'ACTION4'] });
    expect(result.stuckStep!.seconds).toBeGreaterThanOrEqual(1);
    expect(result.stuckStep!.message).toMatch(/^a step was still running after [\d.]+ s when the search stopped \(max-seconds\): 3 actions from reset \[ACTION4, ACTION4, ACTION4\] \(a hang\?\)$/);
    // a search stopped by its node limit among quick steps names none
    const lights = await loadGame(fixture('lights'));
    const limited = await exploreGraph(lights, { level: 1, workers: 2, maxNodes: 5 });
    expect(limited.result.stopReason).toBe('max-nodes');
    expect(limited.result.stuckStep).toBeUndefined();
  }, 60_000);

  it('gives the step a checked transition takes again a limit of its own: two 1.2 s steps under a 2 s limit are no hang', async () => {
    const steady = await loadGame(join(__dirname, '../../test/fixtures/faults/steady.ts'));
    // Every transition of the first states is checked: right from cell 5 is stepped twice in a row.
    const { result } = await exploreGraph(steady, { level: 1, workers: 1, stepSeconds: 2 });
    expect(result).toMatchObject({ fullyExplored: true, nodes: 7, identityWarning: null });
  }, 60_000);

  it('reports a step that throws with its path, as before', async () => {
    const boom = await loadGame(fixture('boom'));
    const err = (await exploreGraph(boom, { level: 1, workers: 2 }).catch((e: unknown) => e)) as GameCrash;
    expect(err.kind).toBe('crash');
    expect(err.actions).toEqual(['ACTION1', 'ACTION1', 'ACTION2', 'ACTION2']);
  }, 60_000);

  it('reports a state whose click targets fail with the path to that state, no action after it', async () => {
    // A corridor 0..3 whose click targets overlap at cell 2 (ACTION1 twice reaches it).
    const overlap: Game<{ x: number }> = {
      id: 'ovlp', title: 'overlap', levels: 1, tutorialLevels: 0, actions: [1, 6],
      init: () => ({ x: 0 }),
      step: (s, a) => ({ x: a.id === 1 ? Math.min(3, s.x + 1) : s.x }),
      status: () => 'playing',
      render: () => [new Uint8Array(4096)],
      encode: (s) => Uint8Array.of(s.x),
      decode: (b) => ({ x: b[0] }),
      clickTargets: (s) => (s.x === 2 ? [{ x: 0, y: 0, w: 10, h: 10 }, { x: 5, y: 5, w: 10, h: 10 }] : []),
    };
    const err = (await exploreGraph(overlap, { level: 1, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(err).toBeInstanceOf(GameCrash);
    expect([err.actions, err.message]).toEqual([['ACTION1', 'ACTION1'], expect.stringMatching(/crashed after 2 actions from reset \[ACTION1, ACTION1\]: clickTargets failed: .*overlap/)]);
  }, 60_000);

  it('warns when a sampled transition re-encodes to other bytes, the same warning at any worker count', async () => {
    const noncanon = await loadGame(join(__dirname, '../../test/fixtures/faults/noncanon.ts'));
    const one = await exploreGraph(noncanon, { level: 1, workers: 1 });
    const two = await exploreGraph(noncanon, { level: 1, workers: 2 });
    // The root's transitions are all checked: the first one, ACTION3, shows it.
    expect(one.result.identityWarning).toEqual({ message: expect.stringMatching(/encode is not canonical/), actions: ['ACTION3'] });
    expect(two.result.identityWarning).toEqual(one.result.identityWarning);
    const lights = await loadGame(fixture('lights'));
    expect((await exploreGraph(lights, { level: 2, workers: 2 })).result.identityWarning).toBeNull();
  }, 60_000);

  it('warns when a checked state\'s copy renders otherwise (encode drops the key the frame shows), or a step changes its input (both gave an exact answer, no warning)', async () => {
    const dropkey = await loadGame(join(__dirname, '../../test/fixtures/faults/dropkey.ts'));
    const mutator = await loadGame(join(__dirname, '../../test/fixtures/faults/mutator.ts'));
    for (const workers of [1, 2]) {
      const keyless = await exploreGraph(dropkey, { level: 1, workers });
      expect(keyless.result.identityWarning).toEqual({ message: expect.stringMatching(/^a decode\(encode\(state\)\) copy renders another frame than the state: encode drops state that render shows/), actions: ['ACTION3', 'ACTION5'] });
      const moved = await exploreGraph(mutator, { level: 1, workers });
      expect(moved.result.identityWarning).toEqual({ message: expect.stringMatching(/^the step changed the state it was given/), actions: ['ACTION3'] });
    }
  }, 60_000);
});
