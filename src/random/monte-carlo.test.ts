import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadGame } from '../suite/loader.js';
import { RUIN_LEVELS } from '../../test/fixtures/ruin.js';
import { attemptsToCertify } from '../analysis/verdict.js';
import { clopperPearson, incompleteBeta } from './clopper-pearson.js';
import { randomPlay } from './monte-carlo.js';
import { Rng } from '../player/rng.js';
import type { Game } from '../engine/index.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

describe('Clopper-Pearson bounds', () => {
  it('match the closed forms at the edges and known values inside', () => {
    expect(incompleteBeta(0.3, 2, 5)).toBeCloseTo(0.579825, 9);
    expect(incompleteBeta(0.5, 3, 3)).toBeCloseTo(0.5, 12);
    expect(clopperPearson(0, 29_956).upper).toBeLessThan(1e-4);
    expect(clopperPearson(0, 29_955).upper).toBeGreaterThanOrEqual(1e-4);
    expect(attemptsToCertify(1e-4)).toBe(29_956);
    expect(clopperPearson(10, 10).lower).toBeCloseTo(0.05 ** (1 / 10), 12);
    // k = 1: the upper bound solves (1-p)^n + n p (1-p)^(n-1) = alpha.
    const n = 50;
    const { upper } = clopperPearson(1, n);
    expect((1 - upper) ** n + n * upper * (1 - upper) ** (n - 1)).toBeCloseTo(0.05, 9);
    // and the lower bound of k = n-1 mirrors it.
    expect(clopperPearson(n - 1, n).lower).toBeCloseTo(1 - clopperPearson(1, n).upper, 9);
  });

  it('are ordered around the observed rate', () => {
    for (const [k, n] of [[1, 7], [5, 100], [37, 1000], [999, 1000], [3, 1e6]]) {
      const { lower, upper } = clopperPearson(k, n);
      expect(lower).toBeLessThanOrEqual(k / n);
      expect(upper).toBeGreaterThanOrEqual(k / n);
    }
  });
});

describe('seeded random', () => {
  it('gives each (seed, stream) its own reproducible, uniform sequence', () => {
    const a = new Rng(5, 9);
    const b = new Rng(5, 9);
    const c = new Rng(5, 10);
    const xs = Array.from({ length: 8 }, () => a.next());
    expect(Array.from({ length: 8 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 8 }, () => c.next())).not.toEqual(xs);
    const counts = new Array(7).fill(0);
    const r = new Rng(1);
    for (let i = 0; i < 70_000; i++) counts[r.below(7)]++;
    for (const k of counts) expect(Math.abs(k - 10_000)).toBeLessThan(500);
  });
});

