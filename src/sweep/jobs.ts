/**
 * Runs one job of the plan: a level's exploration and analysis (with its page's artefacts), its
 * Monte Carlo settling when the graph leaves it inconclusive, or a game's qualification. The local
 * sweep and the queue's workers call the same functions, so their numbers are the same. A game
 * fault (a step that throws) is a finding in the result, never an error; an error thrown from here
 * is the job's failure (a worker retries it). Results are plain JSON (they travel through Redis);
 * large outputs go to files under `dir`.
 */
import { isInterrupted, rethrowInterruption } from '../errors.js';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { actionFromCode, codeName, parseAction, type Game } from '../engine/index.js';
import { GameCrash } from '../explorer/index.js';
import { StepTimeout, threadedGame } from '../parallel/index.js';
import { exploreLevel, type LevelOptions } from '../level.js';
import { hex, PythonGame, type PyRoot } from '../python/index.js';
import { randomPlay } from '../random/index.js';
import { writeLevelArtefacts } from '../report/index.js';
import type { AnalysisNumbers, CrashKind, ExploreNumbers, MonteCarloNumbers, OtherStartReport, QualificationReport, RanOn } from '../report/index.js';
import type { LoadedGame } from '../suite/index.js';
import type { StateGraph } from '../graph/index.js';
import { startHash } from './hashes.js';
import type { PlannedJob } from './plan.js';
import { analysisNumbers, exploreNumbers, monteCarloNumbers, qualificationReport } from './project.js';
import { levelQualification, type Qualifier, type RegimeStatus } from './qualification.js';

export interface ExploreJobResult {
  stage: 'explore';
  level: number;
  tutorial: boolean;
  startHash: string | null;
  explore: ExploreNumbers | null;
  analysis: AnalysisNumbers | null;
  /** A game step threw, hung or ran out of memory: the actions from the level's start that reproduce it. */
  crash: { actions: string[]; reason: string; kind: CrashKind } | null;
  /**
   * A real ARC game's level: the actions from RESET that led to its start (the shortest wins of the
   * levels before), or null where it started at the engine's set_level; absent for other games.
   */
  startActions?: string[] | null;
  ranOn: RanOn;
  /** The folder the job wrote its artefacts under (as the machine that ran it sees it). */
  dir: string;
}

export interface MonteCarloJobResult {
  stage: 'monte-carlo';
  level: number;
  /** Null when the level did not need it (a verdict from the graph, a tutorial level, no random steps in the budget), or random play found a fault. */
  monteCarlo: MonteCarloNumbers | null;
  /** A step threw or hung in random play (deeper than the exploration went): the episode's actions. */
  crash: ExploreJobResult['crash'];
  ranOn: RanOn;
  dir: string;
}

export interface QualifyJobResult {
  stage: 'qualify';
  qualification: QualificationReport;
  /** Each level's worst regime and what failed there, one line each. */
  levels: { level: number; status: RegimeStatus | null; failures: string[] }[];
  ranOn: RanOn;
  dir: string;
}

export type JobResult = ExploreJobResult | MonteCarloJobResult | QualifyJobResult;

/** What a running job reports, for a terminal or job.updateProgress. */
export interface JobProgress {
  stage: PlannedJob['stage'];
  level: number | null;
  /** States explored, or random steps played. */
  done: number;
  seconds: number;
}

export interface RunContext {
  /** Worker threads for the job. */
  workers: number;
  /** Where the job writes level artefacts and reproductions (the report folder of a local sweep). */
  dir: string;
  qualifier: Qualifier;
  /** This process, `host:pid`. */
  worker: string;
  signal?: AbortSignal;
  /** The step limit of the game's code, in seconds (`--step-timeout`; default 10). */
  stepSeconds?: number;
  /** Memory budget in GB (`--max-memory`): the exploration's, and each worker thread's heap is its share. */
  maxMemory?: number;
  onProgress?: (p: JobProgress) => void;
}

