/**
 * The sweep's job graph: one job per (game, level, stage), each with an id derived from what
 * decides its result (the game's content hash, the level, the stage, the budget and settings it
 * reads, arcgraph's version, and the ids of the jobs whose results it reads), so the same night
 * planned twice gives the same ids. A local sweep runs the jobs in plan order; the queue turns the
 * plan into a BullMQ flow. Each job waits on at most one other (`after`), the tree BullMQ flows
 * allow: a level's Monte Carlo waits on its exploration, and in a game whose levels are chained
 * (a level starts where the previous level's shortest win leads, as Python games' do) a level's
 * exploration waits on the previous level's last job and reads its exploration, and the game's
 * qualification waits on the last level and reads every exploration (its levels start where they do).
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Policy } from '../analysis/index.js';
import type { Budget } from '../report/index.js';
import type { PythonGameOptions } from '../python/index.js';
import { suiteModule, type LoadedGame } from '../suite/index.js';

export type Stage = 'explore' | 'monte-carlo' | 'qualify';

/** What decides the jobs' results besides their game and level. */
export interface JobSettings {
  budget: Budget;
  policy: Policy;
  threshold: number;
  seed: number;
  /** Levels with at most this many states get every state drawn on their page. */
  graphLimit: number;
  /** arcgraph's version: another version may count differently. */
  version: string;
  /**
   * How real ARC games run, where it changes results (GRAPH_BUILDER, identity, clicks); each machine
   * keeps its own interpreter and engine. Absent for a night of suite games and modules.
   */
  python?: PythonJobOptions;
}

/** The Python game options a job carries: those that change results, not the machine's paths. */
export type PythonJobOptions = Omit<PythonGameOptions, 'python' | 'engine' | 'memoryMb'>;

export interface PlannedJob {
  /** Deterministic: the same night planned again gives the same id (no ':', which BullMQ keeps for its keys). */
  id: string;
  stage: Stage;
  /** The game's id. */
  game: string;
  /** How a worker loads the game: a suite id, or the absolute path of its module. */
  source: string;
  /** The game's content hash when planned; a worker whose copy hashes otherwise refuses the job. */
  contentHash: string | null;
  /** Null for a game's qualification. */
  level: number | null;
  /** The job that must finish before this one starts (its one child in the flow). */
  after: string | null;
  /** Jobs whose results this one is given when it runs. */
  reads: string[];
  settings: JobSettings;
}

export interface PlannedGame {
  /** As given to the sweep (suite id or module path). */
  ref: string;
  game: string;
  title: string;
  levelCount: number;
  tutorialLevels: number;
  contentHash: string | null;
  chained: boolean;
  /** In the order a local sweep runs them: each level's exploration then Monte Carlo, then qualification. */
  jobs: PlannedJob[];
  /** The jobs no other job waits on: the game is collected when they have finished. */
  last: string[];
  /** Why the game could not be loaded (its module or metadata is broken): it has no jobs, this is its error. */
  error?: string;
}

export interface SweepPlan {
  /** Names the night: a digest of every job id, so the same night planned again has the same key. */
  key: string;
  settings: JobSettings;
  games: PlannedGame[];
}

/** A game of the night that could not be loaded: the id it goes by and why. */
export interface BrokenGame {
  id: string;
  error: string;
}

export const isBroken = (l: LoadedGame | BrokenGame): l is BrokenGame => 'error' in l;

export interface PlanGame {
  ref: string;
  loaded: LoadedGame | BrokenGame;
  contentHash: string | null;
  /** The levels are chained (level k+1 starts where level k's shortest win leads). */
  chained?: boolean;
}

const digest = (value: unknown): string => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

/** What each stage's result depends on, beyond the game, the level and the jobs it reads. */
function stageInputs(stage: Stage, s: JobSettings): unknown {
  const { budget } = s;
  const python = s.python ?? null;
  if (stage === 'explore') return [s.version, budget.nodes, budget.seconds, s.policy, s.threshold, s.seed, s.graphLimit, python];
  if (stage === 'monte-carlo') return [s.version, budget.randomSteps, s.policy, s.threshold, s.seed, python];
  return [s.version, budget.stepsScale, s.policy, s.seed, python];
}

export function planSweep(games: readonly PlanGame[], settings: JobSettings): SweepPlan {
  // a game whose code could not be hashed gets ids of its own: nothing is taken for it from another night
  const planned = games.map(({ ref, loaded, contentHash, chained = false }): PlannedGame => {
    if (isBroken(loaded)) return { ref, game: loaded.id, title: loaded.id.toUpperCase(), levelCount: 0, tutorialLevels: 0, contentHash: null, chained: false, jobs: [], last: [], error: loaded.error };
    const { game } = loaded;
    const version = contentHash ?? `unhashed-${randomUUID().slice(0, 8)}`;
    const source = suiteModule(ref) ? ref : loaded.module;
    const jobs: PlannedJob[] = [];
    const make = (stage: Stage, level: number | null, after: string | null, reads: string[]): PlannedJob => {
      const id = `${game.id}.${version}.${level === null ? 'game' : `L${level}`}.${stage}.${digest([stageInputs(stage, settings), reads])}`;
      const job: PlannedJob = { id, stage, game: game.id, source, contentHash, level, after, reads, settings };
      jobs.push(job);
      return job;
    };
    const last: string[] = [];
    let previous: { explore: PlannedJob; end: PlannedJob } | null = null;
    for (let level = 1; level <= game.levels; level++) {
      const explore: PlannedJob = chained && previous ? make('explore', level, previous.end.id, [previous.explore.id]) : make('explore', level, null, []);
      const monteCarlo = make('monte-carlo', level, explore.id, [explore.id]);
      if (!chained) last.push(monteCarlo.id);
      previous = { explore, end: monteCarlo };
    }
    if (chained && previous) last.push(previous.end.id);
    // a chained game's qualification plays each level from where its exploration started it
    const explores = jobs.filter((j) => j.stage === 'explore').map((j) => j.id);
    const qualify = chained && previous ? make('qualify', null, previous.end.id, explores) : make('qualify', null, null, []);
    if (chained) last.splice(0, last.length, qualify.id);
    else last.push(qualify.id);
    return { ref, game: game.id, title: game.title, levelCount: game.levels, tutorialLevels: game.tutorialLevels, contentHash, chained, jobs, last };
  });
  return { key: digest(planned.flatMap((g) => (g.error === undefined ? g.jobs.map((j) => j.id) : [`${g.game}.broken.${digest(g.error)}`]))), settings, games: planned };
}
