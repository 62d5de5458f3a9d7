import { NodeFlag, type StateGraph } from '../graph/index.js';
import type { TransitionWeights } from './policy.js';
import { exactProbability, type ExactProbability } from './probability.js';
import { exactBudget } from './exact.js';
import { BudgetExceeded, floatAbove, floatBelow, fraction } from './rational.js';
import { isFrontier, type RootSearch } from './reachability.js';
import { runSteps, type AnalysisStop, type Steps } from './steps.js';

/** The probability of winning within k actions (lower counts the frontier as a loss, upper as a win). */
export interface WithinK {
  k: number;
  lower: number;
  upper: number;
  /** On a complete graph, when the numbers stay small enough. */
  exact?: ExactProbability;
  /** Stopped by Ctrl-C or SIGTERM before the k steps were done: the bounds hold, but are wider. */
  interrupted?: true;
}

const EPSILON = 2 ** -52;

/**
 * Finite-horizon dynamic programming over the nodes within k moves of the root:
 * P_j(u) = sum_v w(u,v) P_{j-1}(v) / D, self-loops and unavailable actions included (they use up an
 * action). Exact in integers over D^k when that stays within budget, else in floats widened by a
 * bound on their rounding error.
 */
export function winWithin(graph: StateGraph, weights: TransitionWeights, search: RootSearch, k: number, frontier: number): WithinK {
  return runSteps(winWithinSteps(graph, weights, search, k, frontier));
}

/**
 * winWithin yielding after each of its k steps. Once `stop` is requested it returns at once with
 * what holds: the lower bound after the steps done (winning within fewer actions is winning within
 * k), and as upper bound `everUpper` (an upper bound of P(win) at all, 1 when not given).
 */
export function* winWithinSteps(graph: StateGraph, weights: TransitionWeights, search: RootSearch, k: number, frontier: number, stop?: AnalysisStop, everUpper = 1): Steps<WithinK> {
  const n = graph.nodeCount;
  let count = 0;
  const within = (v: number): boolean => {
    const d = search.dist(v);
    return d >= 0 && d <= k;
  };
  for (let v = 0; v < n; v++) if (within(v)) count++;
  const near = new Int32Array(count);
  for (let v = 0, i = 0; v < n; v++) if (within(v)) near[i++] = v;
  const stopped = (lower: number): WithinK => ({ k, lower, upper: Math.min(1, everUpper), interrupted: true });
  if (stop?.requested) return stopped(0);
  const complete = frontier === 0;
  if (complete) {
    const exact = yield* exactWithin(graph, weights, near, k, stop);
    if (stop?.requested) return stopped(0);
    if (exact) return { k, lower: floatBelow(exact), upper: floatAbove(exact), exact: exactProbability(exact) };
  }
  const lower = yield* floatWithin(graph, weights, near, k, 0, -1, stop);
  if (stop?.requested) return stopped(lower);
  const upper = yield* floatWithin(graph, weights, near, k, 1, 1, stop);
  if (stop?.requested) return stopped(lower);
  return { k, lower, upper };
}

function* exactWithin(graph: StateGraph, weights: TransitionWeights, near: Int32Array, k: number, stop?: AnalysisStop): Steps<ReturnType<typeof fraction> | null> {
  const budget = exactBudget();
  // numbers grow to D^k: do not even build it when it is past the size cap
  if (k * Math.log2(weights.denominator) >= budget.maxBits) return null;
  // each node costs at least one unit of work a step: when that alone is past the budget, do not
  // start (this also keeps the Maps below V8's 2^24 entries)
  try {
    exactBudget().spend(1n, near.length * Math.max(1, k));
  } catch (err) {
    if (err instanceof BudgetExceeded) return null;
    throw err;
  }
  const D = BigInt(weights.denominator);
  try {
    let prev = new Map<number, bigint>();
    for (const v of near) prev.set(v, graph.flags[v] & NodeFlag.WON ? 1n : 0n);
    let scale = 1n;
    for (let j = 1; j <= k; j++) {
      scale *= D;
      const next = new Map<number, bigint>();
      for (const u of near) {
        const f = graph.flags[u];
        if (f & NodeFlag.WON) next.set(u, scale);
        else if ((f & NodeFlag.EXPANDED) === 0) next.set(u, 0n);
        else {
          let sum = BigInt(weights.stay[u]) * prev.get(u)!;
          for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
            const w = weights.weight[e];
            if (w > 0) sum += BigInt(w) * (prev.get(graph.edgeTarget[e]) ?? 0n);
          }
          budget.spend(sum, graph.edgeStart[u + 1] - graph.edgeStart[u] + 1);
          next.set(u, sum);
        }
      }
      prev = next;
      yield;
      if (stop?.requested) return null;
    }
    return fraction(prev.get(0)!, scale, budget);
  } catch (err) {
    if (err instanceof BudgetExceeded) return null;
    throw err;
  }
}

/**
 * One bound in floats: `frontierValue` for unexplored nodes, `direction` -1 to round down, +1 up.
 * Nodes beyond k moves never influence the root within k actions and read as 0. Stopped early, the
 * value after the steps done.
 */
function* floatWithin(
  graph: StateGraph,
  weights: TransitionWeights,
  near: Int32Array,
  k: number,
  frontierValue: 0 | 1,
  direction: -1 | 1,
  stop?: AnalysisStop,
): Steps<number> {
  const n = graph.nodeCount;
  const fixed = (f: number): number => (f & NodeFlag.WON ? 1 : f & NodeFlag.LOST ? 0 : isFrontier(f) ? frontierValue : -1);
  let prev = new Float64Array(n);
  let next = new Float64Array(n);
  for (const v of near) prev[v] = Math.max(0, fixed(graph.flags[v]));
  for (let j = 1; j <= k; j++) {
    floatStep(graph, weights, near, fixed, prev, next, direction);
    // a step that changed nothing changes nothing again (each step is a function of the last): the
    // rest of the k steps are this one (a graph without cycles gets there at its depth)
    const still = unchanged(near, prev, next);
    [prev, next] = [next, prev];
    if (still) break;
    yield;
    if (stop?.requested) break;
  }
  return prev[0];
}

function unchanged(near: Int32Array, a: Float64Array, b: Float64Array): boolean {
  for (const u of near) if (a[u] !== b[u]) return false;
  return true;
}

/** One step of floatWithin, out of the generator: V8 optimises a plain function's loop better. */
function floatStep(graph: StateGraph, weights: TransitionWeights, near: Int32Array, fixed: (f: number) => number, prev: Float64Array, next: Float64Array, direction: -1 | 1): void {
  const D = weights.denominator;
  for (const u of near) {
    const f = fixed(graph.flags[u]);
    if (f >= 0) {
      next[u] = f;
      continue;
    }
    let sum = weights.stay[u] * prev[u];
    let terms = 1;
    for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
      const w = weights.weight[e];
      if (w === 0) continue;
      sum += w * prev[graph.edgeTarget[e]];
      terms++;
    }
    const widened = (sum / D) * (1 + direction * (terms + 2) * EPSILON) + direction * (terms + 2) * Number.MIN_VALUE;
    next[u] = Math.min(1, Math.max(0, widened));
  }
}
