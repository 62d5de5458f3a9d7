/**
 * Sound interval iteration for the win probability: Gauss-Seidel sweeps per cycle class, with
 * verified bound guesses. (Past 300 lines: the sweeps, their orders and the guesses share one
 * class's local arrays, and read best together.)
 */
import { gb, type MemoryCheck } from './memory.js';
import { LOSS, UNKNOWN, WIN, type ReachProblem } from './win-problem.js';
import { runSteps, type AnalysisStop, type Steps } from './steps.js';

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
  /** Why it did not run (its arrays would not fit the memory budget): the bounds are then [0, 1]. */
  readonly gaveUp?: string;
  /** Stopped early on a stop request (every class left got one sweep): `converged` is false. */
  readonly interrupted?: boolean;
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
export function solveInterval(problem: ReachProblem, options: IntervalOptions = DEFAULT_INTERVAL, memory?: MemoryCheck): IntervalResult {
  return runSteps(solveIntervalSteps(problem, options, memory));
}

/** solveInterval, yielding every sweep and every 1,024 classes; on a `stop` request every class left gets one sweep, as when the work budget runs out. */
export function* solveIntervalSteps(problem: ReachProblem, options: IntervalOptions = DEFAULT_INTERVAL, memory?: MemoryCheck, stop?: AnalysisStop): Steps<IntervalResult> {
  const { value, components, graph } = problem;
  const n = graph.nodeCount;
  if (value[0] !== UNKNOWN) return { lower: value[0], upper: value[0], converged: true, sweeps: 0, work: 0 };
  const largest = ClassIteration.largest(problem);
  // Both bounds and the local index of every node, and the largest class's arrays.
  const need = 20 * n + ClassIteration.bytes(largest);
  if (memory && !memory(need)) {
    return { lower: 0, upper: 1, converged: false, sweeps: 0, work: 0, gaveUp: `interval iteration needs ${gb(need)} (its largest cycle class has ${largest.nodes} states), past the memory budget` };
  }
  const lo = new Float64Array(n);
  const hi = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    lo[v] = value[v] === WIN ? 1 : 0;
    hi[v] = value[v] === LOSS ? 0 : 1;
  }
  const state = { work: 0, converged: true, sweeps: 0, stop };
  const classes = new ClassIteration(problem, largest, lo, hi, options, state);
  for (let c = 0; c < components.count; c++) {
    if ((c & 1023) === 0) yield;
    const m = classes.begin(c);
    if (m === 1) continue;
    for (let sweep = 1; classes.sweep(m, sweep); sweep++) yield;
    classes.finish(c, m);
  }
  const interrupted = stop?.requested === true;
  return { lower: Math.max(0, lo[0]), upper: Math.min(1, hi[0]), converged: state.converged && !interrupted, sweeps: state.sweeps, work: state.work, ...(interrupted && { interrupted }) };
}

/**
 * The iteration of one class at a time over local arrays: its internal edges as a CSR of
 * probabilities w / (D - stay) between local indices, the ways out folded into one constant per
 * state and bound (their values are final when the class is solved); a single state takes one
 * update. Arrays are sized once for the largest class and reused.
 */
class ClassIteration {
  private readonly localOf: Int32Array;
  private readonly start: Int32Array;
  private readonly col: Int32Array;
  private readonly prob: Float64Array;
  /** Per local state: what its ways out give the lower and the upper bound, and its rounding slack. */
  private readonly outLo: Float64Array;
  private readonly outHi: Float64Array;
  private readonly slack: Float64Array;
  private readonly tiny: Float64Array;
  private readonly L: Float64Array;
  private readonly H: Float64Array;
  private readonly T: Float64Array;
  private readonly G: Float64Array;
  /** The last sweep's change of each bound, and an extrapolated centre. */
  private readonly dL: Float64Array;
  private readonly dH: Float64Array;
  private readonly X: Float64Array;
  private readonly orderLo: Int32Array;
  private readonly orderHi: Int32Array;
  private readonly mark: Uint8Array;
  /** The class's internal edges reversed (local CSR), for the sweep orders. */
  private readonly revStart: Int32Array;
  private readonly revSource: Int32Array;
  /** The class begun: its internal edges, and the iteration's guess schedule and observed rates. */
  private edges = 0;
  private nextGuess = 2;
  private normL = 0;
  private normH = 0;
  private rateL = 1;
  private rateH = 1;

