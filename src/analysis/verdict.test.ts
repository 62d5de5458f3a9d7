import { describe, expect, it } from 'vitest';
import ruin from '../../test/fixtures/ruin.js';
import { analyze } from './analyze.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import { attemptsToCertify, verdictFor } from './verdict.js';
import { explore } from '../level.js';
import type { Game } from '../engine/index.js';

describe('verdict', () => {
  it('passes at or below the threshold (ARC: not "more often than 1 in 10,000"), fails above it, and is inconclusive across it', () => {
    expect(verdictFor(0, 0.99e-4, 1e-4)).toBe('pass');
    // the double 1e-4 lies just above 1/10,000: as an upper bound it does not certify a pass
    expect(verdictFor(0, 1e-4, 1e-4)).toBe('inconclusive');
    expect(verdictFor(1e-4, 1e-4, 1e-4)).toBe('fail');
    expect(verdictFor(0.5e-4, 2e-4, 1e-4)).toBe('inconclusive');
    // the double 0.3 lies below 3/10: as a lower bound it is not above a threshold of 0.3
    expect(verdictFor(0.3, 0.5, 0.3)).toBe('inconclusive');
    expect(verdictFor(0.30000000000000004, 0.5, 0.3)).toBe('fail');
    // 1e-4 means 1/10,000 exactly, and exactly 1 in 10,000 is not more often than it (it was a fail)
    expect(verdictFor(0, 1, 1e-4, { num: 1n, den: 10_000n })).toBe('pass');
    expect(verdictFor(0, 1, 1e-4, { num: 10_001n, den: 100_000_000n })).toBe('fail');
    expect(verdictFor(0, 1, 1e-4, { num: 1n, den: 10_001n })).toBe('pass');
    expect(verdictFor(0, 1, 2.5e-7, { num: 1n, den: 4_000_000n })).toBe('pass');
    expect(verdictFor(0, 1, 2.5e-7, { num: 1n, den: 3_999_999n })).toBe('fail');
  });

  it('judges a partial graph by its exact bounds where it has them: a lower bound of exactly 1/10,000 is not a fail', async () => {
    // 4 gates passed with probability 1/10 each (a click in the top half; 5 moves); ACTION1 at a gate
    // walks into an endless corridor, cut by the node limit: the lower bound is exactly 1/10,000,
    // whose double lies just below 1e-4, and no deeper search can raise it.
    const gates: Game<{ g: number; c: number }> = {
      id: 'e1e4', title: 'gates', levels: 1, tutorialLevels: 0, actions: [1, 2, 3, 4, 6],
      init: () => ({ g: 0, c: 0 }),
      step: (s, a) => (s.c > 0 ? { g: s.g, c: s.c + 1 } : a.id === 6 && a.y! < 32 ? { g: s.g + 1, c: 0 } : a.id === 1 ? { g: s.g, c: 1 } : { g: -1, c: 0 }),
      status: (s) => (s.g === 4 ? 'won' : s.g < 0 ? 'lost' : 'playing'),
      render: () => [new Uint8Array(4096)],
      encode: (s) => Uint8Array.of(s.g + 1, s.c),
      decode: (b) => ({ g: b[0] - 1, c: b[1] }),
      clickTargets: (s) => (s.c === 0 ? [{ x: 0, y: 0, w: 64, h: 32 }] : []),
    };
    const r = await explore(gates, { level: 1, maxNodes: 60, workers: 1 });
    expect([r.fullyExplored, r.pWin.method, r.pWin.lowerExact, r.pWin.lower < 1e-4]).toEqual([false, 'bounds', { p: '1', q: '10000', oneIn: 10_000 }, true]);
    // the truth is exactly 1/10,000 (the corridor never wins), which passes; the bounds cannot tell it from more
    expect(r.verdict).toBe('inconclusive');
    expect(verdictFor(r.pWin.lower, r.pWin.upper, 1e-4, undefined, { lower: { num: 10_001n, den: 100_000_000n } })).toBe('fail');
  });

  it('needs 29,956 clean random attempts to certify p < 1e-4 (one-sided 95% Clopper-Pearson)', () => {
    const n = attemptsToCertify(1e-4);
    expect(n).toBe(29_956);
    expect(1 - 0.05 ** (1 / n)).toBeLessThan(1e-4);
    expect(1 - 0.05 ** (1 / (n - 1))).toBeGreaterThanOrEqual(1e-4);
  });

  it('judges levels: exact fail, threshold moved, tutorial exempt', () => {
    const graph = bruteForceGraph(ruin, 6); // 13/40
    expect(analyze(graph)).toMatchObject({ verdict: 'fail', threshold: 1e-4, exempt: false });
    expect(analyze(graph, { threshold: 0.33 }).verdict).toBe('pass');
    // exact probabilities are compared exactly with the threshold as written: 0.325 is 13/40
    expect(analyze(graph, { threshold: 0.325 }).verdict).toBe('pass');
    expect(analyze(graph, { threshold: 0.32499999999999996 }).verdict).toBe('fail');
    expect(analyze(bruteForceGraph(ruin, 3), { threshold: 0.375 }).verdict).toBe('pass'); // p = 3/8 exactly
    expect(analyze(graph, { tutorial: true })).toMatchObject({ verdict: 'fail', exempt: true });
    expect(() => analyze(graph, { threshold: 0 })).toThrow(/threshold/);
  });

  it('says what would settle an inconclusive verdict', () => {
    const partial = bruteForceGraph(ruin, 6, 5);
    const a = analyze(partial);
    expect(a.verdict).toBe('inconclusive');
    expect(a.hint).toContain(`explore further (${a.frontier} frontier states`);
    expect(a.hint).toContain('29956 attempts');

    // an interval that ran out of work before closing
    const starved = analyze(bruteForceGraph(ruin, 6), { threshold: 0.3, exact: false, interval: { absoluteTolerance: 0, relativeTolerance: 0, maxWork: 100 } });
    expect(starved.pWin).toMatchObject({ method: 'interval', converged: false });
    expect(starved.pWin.lower).toBeLessThanOrEqual(13 / 40);
    expect(starved.pWin.upper).toBeGreaterThanOrEqual(13 / 40);
    expect(starved.verdict).toBe('inconclusive');
    expect(starved.hint).toContain('work budget');
  });
});
