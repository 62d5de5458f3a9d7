/** A level's numbers on one night, as the history keeps them and the site charts them over nights. */
import type { GameReport, LevelReport, Outcome, SweepReport } from './schema.js';

export interface TrendPoint {
  startedAt: string;
  toolVersion: string;
  /** The level's start-state hash that night (a change means the level changed). */
  startHash: string | null;
  states: number | null;
  fullyExplored: boolean | null;
  pLower: number | null;
  pUpper: number | null;
  /** The exact probability as "p/q", when the graph was complete. */
  pExact: string | null;
  shortest: number | null;
  /** pass, fail or inconclusive from the graph or random play; crash; none when there was no analysis. */
  verdict: string;
  outcome: Outcome;
  /** Qualification findings at this level. */
  findings: number;
  seconds: number;
  transitionsPerSecond: number | null;
}

/** Trend points by `trendKey`, oldest first. */
export type Trends = ReadonlyMap<string, readonly TrendPoint[]>;
export const trendKey = (game: string, level: number): string => `${game}#${level}`;

export function levelVerdict(level: LevelReport): string {
  if (level.crash) return 'crash';
  if (!level.analysis) return 'none';
  return level.monteCarlo?.verdict ?? level.analysis.verdict;
}

export function trendPoint(report: Pick<SweepReport, 'startedAt' | 'tool'>, game: GameReport, level: LevelReport): TrendPoint {
  const a = level.analysis;
  const e = level.explore;
  return {
    startedAt: report.startedAt,
    toolVersion: report.tool.version,
    startHash: level.startHash,
    states: e?.nodes ?? null,
    fullyExplored: e?.fullyExplored ?? null,
    pLower: a?.pWin.lower ?? null,
    pUpper: a?.pWin.upper ?? null,
    pExact: a?.pWin.exact ? `${a.pWin.exact.p}/${a.pWin.exact.q}` : null,
    shortest: a?.shortestWin?.length ?? null,
    verdict: levelVerdict(level),
    outcome: level.outcome,
    findings: game.qualification?.findings.filter((f) => f.level === level.level).length ?? 0,
    seconds: level.seconds,
    transitionsPerSecond: e?.transitionsPerSecond ?? null,
  };
}
