/**
 * The nightly sweep, run here: the plan's jobs one after another (each level explored and
 * analysed, settled by Monte Carlo when inconclusive, then each game qualified), each game
 * collected and published as soon as its jobs are done, so an interrupted sweep leaves complete
 * reports of the games it finished. `arcgraph sweep --queue` runs the same plan on BullMQ workers.
 */
import { basename } from 'node:path';
import type { Policy } from '../analysis/index.js';
import { DEFAULT_THRESHOLD } from '../analysis/index.js';
import { GameLoadError, InputError, isInterrupted } from '../errors.js';
import { loadGame, looksLikePath, type LoadedGame, suiteIds, suiteModule } from '../suite/index.js';
import { arcFolderProblem, arcGameById, checkUnofferedMode, arcGameFile, arcGamesIn, arcGameWithoutMetadata, noMetadataMessage, openPythonGame, PythonGame, unknownGameMessage, type PythonGameOptions } from '../python/index.js';
import { defaultWorkers } from '../parallel/index.js';
import { GRAPH_VIEW_LIMIT } from '../report/index.js';
import type { Budget, GameReport, LevelReport, SweepReport } from '../report/index.js';
import { sweepBudget } from './budget.js';
import { contentHash } from './hashes.js';
import { gameReport, levelReport, type JobOutcome } from './collect.js';
import { JobInterrupted, offThread, runJob, thisWorker, type ExploreJobResult, type JobResult, type RunContext } from './jobs.js';
import { Night, VERSION } from './night.js';
import { isBroken, planSweep, type BrokenGame, type JobSettings, type PlannedGame, type PythonJobOptions, type SweepPlan } from './plan.js';
import { qualifyGame, type Qualifier } from './qualification.js';

export type SweepEvent =
  /** The games are loaded (and a queue reached): no bad input of the night is left to find. */
  | { kind: 'start' }
  | { kind: 'level'; game: string; level: LevelReport }
  | { kind: 'qualifying'; game: string }
  | { kind: 'warning'; message: string }
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
  /** The sweep history (SQLite) to compare with and record into; none when absent. */
  history?: string;
  /** Stops the sweep: the game under way is dropped, the finished ones stay in the reports. */
  signal?: AbortSignal;
  /** The step limit of the games' code, in seconds (default 10): a level whose step hangs is reported as "hang" and the sweep goes on. */
  stepSeconds?: number;
  /** Memory budget in GB of each job (default: 80% of what is free): worker threads get an equal share of heap. */
  maxMemory?: number;
  /** Levels with at most this many states get every state drawn on their page (default GRAPH_VIEW_LIMIT), bigger ones a condensed view. */
  graphLimit?: number;
  /** The qualification step (tests inject a stand-in); default the real `qualify`. */
  qualifier?: Qualifier;
  /** Whether a game's levels are chained (each starts where the previous level's win leads); default none. */
  chainLevels?: (loaded: LoadedGame) => boolean;
  onEvent?: (event: SweepEvent) => void;
}

/**
 * Loads every game first, so a typo in --games is bad input before any work is done. A real ARC
 * game (an ARC folder, or an id of the ARC games folder) becomes a Python game with its file as
 * its module (its processes start now; the sweep closes them when its turn is over). A game whose
 * own files are broken (its module fails on import, its metadata.json is missing or malformed)
 * is not bad input of the night: it comes back as a BrokenGame, that game's error, and the others
 * are swept. `sources` says where each game is found again (an ARC game named by its id: its folder).
 */
export async function loadAll(refs: readonly string[], arc: { arcGames?: string; python?: PythonGameOptions } = {}): Promise<(LoadedGame | BrokenGame)[]> {
  return (await loadSources(refs, arc)).map((l) => l.loaded);
}

