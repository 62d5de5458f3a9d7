/** How a level's findings add up to one outcome, and the levels' outcomes to a game's. */
import type { AnalysisNumbers, LevelReport, Outcome, QualificationReport } from '../report/schema.js';
import { formatProbability as show } from '../report/summary.js';
import type { RegimeStatus } from './qualification.js';

/**
 * A level fails on a crash, on a failed random-win verdict (tutorial levels are exempt) or on a
 * failed qualification; it is inconclusive when the bounds straddle the threshold; else it passes.
 */
export function levelOutcome(level: {
  tutorial: boolean;
  analysis: AnalysisNumbers | null;
  crash: { actions: string[]; reason: string } | null;
  qualification: RegimeStatus | null;
  /** What qualification found wrong with this level, one line each. */
  qualificationFailures?: readonly string[];
}): { outcome: Outcome; reasons: string[] } {
  const reasons: string[] = [];
  const { analysis } = level;
  if (level.crash) reasons.push(`crashed after ${level.crash.actions.length} actions: ${level.crash.reason}`);
  if (analysis && analysis.verdict === 'fail' && !level.tutorial) {
    reasons.push(`a random policy wins with probability ${analysis.pWin.method === 'exact' ? show(analysis.pWin.lower) : `>= ${show(analysis.pWin.lower)}`}, not below ${analysis.threshold}`);
  }
  if (level.qualification === 'fail') reasons.push(`qualification failed${level.qualificationFailures?.length ? `: ${level.qualificationFailures.join('; ')}` : ''}`);
  if (reasons.length > 0) return { outcome: 'fail', reasons };
  if (analysis && analysis.verdict === 'inconclusive' && !level.tutorial) {
    return { outcome: 'inconclusive', reasons: [analysis.hint ?? `p in [${show(analysis.pWin.lower)}, ${show(analysis.pWin.upper)}] straddles ${analysis.threshold}`] };
  }
  return { outcome: 'pass', reasons };
}

/** A game fails when a level fails, its qualification fails or an error stopped it. */
export function gameOutcome(levels: readonly Pick<LevelReport, 'outcome'>[], qualification: QualificationReport | null, error: string | null): Outcome {
  if (error !== null || qualification?.passed === false || levels.some((l) => l.outcome === 'fail')) return 'fail';
  return levels.some((l) => l.outcome === 'inconclusive') ? 'inconclusive' : 'pass';
}
