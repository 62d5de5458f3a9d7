import type { StateGraph } from '../graph/index.js';
import { exactSolveSteps, solverBudget } from './exact.js';
import { DEFAULT_INTERVAL, solveIntervalSteps, type IntervalOptions } from './interval.js';
import { INTERRUPTED, runSteps, type AnalysisStop, type Steps } from './steps.js';
import type { Policy, TransitionWeights } from './policy.js';
import { ExactBudget, floatAbove, floatBelow, oneIn, type Fraction } from './rational.js';
import { LOSS, WIN, reachProblem } from './win-problem.js';
import type { MemoryCheck } from './memory.js';
import type { ReverseEdges } from './reachability.js';

/** An exact probability as printed: p/q in lowest terms and q/p ("1 in N"; Infinity when p = 0). */
export interface ExactProbability {
  p: string;
  q: string;
  oneIn: number;
}

/**
 * The probability that a random attempt from the reset state wins.
 * - `exact`: complete graph, solved exactly (`exact` holds the fraction; lower and upper are the
 *   doubles just below and above it).
 * - `interval`: complete graph, the exact solve gave up (`exactGaveUp` says why) and interval
 *   iteration gave a sound two-sided bound, relative width 1e-9 or less unless `converged` is false.
 * - `bounds`: partial graph; lower counts the frontier as a loss, upper as a win.
 */
export interface PWin {
  policy: Policy;
  method: 'exact' | 'interval' | 'bounds';
  lower: number;
  upper: number;
  exact?: ExactProbability;
  /** A partial graph's bounds as exact fractions, where each bound's solve was exact (the verdict compares these, not their doubles). */
  lowerExact?: ExactProbability;
  upperExact?: ExactProbability;
  /** False when interval iteration stopped on its work budget before closing the gap. */
  converged: boolean;
  /** upper - lower. */
  width: number;
  /** (upper - lower) / upper, 0 when upper is 0. */
  relativeWidth: number;
  /** Why the exact solve gave up (a budget, and the class it ran out in), when it did. */
  exactGaveUp?: string;
  /** Why interval iteration did not run (its arrays past the memory budget), when it did not: lower and upper are then 0 and 1. */
  intervalGaveUp?: string;
  /** The solve was stopped (Ctrl-C or SIGTERM during the analysis): the bounds are sound, not as tight as they would be. */
  interrupted?: true;
}

export function exactProbability(f: Fraction): ExactProbability {
  return { p: f.num.toString(), q: f.den.toString(), oneIn: oneIn(f) };
}

interface Bound {
  lower: number;
  upper: number;
  exact: Fraction | null;
  converged: boolean;
  gaveUp?: string;
  intervalGaveUp?: string;
  interrupted?: boolean;
}

export interface SolveOptions {
  /** Try the exact solve first (else interval iteration only). */
  exact: boolean;
  interval: IntervalOptions;
  /** The exact solve's budget on a complete graph (default `solverBudget()`). */
  budget?: () => ExactBudget;
  /** The memory budget the solvers keep to (none when unset). */
  memory?: MemoryCheck;
  /** Read at the solvers' checkpoints: a request ends them early, with sound answers. */
  stop?: AnalysisStop;
}

/**
 * The exact budget of each bound of a partial graph, and the work its interval iteration may do:
 * about a second and a few seconds, since those bounds are printed as doubles and a partial graph is
 * explored further to tighten them rather than solved harder.
 */
const partialBudget = (): ExactBudget => new ExactBudget(50_000_000, 4096, 1_000_000);
const PARTIAL_INTERVAL_WORK = 400_000_000;

function* solve(graph: StateGraph, weights: TransitionWeights, rev: ReverseEdges, frontierValue: 0 | 1, options: SolveOptions, budget: () => ExactBudget): Steps<Bound> {
  const problem = reachProblem(graph, weights, rev, frontierValue);
  const exact = options.exact ? yield* exactSolveSteps(problem, budget(), options.memory, options.stop) : null;
  if (exact?.value) return { lower: floatBelow(exact.value), upper: floatAbove(exact.value), exact: exact.value, converged: true };
  const { lower, upper, converged, gaveUp, interrupted } = yield* solveIntervalSteps(problem, options.interval, options.memory, options.stop);
  const stopped = interrupted === true || exact?.gaveUp?.startsWith(INTERRUPTED) === true;
  return { lower, upper, converged, exact: null, gaveUp: exact ? exact.gaveUp : 'not tried', ...(gaveUp && { intervalGaveUp: gaveUp }), ...(stopped && { interrupted: true }) };
}

const widths = (lower: number, upper: number): { width: number; relativeWidth: number } => ({
  width: upper - lower,
  relativeWidth: upper > 0 ? (upper - lower) / upper : 0,
});

/** Solves the win probability under `weights`; a graph with a frontier gets two solves, one per bound. */
export function winProbability(
  graph: StateGraph,
  weights: TransitionWeights,
  rev: ReverseEdges,
  frontier: number,
  options: SolveOptions = { exact: true, interval: DEFAULT_INTERVAL },
): PWin {
  return runSteps(winProbabilitySteps(graph, weights, rev, frontier, options));
}

/** winProbability as steps (see steps.ts). */
export function* winProbabilitySteps(
  graph: StateGraph,
  weights: TransitionWeights,
  rev: ReverseEdges,
  frontier: number,
  options: SolveOptions = { exact: true, interval: DEFAULT_INTERVAL },
): Steps<PWin> {
  const policy = weights.policy;
  if (frontier > 0) {
    const partial = { ...options, interval: { ...options.interval, maxWork: Math.min(options.interval.maxWork, PARTIAL_INTERVAL_WORK) } };
    const low = yield* solve(graph, weights, rev, LOSS, partial, partialBudget);
    const high = yield* solve(graph, weights, rev, WIN, partial, partialBudget);
    const gaveUp = low.gaveUp ?? high.gaveUp;
    const intervalGaveUp = low.intervalGaveUp ?? high.intervalGaveUp;
    return {
      policy,
      method: 'bounds',
      lower: low.lower,
      upper: high.upper,
      converged: low.converged && high.converged,
      ...widths(low.lower, high.upper),
      ...(low.exact && { lowerExact: exactProbability(low.exact) }),
      ...(high.exact && { upperExact: exactProbability(high.exact) }),
      ...(gaveUp ? { exactGaveUp: gaveUp } : {}),
      ...(intervalGaveUp ? { intervalGaveUp } : {}),
      ...((low.interrupted || high.interrupted) && { interrupted: true }),
    };
  }
  const { lower, upper, exact, converged, gaveUp, intervalGaveUp, interrupted } = yield* solve(graph, weights, rev, LOSS, options, options.budget ?? solverBudget);
  if (exact) return { policy, method: 'exact', lower, upper, exact: exactProbability(exact), converged, ...widths(lower, upper) };
  return { policy, method: 'interval', lower, upper, converged, ...widths(lower, upper), ...(gaveUp ? { exactGaveUp: gaveUp } : {}), ...(intervalGaveUp ? { intervalGaveUp } : {}), ...(interrupted && { interrupted: true }) };
}
