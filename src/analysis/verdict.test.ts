import { describe, expect, it } from 'vitest';
import ruin from '../../test/fixtures/ruin.js';
import { analyze } from './analyze.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import { attemptsToCertify, verdictFor } from './verdict.js';

describe('verdict', () => {
  it('passes below the threshold, fails at or above it, and is inconclusive across it', () => {
    expect(verdictFor(0, 0.99e-4, 1e-4)).toBe('pass');
    expect(verdictFor(0, 1e-4, 1e-4)).toBe('inconclusive');
    expect(verdictFor(1e-4, 1e-4, 1e-4)).toBe('fail');
    expect(verdictFor(0.5e-4, 2e-4, 1e-4)).toBe('inconclusive');
    // the double 0.3 lies below 3/10: as a lower bound it does not reach a threshold of 0.3
    expect(verdictFor(0.3, 0.5, 0.3)).toBe('inconclusive');
    expect(verdictFor(0.30000000000000004, 0.5, 0.3)).toBe('fail');
    expect(verdictFor(0, 1, 1e-4, { num: 1n, den: 10_000n })).toBe('fail'); // 1e-4 means 1/10,000 exactly
    expect(verdictFor(0, 1, 1e-4, { num: 1n, den: 10_001n })).toBe('pass');
    expect(verdictFor(0, 1, 2.5e-7, { num: 1n, den: 4_000_000n })).toBe('fail');
    expect(verdictFor(0, 1, 2.5e-7, { num: 1n, den: 4_000_001n })).toBe('pass');
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
    expect(analyze(graph, { threshold: 0.325 }).verdict).toBe('fail');
    expect(analyze(graph, { threshold: 0.32500000000000007 }).verdict).toBe('pass');
    expect(analyze(bruteForceGraph(ruin, 3), { threshold: 0.375 }).verdict).toBe('fail'); // p = 3/8 exactly
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
