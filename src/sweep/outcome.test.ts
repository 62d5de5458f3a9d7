import { describe, expect, it } from 'vitest';
import type { AnalysisNumbers } from '../report/index.js';
import { levelOutcome } from './outcome.js';

/** The analysis of a level whose random-win probability is p, exact, against 1e-4. */
function analysis(p: number, winReachable = p > 0): AnalysisNumbers {
  return {
    winReachable,
    shortestWin: winReachable ? { length: 3, actions: ['ACTION1', 'ACTION1', 'ACTION1'], optimal: true } : null,
    baseline: null,
    deadEnds: { count: 0, example: null },
    canWin: winReachable ? 4 : 0,
    pWin: { policy: 'available', method: 'exact', lower: p, upper: p, exact: null, converged: true, width: 0, relativeWidth: 0, exactGaveUp: null, intervalGaveUp: null },
    verdict: p < 1e-4 ? 'pass' : 'fail',
    hint: null,
    threshold: 1e-4,
    exempt: false,
  };
}

const level = (a: AnalysisNumbers, fullyExplored: boolean, tutorial = false) => ({ tutorial, analysis: a, explore: { fullyExplored }, crash: null, qualification: 'pass' as const });

describe('levelOutcome', () => {
  it('does not pass a level whose search stopped with a step still running (a hang its budget hid)', () => {
    const stuckStep = { actions: ['ACTION1', 'ACTION2'], seconds: 2.5, message: 'a step was still running after 2.5 s when the search stopped (max-seconds): 2 actions from reset [ACTION1, ACTION2] (a hang?)' };
    const quiet = levelOutcome({ ...level(analysis(1e-6), false), stuckStep });
    expect(quiet.outcome).toBe('inconclusive');
    expect(quiet.reasons).toEqual([expect.stringMatching(/^a step was still running after 2\.5 s .*\(a hang\?\): explore it with a larger time budget/)]);
    // a level failing anyway says both
    const failing = levelOutcome({ ...level(analysis(0.5), false), stuckStep });
    expect(failing.outcome).toBe('fail');
    expect(failing.reasons).toHaveLength(2);
    expect(failing.reasons[1]).toMatch(/^a step was still running/);
    expect(levelOutcome(level(analysis(1e-6), false)).outcome).toBe('pass');
  });

  it('fails a level whose complete graph has no win: no play solves it', () => {
    for (const tutorial of [false, true]) {
      const { outcome, reasons } = levelOutcome(level(analysis(0), true, tutorial));
      expect(outcome).toBe('fail');
      expect(reasons).toEqual([expect.stringMatching(/^no win is reachable: the graph is complete/)]);
    }
  });

  it('passes a partial graph without a win (nothing is proven), and a complete one with a rare win', () => {
    expect(levelOutcome(level(analysis(0), false))).toEqual({ outcome: 'pass', reasons: [] });
    expect(levelOutcome(level(analysis(1e-6), true))).toEqual({ outcome: 'pass', reasons: [] });
  });

  it('says an exact probability just at the threshold as its fraction, which three digits would hide', () => {
    const a = analysis(2049 / 20_480_000);
    a.pWin.exact = { p: '2049', q: '20480000', oneIn: 20_480_000 / 2049 };
    expect(levelOutcome(level(a, true)).reasons).toEqual(['a random policy wins with probability 2049/20480000 (1.00e-4), not below 0.0001']);
  });

  it('fails a non-tutorial level that random play wins too often, and exempts a tutorial one', () => {
    expect(levelOutcome(level(analysis(0.3), true)).outcome).toBe('fail');
    expect(levelOutcome(level(analysis(0.3), true, true))).toEqual({ outcome: 'pass', reasons: [] });
  });
});
