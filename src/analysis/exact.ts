/** The exact win probability: cycle classes solved successors first, each by sparse fraction-free elimination. */
import { eliminateClassSteps, type ClassSystem } from './elimination.js';
import { BudgetExceeded, ExactBudget, FractionSum, ONE, ZERO, fraction, gcd, type Fraction } from './rational.js';
import { gb, type MemoryCheck } from './memory.js';
import { LOSS, WIN, type ReachProblem } from './win-problem.js';
import { INTERRUPTED, runSteps, type AnalysisStop, type Steps } from './steps.js';

/**
 * The budget of the within-K solve (horizon.ts): about a second of BigInt work. The win
 * probability has its own, larger one (`solverBudget`).
 */
export const exactBudget = (): ExactBudget => new ExactBudget(20_000_000, 4096);

/**
 * The exact solver's default budget, deterministic (the same graph always gets the same method):
 * 1.5e9 limb operations (about 10-15 s of BigInt work on the 2-core development machine), numbers
 * up to 2^16 bits (19,728 digits), and at most 10^7 numbers held by one elimination. The
 * 250,001-cell gambler's-ruin corridor takes 0.2% of the work.
 */
export const solverBudget = (): ExactBudget => new ExactBudget(1_500_000_000, 1 << 16, 10_000_000);

/** Unknown states past this are not solved exactly: their solutions live in a plain array. */
export const MAX_EXACT_STATES = 30_000_000;

export interface ExactResult {
  /** The root's win probability in lowest terms; null when the solver gave up. */
  value: Fraction | null;
  /** Why it gave up (the budget that ran out, and in which class). */
  gaveUp?: string;
  /** The largest cycle class solved (or the one it gave up in). */
  largestClass: number;
  /** Matrix entries the eliminations created beyond the graph's own. */
  fill: number;
}

/**
 * The root's exact win probability, solving classes successors first: a single node from its
 * successors' values, a larger class by sparse fraction-free elimination (elimination.ts) of
 *   (D - stay[u]) x_u - sum_{v in class} w(u,v) x_v = sum_{v outside} w(u,v) p_v,
 * every p_v brought to one common denominator L of the class, so the matrix keeps the small integer
 * weights and only the right-hand side carries the big numbers of earlier classes.
 */
export function exactSolve(problem: ReachProblem, budget: ExactBudget = solverBudget(), memory?: MemoryCheck): ExactResult {
  return runSteps(exactSolveSteps(problem, budget, memory));
}

/** exactSolve, yielding every 1,024 classes and within eliminations; a `stop` request gives up as a spent budget does. */
export function* exactSolveSteps(problem: ReachProblem, budget: ExactBudget = solverBudget(), memory?: MemoryCheck, stop?: AnalysisStop): Steps<ExactResult> {
  const { value, components, weights, graph } = problem;
  const result: ExactResult = { value: null, largestClass: 0, fill: 0 };
  if (value[0] === WIN) return { ...result, value: ONE };
  if (value[0] === LOSS) return { ...result, value: ZERO };
  const { nodes, compStart, compOf } = components;
  if (nodes.length > MAX_EXACT_STATES) return { ...result, gaveUp: `${nodes.length} unknown states are past ${MAX_EXACT_STATES}` };
  const { edgeStart, edgeTarget } = graph;
  const { weight, stay, denominator } = weights;
  if (memory) {
    // The positions and the solutions' slots; the solutions themselves grow as they are found, and the budget watches them.
    const need = 4 * graph.nodeCount + 8 * nodes.length;
    if (!memory(need, 8 * nodes.length)) return { ...result, gaveUp: `its ${nodes.length} unknown states need ${gb(need)} and more, past the memory budget` };
    budget.watch(memory);
  }
  const posOf = new Int32Array(graph.nodeCount).fill(-1);
  for (let i = 0; i < nodes.length; i++) posOf[nodes[i]] = i;
  // one solution a unknown state, in components order (a plain array: bounded by MAX_EXACT_STATES)
  const solved: Fraction[] = new Array<Fraction>(nodes.length);
  const valueOf = (v: number): Fraction => (value[v] === WIN ? ONE : value[v] === LOSS ? ZERO : solved[posOf[v]]);
  let c = 0;
  /** Solves the single-state classes from c on, up to `to` or a larger class (a plain function: V8 optimizes its loop, not a generator's). */
  const singles = (to: number): void => {
    for (; c < to && compStart[c + 1] - compStart[c] === 1; c++) {
      const from = compStart[c];
      const u = nodes[from];
      const sum = new FractionSum(budget);
      for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
        if (weight[e] > 0) sum.add(BigInt(weight[e]), valueOf(edgeTarget[e]));
      }
      solved[from] = fraction(sum.num, sum.den * BigInt(denominator - stay[u]), budget);
    }
  };
  try {
    if (components.count > 0) result.largestClass = 1;
    while (c < components.count) {
      yield;
      if (stop?.requested) throw new BudgetExceeded(INTERRUPTED);
      singles(Math.min(components.count, c + 1024));
      const from = compStart[c];
      const size = compStart[c + 1] - from;
      if (c === components.count || size === 1) continue;
      if (size > result.largestClass) result.largestClass = size;
      const system = classSystem(problem, c, posOf, valueOf, budget);
      const stats = { fill: 0 };
      const y = yield* eliminateClassSteps(system, budget, stats, stop);
      result.fill += stats.fill;
      for (let i = 0; i < size; i++) solved[from + i] = fraction(y[i].num, y[i].den * system.scale, budget);
      c++;
    }
  } catch (err) {
    if (!(err instanceof BudgetExceeded)) throw err;
    const size = compStart[c + 1] - compStart[c];
    return { ...result, gaveUp: `${err.message} (in a cycle class of ${size} states)` };
  }
  return { ...result, value: solved[posOf[0]] };
}