describe('random play', () => {
  it('estimates the gambler\'s-ruin probability i/N inside its confidence bounds', async () => {
    const loaded = await loadGame(fixture('ruin'));
    for (const level of [1, 2, 3, 4]) {
      const r = await randomPlay(loaded, { level, steps: 100_000, workers: 2, seed: 3 });
      const exact = RUIN_LEVELS[level - 1].start / RUIN_LEVELS[level - 1].n;
      // The command's bounds are one-sided 95%; four levels at 99.9% keep a false alarm unlikely.
      const wide = { lower: clopperPearson(r.wins, r.episodes, 0.0005).lower, upper: clopperPearson(r.wins + r.cutOff, r.episodes, 0.0005).upper };
      expect(wide.lower).toBeLessThanOrEqual(exact);
      expect(wide.upper).toBeGreaterThanOrEqual(exact);
      expect(r.lower).toBeGreaterThan(wide.lower);
      expect(r.upper).toBeLessThan(wide.upper);
      expect(r.steps).toBe(100_000);
      expect(r.verdict).toBe('fail');
    }
  });

  it('gives the same numbers whatever the worker count, and in-process', async () => {
    const loaded = await loadGame(fixture('lights'));
    const strip = ({ workers, seconds, stepsPerSecond, ...rest }: Record<string, unknown>) => rest;
    const runs = [];
    for (const workers of [1, 2, 3]) runs.push(await randomPlay(loaded, { level: 2, steps: 30_000, workers, seed: 11 }));
    runs.push(await randomPlay(loaded.game, { level: 2, steps: 30_000, seed: 11 }));
    for (const r of runs) expect(strip(r as never)).toEqual(strip(runs[0] as never));
    const other = await randomPlay(loaded, { level: 2, steps: 30_000, workers: 2, seed: 12 });
    expect(strip(other as never)).not.toEqual(strip(runs[0] as never));
  });

  it('leaves the attempt the budget ends in out of the statistics', async () => {
    const loaded = await loadGame(fixture('ruin'));
    const r = await randomPlay(loaded, { level: 6, steps: 1_000, workers: 1 });
    expect(r.steps).toBe(1_000);
    expect(r.unfinished + r.cutOff).toBeLessThanOrEqual(1);
    expect(r.wins + r.losses + r.cutOff).toBe(r.episodes);
    // the same budget split differently gives the same finished attempts as a prefix
    const longer = await randomPlay(loaded, { level: 6, steps: 5_000, workers: 2 });
    expect(longer.episodes).toBeGreaterThanOrEqual(r.episodes);
  });

  it('calls an attempt that never ends, with no per-attempt limit, unfinished (the budget ran out in it), not cut off', async () => {
    // a level nothing ends: its one attempt takes the whole budget (it read cutOff 1, unfinished 0; probe J's pj03)
    const endless: Game<number> = { id: 'endless', title: 'endless', levels: 1, tutorialLevels: 0, actions: [1, 2], init: () => 0, step: (s, a) => (s + a.id) % 7, status: () => 'playing', render: () => [new Uint8Array(4096)], encode: (s) => Uint8Array.of(s), decode: (b) => b[0] };
    const r = await randomPlay(endless, { level: 1, steps: 1_000 });
    expect([r.steps, r.episodes, r.cutOff, r.unfinished, r.verdict]).toEqual([1_000, 0, 0, 1, 'inconclusive']);
    // with a per-attempt limit below the budget, those attempts are cut off
    const capped = await randomPlay(endless, { level: 1, steps: 1_000, maxAttemptSteps: 300 });
    expect([capped.episodes, capped.cutOff, capped.unfinished]).toEqual([3, 3, 1]);
  });

  it('counts attempts cut off by the per-attempt limit as wins for the upper bound only', async () => {
    const loaded = await loadGame(fixture('maze'));
    const r = await randomPlay(loaded, { level: 1, steps: 20_000, workers: 1, maxAttemptSteps: 1000 });
    expect(r.cutOff).toBeGreaterThan(0);
    expect(r.upper).toBeGreaterThanOrEqual(clopperPearson(r.wins + r.cutOff, r.episodes).upper);
    expect(r.lower).toBe(clopperPearson(r.wins, r.episodes).lower);
  });

  it('settles a level that starts won or lost exactly, before a step, without spending the budget', async () => {
    const ruin = (await loadGame(fixture('ruin'))).game as Game<{ level: number; pos: number }>;
    // Level 1 starts on its goal (won), level 2 on its pit (lost): a step from either would move on.
    const ended = { ...ruin, init: (level: number) => ({ level, pos: level === 1 ? RUIN_LEVELS[0].n : 0 }) };
    const won = await randomPlay(ended, { level: 1, steps: 1_000, seed: 5 });
    expect([won.starts, won.episodes, won.wins, won.steps, won.lower, won.upper, won.verdict, won.firstWin]).toEqual(['won', 1, 1, 0, 1, 1, 'fail', 0]);
    const lost = await randomPlay(ended, { level: 2, steps: 1_000, seed: 5 });
    expect([lost.starts, lost.episodes, lost.losses, lost.steps, lost.lower, lost.upper, lost.verdict]).toEqual(['lost', 1, 1, 0, 0, 0, 'pass']);
    const played = await randomPlay(ruin, { level: 1, steps: 1_000, seed: 5 });
    expect(played.starts).toBeUndefined();
  });

  it('hints at more attempts, not at clean ones, when wins put the rate near the threshold', async () => {
    const loaded = await loadGame(fixture('ruin'));
    const r = await randomPlay(loaded, { level: 1, steps: 300, workers: 1, threshold: 1 / 3 }); // exactly 1/3
    expect(r.verdict).toBe('inconclusive');
    expect(r.hint).toMatch(/^\d+ wins in \d+ attempts put the rate near 0\.333/);
  });

  it('passes a level no random attempt can win', async () => {
    // Lights level 2 needs two exact corner clicks among 4,096 cells; the reference agent rarely
    // even clicks: a budget of 4 clicks (sic: 6) makes wins vanishingly rare but not impossible.
    const loaded = await loadGame(fixture('ruin'));
    const r = await randomPlay(loaded, { level: 6, steps: 20_000, workers: 1, policy: 'reference', threshold: 0.9 });
    expect(r.verdict).toBe('pass');
  });
});