  /** The largest class (2 states at least) and the most internal edges of one: what the arrays are sized for. */
  static largest(problem: ReachProblem): { nodes: number; edges: number } {
    const { components, graph, weights } = problem;
    const { compStart, compOf, nodes, count } = components;
    let largest = 1;
    let edges = 0;
    for (let c = 0; c < count; c++) {
      const size = compStart[c + 1] - compStart[c];
      if (size < 2) continue;
      largest = Math.max(largest, size);
      let inner = 0;
      for (let i = compStart[c]; i < compStart[c + 1]; i++) {
        const u = nodes[i];
        for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) if (weights.weight[e] > 0 && compOf[graph.edgeTarget[e]] === c) inner++;
      }
      edges = Math.max(edges, inner);
    }
    return { nodes: largest, edges };
  }

  /** Bytes of the arrays for classes this large: 11 doubles, 4 ints and a mark a state, an int and a double and an int an edge. */
  static bytes(largest: { nodes: number; edges: number }): number {
    return 105 * (largest.nodes + 1) + 16 * largest.edges;
  }

  constructor(
    private readonly problem: ReachProblem,
    { nodes: largest, edges }: { nodes: number; edges: number },
    private readonly lo: Float64Array,
    private readonly hi: Float64Array,
    private readonly options: IntervalOptions,
    private readonly state: { work: number; converged: boolean; sweeps: number; stop?: AnalysisStop },
  ) {
    const { graph } = problem;
    this.localOf = new Int32Array(graph.nodeCount);
    this.start = new Int32Array(largest + 1);
    this.col = new Int32Array(edges);
    this.prob = new Float64Array(edges);
    this.outLo = new Float64Array(largest);
    this.outHi = new Float64Array(largest);
    this.slack = new Float64Array(largest);
    this.tiny = new Float64Array(largest);
    this.L = new Float64Array(largest);
    this.H = new Float64Array(largest);
    this.T = new Float64Array(largest);
    this.G = new Float64Array(largest);
    this.dL = new Float64Array(largest);
    this.dH = new Float64Array(largest);
    this.X = new Float64Array(largest);
    this.orderLo = new Int32Array(largest);
    this.orderHi = new Int32Array(largest);
    this.mark = new Uint8Array(largest);
    this.revStart = new Int32Array(largest + 1);
    this.revSource = new Int32Array(edges);
  }

  /** Sets class c up for its sweeps and returns its size; a single state (size 1) is solved at once. */
  begin(c: number): number {
    const { components, graph, weights } = this.problem;
    const { edgeStart, edgeTarget } = graph;
    const { weight, stay, denominator } = weights;
    const { compStart, compOf, nodes } = components;
    const { lo, hi, localOf, start, col, prob, outLo, outHi, slack, tiny, L, H, T, state } = this;
    const from = compStart[c];
    const m = compStart[c + 1] - from;
    for (let i = 0; i < m; i++) localOf[nodes[from + i]] = i;
    let k = 0;
    for (let i = 0; i < m; i++) {
      const u = nodes[from + i];
      const den = denominator - stay[u];
      start[i] = k;
      let sumLo = 0;
      let sumHi = 0;
      let terms = 0;
      for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
        const w = weight[e];
        if (w === 0) continue;
        const v = edgeTarget[e];
        terms++;
        if (compOf[v] === c) {
          col[k] = localOf[v];
          prob[k++] = w / den;
        } else {
          sumLo += w * lo[v];
          sumHi += w * hi[v];
        }
      }
      state.work += terms;
      outLo[i] = sumLo / den;
      outHi[i] = sumHi / den;
      // each of about 2 * terms + 2 operations errs by at most 2^-53 relative (all terms are
      // non-negative), or by half the least subnormal absolute
      slack[i] = (terms + 3) * EPSILON;
      tiny[i] = (2 * terms + 4) * TINY;
      L[i] = 0;
      H[i] = 1;
      T[i] = 0;
    }
    start[m] = k;
    if (m === 1) {
      // a single state (no self-loop edges here): one update from its successors
      lo[nodes[from]] = Math.max(0, outLo[0] * (1 - slack[0]) - tiny[0]);
      hi[nodes[from]] = Math.min(1, outHi[0] * (1 + slack[0]) + tiny[0]);
      return 1;
    }
    const { revStart, revSource } = this;
    revStart.fill(0, 0, m + 1);
    for (let e = 0; e < k; e++) revStart[col[e] + 1]++;
    for (let i = 0; i < m; i++) revStart[i + 1] += revStart[i];
    for (let i = 0; i < m; i++) for (let e = start[i]; e < start[i + 1]; e++) revSource[revStart[col[e]]++] = i;
    for (let i = m; i > 0; i--) revStart[i] = revStart[i - 1];
    revStart[0] = 0;
    this.sweepOrder(m, this.orderLo, outLo, true);
    this.sweepOrder(m, this.orderHi, outHi, false);
    this.edges = k;
    this.nextGuess = 2;
    this.normL = 0;
    this.normH = 0;
    this.rateL = 1;
    this.rateH = 1;
    return m;
  }

  /** Sweep number `sweep` of the class begun (m states): false once it converged or the work budget (or a stop) ended it. */
  sweep(m: number, sweep: number): boolean {
    const { start, col, prob, outLo, outHi, slack, tiny, L, H, T, dL, dH, X, orderLo, orderHi, state } = this;
    const k = this.edges;
    let changeL = 0;
    let changeH = 0;
    for (let r = 0; r < m; r++) {
      const i = orderLo[r];
      let sum = outLo[i];
      let inner = 0;
      for (let e = start[i]; e < start[i + 1]; e++) {
        const j = col[e];
        sum += prob[e] * L[j];
        inner += prob[e] * T[j];
      }
      const next = sum * (1 - slack[i]) - tiny[i];
      if (next > L[i]) {
        dL[i] = next - L[i];
        if (dL[i] > changeL) changeL = dL[i];
        L[i] = next;
      } else dL[i] = 0;
      T[i] = 1 + inner;
    }
    for (let r = 0; r < m; r++) {
      const i = orderHi[r];
      let sum = outHi[i];
      for (let e = start[i]; e < start[i + 1]; e++) sum += prob[e] * H[col[e]];
      const next = sum * (1 + slack[i]) + tiny[i];
      if (next < H[i]) {
        dH[i] = H[i] - next;
        if (dH[i] > changeH) changeH = dH[i];
        H[i] = next;
      } else dH[i] = 0;
    }
    // the observed rate at which each bound's change shrinks (geometric near convergence)
    const rateL = (this.rateL = this.normL > 0 ? changeL / this.normL : 1);
    const rateH = (this.rateH = this.normH > 0 ? changeH / this.normH : 1);
    this.normL = changeL;
    this.normH = changeH;
    state.work += 2 * k + 2 * m;
    state.sweeps = Math.max(state.sweeps, sweep);
    if (this.converged(m)) return false;
    if (sweep === this.nextGuess) {
      // a centre extrapolated from both bounds' geometric tails (Aitken), checked from both sides
      if (rateL < 1 && rateH < 1) {
        const fL = rateL / (1 - rateL);
        const fH = rateH / (1 - rateH);
        for (let i = 0; i < m; i++) X[i] = 0.5 * (L[i] + dL[i] * fL + H[i] - dH[i] * fH);
        this.guess(m, true, X);
        this.guess(m, false, X);
      } else {
        // optimistic value iteration: each bound guessed from the other one
        this.guess(m, true, L);
        this.guess(m, false, H);
      }
      if (this.converged(m)) return false;
      this.nextGuess += Math.max(1, sweep >> 1);
    }
    if (state.work > this.options.maxWork || state.stop?.requested) {
      state.converged = false;
      return false;
    }
    return true;
  }

  /** Every local gap below the tolerances. */
  private converged(m: number): boolean {
    const { L, H } = this;
    const { relativeTolerance: rel, absoluteTolerance: abs } = this.options;
    for (let i = 0; i < m; i++) {
      const gap = H[i] - L[i];
      if (gap > abs && gap > rel * H[i]) return false;
    }
    return true;
  }

  /** Gives class c's bounds (m states) to its states. */
  finish(c: number, m: number): void {
    const { nodes, compStart } = this.problem.components;
    const from = compStart[c];
    for (let i = 0; i < m; i++) {
      const u = nodes[from + i];
      this.lo[u] = Math.max(0, this.L[i]);
      this.hi[u] = Math.min(1, this.H[i]);
    }
  }

  /**
   * Local states breadth-first backwards from those whose ways out already give the bound something
   * (a positive lower bound, an upper bound below 1), then any left over: the Gauss-Seidel order
   * that carries a bound from the exits across the class in one sweep.
   */
  private sweepOrder(m: number, order: Int32Array, out: Float64Array, lower: boolean): void {
    const { mark, revStart, revSource } = this;
    mark.fill(0, 0, m);
    let tail = 0;
    for (let i = 0; i < m; i++) {
      if (lower ? out[i] > 0 : out[i] + this.innerMass(i) < 1) {
        mark[i] = 1;
        order[tail++] = i;
      }
    }
    for (let head = 0; head < tail; head++) {
      const j = order[head];
      for (let r = revStart[j]; r < revStart[j + 1]; r++) {
        const i = revSource[r];
        if (mark[i]) continue;
        mark[i] = 1;
        order[tail++] = i;
      }
    }
    for (let i = 0; i < m && tail < m; i++) if (!mark[i]) order[tail++] = i;
  }

  /** The probability of staying in the class from local state i (sum of its internal edges). */
  private innerMass(i: number): number {
    let sum = 0;
    for (let e = this.start[i]; e < this.start[i + 1]; e++) sum += this.prob[e];
    return sum;
  }

  /**
   * One guess of the `upper` (else lower) bound: the centre C moved out along T by the least d
   * that its residual F(C) - C allows, kept only if verified: F(guess) <= guess (>= for a lower
   * bound) computed with outward rounding, the ways out at their upper (lower) bounds.
   */
  private guess(m: number, upper: boolean, C: Float64Array): void {
    const { start, col, prob, outLo, outHi, slack, tiny, L, H, T, G, state } = this;
    const out = upper ? outHi : outLo;
    let d = 0;
    for (let i = 0; i < m; i++) {
      let f = out[i];
      let inner = 0;
      for (let e = start[i]; e < start[i + 1]; e++) {
        f += prob[e] * C[col[e]];
        inner += prob[e] * T[col[e]];
      }
      const residual = (upper ? f - C[i] : C[i] - f) + 4 * slack[i] * f + tiny[i];
      const margin = T[i] - inner;
      if (residual <= 0) continue;
      if (!(margin > 0)) return;
      d = Math.max(d, residual / margin);
    }
    state.work += 3 * start[m];
    d *= 2;
    for (let i = 0; i < m; i++) G[i] = upper ? Math.min(H[i], C[i] + d * T[i]) : Math.max(L[i], C[i] - d * T[i]);
    for (let i = 0; i < m; i++) {
      let f = out[i];
      for (let e = start[i]; e < start[i + 1]; e++) f += prob[e] * G[col[e]];
      if (upper ? f * (1 + slack[i]) + tiny[i] > G[i] : f * (1 - slack[i]) - tiny[i] < G[i]) return;
    }
    (upper ? H : L).set(G.subarray(0, m));
  }
}
