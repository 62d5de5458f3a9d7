/** How a level's findings add up to one outcome, and the levels' outcomes to a game's. */
import type { AnalysisNumbers, CrashKind, LevelReport, MonteCarloNumbers, OtherStartReport, Outcome, QualificationReport } from '../report/index.js';
import { formatProbability as show, UNTRUSTED_NO_WIN } from '../report/index.js';
import type { RegimeStatus } from './qualification.js';

/** Qualification failures (`regime check: message`) that show the explored graph is not the game's. */
const UNTRUSTING = /^\S+ (nondeterminism|non-canonical-identity): /;

/**
 * A level fails on a crash, when its complete graph has no win (it cannot be solved), on a failed
 * random-win verdict (tutorial levels are exempt) or on a failed qualification; it is inconclusive
 * when the bounds straddle the threshold; else it passes.
 * When the graph's bounds are inconclusive, Monte Carlo attempts (95% confidence) decide.
 */
/** How a reason names one of a level's other starts. */
const fromOtherStart = (o: OtherStartReport): string =>
  o.attempt
    ? `from where attempt ${o.attempt} starts (the attempt before lost, then RESET; from the game's RESET: ${o.startActions.join(' ')})`
    : `from the start another win of the previous level leads to (${o.startActions.join(' ')})`;

