import { LOSS, UNKNOWN, WIN, type ReachProblem } from './win-problem.js';

export interface IntervalOptions {
  /** Stop iterating a component when every node's upper - lower is below this... */
  absoluteTolerance: number;
  /** ...or below this fraction of its upper bound. */
  relativeTolerance: number;
  /** Edge relaxations allowed in all; past it the bounds so far are returned (still sound). */
  maxWork: number;
}

export const DEFAULT_INTERVAL: IntervalOptions = { absoluteTolerance: 1e-12, relativeTolerance: 1e-9, maxWork: 400_000_000 };

export interface IntervalResult {
  readonly lower: number;
  readonly upper: number;
  /** False when the work budget ran out before every component met the tolerance. */
  readonly converged: boolean;
}

const EPSILON = 2 ** -52;
const TINY = Number.MIN_VALUE;

/**
 * Interval iteration, components successors first: lower bounds rise from 0 and upper bounds fall
 * from 1 (Prob0 already fixed, so both converge to the one fixed point). A single node needs one
 * update; a larger component is swept Gauss-Seidel until the gap closes. Every update is widened by
 * a bound on its floating-point error, so lower <= true value <= upper holds whatever the rounding.
 */
export function solveInterval(problem: ReachProblem, options: IntervalOptions = DEFAULT_INTERVAL): IntervalResult {
  const { value, components, weights, graph } = problem;
  const { edgeStart, edgeTarget } = graph;
  const { weight, stay, denominator } = weights;
  const n = graph.nodeCount;
  if (value[0] !== UNKNOWN) return { lower: value[0], upper: value[0], converged: true };
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    lo[v] = value[v] === WIN ? 1 : 0;
    hi[v] = value[v] === LOSS ? 0 : 1;
  }
  let work = 0;
  let converged = true;

  /** One update of u; true when its gap is within tolerance. */
  const update = (u: number): boolean => {
    let sumLo = 0;
    let sumHi = 0;
    let terms = 0;
    for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
      const w = weight[e];
      if (w === 0) continue;
      const v = edgeTarget[e];
      sumLo += w * lo[v];
      sumHi += w * hi[v];
      terms++;
    }
    work += terms;
    const den = denominator - stay[u];
    // terms products, terms-1 sums, one division: relative error below (terms + 1) * 2^-53
    const slack = (terms + 2) * EPSILON;
    const absolute = (terms + 2) * TINY;
    const nextLo = (sumLo / den) * (1 - slack) - absolute;
    const nextHi = (sumHi / den) * (1 + slack) + absolute;
    if (nextLo > lo[u]) lo[u] = nextLo;
    if (nextHi < hi[u]) hi[u] = nextHi;
    const gap = hi[u] - lo[u];
    return gap <= options.absoluteTolerance || gap <= options.relativeTolerance * hi[u];
  };

  for (let c = 0; c < components.count; c++) {
    const from = components.compStart[c];
    const to = components.compStart[c + 1];
    if (to - from === 1) {
      update(components.nodes[from]);
      continue;
    }
    for (;;) {
      let done = true;
      for (let i = from; i < to; i++) if (!update(components.nodes[i])) done = false;
      if (done) break;
      if (work > options.maxWork) {
        converged = false;
        break;
      }
    }
  }
  return { lower: Math.max(0, lo[0]), upper: Math.min(1, hi[0]), converged };
}