/** A job stopped by the context's signal: it has no result. */
export class JobInterrupted extends Error {
  constructor() {
    super('interrupted');
  }
}

/** This process, as `ranOn.worker` names it. */
export const thisWorker = (): string => `${hostname()}:${process.pid}`;

const ranOn = (job: PlannedJob, ctx: RunContext, started: number): RanOn => ({
  stage: job.stage,
  machine: ctx.worker.slice(0, ctx.worker.lastIndexOf(':')),
  worker: ctx.worker,
  seconds: (performance.now() - started) / 1000,
});

function needed<T extends JobResult>(job: PlannedJob, inputs: ReadonlyMap<string, JobResult>, stage: T['stage']): T {
  const id = job.reads.find((r) => inputs.get(r)?.stage === stage);
  const result = id === undefined ? undefined : inputs.get(id);
  if (!result) throw new Error(`job ${job.id} needs the result of ${job.reads.join(', ')}, which is missing`);
  return result as T;
}

/**
 * The game for the job's own calls (the reset state, its hash, the filmstrips): a JavaScript game
 * on a thread of its own, so a step or render that never returns stops at the step limit instead
 * of freezing the sweep; a real ARC game already runs in its own processes.
 */
export function offThread(loaded: LoadedGame, stepSeconds?: number): { game: Game; close(): void } {
  if (loaded.game instanceof PythonGame) return { game: loaded.game, close: () => undefined };
  const game = threadedGame(loaded.module, stepSeconds);
  return { game, close: () => game.close() };
}

async function exploreJob(job: PlannedJob, loaded: LoadedGame, ctx: RunContext, started: number, others: readonly string[][]): Promise<ExploreJobResult> {
  const here = offThread(loaded, ctx.stepSeconds);
  try {
    const result = await exploreLevelJob(job, loaded, here.game, ctx, started);
    const py = result.explore?.python;
    // a tutorial level is exempt from the threshold, and one failed from its own start fails: no other start changes either
    if (py && !result.tutorial && result.analysis?.verdict !== 'fail' && (others.length > 0 || py.attemptsActions)) {
      const starts = await exploreOtherStarts(job, loaded, ctx, others, py.attemptsActions);
      if (starts.length > 0) py.otherStarts = starts;
      result.ranOn = ranOn(job, ctx, started);
    }
    return result;
  } finally {
    here.close();
  }
}

/** How an explore job explores its level: the job's budget, policy and threshold, the context's workers and limits. */
const levelOptions = (job: PlannedJob, ctx: RunContext): LevelOptions => ({
  level: job.level!,
  workers: ctx.workers,
  maxNodes: job.settings.budget.nodes,
  maxSeconds: job.settings.budget.seconds,
  signal: ctx.signal,
  stepSeconds: ctx.stepSeconds,
  maxMemory: ctx.maxMemory,
  policy: job.settings.policy,
  threshold: job.settings.threshold,
});

/** How many later attempts' starts a level that keeps state across attempts is explored from (after the first). */
export const LATER_ATTEMPTS = 3;

/**
 * A real ARC game's level explored again from other starts, with the level's budget each, so that
 * levelOutcome judges it by the worst:
 * - each start the previous level's other wins lead to (its python.otherWins, from RESET): a level
 *   that one way of winning the previous level makes easy;
 * - where the level's next attempts start, for a game that keeps state across attempts (the
 *   exploration's attemptsActions: a loss, and the RESET the ARC agent sends after it), attempt after
 *   attempt up to LATER_ATTEMPTS or one that fails: a level that its third attempt makes easy
 *   (deaths counted on the game object, a hint after two losses).
 * A start whose state is one already explored is left out. The chain goes on from the shortest
 * win's start alone: the next level's start and the wins recorded are left as they were.
 */