/** The root's exact win probability, or null when the budget runs out (see exactSolve). */
export function solveExact(problem: ReachProblem, budget: ExactBudget = solverBudget()): Fraction | null {
  return exactSolve(problem, budget).value;
}

/**
 * Class c's integer system: local index = position in the class; the right-hand side over the
 * class's common denominator `scale` (the lcm of the values it leaves to), so x = y / scale.
 */
function classSystem(
  problem: ReachProblem,
  c: number,
  posOf: Int32Array,
  valueOf: (v: number) => Fraction,
  budget: ExactBudget,
): ClassSystem & { scale: bigint } {
  const { components, weights, graph } = problem;
  const { edgeStart, edgeTarget } = graph;
  const { weight, stay, denominator } = weights;
  const { nodes, compStart, compOf } = components;
  const from = compStart[c];
  const m = compStart[c + 1] - from;
  let scale = 1n;
  let nnz = m;
  for (let i = 0; i < m; i++) {
    const u = nodes[from + i];
    for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
      if (weight[e] === 0) continue;
      const v = edgeTarget[e];
      if (compOf[v] === c) {
        nnz++;
        continue;
      }
      const { num, den } = valueOf(v);
      if (num === 0n || den === 1n || den === scale) continue;
      budget.spend(scale > den ? scale : den, 2);
      if (scale % den !== 0n) scale = budget.check((scale / gcd(scale, den, budget)) * den);
    }
  }
  if (nnz > budget.maxFill) throw new BudgetExceeded(`the class has ${nnz} entries, past ${budget.maxFill} stored numbers`);
  const start = new Int32Array(m + 1);
  const col = new Int32Array(nnz);
  const val = new Float64Array(nnz);
  const rhs: bigint[] = new Array<bigint>(m);
  let t = 0;
  for (let i = 0; i < m; i++) {
    const u = nodes[from + i];
    start[i] = t;
    col[t] = i;
    val[t++] = denominator - stay[u];
    let b = 0n;
    for (let e = edgeStart[u]; e < edgeStart[u + 1]; e++) {
      const w = weight[e];
      if (w === 0) continue;
      const v = edgeTarget[e];
      if (compOf[v] === c) {
        col[t] = posOf[v] - from;
        val[t++] = -w;
        continue;
      }
      const { num, den } = valueOf(v);
      if (num === 0n) continue;
      b += BigInt(w) * num * (den === scale ? 1n : scale / den);
    }
    rhs[i] = b;
  }
  start[m] = t;
  return { m, start, col, val, rhs, scale };
}
