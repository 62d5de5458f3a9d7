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
import { PACKAGE_ROOT, suiteIds } from '../suite/index.js';
import { GameCrash, gameOf, resolveGame, type ResolvedGame } from '../explorer/index.js';
import { arcGameFile, arcGamesIn, PythonGame, type PythonGameOptions } from '../python/index.js';
import { exploreLevel } from '../level.js';
import { defaultWorkers } from '../parallel/index.js';
import { baselineGame, gameRegressions, previousLevel } from '../report/index.js';
import { PICTURE_LIMIT } from '../report/index.js';
import { pictureKey, type LevelPictures } from '../report/index.js';
import { SCHEMA_VERSION, type Budget, type GameReport, type LevelReport, type SweepReport } from '../report/index.js';
import { startFrameSvg, stateGraphSvg } from '../report/index.js';
import { writeReports } from '../report/index.js';
import { DEFAULT_ARC_BUDGET, DEFAULT_BUDGET } from './budget.js';
import { gameOutcome, levelOutcome } from './outcome.js';
import { randomPlay } from '../random/index.js';
import { analysisNumbers, exploreNumbers, monteCarloNumbers, qualificationReport } from './project.js';
import { levelQualification, qualifyGame, type Qualifier } from './qualification.js';

/** The version of arcgraph that wrote a report. */
const VERSION: string = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;

export type SweepEvent =
  | { kind: 'level'; game: string; level: LevelReport }
  | { kind: 'qualifying'; game: string }
  | { kind: 'game'; game: GameReport; report: SweepReport };

export interface SweepOptions {
  /** Suite game ids, game module paths or ARC game folders; default the whole suite (or the ARC games folder's games). */
  games?: readonly string[];
  /** An environment_files tree of real ARC games: its games are swept (and `games` may name them by id). */
  arcGames?: string;
  /** How real ARC games run (interpreter, engine, GRAPH_BUILDER). */
  python?: PythonGameOptions;
  budget?: Partial<Budget>;
  workers?: number;
  policy?: Policy;
  threshold?: number;
  seed?: number;
  /** Folder the reports are written to (created if needed). */
  out: string;
  baseline?: { path: string; report: SweepReport };
  /** Stops the sweep: the game under way is dropped, the finished ones stay in the reports. */
  signal?: AbortSignal;
  /** Levels with at most this many states get a graph picture (default PICTURE_LIMIT), the others a depth histogram. */
  pictureLimit?: number;
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
  pictures: Map<string, LevelPictures>;
}