async function exploreOtherStarts(job: PlannedJob, loaded: LoadedGame, ctx: RunContext, others: readonly string[][], attemptsActions: readonly string[] | undefined): Promise<OtherStartReport[]> {
  const game = loaded.game as PythonGame;
  const level = job.level!;
  const primary = game.startPath(level);
  const out: OtherStartReport[] = [];
  // the starts explored, by their state's identity (the level's own first)
  const seen = new Set([hex(game.root(level).digest)]);
  /** Explores the level from `startActions` (unless its start is one seen); the attempts actions of that exploration. */
  const explore = async (startActions: string[], attempt?: number): Promise<string[] | undefined> => {
    if (ctx.signal?.aborted) throw new JobInterrupted();
    game.setStart(level, startActions.map(parseAction));
    const report: OtherStartReport = { startActions, ...(attempt && { attempt }), nodes: 0, fullyExplored: false, winReachable: false, shortestWin: null, pWin: { lower: 0, upper: 1, exact: null }, verdict: 'inconclusive', problem: null };
    try {
      let root: PyRoot | undefined;
      try {
        root = game.root(level);
      } catch (err) {
        // a start the game fails to build: the exploration's crash below says so
        rethrowInterruption(err);
      }
      if (root) {
        // not a start of this level (the engine took the RESET otherwise): nothing to judge from there
        if (root.levelStart !== 'played') return undefined;
        const id = hex(root.digest);
        if (seen.has(id)) return undefined;
        seen.add(id);
      }
      const { report: r } = await exploreLevel(loaded, { ...levelOptions(job, ctx), recordWins: false });
      if (r.stopReason === 'interrupted' || r.pWin.interrupted) throw new JobInterrupted();
      const exact = r.pWin.exact;
      Object.assign(report, {
        nodes: r.nodes,
        fullyExplored: r.fullyExplored,
        winReachable: r.winReachable,
        shortestWin: r.shortestWin?.length ?? null,
        pWin: { lower: r.pWin.lower, upper: r.pWin.upper, exact: exact ? { p: String(exact.p), q: String(exact.q) } : null },
        verdict: r.verdict,
        problem: r.identityWarning ? `identity is unstable: ${r.identityWarning.message}` : null,
      });
      // a failing attempt fails the level: the attempts after it change nothing
      return r.verdict === 'fail' ? undefined : r.python?.attemptsActions;
    } catch (err) {
      if (isInterrupted(err)) throw new JobInterrupted();
      if (!(err instanceof GameCrash)) throw err;
      report.problem = `${err.kind === 'hang' ? 'hung' : err.kind === 'out-of-memory' ? 'ran out of memory' : 'crashed'} after ${err.actions.length} actions [${err.actions.join(', ')}]: ${err.reason}`;
      return undefined;
    } finally {
      if (report.nodes > 0 || report.problem) out.push(report);
    }
  };
  try {
    for (const startActions of others) await explore([...startActions]);
    // a set-level start has no path from RESET for its later attempts to follow
    let lost = primary && attemptsActions;
    let path = (primary ?? []).map(codeName);
    for (let attempt = 2; lost && attempt <= 1 + LATER_ATTEMPTS; attempt++) {
      path = [...path, ...lost];
      lost = await explore(path, attempt);
    }
  } finally {
    if (primary) game.setStart(level, primary.map(actionFromCode));
  }
  return out;
}

