/**
 * A game's report from its jobs' outcomes, whichever machine ran them and in whatever order they
 * finished: each level's exploration, Monte Carlo and qualification put together, its outcome,
 * and the failed jobs as the game's error. The local sweep and the queue's producer both call it.
 */
import type { GameReport, LevelReport, PreviousLevel } from '../report/index.js';
import type { ExploreJobResult, JobResult, MonteCarloJobResult, QualifyJobResult } from './jobs.js';
import { gameOutcome, levelOutcome } from './outcome.js';
import type { PlannedGame, PlannedJob } from './plan.js';

/** How a job ended: its result, or why it failed. */
export type JobOutcome = { result: JobResult } | { error: string };

/** One level's report from its jobs (Monte Carlo and qualification when they are in). */
export function levelReport(explored: ExploreJobResult, mc: MonteCarloJobResult | null, q: QualifyJobResult | null, previous: PreviousLevel | null): LevelReport {
  const qualified = q?.levels.find((l) => l.level === explored.level);
  const report: LevelReport = {
    level: explored.level,
    tutorial: explored.tutorial,
    startHash: explored.startHash,
    explore: explored.explore,
    analysis: explored.analysis,
    monteCarlo: mc?.monteCarlo ?? null,
    crash: explored.crash ?? mc?.crash ?? null,
    qualification: q ? (qualified?.status ?? null) : null,
    outcome: 'pass',
    reasons: [],
    previous,
    ranOn: mc ? [explored.ranOn, mc.ranOn] : [explored.ranOn],
    seconds: explored.ranOn.seconds + (mc?.ranOn.seconds ?? 0),
  };
  return Object.assign(report, levelOutcome({ ...report, identityWarning: explored.explore?.identityWarning, stuckStep: explored.explore?.stuckStep, qualificationFailures: qualified?.failures, otherStarts: explored.explore?.python?.otherStarts, startNote: explored.explore?.python?.startNote, sampledClicks: explored.explore?.python?.clicks?.partition === 'sampled' }));
}

const describe = (job: PlannedJob): string => (job.level === null ? job.stage : `level ${job.level} ${job.stage}`);

/** The game's report: its levels whose exploration finished, its qualification, and what failed. */
export function gameReport(planned: PlannedGame, outcomes: ReadonlyMap<string, JobOutcome>, previousLevel: (game: string, level: number) => PreviousLevel | null): GameReport {
  const result = <T extends JobResult>(job: PlannedJob | undefined): T | null => {
    const outcome = job && outcomes.get(job.id);
    return outcome && 'result' in outcome ? (outcome.result as T) : null;
  };
  const errors = [
    // a game that could not be loaded has no jobs: its load error is its error
    ...(planned.error !== undefined ? [planned.error] : []),
    ...planned.jobs.flatMap((job) => {
      const outcome = outcomes.get(job.id);
      return outcome && 'error' in outcome ? [`${describe(job)}: ${outcome.error}`] : [];
    }),
  ];
  const q = result<QualifyJobResult>(planned.jobs.find((j) => j.stage === 'qualify'));
  const levels: LevelReport[] = [];
  let seconds = q?.ranOn.seconds ?? 0;
  for (let level = 1; level <= planned.levelCount; level++) {
    const explored = result<ExploreJobResult>(planned.jobs.find((j) => j.level === level && j.stage === 'explore'));
    if (!explored) continue;
    const mc = result<MonteCarloJobResult>(planned.jobs.find((j) => j.level === level && j.stage === 'monte-carlo'));
    const report = levelReport(explored, mc, q, previousLevel(planned.game, level));
    seconds += report.seconds;
    levels.push(report);
  }
  const report: GameReport = {
    game: planned.game,
    title: planned.title,
    source: planned.ref,
    contentHash: planned.contentHash,
    levelCount: planned.levelCount,
    tutorialLevels: planned.tutorialLevels,
    levels,
    qualification: q?.qualification ?? null,
    error: errors.length > 0 ? errors.join('; ') : null,
    warnings: [],
    outcome: 'pass',
    seconds,
  };
  report.warnings.push(...unofferedWarnings(planned, levels));
  report.outcome = gameOutcome(report.levels, report.qualification, report.error);
  return report;
}

/**
 * Under the reference policy (the agent sends all seven actions) a level whose unoffered actions
 * change the state when the engine steps them, taken as staying put: its P(win) is not the engine's.
 */
function unofferedWarnings(planned: PlannedGame, levels: readonly LevelReport[]): string[] {
  const settings = planned.jobs[0]?.settings;
  if (settings?.policy !== 'reference') return [];
  return levels.flatMap((l) => {
    const p = l.explore?.python;
    const acts = p?.unofferedActs ?? [];
    if (!p || p.unoffered === 'step' || acts.length === 0) return [];
    const it = acts.length === 1 ? 'it' : 'them';
    return [`level ${l.level}: ${acts.join(', ')}, which the game does not offer, ${acts.length === 1 ? 'changes' : 'change'} its state when sent; the reference policy's P(win) takes ${it} as staying put (--unoffered step explores ${it} as the engine steps ${it})`];
  });
}