export function levelOutcome(level: {
  tutorial: boolean;
  analysis: AnalysisNumbers | null;
  explore?: { fullyExplored: boolean } | null;
  monteCarlo?: MonteCarloNumbers | null;
  crash: { actions: string[]; reason: string; kind: CrashKind } | null;
  /** The exploration's identity check failed on a sampled transition. */
  identityWarning?: { message: string; actions: string[] } | null;
  /** The exploration stopped while a step had been running a while: a hang its budget may have hidden. */
  stuckStep?: { actions: string[]; seconds: number; message: string } | null;
  qualification: RegimeStatus | null;
  /** What qualification found wrong with this level, one line each. */
  qualificationFailures?: readonly string[];
  /** The level explored from the starts the previous level's other wins lead to (a chained real ARC game's). */
  otherStarts?: readonly OtherStartReport[];
  /** Why the level's start may not be the only one (a real ARC game's played start: python.startNote). */
  startNote?: string | null;
  /** The graph's clicks were stepped over sampled classes (a real ARC game's, python.clicks.partition). */
  sampledClicks?: boolean;
}): { outcome: Outcome; reasons: string[] } {
  const reasons: string[] = [];
  const { analysis } = level;
  // A hang is its own outcome: the level's numbers stop where the step did not return.
  if (level.crash?.kind === 'hang') return { outcome: 'hang', reasons: [`hung after ${level.crash.actions.length} actions: ${level.crash.reason}`] };
  if (level.crash?.kind === 'out-of-memory') reasons.push(`ran out of memory after ${level.crash.actions.length} actions: ${level.crash.reason}`);
  else if (level.crash) reasons.push(`crashed after ${level.crash.actions.length} actions: ${level.crash.reason}`);
  if (level.identityWarning) reasons.push(`identity is unstable (${level.identityWarning.message}; reproduce: ${level.identityWarning.actions.join(' ') || 'no actions, the level start'}): the graph's numbers cannot be trusted`);
  // A partial graph without a win says nothing; a complete one proves that no play wins the level,
  // unless the graph is not the game's (its steps are not a function of the states it keeps).
  if (analysis && !analysis.winReachable && level.explore?.fullyExplored) {
    const untrusted = !!level.identityWarning || !!level.qualificationFailures?.some((f) => UNTRUSTING.test(f));
    const sampled = level.sampledClicks ? ', over the sampled click classes (a click area nothing draws can hide a win: explore it with --clicks all)' : '';
    reasons.push(untrusted ? UNTRUSTED_NO_WIN : `no win is reachable: the graph is complete, so no play solves the level from its start${sampled}${level.startNote ? ` (${level.startNote})` : ''}`);
  }
  if (analysis && analysis.verdict === 'fail' && !level.tutorial) {
    // an exact value as its fraction too: three digits of one just at the threshold read as the threshold
    const exact = analysis.pWin.exact;
    const p = !exact ? `>= ${show(analysis.pWin.lower)}` : exact.p.length + exact.q.length <= 24 ? `${exact.p}/${exact.q} (${show(analysis.pWin.lower)})` : show(analysis.pWin.lower, 6);
    reasons.push(`a random policy wins with probability ${p}, above ${analysis.threshold}`);
  }
  // Another way of winning the previous level starts this one elsewhere: judged from there too.
  const others = level.tutorial ? [] : (level.otherStarts ?? []);
  for (const o of others) {
    const from = fromOtherStart(o);
    if (o.problem) reasons.push(`${from}: ${o.problem}`);
    if (o.verdict === 'fail') {
      const p = o.pWin.exact && o.pWin.exact.p.length + o.pWin.exact.q.length <= 24 ? `${o.pWin.exact.p}/${o.pWin.exact.q} (${show(o.pWin.lower)})` : `>= ${show(o.pWin.lower)}`;
      reasons.push(`${from}, a random policy wins with probability ${p}, above ${analysis?.threshold ?? 'the threshold'}`);
    }
  }
  const mc = analysis?.verdict === 'inconclusive' && !level.tutorial ? level.monteCarlo : null;
  if (mc?.verdict === 'fail') reasons.push(`random play won ${mc.wins} of ${mc.episodes} attempts: p >= ${show(mc.lower)} at 95% confidence, above ${analysis!.threshold}`);
  if (level.qualification === 'fail') reasons.push(`qualification failed${level.qualificationFailures?.length ? `: ${level.qualificationFailures.join('; ')}` : ''}`);
  // not a pass while a step may hang: the budget stopped the search with the step still running
  const stuck = level.stuckStep ? [`${level.stuckStep.message}: explore it with a larger time budget, or replay the actions, to tell a slow step from a hang`] : [];
  if (reasons.length > 0) return { outcome: 'fail', reasons: [...reasons, ...stuck] };
  if (stuck.length > 0) return { outcome: 'inconclusive', reasons: stuck };
  if (mc?.verdict === 'pass') return { outcome: 'pass', reasons };
  if (mc) return { outcome: 'inconclusive', reasons: [`graph bounds [${show(analysis!.pWin.lower)}, ${show(analysis!.pWin.upper)}] and random play (${mc.wins} wins in ${mc.episodes} attempts, p in [${show(mc.lower)}, ${show(mc.upper)}]) both straddle ${analysis!.threshold}: explore further or play more random steps`] };
  if (analysis && analysis.verdict === 'inconclusive' && !level.tutorial) {
    return { outcome: 'inconclusive', reasons: [analysis.hint ?? `p in [${show(analysis.pWin.lower)}, ${show(analysis.pWin.upper)}] straddles ${analysis.threshold}`] };
  }
  const open = others.filter((o) => o.verdict === 'inconclusive');
  if (open.length > 0) return { outcome: 'inconclusive', reasons: open.map((o) => `${fromOtherStart(o)}: p in [${show(o.pWin.lower)}, ${show(o.pWin.upper)}] straddles ${analysis?.threshold ?? 'the threshold'}`) };
  return { outcome: 'pass', reasons };
}

/** A game fails when a level fails or hangs, its qualification fails or an error stopped it. */
export function gameOutcome(levels: readonly Pick<LevelReport, 'outcome'>[], qualification: QualificationReport | null, error: string | null): Outcome {
  if (error !== null || qualification?.passed === false || levels.some((l) => l.outcome === 'fail' || l.outcome === 'hang')) return 'fail';
  return levels.some((l) => l.outcome === 'inconclusive') ? 'inconclusive' : 'pass';
}
