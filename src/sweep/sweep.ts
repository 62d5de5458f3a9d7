/**
 * The nightly sweep: every level of every game explored within a budget, analysed, then each game
 * qualified; the reports are rewritten after every finished game, so an interrupted sweep leaves
 * complete reports of the games it finished.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Policy } from '../analysis/index.js';
import { DEFAULT_THRESHOLD } from '../analysis/index.js';
import { InputError } from '../errors.js';
import { loadGame, PACKAGE_ROOT, type LoadedGame, suiteIds } from '../suite/index.js';
import { GameCrash } from '../explorer/index.js';
import { exploreLevel } from '../level.js';
import { defaultWorkers } from '../parallel/index.js';
import { gameRegressions, GRAPH_VIEW_LIMIT, writeLevelArtefacts, type ArtefactInputs } from '../report/index.js';
import { SCHEMA_VERSION, type Budget, type GameReport, type LevelReport, type SweepReport } from '../report/index.js';
import type { StateGraph } from '../graph/index.js';
import { DEFAULT_BUDGET } from './budget.js';
import { contentHash, startHash } from './hashes.js';
import { Publisher } from './publish.js';
import { gameOutcome, levelOutcome } from './outcome.js';
import { randomPlay } from '../random/index.js';
import { analysisNumbers, exploreNumbers, monteCarloNumbers, qualificationReport } from './project.js';
import { levelQualification, qualifyGame, type Qualifier } from './qualification.js';
import { makeDir } from '../files.js';

/** The version of arcgraph that wrote a report. */
const VERSION: string = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;

export type SweepEvent =
  | { kind: 'level'; game: string; level: LevelReport }
  | { kind: 'qualifying'; game: string }
  | { kind: 'warning'; message: string }
  | { kind: 'game'; game: GameReport; report: SweepReport };

export interface SweepOptions {
  /** Suite game ids or game module paths; default the whole suite. */
  games?: readonly string[];
  budget?: Partial<Budget>;
  workers?: number;
  policy?: Policy;
  threshold?: number;
  seed?: number;
  /** Folder the reports are written to (created if needed). */
  out: string;
  baseline?: { path: string; report: SweepReport };
  /** The sweep history (SQLite) to compare with and record into; none when absent. */
  history?: string;
  /** Stops the sweep: the game under way is dropped, the finished ones stay in the reports. */
  signal?: AbortSignal;
  /** Levels with at most this many states get every state drawn on their page (default GRAPH_VIEW_LIMIT), bigger ones a condensed view. */
  graphLimit?: number;
  /** The qualification step (tests inject a stand-in); default the real `qualify`. */
  qualifier?: Qualifier;
  onEvent?: (event: SweepEvent) => void;
}

class Interrupted extends Error {}

/** Rejects with Interrupted as soon as `signal` aborts (the work itself is left to finish unobserved). */
function unlessAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(new Interrupted());
    const onAbort = (): void => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface Context {
  options: SweepOptions;
  budget: Budget;
  workers: number;
  policy: Policy;
  threshold: number;
  seed: number;
  qualifier: Qualifier;
  publisher: Publisher;
}

