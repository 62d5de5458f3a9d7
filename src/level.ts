/** Explore and analyse one level: the one place the two are put together (`arcgraph explore`, the sweep). */
import { analyzeAsync, type Analysis } from './analysis/index.js';
import { parseAction, actionCode } from './engine/index.js';
import type { Policy } from './analysis/index.js';
import { budgetCheck, exploreGraph, openGame, type ExploreOptions, type ExploreResult, type GameSource } from './explorer/index.js';
import type { StateGraph } from './graph/index.js';
import { checkUnofferedPolicy } from './python/index.js';

export interface LevelOptions extends ExploreOptions {
  policy?: Policy;
  threshold?: number;
  /** Also give the probability of winning within this many actions. */
  withinK?: number;
}

/** What `arcgraph explore --json` prints: the exploration's measures and the analysis of its graph. */
export type ExploreReport = ExploreResult & Omit<Analysis, 'fullyExplored' | 'frontier'>;

/** Explores one level and analyses its graph (tutorial exemption and baseline from the game). */
export async function exploreLevel(source: GameSource, options: LevelOptions): Promise<{ report: ExploreReport; graph: StateGraph }> {
  const loaded = await openGame(source);
  const { game } = loaded;
  checkUnofferedPolicy(game, options.policy ?? 'available');
  const { result, graph, budget } = await exploreGraph(loaded.module ? { game, module: loaded.module } : game, { ...options, workers: options.workers });
  // Asynchronous so that a Ctrl-C during a long solve is seen (it cuts the solvers short, with sound bounds).
  const { fullyExplored, frontier, ...analysis } = await analyzeAsync(graph, {
    policy: options.policy,
    threshold: options.threshold,
    withinK: options.withinK,
    tutorial: options.level <= game.tutorialLevels,
    baseline: game.baselineActions?.[options.level - 1],
    // The exploration's budget: it left room for the analysis' graph searches, the solvers check their own arrays.
    memory: budgetCheck(budget),
    signal: options.signal,
  });
  // A real ARC game's next level starts where this level's shortest win leads.
  if (loaded.python && analysis.shortestWin) loaded.python.recordWin(options.level, analysis.shortestWin.actions.map((a) => actionCode(parseAction(a))));
  loaded.python?.recordWonStates(options.level, result.terminals.won);
  return { report: { ...result, ...analysis }, graph };
}

/** The library form of `arcgraph explore`: returns the object `--json` prints. */
export async function explore(source: GameSource, options: LevelOptions): Promise<ExploreReport> {
  return (await exploreLevel(source, options)).report;
}