async function exploreLevelJob(job: PlannedJob, loaded: LoadedGame, game: Game, ctx: RunContext, started: number): Promise<ExploreJobResult> {
  const level = job.level!;
  const { settings } = job;
  const result: ExploreJobResult = {
    stage: 'explore',
    level,
    tutorial: level <= game.tutorialLevels,
    startHash: startHash(game, level),
    explore: null,
    analysis: null,
    crash: null,
    ranOn: ranOn(job, ctx, started),
    dir: ctx.dir,
  };
  if (game instanceof PythonGame) result.startActions = game.startPath(level)?.map(codeName) ?? null;
  let graph: StateGraph | undefined;
  try {
    const layers = game.render(game.init(level));
    if (layers.length === 0) throw new Error('render gave no layer');
  } catch (err) {
    // its Python process stopped by the user's Ctrl-C or SIGTERM: the sweep's stop, not the level's crash
    if (isInterrupted(err)) throw new JobInterrupted();
    result.crash = { actions: [], reason: `the reset state of level ${level} cannot be built or drawn: ${(err as Error).message}`, kind: err instanceof StepTimeout ? 'hang' : 'crash' };
  }
  if (!result.crash) {
    try {
      // explored and analysed as `arcgraph explore` does (tutorial exemption and baseline from the game)
      const explored = await exploreLevel(loaded, { ...levelOptions(job, ctx), onProgress: (p) => ctx.onProgress?.({ stage: 'explore', level, done: p.nodes, seconds: p.seconds }) });
      // A stop during the exploration, or during the analysis after it (its bounds cut short): not a level's result.
      if (explored.report.stopReason === 'interrupted' || explored.report.pWin.interrupted) throw new JobInterrupted();
      graph = explored.graph;
      result.explore = exploreNumbers(explored.report);
      result.analysis = analysisNumbers(explored.report);
    } catch (err) {
      if (!(err instanceof GameCrash)) throw err;
      result.crash = { actions: err.actions, reason: err.reason, kind: err.kind };
    }
  }
  // the page's frames and graph, made while the game and the graph are at hand
  await writeLevelArtefacts(ctx.dir, game.id, {
    game,
    level,
    graph,
    win: result.analysis?.shortestWin?.actions,
    deadEnd: result.analysis?.deadEnds.example?.actions,
    // The step that hung (or ran out of memory) is left out: drawn here, it would do it again on this thread.
    crash: result.crash && (result.crash.kind === 'crash' ? result.crash.actions : result.crash.actions.slice(0, -1)),
    seed: settings.seed,
    graphLimit: settings.graphLimit,
  });
  result.ranOn = ranOn(job, ctx, started);
  return result;
}

async function monteCarloJob(job: PlannedJob, loaded: LoadedGame, explored: ExploreJobResult, ctx: RunContext, started: number): Promise<MonteCarloJobResult> {
  const level = job.level!;
  const { settings } = job;
  let monteCarlo: MonteCarloNumbers | null = null;
  let crash: ExploreJobResult['crash'] = null;
  if (explored.analysis?.verdict === 'inconclusive' && !explored.tutorial && settings.budget.randomSteps > 0) {
    try {
      const random = await randomPlay(loaded, {
        level,
        steps: settings.budget.randomSteps,
        workers: ctx.workers,
        seed: settings.seed,
        policy: settings.policy,
        threshold: settings.threshold,
        signal: ctx.signal,
        stepSeconds: ctx.stepSeconds,
        maxMemory: ctx.maxMemory,
        onProgress: (p) => ctx.onProgress?.({ stage: 'monte-carlo', level, done: p.steps, seconds: p.seconds }),
      });
      if (ctx.signal?.aborted) throw new JobInterrupted();
      monteCarlo = monteCarloNumbers(random);
    } catch (err) {
      if (!(err instanceof GameCrash)) throw err;
      crash = { actions: err.actions, reason: err.reason, kind: err.kind };
    }
  }
  return { stage: 'monte-carlo', level, monteCarlo, crash, ranOn: ranOn(job, ctx, started), dir: ctx.dir };
}