/** Explores and analyses one level; a crash is a finding, not an error. */
async function sweepLevel(ctx: Context, loaded: LoadedGame, level: number): Promise<LevelReport> {
  const { game } = loaded;
  const started = performance.now();
  const tutorial = level <= game.tutorialLevels;
  const report: LevelReport = {
    level,
    tutorial,
    startHash: startHash(game, level),
    explore: null,
    analysis: null,
    monteCarlo: null,
    crash: null,
    qualification: null,
    outcome: 'pass',
    reasons: [],
    previous: ctx.publisher.previousLevel(game.id, level),
    seconds: 0,
  };
  let graph: StateGraph | undefined;
  try {
    const layers = game.render(game.init(level));
    if (layers.length === 0) throw new Error('render gave no layer');
  } catch (err) {
    report.crash = { actions: [], reason: `the reset state of level ${level} cannot be built or drawn: ${(err as Error).message}` };
  }
  if (!report.crash) {
    try {
      // Explored and analysed as `arcgraph explore` does (tutorial exemption and baseline from the game).
      const explored = await exploreLevel(loaded, {
        level,
        workers: ctx.workers,
        maxNodes: ctx.budget.nodes,
        maxSeconds: ctx.budget.seconds,
        signal: ctx.options.signal,
        policy: ctx.policy,
        threshold: ctx.threshold,
      });
      const analysis = explored.report;
      graph = explored.graph;
      if (analysis.stopReason === 'interrupted') throw new Interrupted();
      report.explore = exploreNumbers(analysis);
      report.analysis = analysisNumbers(analysis);
      if (analysis.verdict === 'inconclusive' && !tutorial && ctx.budget.randomSteps > 0) {
        const random = await randomPlay(loaded, { level, steps: ctx.budget.randomSteps, workers: ctx.workers, seed: ctx.seed, policy: ctx.policy, threshold: ctx.threshold, signal: ctx.options.signal });
        if (ctx.options.signal?.aborted) throw new Interrupted();
        report.monteCarlo = monteCarloNumbers(random);
      }
    } catch (err) {
      if (!(err instanceof GameCrash)) throw err;
      report.crash = { actions: err.actions, reason: err.reason };
    }
  }
  Object.assign(report, levelOutcome(report));
  // the page's frames and graph, made while the game and the graph are at hand
  const inputs: ArtefactInputs = {
    game,
    level,
    graph,
    win: report.analysis?.shortestWin?.actions,
    deadEnd: report.analysis?.deadEnds.example?.actions,
    crash: report.crash?.actions,
    seed: ctx.seed,
    graphLimit: ctx.options.graphLimit ?? GRAPH_VIEW_LIMIT,
  };
  await writeLevelArtefacts(ctx.options.out, game.id, inputs);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** One game: its levels, then its qualification. Null when the sweep was interrupted during it. */
async function sweepGame(ctx: Context, loaded: LoadedGame, source: string): Promise<GameReport | null> {
  const { game } = loaded;
  const started = performance.now();
  const report: GameReport = {
    game: game.id,
    title: game.title,
    source,
    contentHash: contentHash(loaded),
    levelCount: game.levels,
    tutorialLevels: game.tutorialLevels,
    levels: [],
    qualification: null,
    error: null,
    outcome: 'pass',
    seconds: 0,
  };
  try {
    for (let level = 1; level <= game.levels; level++) {
      if (ctx.options.signal?.aborted) return null;
      const levelReport = await sweepLevel(ctx, loaded, level);
      report.levels.push(levelReport);
      ctx.options.onEvent?.({ kind: 'level', game: game.id, level: levelReport });
    }
    ctx.options.onEvent?.({ kind: 'qualifying', game: game.id });
    const q = await unlessAborted(
      ctx.qualifier(loaded, {
        stepsScale: ctx.budget.stepsScale,
        workers: ctx.workers,
        seed: ctx.seed,
        policy: ctx.policy,
        out: join(ctx.options.out, 'reproductions', game.id),
        signal: ctx.options.signal,
      }),
      ctx.options.signal,
    );
    report.qualification = qualificationReport(q);
    for (const level of report.levels) {
      level.qualification = levelQualification(q, level.level);
      const failures = q.findings.filter((f) => f.level === level.level && f.severity === 'fail').map((f) => `${f.regime} ${f.check}: ${f.message}`);
      Object.assign(level, levelOutcome({ ...level, qualificationFailures: failures }));
    }
  } catch (err) {
    if (err instanceof Interrupted) return null;
    report.error = (err as Error)?.message ?? String(err);
  }
  report.outcome = gameOutcome(report.levels, report.qualification, report.error);
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

function summarise(report: SweepReport): void {
  const levels = report.games.flatMap((g) => g.levels);
  report.summary = {
    games: report.games.length,
    levels: levels.length,
    pass: levels.filter((l) => l.outcome === 'pass').length,
    fail: levels.filter((l) => l.outcome === 'fail').length,
    inconclusive: levels.filter((l) => l.outcome === 'inconclusive').length,
    crashes: levels.filter((l) => l.crash !== null).length,
    regressions: report.regressions.length,
  };
  report.passed = report.games.every((g) => g.outcome !== 'fail');
}

/** Loads every game first, so a typo in --games is bad input before any work is done. */
async function loadAll(refs: readonly string[]): Promise<LoadedGame[]> {
  const loaded: LoadedGame[] = [];
  for (const ref of refs) loaded.push(await loadGame(ref));
  const ids = loaded.map((l) => l.game.id);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new InputError(`game ${twice} is named twice`);
  return loaded;
}

export async function sweep(options: SweepOptions): Promise<SweepReport> {
  const refs = options.games ?? suiteIds();
  if (refs.length === 0) throw new InputError('no games to sweep: the suite is empty and no --games were given');
  const loaded = await loadAll(refs);
  const startedAt = new Date().toISOString();
  // the report folder first: the history beside it is then in a folder that exists
  makeDir(options.out);
  const publisher = new Publisher(options.out, startedAt, {
    history: options.history,
    baseline: options.baseline,
    onWarning: (message) => options.onEvent?.({ kind: 'warning', message }),
  });
  const ctx: Context = {
    options,
    budget: { ...DEFAULT_BUDGET, ...options.budget },
    workers: options.workers ?? defaultWorkers(),
    policy: options.policy ?? 'available',
    threshold: options.threshold ?? DEFAULT_THRESHOLD,
    seed: options.seed ?? 1,
    qualifier: options.qualifier ?? qualifyGame,
    publisher,
  };
  const started = performance.now();
  const report: SweepReport = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'arcgraph', version: VERSION },
    startedAt,
    updatedAt: startedAt,
    seconds: 0,
    status: 'running',
    settings: { games: [...refs], budget: ctx.budget, workers: ctx.workers, policy: ctx.policy, threshold: ctx.threshold, seed: ctx.seed },
    baseline: options.baseline ? { path: options.baseline.path, startedAt: options.baseline.report.startedAt } : null,
    history: publisher.info,
    games: [],
    regressions: [],
    summary: { games: 0, levels: 0, pass: 0, fail: 0, inconclusive: 0, crashes: 0, regressions: 0 },
    passed: true,
  };
  const save = async (status: SweepReport['status'], last = false): Promise<void> => {
    report.status = status;
    report.updatedAt = new Date().toISOString();
    report.seconds = (performance.now() - started) / 1000;
    summarise(report);
    // the night goes into the history once, at its end (an interrupted one with the games it finished)
    await (last ? publisher.record(report) : publisher.write(report));
  };

  try {
    for (let i = 0; i < loaded.length && !options.signal?.aborted; i++) {
      const game = await sweepGame(ctx, loaded[i], refs[i]);
      if (!game) break;
      report.games.push(game);
      report.regressions.push(...gameRegressions(game, publisher.previousGame(game.game)));
      const complete = i === loaded.length - 1;
      await save(complete ? 'complete' : 'running', complete);
      options.onEvent?.({ kind: 'game', game, report });
    }
    if (report.games.length < loaded.length) await save('interrupted', true);
  } finally {
    publisher.close();
  }
  return report;
}
