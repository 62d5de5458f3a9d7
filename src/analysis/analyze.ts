import { NodeFlag, TERMINAL, type StateGraph } from '../graph/index.js';
import { winWithinSteps, type WithinK } from './horizon.js';
import { DEFAULT_INTERVAL, type IntervalOptions } from './interval.js';
import type { MemoryCheck } from './memory.js';
import { transitionWeights, type Policy } from './policy.js';
import { winProbabilitySteps, type ExactProbability, type PWin } from './probability.js';
import { backwardReach, deadEndNodes, isFrontier, nearest, pathTo, reverseEdges, searchFromRoot, type ActionPath } from './reachability.js';
import { DEFAULT_THRESHOLD, settleHint, verdictFor, type Verdict } from './verdict.js';
import type { Fraction } from './rational.js';
import { AnalysisStop, runSteps, runStepsAsync, type Steps } from './steps.js';

export interface AnalyzeOptions {
  policy?: Policy;
  /** Random-win probability a level must not exceed (default 1e-4). */
  threshold?: number;
  /** A tutorial level: its verdict is reported but exempt. */
  tutorial?: boolean;
  /** The level's declared baseline action count, to compare the shortest win with. */
  baseline?: number;
  /** Also compute the probability of winning within this many actions. */
  withinK?: number;
  /** False skips the exact solve and goes straight to interval iteration. */
  exact?: boolean;
  /** Interval iteration tolerances and work budget (for graphs too large to solve exactly). */
  interval?: IntervalOptions;
  /** The memory budget the solvers keep to, giving up (and saying why) rather than running the process out (none when unset). */
  memory?: MemoryCheck;
  /** Read at the solvers' checkpoints (see analyzeAsync). */
  stop?: AnalysisStop;
}

export interface ShortestWin extends ActionPath {
  /** False on a partial graph when an unexplored state is near enough to hide a shorter win. */
  optimal: boolean;
}

export interface Analysis {
  /** A winning state is in the graph (on a partial graph, false means none found yet). */
  winReachable: boolean;
  shortestWin: ShortestWin | null;
  /** The declared baseline and how the shortest win compares (shortest - declared). */
  baseline?: { declared: number; shortest: number | null; difference: number | null };
  /**
   * Non-terminal states from which no win is reachable (on a partial graph only the certain ones:
   * no path to a win nor to the frontier), and a shortest action sequence into one.
   */
  deadEnds: { count: number; example?: ActionPath };
  /** Non-terminal states that can still win (a path to a winning state exists). */
  canWin: number;
  fullyExplored: boolean;
  frontier: number;
  pWin: PWin;
  withinK?: WithinK;
  verdict: Verdict;
  /** What would settle an inconclusive verdict. */
  hint?: string;
  threshold: number;
  exempt: boolean;
}

/** Everything a developer asks of a level's graph: solvable, how short, where stuck, how lucky. */
export function analyze(graph: StateGraph, opts: AnalyzeOptions = {}): Analysis {
  return runSteps(analyzeSteps(graph, opts));
}

/**
 * analyze with the event loop turning while the solvers work, so a signal is seen: once `signal`
 * aborts during the analysis, the solvers stop early and P(win) comes back as sound bounds marked
 * `interrupted` (an abort from before it started, the exploration's stop, lets the analysis run whole).
 */
export function analyzeAsync(graph: StateGraph, opts: AnalyzeOptions & { signal?: AbortSignal } = {}): Promise<Analysis> {
  const stop = new AnalysisStop();
  return runStepsAsync(analyzeSteps(graph, { ...opts, stop }), stop, opts.signal);
}

function* analyzeSteps(graph: StateGraph, opts: AnalyzeOptions): Steps<Analysis> {
  const threshold = opts.threshold ?? DEFAULT_THRESHOLD;
  if (!(threshold > 0 && threshold <= 1)) throw new RangeError(`threshold must be in (0, 1], got ${threshold}`);
  if (opts.withinK !== undefined && !(Number.isInteger(opts.withinK) && opts.withinK >= 0)) {
    throw new RangeError(`withinK must be a non-negative integer, got ${opts.withinK}`);
  }
  const n = graph.nodeCount;
  const { flags } = graph;
  const rev = reverseEdges(graph);
  const search = searchFromRoot(graph, rev);

  const wins = new Uint8Array(n);
  let frontier = 0;
  let nearestFrontier = Infinity;
  for (let v = 0; v < n; v++) {
    if (flags[v] & NodeFlag.WON) wins[v] = 1;
    if (isFrontier(flags[v])) {
      frontier++;
      const d = search.dist(v);
      if (d >= 0) nearestFrontier = Math.min(nearestFrontier, d);
    }
  }
  const expandedPlaying = (u: number): boolean => (flags[u] & (TERMINAL | NodeFlag.EXPANDED)) === NodeFlag.EXPANDED;

  const canWin = backwardReach(rev, wins, expandedPlaying);
  // on a partial graph a state is certainly dead only if it reaches neither a win nor the frontier
  const dead = deadEndNodes(graph, rev, frontier > 0 ? undefined : canWin);
  let deadCount = 0;
  let canWinCount = 0;
  for (let v = 0; v < n; v++) {
    if (!expandedPlaying(v)) continue;
    if (canWin[v]) canWinCount++;
    if (dead[v]) deadCount++;
  }
  const firstDead = nearest(search, dead);

  const firstWin = nearest(search, wins);
  let shortestWin: ShortestWin | null = null;
  if (firstWin >= 0) {
    const path = pathTo(graph, search, firstWin);
    // an undiscovered win takes at least one move past a frontier state
    shortestWin = { ...path, optimal: nearestFrontier + 1 >= path.length };
  }

  const weights = transitionWeights(graph, opts.policy ?? 'available');
  const pWin = yield* winProbabilitySteps(graph, weights, rev, frontier, { exact: opts.exact ?? true, interval: opts.interval ?? DEFAULT_INTERVAL, memory: opts.memory, stop: opts.stop });
  const fraction = (e: ExactProbability | undefined): Fraction | undefined => e && { num: BigInt(e.p), den: BigInt(e.q) };
  const verdict = verdictFor(pWin.lower, pWin.upper, threshold, fraction(pWin.exact), { lower: fraction(pWin.lowerExact), upper: fraction(pWin.upperExact) });

  const analysis: Analysis = {
    winReachable: firstWin >= 0,
    shortestWin,
    deadEnds: firstDead >= 0 ? { count: deadCount, example: pathTo(graph, search, firstDead) } : { count: deadCount },
    canWin: canWinCount,
    fullyExplored: frontier === 0,
    frontier,
    pWin,
    verdict,
    threshold,
    exempt: opts.tutorial ?? false,
  };
  if (opts.baseline !== undefined) {
    const shortest = shortestWin?.length ?? null;
    analysis.baseline = { declared: opts.baseline, shortest, difference: shortest === null ? null : shortest - opts.baseline };
  }
  if (opts.withinK !== undefined) analysis.withinK = yield* winWithinSteps(graph, weights, search, opts.withinK, frontier, opts.stop, pWin.upper);
  if (verdict === 'inconclusive') analysis.hint = settleHint(pWin, threshold, frontier);
  return analysis;
}