/** Rejects with JobInterrupted as soon as `signal` aborts (qualification winds its pool down by itself). */
function unlessAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new JobInterrupted());
    const onAbort = (): void => reject(new JobInterrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function qualifyJob(job: PlannedJob, loaded: LoadedGame, ctx: RunContext, started: number): Promise<QualifyJobResult> {
  const { game } = loaded;
  const { settings } = job;
  ctx.onProgress?.({ stage: 'qualify', level: null, done: 0, seconds: 0 });
  const q = await unlessAborted(
    ctx.qualifier(loaded, {
      stepsScale: settings.budget.stepsScale,
      workers: ctx.workers,
      seed: settings.seed,
      policy: settings.policy,
      out: join(ctx.dir, 'reproductions', game.id),
      signal: ctx.signal,
      ...(ctx.stepSeconds !== undefined && { hangSeconds: ctx.stepSeconds }),
      ...(ctx.maxMemory !== undefined && { maxMemory: ctx.maxMemory }),
    }),
    ctx.signal,
  );
  // A qualification the signal cut short is no result (its regimes did not play their steps): never a pass.
  if (q.interrupted) throw new JobInterrupted();
  const levels = q.levels.map(({ level }) => ({
    level,
    status: levelQualification(q, level),
    failures: q.findings.filter((f) => f.level === level && f.severity === 'fail').map((f) => `${f.regime} ${f.check}: ${f.message}`),
  }));
  const where = ranOn(job, ctx, started);
  return { stage: 'qualify', qualification: { ...qualificationReport(q), ranOn: where }, levels, ranOn: where, dir: ctx.dir };
}

/**
 * A real ARC game's levels start where the wins of the levels before lead. A job learns those starts
 * from the explorations it reads (each says where its level started and its shortest win), so it
 * plays from the same states on any machine, whatever this process has explored before.
 */
function placeStarts(loaded: LoadedGame, job: PlannedJob, inputs: ReadonlyMap<string, JobResult>): void {
  const { game } = loaded;
  if (!(game instanceof PythonGame)) return;
  for (const id of job.reads) {
    const r = inputs.get(id);
    if (r?.stage !== 'explore' || !r.startActions) continue;
    game.setStart(r.level, r.startActions.map(parseAction));
    if (r.explore) game.recordWonStates(r.level, r.explore.terminals.won, r.explore.fullyExplored);
    const win = r.analysis?.shortestWin;
    // a win listed in full (long ones are cut in reports) leads to the next level's start
    if (win && win.actions.length === win.length && r.level < game.levels) game.setStart(r.level + 1, [...r.startActions, ...win.actions].map(parseAction));
  }
}

/** The starts, from RESET, that the other wins of the level before `job`'s lead to (a chained real ARC game's explore job). */
function otherStarts(job: PlannedJob, inputs: ReadonlyMap<string, JobResult>): string[][] {
  if (job.stage !== 'explore' || job.level === null) return [];
  for (const id of job.reads) {
    const r = inputs.get(id);
    if (r?.stage === 'explore' && r.level === job.level - 1 && r.startActions) return (r.explore?.python?.otherWins ?? []).map((w) => [...r.startActions!, ...w]);
  }
  return [];
}

/**
 * Runs `job` on `loaded` (the game it names), given the results of the jobs it reads. Throws
 * JobInterrupted when the context's signal stops it, and any other error when the job fails.
 */
export async function runJob(job: PlannedJob, loaded: LoadedGame, inputs: ReadonlyMap<string, JobResult>, ctx: RunContext): Promise<JobResult> {
  const started = performance.now();
  if (ctx.signal?.aborted) throw new JobInterrupted();
  placeStarts(loaded, job, inputs);
  if (job.stage === 'explore') {
    // A chained level reads the previous level's exploration (Python games start it where that
    // level's shortest win leads); the suite's games start every level from init(level).
    if (job.reads.length > 0) needed<ExploreJobResult>(job, inputs, 'explore');
    return exploreJob(job, loaded, ctx, started, loaded.game instanceof PythonGame ? otherStarts(job, inputs) : []);
  }
  if (job.stage === 'monte-carlo') return monteCarloJob(job, loaded, needed<ExploreJobResult>(job, inputs, 'explore'), ctx, started);
  return qualifyJob(job, loaded, ctx, started);
}
