/** Explore and analyse one level: the one place the two are put together (`arcgraph explore`, the sweep). */
import { analyzeAsync, type Analysis } from './analysis/index.js';
import { codeName, parseAction, actionCode } from './engine/index.js';
import type { Policy } from './analysis/index.js';
import { budgetCheck, exploreGraph, openGame, type ExploreOptions, type ExploreResult, type GameSource } from './explorer/index.js';
import { bfsPath, depthOf, NodeFlag, type StateGraph } from './graph/index.js';
import { checkUnofferedPolicy, OTHER_WINS } from './python/index.js';

export interface LevelOptions extends ExploreOptions {
  policy?: Policy;
  threshold?: number;
  /** Also give the probability of winning within this many actions. */
  withinK?: number;
  /**
   * A real ARC game: record the level's wins as where the next level starts (default). Off for an
   * exploration from another start (a sweep's otherStarts), which must not move the chain.
   */
  recordWins?: boolean;
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
  // A real ARC game's next level starts where this level's shortest win leads; the other won states are
  // where other wins lead (a sweep explores the next level from those too).
  if (options.recordWins !== false) {
    if (loaded.python && analysis.shortestWin) loaded.python.recordWin(options.level, analysis.shortestWin.actions.map((a) => actionCode(parseAction(a))));
    loaded.python?.recordWonStates(options.level, result.terminals.won, fullyExplored);
  }
  if (result.python && analysis.shortestWin) result.python.otherWins = otherWins(graph);
  return { report: { ...result, ...analysis }, graph };
}

/** The longest other win a report lists (they travel in every report and job result). */
const OTHER_WIN_ACTIONS = 1000;

/**
 * The shortest paths to the first OTHER_WINS won states after the first (node ids run in BFS order, so
 * the first won node is the shortest win's), those of at most OTHER_WIN_ACTIONS actions.
 */
function otherWins(graph: StateGraph): string[][] {
  const out: string[][] = [];
  let seen = 0;
  for (let v = 0; v < graph.nodeCount && out.length < OTHER_WINS; v++) {
    if (!(graph.flags[v] & NodeFlag.WON) || seen++ === 0 || depthOf(graph, v) > OTHER_WIN_ACTIONS) continue;
    out.push(Array.from(bfsPath(graph, v), codeName));
  }
  return out;
}

/** The library form of `arcgraph explore`: returns the object `--json` prints. */
export async function explore(source: GameSource, options: LevelOptions): Promise<ExploreReport> {
  return (await exploreLevel(source, options)).report;
}
