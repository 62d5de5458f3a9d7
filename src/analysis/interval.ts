/** Sound interval iteration for the win probability: Gauss-Seidel sweeps per cycle class, with verified bound guesses. */
import { LOSS, UNKNOWN, WIN, type ReachProblem } from './win-problem.js';

export interface IntervalOptions {
  /** Stop iterating a class when every node's upper - lower is below this (an underflow guard)... */
  absoluteTolerance: number;
  /** ...or below this fraction of its upper bound. */
  relativeTolerance: number;
  /**
   * Edge relaxations allowed in all (a deterministic stand-in for a time budget: about 5 ns each
   * on the development machine); past it every class left gets one sweep and the bounds so far
   * are returned (still sound).
   */
  maxWork: number;
}

export const DEFAULT_INTERVAL: IntervalOptions = { absoluteTolerance: 1e-300, relativeTolerance: 1e-9, maxWork: 4_000_000_000 };

export interface IntervalResult {
  readonly lower: number;
  readonly upper: number;
  /** False when the work budget ran out before every class met the tolerance. */
  readonly converged: boolean;
  /** Sweeps over the largest class; edge relaxations in all. */
  readonly sweeps: number;
  readonly work: number;
}

const EPSILON = 2 ** -52;
const TINY = Number.MIN_VALUE;

/**
 * Interval iteration, classes successors first: lower bounds rise from 0 and upper bounds fall from
 * 1 (Prob0 and Prob1 are already settled, so both converge to the one fixed point). A single node
 * needs one update; a larger class is swept Gauss-Seidel, the lower bound in breadth-first order
 * back from the states next to a way out with a positive value, the upper bound back from those next
 * to a way out below 1, so one sweep carries each bound across the class (never [0, 1]). Every
 * update is widened by a bound on its floating-point error, so lower <= true value <= upper holds
 * whatever the rounding, and each bound vector stays inductive (F(lower) >= lower, F(upper) <= upper).
 *
 * Acceleration (optimistic value iteration, as in Storm, with a direction that makes the guess
 * verifiable): alongside, t estimates the expected number of moves to leave the class (t = 1 + P t).
 * From time to time the upper bound is guessed as lower + d t, d chosen from the lower bound's
 * residual F(lower) - lower against t - P t, and kept if F(guess) <= guess holds with rounding:
 * then it is an upper bound, because F has one fixed point and is monotone. The lower bound is
 * guessed from the upper one the same way. Near convergence the width is about the residual times
 * the expected exit time, instead of the slow creep of the upper iterate.
 */