/** Explores and analyses one level; a crash is a finding, not an error. */
async function sweepLevel(ctx: Context, loaded: ResolvedGame, level: number, before: GameReport | undefined): Promise<LevelReport> {
  const game = gameOf(loaded);
  const started = performance.now();
  const tutorial = level <= game.tutorialLevels;
  const report: LevelReport = {
    level,
    tutorial,
    explore: null,
    analysis: null,
    monteCarlo: null,
    crash: null,
    qualification: null,
    outcome: 'pass',
    reasons: [],
    previous: previousLevel(before, level),
    seconds: 0,
  };
  const pictures: LevelPictures = { frame: null, graph: null };
  ctx.pictures.set(pictureKey(game.id, level), pictures);
  try {
    pictures.frame = startFrameSvg(game, level);
  } catch (err) {
    report.crash = { actions: [], reason: `the reset state of level ${level} cannot be built or drawn: ${(err as Error).message}` };
  }
  if (!report.crash) {
    try {
      // Explored and analysed as `arcgraph explore` does (tutorial exemption and baseline from the game).
      const { report: analysis, graph } = await exploreLevel(loaded, {
        level,
        workers: ctx.workers,
        maxNodes: ctx.budget.nodes,
        maxSeconds: ctx.budget.seconds,
        signal: ctx.options.signal,
        policy: ctx.policy,
        threshold: ctx.threshold,
      });
      if (analysis.stopReason === 'interrupted') throw new Interrupted();
      report.explore = exploreNumbers(analysis);
      report.analysis = analysisNumbers(analysis);
      if (analysis.verdict === 'inconclusive' && !tutorial && ctx.budget.randomSteps > 0) {
        const random = await randomPlay(loaded, { level, steps: ctx.budget.randomSteps, workers: ctx.workers, seed: ctx.seed, policy: ctx.policy, threshold: ctx.threshold, signal: ctx.options.signal });
        if (ctx.options.signal?.aborted) throw new Interrupted();
        report.monteCarlo = monteCarloNumbers(random);
      }
      if (graph.nodeCount <= (ctx.options.pictureLimit ?? PICTURE_LIMIT)) pictures.graph = stateGraphSvg(graph, ctx.seed, `${game.id} level ${level}: state graph of ${graph.nodeCount} states`);
    } catch (err) {
      if (!(err instanceof GameCrash)) throw err;
      report.crash = { actions: err.actions, reason: err.reason };
    }
  }
  Object.assign(report, levelOutcome(report));
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** One game: its levels, then its qualification. Null when the sweep was interrupted during it. */
async function sweepGame(ctx: Context, loaded: ResolvedGame, source: string, before: GameReport | undefined): Promise<GameReport | null> {
  const game = gameOf(loaded);
  const started = performance.now();
  const report: GameReport = {
    game: game.id,
    title: game.title,
    source,
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
      const levelReport = await sweepLevel(ctx, loaded, level, before);
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

/**
 * Resolves every game first, so a typo in --games is bad input before any work is done. A real ARC
 * game is opened (its Python processes started) when its turn comes and closed after it; only the
 * first is opened here, which checks the interpreter and the engine.
 */
async function loadAll(refs: readonly string[], options: SweepOptions): Promise<(() => Promise<ResolvedGame>)[]> {
  const python = { ...options.python, arcGames: options.arcGames };
  const openers: (() => Promise<ResolvedGame>)[] = [];
  const ids: string[] = [];
  for (const ref of refs) {
    const byId = options.arcGames !== undefined ? arcGamesIn(options.arcGames).find((g) => g.split('/').at(-2) === ref) : undefined;
    const file = arcGameFile(ref) ?? (byId && arcGameFile(byId));
    if (file && openers.length > 0) {
      ids.push(file.split('/').at(-3) ?? file);
      openers.push(() => resolveGame(file, python));
      continue;
    }
    const resolved = await resolveGame(file ?? ref, python);
    ids.push(gameOf(resolved).id);
    openers.push(async () => resolved);
  }
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new InputError(`game ${twice} is named twice`);
  return openers;
}

export async function sweep(options: SweepOptions): Promise<SweepReport> {
  const refs = options.games ?? (options.arcGames !== undefined ? arcGamesIn(options.arcGames) : suiteIds());
  if (refs.length === 0) throw new InputError(options.arcGames !== undefined ? `no ARC games in ${options.arcGames} (an environment_files tree: <id>/<version>/<id>.py)` : 'no games to sweep: the suite is empty and no --games were given');
  const loaded = await loadAll(refs, options);
  const ctx: Context = {
    options,
    budget: { ...(options.arcGames !== undefined ? DEFAULT_ARC_BUDGET : DEFAULT_BUDGET), ...options.budget },
    workers: options.workers ?? defaultWorkers(),
    policy: options.policy ?? 'available',
    threshold: options.threshold ?? DEFAULT_THRESHOLD,
    seed: options.seed ?? 1,
    qualifier: options.qualifier ?? qualifyGame,
    pictures: new Map(),
  };
  const started = performance.now();
  const report: SweepReport = {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: 'arcgraph', version: VERSION },
    startedAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    seconds: 0,
    status: 'running',
    settings: { games: [...refs], budget: ctx.budget, workers: ctx.workers, policy: ctx.policy, threshold: ctx.threshold, seed: ctx.seed },
    baseline: options.baseline ? { path: options.baseline.path, startedAt: options.baseline.report.startedAt } : null,
    games: [],
    regressions: [],
    summary: { games: 0, levels: 0, pass: 0, fail: 0, inconclusive: 0, crashes: 0, regressions: 0 },
    passed: true,
  };
  const save = async (status: SweepReport['status']): Promise<void> => {
    report.status = status;
    report.updatedAt = new Date().toISOString();
    report.seconds = (performance.now() - started) / 1000;
    summarise(report);
    await writeReports(options.out, report, ctx.pictures);
  };

  for (let i = 0; i < loaded.length && !options.signal?.aborted; i++) {
    const resolved = await loaded[i]();
    const before = baselineGame(options.baseline?.report ?? null, gameOf(resolved).id);
    const game = await sweepGame(ctx, resolved, refs[i], before);
    // A real ARC game's Python processes end with its turn.
    if (resolved instanceof PythonGame) resolved.close();
    if (!game) break;
    report.games.push(game);
    report.regressions.push(...gameRegressions(game, before));
    await save(i === loaded.length - 1 ? 'complete' : 'running');
    options.onEvent?.({ kind: 'game', game, report });
  }
  if (report.games.length < loaded.length) await save('interrupted');
  return report;
}
