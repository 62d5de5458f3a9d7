import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BAD_CELL } from '../../test/fixtures/badframe.js';
import { BUTTON } from '../../test/fixtures/clicks.js';
import { EASY_LEVELS } from '../../test/fixtures/easy.js';
import { HANG_CELL } from '../../test/fixtures/hang.js';
import { GameAction, parseAction } from '../engine/actions.js';
import type { Game } from '../engine/game.js';
import { PACKAGE_ROOT, loadGame } from '../suite/loader.js';
import { readRecording } from '../recording/read.js';
import { replayRecording } from '../recording/replay.js';
import { levelQualification } from '../sweep/qualification.js';
import { qualify } from './qualify.js';
import { reproduce } from './reproduce.js';
import type { Finding, QualifyResult } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'arcgraph-qualify-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fixture = (name: string): string => join(PACKAGE_ROOT, 'test/fixtures', `${name}.ts`);
/** A few seconds per game: 250 steps of random1, 5,000 of random2 and of fuzz. */
const SCALE = 0.005;

async function run(name: string, extra: { level?: number; workers?: number } = {}): Promise<{ result: QualifyResult; game: Game }> {
  const { game } = await loadGame(fixture(name));
  const result = await qualify(fixture(name), { stepsScale: SCALE, workers: extra.workers ?? 2, out: join(dir, name), level: extra.level });
  return { result, game };
}

function only(result: QualifyResult, regime: Finding['regime'], check: Finding['check']): Finding {
  const found = result.findings.filter((f) => f.regime === regime && f.check === check);
  expect(found).toHaveLength(1);
  return found[0];
}

/** Plays a finding's actions from its level's reset state; returns the state before the last one. */
function before(game: Game, f: Finding): unknown {
  let state = game.init(f.level);
  for (const a of f.actions.slice(0, -1)) state = game.step(state, parseAction(a));
  return state;
}

/** Replays the saved reproduction with the replay library: the fault is at its last step. */
function replayed(game: Game, f: Finding) {
  const recording = readRecording(f.reproduction!);
  const r = replayRecording(game, recording);
  return { r, recording };
}