async function loadSources(refs: readonly string[], arc: { arcGames?: string; python?: PythonGameOptions }): Promise<{ loaded: LoadedGame | BrokenGame; source: string }[]> {
  const loaded: { loaded: LoadedGame | BrokenGame; source: string }[] = [];
  const byId = (ref: string): string | undefined => (arc.arcGames !== undefined && !suiteModule(ref) ? arcGameById(ref, arc.arcGames) : undefined);
  try {
    for (const ref of refs) {
      const folder = byId(ref);
      const file = arcGameFile(ref) ?? (folder && arcGameFile(folder));
      // a folder of the tree, or given, that holds several versions or no game: that game's error
      const problem = file ? undefined : arcFolderProblem(folder ?? ref);
      // an ARC game named by its id is found again (replay, the queue's workers) by its folder
      const source = folder ?? ref;
      try {
        if (file || problem) {
          const game = openPythonGame(file ?? folder ?? ref, arc.python);
          loaded.push({ loaded: { game, module: game.file }, source });
        } else {
          const bare = arcGameWithoutMetadata(folder ?? ref);
          if (bare) throw new GameLoadError(basename(bare).replace(/\.py$/, ''), noMetadataMessage(bare));
          if (!suiteModule(ref) && !looksLikePath(ref)) throw new InputError(unknownGameMessage(ref, suiteIds(), arc.arcGames));
          loaded.push({ loaded: await loadGame(ref), source });
        }
      } catch (err) {
        if (!(err instanceof GameLoadError)) throw err;
        loaded.push({ loaded: { id: err.game, error: err.message }, source });
      }
    }
  } catch (err) {
    for (const l of loaded) if (!isBroken(l.loaded) && l.loaded.game instanceof PythonGame) l.loaded.game.close();
    throw err;
  }
  const ids = loaded.map((l) => (isBroken(l.loaded) ? l.loaded.id : l.loaded.game.id));
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) {
    for (const l of loaded) if (!isBroken(l.loaded) && l.loaded.game instanceof PythonGame) l.loaded.game.close();
    throw new InputError(`game ${twice} is named twice`);
  }
  return loaded;
}

/** A game's content hash, its levels' starts computed off this thread (an init that never returns stops at the step limit). */
export function hashOffThread(loaded: LoadedGame, stepSeconds?: number): string | null {
  const here = offThread(loaded, stepSeconds);
  try {
    return contentHash(loaded, here.game);
  } finally {
    here.close();
  }
}

/** The Python game options that change results (GRAPH_BUILDER, identity, clicks...), without the machine's paths and memory share. */
function pythonJobOptions(options: PythonGameOptions = {}): PythonJobOptions {
  const { python: _python, engine: _engine, memoryMb: _memoryMb, ...rest } = options;
  return rest;
}

/** The settings every job of a night carries. */
function jobSettings(options: Pick<SweepOptions, 'games' | 'arcGames' | 'python' | 'budget' | 'policy' | 'threshold' | 'seed' | 'graphLimit'>, python: boolean): JobSettings {
  return {
    budget: { ...sweepBudget(options), ...options.budget },
    policy: options.policy ?? 'available',
    threshold: options.threshold ?? DEFAULT_THRESHOLD,
    seed: options.seed ?? 1,
    graphLimit: options.graphLimit ?? GRAPH_VIEW_LIMIT,
    version: VERSION,
    // what changes a real ARC game's results travels with its jobs; the interpreter and engine are each machine's own
    ...(python && { python: pythonJobOptions(options.python) }),
  };
}

/** The games to sweep, loaded, and the night's plan. */
export async function prepareSweep(options: Pick<SweepOptions, 'games' | 'arcGames' | 'python' | 'budget' | 'policy' | 'threshold' | 'seed' | 'graphLimit' | 'chainLevels' | 'stepSeconds'>): Promise<{ refs: string[]; loaded: (LoadedGame | BrokenGame)[]; plan: SweepPlan }> {
  checkUnofferedMode(options.python?.unoffered, options.policy ?? 'available');
  const refs = [...(options.games ?? (options.arcGames !== undefined ? arcGamesIn(options.arcGames) : suiteIds()))];
  if (refs.length === 0) throw new InputError(options.arcGames !== undefined ? `no ARC games in ${options.arcGames} (an environment_files tree: <id>/<version>/<id>.py)` : 'no games to sweep: the suite is empty and no --games were given');
  const sources = await loadSources(refs, options);
  const loaded = sources.map((s) => s.loaded);
  const plan = planSweep(
    // A real ARC game's levels are chained: each starts where the previous level's shortest win leads.
    sources.map(({ loaded: l, source }) =>
      isBroken(l) ? { ref: source, loaded: l, contentHash: null } : { ref: source, loaded: l, contentHash: hashOffThread(l, options.stepSeconds), chained: options.chainLevels?.(l) ?? l.game instanceof PythonGame },
    ),
    jobSettings(options, loaded.some((l) => !isBroken(l) && l.game instanceof PythonGame)),
  );
  return { refs, loaded, plan };
}