export function solveInterval(problem: ReachProblem, options: IntervalOptions = DEFAULT_INTERVAL): IntervalResult {
  const { value, components, weights, graph, rev } = problem;
  const { edgeStart, edgeTarget } = graph;
  const { revStart, revSource } = rev;
  const { weight, stay, denominator } = weights;
  const { nodes, compStart, compOf, count } = components;
  const { relativeTolerance: rel, absoluteTolerance: abs, maxWork } = options;
  const n = graph.nodeCount;
  if (value[0] !== UNKNOWN) return { lower: value[0], upper: value[0], converged: true, sweeps: 0, work: 0 };
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    lo[v] = value[v] === WIN ? 1 : 0;
    hi[v] = value[v] === LOSS ? 0 : 1;
  }
  let largest = 0;
  for (let c = 0; c < count; c++) largest = Math.max(largest, compStart[c + 1] - compStart[c]);
  const t = new Float64Array(largest > 1 ? n : 0);
  const guess = new Float64Array(largest > 1 ? n : 0);
  const orderLo = new Int32Array(largest > 1 ? largest : 0);
  const orderHi = new Int32Array(largest > 1 ? largest : 0);
  const visited = new Int32Array(largest > 1 ? n : 0);
  let work = 0;
  let converged = true;
  let maxSweeps = 0;

  /** Lower-bound update of u (and its t), rounded down. */
  const raiseLo = (u: number, c: number): void => {
    let sum = 0;
    let inner = 0;
    let terms = 0;
    for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
      const w = weight[e];
      if (w === 0) continue;
      const v = edgeTarget[e];
      sum += w * lo[v];
      if (compOf[v] === c) inner += w * t[v];
      terms++;
    }
    work += terms;
    const den = denominator - stay[u];
    const next = (sum / den) * (1 - (terms + 2) * EPSILON) - (terms + 2) * TINY;
    if (next > lo[u]) lo[u] = next;
    if (c >= 0) t[u] = 1 + inner / den;
  };
  /** Upper-bound update of u, rounded up. */
  const lowerHi = (u: number): void => {
    let sum = 0;
    let terms = 0;
    for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
      const w = weight[e];
      if (w === 0) continue;
      sum += w * hi[edgeTarget[e]];
      terms++;
    }
    work += terms;
    const next = (sum / (denominator - stay[u])) * (1 + (terms + 2) * EPSILON) + (terms + 2) * TINY;
    if (next < hi[u]) hi[u] = next;
  };

  /**
   * Class c's nodes breadth-first backwards from those with a way out that `seed` accepts, then any
   * left over: the Gauss-Seidel order that carries a bound from the exits across the class.
   */
  const sweepOrder = (c: number, order: Int32Array, seed: (v: number) => boolean): void => {
    const from = compStart[c];
    const to = compStart[c + 1];
    const stamp = 2 * c + (order === orderLo ? 1 : 2);
    let tail = 0;
    for (let i = from; i < to; i++) {
      const u = nodes[i];
      for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
        const v = edgeTarget[e];
        if (weight[e] > 0 && compOf[v] !== c && seed(v)) {
          visited[u] = stamp;
          order[tail++] = u;
          break;
        }
      }
    }
    for (let head = 0; head < tail; head++) {
      const v = order[head];
      for (let r = revStart[v]; r < revStart[v + 1]; r++) {
        const u = revSource[r];
        if (compOf[u] !== c || visited[u] === stamp) continue;
        visited[u] = stamp;
        order[tail++] = u;
      }
    }
    for (let i = from; i < to && tail < to - from; i++) if (visited[nodes[i]] !== stamp) order[tail++] = nodes[i];
  };

  const classConverged = (from: number, to: number): boolean => {
    for (let i = from; i < to; i++) {
      const u = nodes[i];
      const gap = hi[u] - lo[u];
      if (gap > abs && gap > rel * hi[u]) return false;
    }
    return true;
  };

  /**
   * One guess of the `upper` (else lower) bound of class c from the other one along t, kept only
   * where verified: F(guess) <= guess (>= for a lower bound) computed with outward rounding.
   */
  const guessBound = (c: number, upper: boolean): void => {
    const from = compStart[c];
    const to = compStart[c + 1];
    const base = upper ? lo : hi;
    let d = 0;
    for (let i = from; i < to; i++) {
      const u = nodes[i];
      let sum = 0;
      let inner = 0;
      let terms = 0;
      for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
        const w = weight[e];
        if (w === 0) continue;
        const v = edgeTarget[e];
        sum += w * base[v];
        if (compOf[v] === c) inner += w * t[v];
        terms++;
      }
      work += terms;
      const den = denominator - stay[u];
      const f = sum / den;
      const residual = (upper ? f - base[u] : base[u] - f) + 4 * (terms + 2) * EPSILON * f;
      const margin = t[u] - inner / den;
      if (residual <= 0) continue;
      if (!(margin > 0)) return;
      d = Math.max(d, residual / margin);
    }
    d *= 2;
    for (let i = from; i < to; i++) {
      const u = nodes[i];
      guess[u] = upper ? Math.min(hi[u], lo[u] + d * t[u]) : Math.max(lo[u], hi[u] - d * t[u]);
    }
    for (let i = from; i < to; i++) {
      const u = nodes[i];
      let sum = 0;
      let terms = 0;
      for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
        const w = weight[e];
        if (w === 0) continue;
        const v = edgeTarget[e];
        sum += w * (compOf[v] === c ? guess[v] : upper ? hi[v] : lo[v]);
        terms++;
      }
      work += terms;
      const f = sum / (denominator - stay[u]);
      const slack = (terms + 2) * EPSILON;
      if (upper ? f * (1 + slack) + (terms + 2) * TINY > guess[u] : f * (1 - slack) - (terms + 2) * TINY < guess[u]) return;
    }
    const target = upper ? hi : lo;
    for (let i = from; i < to; i++) target[nodes[i]] = guess[nodes[i]];
  };

  for (let c = 0; c < count; c++) {
    const from = compStart[c];
    const to = compStart[c + 1];
    if (to - from === 1) {
      raiseLo(nodes[from], -1);
      lowerHi(nodes[from]);
      continue;
    }
    for (let i = from; i < to; i++) t[nodes[i]] = 0;
    sweepOrder(c, orderLo, (v) => lo[v] > 0);
    sweepOrder(c, orderHi, (v) => hi[v] < 1);
    const size = to - from;
    let nextGuess = 2;
    for (let sweep = 1; ; sweep++) {
      for (let i = 0; i < size; i++) raiseLo(orderLo[i], c);
      for (let i = 0; i < size; i++) lowerHi(orderHi[i]);
      maxSweeps = Math.max(maxSweeps, sweep);
      if (classConverged(from, to)) break;
      if (sweep === nextGuess) {
        guessBound(c, true);
        guessBound(c, false);
        if (classConverged(from, to)) break;
        nextGuess += Math.max(1, sweep >> 2);
      }
      if (work > maxWork) {
        converged = false;
        break;
      }
    }
  }
  return { lower: Math.max(0, lo[0]), upper: Math.min(1, hi[0]), converged, sweeps: maxSweeps, work };
}