describe('qualify on fixtures with faults', () => {
  it('reports the throwing game in every regime with its four-action crash, which replay crashes on', async () => {
    const { result, game } = await run('boom');
    expect(result.passed).toBe(false);
    for (const regime of ['random1', 'random2', 'fuzz'] as const) {
      const f = only(result, regime, 'exception');
      expect(f.message).toContain('boom: counter overflow at a=2, b=1');
      // The documented shortest crash: two ACTION1 and one ACTION2 in any order reach a=2, b=1, then ACTION2.
      expect(f.actions).toHaveLength(4);
      expect(f.actions.at(-1)).toBe('ACTION2');
      expect(before(game, f)).toEqual({ a: 2, b: 1 });
      const { r } = replayed(game, f);
      expect(r.divergence).toMatchObject({ field: 'crash', step: 5 });
      expect(result.levels[0].regimes[regime]!.status).toBe('fail');
    }
  });

  it('catches the nondeterministic step in two actions, and replay catches it on the recording', async () => {
    const { result, game } = await run('flaky');
    const f = only(result, 'fuzz', 'nondeterminism');
    // From 3, one step right reaches 4, where stepping right jumps one or two cells.
    expect(f.actions).toEqual(['ACTION4', 'ACTION4']);
    const { r } = replayed(game, f);
    expect(r.reproduced).toBe(false);
    expect(r.divergence!.field).toBe('nondeterminism');
    expect(r.divergence!.action).toBe('ACTION4');
  });

  it('finds the bad frame of level 2 at the shortest distance, recorded from level 2', async () => {
    const { result, game } = await run('badframe');
    const f = only(result, 'fuzz', 'invalid-frame');
    expect(f.level).toBe(BAD_CELL.level);
    expect(f.message).toMatch(/colour 16/);
    // Manhattan distance from the start (0, 0) to the bad cell.
    expect(f.actions).toHaveLength(BAD_CELL.x + BAD_CELL.y);
    const end = game.step(before(game, f), parseAction(f.actions.at(-1)!));
    expect(end).toMatchObject({ x: BAD_CELL.x, y: BAD_CELL.y });
    const { r, recording } = replayed(game, f);
    expect(recording.steps[0].levelsCompleted).toBe(BAD_CELL.level - 1);
    expect(r.divergence).toMatchObject({ field: 'invalid-frame', step: f.actions.length + 1 });
    const [one, two] = result.levels;
    expect(one.regimes.fuzz.status).toBe('pass');
    expect(two.regimes.fuzz).toMatchObject({ status: 'fail', findings: 1 });
    expect(result.findings).toHaveLength(1);
  });

  it('finds a click in the dead half of the button, after arming it twice', async () => {
    const { result, game } = await run('clicks');
    const f = only(result, 'fuzz', 'click-targets');
    expect(f.actions.slice(0, 2)).toEqual(['ACTION1', 'ACTION1']);
    const click = parseAction(f.actions[2]);
    expect(click.id).toBe(GameAction.ACTION6);
    expect(click.x).toBeGreaterThanOrEqual(BUTTON.x + BUTTON.w / 2);
    expect(click.x).toBeLessThan(BUTTON.x + BUTTON.w);
    expect(click.y).toBeGreaterThanOrEqual(BUTTON.y);
    expect(click.y).toBeLessThan(BUTTON.y + BUTTON.h);
    const { r } = replayed(game, f);
    expect(r.divergence).toMatchObject({ field: 'click-targets', step: 4 });
  });

  it('fails a level random play wins easily with its shortest win, and only warns on the tutorial level', async () => {
    const { result, game } = await run('easy');
    expect(result.passed).toBe(false);
    const [tutorial, level2] = result.levels;
    expect(tutorial).toMatchObject({ tutorial: true, regimes: { random1: { status: 'warn' }, random2: null } });
    expect(tutorial.regimes.random1.wins).toBeGreaterThan(0);
    expect(level2.regimes.random1.status).toBe('fail');
    expect(level2.regimes.random2!.status).toBe('fail');
    const wins = result.findings.filter((f) => f.check === 'random-win');
    expect(wins.map((f) => [f.regime, f.level, f.severity])).toEqual([
      ['random1', 1, 'warn'],
      ['random1', 2, 'fail'],
      ['random2', 2, 'fail'],
    ]);
    for (const f of wins) {
      const { n, start } = EASY_LEVELS[f.level - 1];
      expect(f.actions).toEqual(Array(n - start).fill('ACTION4'));
      const { r } = replayed(game, f);
      expect(r.reproduced).toBe(true);
      expect(r.outcome.levels_completed).toBe(f.level);
    }
  });
});

describe('qualify on a clean level', () => {
  it('passes, and gives the same result whatever the worker count', async () => {
    const strip = (r: QualifyResult) => ({ ...r, seconds: 0, workers: 0, speed: null, levels: r.levels.map((l) => JSON.parse(JSON.stringify(l, (k, v) => (k === 'seconds' || k === 'profile' ? 0 : v)))) });
    const one = await run('badframe', { level: 1, workers: 1 });
    const two = await run('badframe', { level: 1, workers: 2 });
    expect(one.result.passed).toBe(true);
    expect(one.result.findings).toEqual([]);
    expect(one.result.levels).toHaveLength(1);
    expect(one.result.levels[0].regimes).toMatchObject({ random1: { status: 'pass', steps: 250 }, random2: { status: 'pass', steps: 5000 }, fuzz: { status: 'pass', steps: 5000 }, playback: { status: 'skipped' } });
    expect(strip(two.result)).toEqual(strip(one.result));
  });

  it('profiles the level from the fuzz walks: actions and frames a second, the slowest steps with the actions that reach them', async () => {
    const { result } = await run('badframe', { level: 1, workers: 2 });
    const profile = result.levels[0].regimes.fuzz.profile!;
    expect(profile.actionsPerSecond).toBeGreaterThan(1000);
    expect(profile.framesPerAction).toBe(1);
    expect(profile.framesPerSecond).toBeCloseTo(profile.actionsPerSecond, 6);
    expect(profile.belowFloor).toBe(false);
    expect(profile.slowest.length).toBe(5);
    for (let i = 1; i < 5; i++) expect(profile.slowest[i].ms).toBeLessThanOrEqual(profile.slowest[i - 1].ms);
    // Each slowest step's actions replay from the level's reset state.
    const { game } = await loadGame(fixture('badframe'));
    for (const slow of profile.slowest) expect(() => slow.actions.reduce((s, a) => game.step(s, parseAction(a)), game.init(1))).not.toThrow();
  });
});

