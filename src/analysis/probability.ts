import type { StateGraph } from '../graph/index.js';
import { solveExact } from './exact.js';
import { DEFAULT_INTERVAL, solveInterval, type IntervalOptions } from './interval.js';
import type { Policy, TransitionWeights } from './policy.js';
import { floatAbove, floatBelow, oneIn, type Fraction } from './rational.js';
import { LOSS, WIN, reachProblem } from './win-problem.js';
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
 * - `interval`: complete graph, interval iteration (a sound two-sided bound).
 * - `bounds`: partial graph; lower counts the frontier as a loss, upper as a win.
 */
export interface PWin {
  policy: Policy;
  method: 'exact' | 'interval' | 'bounds';
  lower: number;
  upper: number;
  exact?: ExactProbability;
  /** False when interval iteration stopped on its work budget before closing the gap. */
  converged: boolean;
}

export function exactProbability(f: Fraction): ExactProbability {
  return { p: f.num.toString(), q: f.den.toString(), oneIn: oneIn(f) };
}

interface Bound {
  lower: number;
  upper: number;
  exact: Fraction | null;
  converged: boolean;
}

export interface SolveOptions {
  /** Try the exact solve first (else interval iteration only). */
  exact: boolean;
  interval: IntervalOptions;
}

function solve(graph: StateGraph, weights: TransitionWeights, rev: ReverseEdges, frontierValue: 0 | 1, options: SolveOptions): Bound {
  const problem = reachProblem(graph, weights, rev, frontierValue);
  const exact = options.exact ? solveExact(problem) : null;
  if (exact) return { lower: floatBelow(exact), upper: floatAbove(exact), exact, converged: true };
  return { ...solveInterval(problem, options.interval), exact: null };
}

/** Solves the win probability under `weights`; a graph with a frontier gets two solves, one per bound. */
export function winProbability(
  graph: StateGraph,
  weights: TransitionWeights,
  rev: ReverseEdges,
  frontier: number,
  options: SolveOptions = { exact: true, interval: DEFAULT_INTERVAL },
): PWin {
  const policy = weights.policy;
  if (frontier > 0) {
    const low = solve(graph, weights, rev, LOSS, options);
    const high = solve(graph, weights, rev, WIN, options);
    return { policy, method: 'bounds', lower: low.lower, upper: high.upper, converged: low.converged && high.converged };
  }
  const { lower, upper, exact, converged } = solve(graph, weights, rev, LOSS, options);
  if (exact) return { policy, method: 'exact', lower, upper, exact: exactProbability(exact), converged };
  return { policy, method: 'interval', lower, upper, converged };
}
