import { describe, expect, it } from 'vitest';
import { formatShortest, type AnalysisNumbers, type LevelReport } from '../report/index.js';
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

  it('does not call a level unsolvable when its graph cannot be trusted (an identity warning, or qualification found its steps not a function of the state)', () => {
    const lying = 'no win was found in the complete graph, which cannot be trusted: the game steps otherwise than its states say (the finding below)';
    const warned = levelOutcome({ ...level(analysis(0), true), identityWarning: { message: 'the step changed charge in the game\'s module', actions: ['ACTION1'] } });
    expect(warned.reasons).toEqual([expect.stringMatching(/^identity is unstable/), lying]);
    for (const check of ['nondeterminism', 'non-canonical-identity']) {
      const found = levelOutcome({ ...level(analysis(0), true), qualification: 'fail', qualificationFailures: [`fuzz ${check}: stepping the same state and action in another Python process gave another successor`] });
      expect(found).toEqual({ outcome: 'fail', reasons: [lying, expect.stringMatching(new RegExp(`^qualification failed: fuzz ${check}`))] });
    }
    // and the report's shortest-solution column says "none found", not "unsolvable"
    const report = { analysis: analysis(0), explore: { fullyExplored: true }, previous: null } as unknown as LevelReport;
    expect([formatShortest({ ...report, reasons: warned.reasons }), formatShortest({ ...report, reasons: [] })]).toEqual(['none found', 'unsolvable']);
    // a failure that says nothing of the graph (a crash somewhere in random play) leaves the proof standing
    const crashed = levelOutcome({ ...level(analysis(0), true), qualification: 'fail', qualificationFailures: ['fuzz exception: step threw'] });
    expect(crashed.reasons[0]).toMatch(/^no win is reachable: the graph is complete/);
  });

  it('passes a partial graph without a win (nothing is proven), and a complete one with a rare win', () => {
    expect(levelOutcome(level(analysis(0), false))).toEqual({ outcome: 'pass', reasons: [] });
    expect(levelOutcome(level(analysis(1e-6), true))).toEqual({ outcome: 'pass', reasons: [] });
  });

  it('says an exact probability just at the threshold as its fraction, which three digits would hide', () => {
    const a = analysis(2049 / 20_480_000);
    a.pWin.exact = { p: '2049', q: '20480000', oneIn: 20_480_000 / 2049 };
    expect(levelOutcome(level(a, true)).reasons).toEqual(['a random policy wins with probability 2049/20480000 (1.00e-4), above 0.0001']);
  });

  it('judges a level from every start another win of the level before leads to: the worst counts, a tutorial is exempt', () => {
    const other = (verdict: 'pass' | 'fail' | 'inconclusive', lower: number, upper: number, problem: string | null = null) => ({ startActions: ['ACTION2'], nodes: 5, fullyExplored: verdict !== 'inconclusive', winReachable: true, shortestWin: 1, pWin: { lower, upper, exact: lower === upper ? { p: '1', q: '2' } : null }, verdict, problem });
    const rare = analysis(1e-6);
    expect(levelOutcome({ ...level(rare, true), otherStarts: [other('pass', 5e-5, 5e-5)] })).toEqual({ outcome: 'pass', reasons: [] });
    expect(levelOutcome({ ...level(rare, true), otherStarts: [other('fail', 0.5, 0.5)] })).toEqual({ outcome: 'fail', reasons: ['from the start another win of the previous level leads to (ACTION2), a random policy wins with probability 1/2 (0.500), above 0.0001'] });
    expect(levelOutcome({ ...level(rare, true), otherStarts: [other('inconclusive', 0, 0.5)] })).toEqual({ outcome: 'inconclusive', reasons: ['from the start another win of the previous level leads to (ACTION2): p in [0, 0.500] straddles 0.0001'] });
    expect(levelOutcome({ ...level(rare, true), otherStarts: [other('pass', 0, 0, 'crashed after 1 actions [ACTION1]: boom')] }).reasons).toEqual(['from the start another win of the previous level leads to (ACTION2): crashed after 1 actions [ACTION1]: boom']);
    expect(levelOutcome({ ...level(rare, true, true), otherStarts: [other('fail', 0.5, 0.5)] })).toEqual({ outcome: 'pass', reasons: [] });
    // a later attempt's start (a game that keeps state across attempts) is named as such
    const attempt = { ...other('inconclusive', 0, 0.5), startActions: ['ACTION2', 'RESET'], attempt: 2 };
    expect(levelOutcome({ ...level(rare, true), otherStarts: [other('pass', 5e-5, 5e-5), attempt] })).toEqual({ outcome: 'inconclusive', reasons: ["from where attempt 2 starts (the attempt before lost, then RESET; from the game's RESET: ACTION2 RESET): p in [0, 0.500] straddles 0.0001"] });
    // and a level unsolvable from its start says why that start may not be the only one
    expect(levelOutcome({ ...level(analysis(0), true), startNote: 'level 1 was explored partially: ...' }).reasons).toEqual(['no win is reachable: the graph is complete, so no play solves the level from its start (level 1 was explored partially: ...)']);
    // over sampled click classes (the probe's pk25: a click area nothing draws), it says so and how to be sure
    expect(levelOutcome({ ...level(analysis(0), true), sampledClicks: true }).reasons).toEqual(['no win is reachable: the graph is complete, so no play solves the level from its start, over the sampled click classes (a click area nothing draws can hide a win: explore it with --clicks all)']);
  });

  it('fails a non-tutorial level that random play wins too often, and exempts a tutorial one', () => {
    expect(levelOutcome(level(analysis(0.3), true)).outcome).toBe('fail');
    expect(levelOutcome(level(analysis(0.3), true, true))).toEqual({ outcome: 'pass', reasons: [] });
  });
});