describe('qualify interrupted', () => {
  it('is never passed: the regime cut short is interrupted, those not run skipped', async () => {
    // badframe level 1 passes in full (above); stopped after the fuzz's first task came back.
    const stop = new AbortController();
    const result = await qualify(fixture('badframe'), {
      level: 1, stepsScale: 1, workers: 2, out: join(dir, 'interrupted'), signal: stop.signal,
      onProgress: (p) => { if (p.regime === 'fuzz' && p.steps > 0) stop.abort(); },
    });
    expect(result.interrupted).toBe(true);
    expect(result.passed).toBe(false);
    expect(result.findings).toEqual([]);
    const { regimes } = result.levels[0];
    expect(regimes.fuzz.status).toBe('interrupted');
    expect(regimes.fuzz.steps).toBeLessThan(1_000_000);
    expect(regimes).toMatchObject({ random1: { status: 'skipped' }, random2: { status: 'skipped' }, playback: { status: 'skipped' } });
    expect(levelQualification(result, 1)).toBe('interrupted');
  });

  it('marks a random regime stopped before its budget interrupted, not pass', async () => {
    const stop = new AbortController();
    const result = await qualify(fixture('badframe'), {
      level: 1, stepsScale: 1, workers: 2, out: join(dir, 'interrupted-random'), signal: stop.signal,
      onProgress: (p) => { if (p.regime === 'random1' && p.steps > 0) stop.abort(); },
    });
    expect(result.passed).toBe(false);
    expect(result.levels[0].regimes.fuzz.status).toBe('pass');
    expect(result.levels[0].regimes.random1.status).toBe('interrupted');
    expect(result.levels[0].regimes.random1.steps).toBeLessThan(50_000);
    expect(result.levels[0].regimes.random2!.status).toBe('skipped');
  });
});

describe('reproductions stopped by a Ctrl-C that ended the game\'s processes mid-shrink', () => {
  it('keeps every finding as found, writes no reproduction from there on, and says interrupted (the error was read as the game\'s crash)', async () => {
    const { game } = await loadGame(fixture('boom'));
    // A real ARC game's step whose Python process a Ctrl-C ended: the bridge's `interrupted` error.
    const stopped = Object.create(game) as Game;
    stopped.step = () => {
      throw Object.assign(new Error('a Python process of the game was stopped by SIGINT'), { kind: 'interrupted' });
    };
    const actions = ['ACTION1', 'ACTION1', 'ACTION2', 'ACTION2'].map(parseAction);
    const raw = [1, 2].map((n) => ({ regime: 'fuzz' as const, check: 'exception' as const, level: 1, severity: 'fail' as const, message: `boom ${n}`, actions }));
    const r = await reproduce(stopped, raw, { out: join(dir, 'reproduce-interrupted') });
    expect(r.interrupted).toBe(true);
    expect(r.findings.map((f) => [f.message, f.actions.length, f.reproduction])).toEqual([['boom 1', 4, undefined], ['boom 2', 4, undefined]]);
  });
});

describe('qualify on a step that never returns', () => {
  it('stops the worker, reports the hang with its shortest prefix, and skips the random regimes there', async () => {
    const { game } = await loadGame(fixture('hang'));
    const result = await qualify(fixture('hang'), { stepsScale: SCALE, workers: 2, out: join(dir, 'hang'), hangSeconds: 2 });
    const f = only(result, 'fuzz', 'slow-step');
    expect(f.message).toMatch(/did not return/);
    // From 3: right to 4, right to 5, then the endless step right (the cycles of the walk cut away).
    expect(f.actions).toEqual(['ACTION4', 'ACTION4', 'ACTION4']);
    expect(before(game, f)).toEqual({ pos: HANG_CELL });
    expect(result.levels[0].regimes).toMatchObject({ random1: { status: 'skipped' }, random2: { status: 'skipped' }, fuzz: { status: 'fail' } });
    // The reproduction holds the endless step unplayed, as its last line.
    const recording = readRecording(f.reproduction!);
    expect(recording.steps.map((s) => s.action.id)).toEqual([GameAction.RESET, GameAction.ACTION4, GameAction.ACTION4, GameAction.ACTION4]);
    expect(recording.steps.at(-1)!.frame).toBeUndefined();
  });
});