/** Runs one game's jobs in plan order; null when the sweep was interrupted during it. */
async function sweepGame(planned: PlannedGame, loaded: LoadedGame, ctx: RunContext, night: Night, onEvent?: (event: SweepEvent) => void): Promise<GameReport | null> {
  const outcomes = new Map<string, JobOutcome>();
  const results = new Map<string, JobResult>();
  for (const job of planned.jobs) {
    if (ctx.signal?.aborted) return null;
    // a job whose input failed fails with it, as a queue worker's would
    const missing = job.reads.find((id) => !results.has(id));
    if (job.stage === 'qualify') onEvent?.({ kind: 'qualifying', game: planned.game });
    try {
      if (missing) throw new Error(`its input ${missing} failed`);
      const result = await runJob(job, loaded, results, ctx);
      results.set(job.id, result);
      outcomes.set(job.id, { result });
    } catch (err) {
      // (a game's Python process stopped by the user's Ctrl-C or SIGTERM: the stop, not the level's error)
      if (err instanceof JobInterrupted || isInterrupted(err)) return null;
      outcomes.set(job.id, { error: (err as Error)?.message ?? String(err) });
    }
    // a level is reported as soon as its last job is done (before qualification)
    const explored = job.stage === 'monte-carlo' ? results.get(job.reads[0]) : undefined;
    if (explored) {
      const mc = results.get(job.id);
      const level = levelReport(explored as ExploreJobResult, mc?.stage === 'monte-carlo' ? mc : null, null, night.previousLevel(planned.game, job.level!));
      onEvent?.({ kind: 'level', game: planned.game, level });
    }
  }
  return gameReport(planned, outcomes, night.previousLevel);
}

export async function sweep(options: SweepOptions): Promise<SweepReport> {
  // A Ctrl-C or SIGTERM while the games load (their Python processes stopped by it) throws here: no
  // night has begun, and the folder's earlier report stays as it was.
  const { refs, loaded, plan } = await prepareSweep(options);
  options.onEvent?.({ kind: 'start' });
  const workers = options.workers ?? defaultWorkers();
  const night = new Night({
    out: options.out,
    refs,
    plan,
    workers,
    queue: null,
    history: options.history,
    baseline: options.baseline,
    onWarning: (message) => options.onEvent?.({ kind: 'warning', message }),
  });
  const ctx: RunContext = { workers, dir: options.out, qualifier: options.qualifier ?? qualifyGame, worker: thisWorker(), signal: options.signal, stepSeconds: options.stepSeconds, maxMemory: options.maxMemory };
  try {
    for (const [i, planned] of plan.games.entries()) {
      if (options.signal?.aborted) break;
      const l = loaded[i];
      // a game that could not be loaded is reported with its error at once
      const game = isBroken(l) ? gameReport(planned, new Map(), night.previousLevel) : await sweepGame(planned, l, ctx, night, options.onEvent);
      // A real ARC game's Python processes end with its turn.
      if (!isBroken(l) && l.game instanceof PythonGame) l.game.close();
      if (!game) break;
      await night.addGame(game);
      options.onEvent?.({ kind: 'game', game, report: night.report });
    }
  } finally {
    for (const l of loaded) if (!isBroken(l) && l.game instanceof PythonGame) l.game.close();
    await night.close();
  }
  return night.report;
}
