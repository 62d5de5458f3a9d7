import { BudgetExceeded, ExactBudget, FractionSum, ONE, ZERO, fraction, gcd, type Fraction } from './rational.js';
import { LOSS, WIN, type ReachProblem } from './win-problem.js';

/** Components larger than this are left to interval iteration. */
export const EXACT_COMPONENT_LIMIT = 2000;

/** Default budget: enough for the suite's levels, bounded to about a second of BigInt work. */
export const exactBudget = (): ExactBudget => new ExactBudget(20_000_000, 4096);

/**
 * The root's exact win probability, solving components successors first: a single node from its
 * successors' values, a strongly connected component by fraction-free sparse elimination over the
 * integer weights. Null when a component is too large or the budget runs out.
 */
export function solveExact(problem: ReachProblem, budget: ExactBudget = exactBudget()): Fraction | null {
  const { value, components, weights, graph } = problem;
  if (value[0] === WIN) return ONE;
  if (value[0] === LOSS) return ZERO;
  const solved: Fraction[] = new Array(graph.nodeCount);
  const valueOf = (v: number): Fraction => (value[v] === WIN ? ONE : value[v] === LOSS ? ZERO : solved[v]);
  try {
    for (let c = 0; c < components.count; c++) {
      const from = components.compStart[c];
      const size = components.compStart[c + 1] - from;
      if (size > EXACT_COMPONENT_LIMIT) return null;
      if (size === 1) {
        const u = components.nodes[from];
        const sum = new FractionSum(budget);
        for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
          if (weights.weight[e] > 0) sum.add(BigInt(weights.weight[e]), valueOf(graph.edgeTarget[e]));
        }
        solved[u] = fraction(sum.num, sum.den * BigInt(weights.denominator - weights.stay[u]), budget);
      } else {
        eliminate(problem, c, valueOf, solved, budget);
      }
    }
  } catch (err) {
    if (err instanceof BudgetExceeded) return null;
    throw err;
  }
  return solved[0];
}

/**
 * Solves component c exactly. Row i (node u) reads
 *   (D - stay[u]) x_u - sum_{v in c} w(u,v) x_v = sum_{v outside c} w(u,v) p_v,
 * scaled to integers. Gaussian elimination on these sparse integer rows, each row divided by the
 * gcd of its entries after every update (so numbers stay near determinant size), then back
 * substitution in fractions. The matrix is a non-singular M-matrix (every unknown node can leave
 * the component), so pivots stay positive without row exchanges.
 */
function eliminate(
  problem: ReachProblem,
  c: number,
  valueOf: (v: number) => Fraction,
  solved: Fraction[],
  budget: ExactBudget,
): void {
  const { components, weights, graph } = problem;
  const from = components.compStart[c];
  const m = components.compStart[c + 1] - from;
  const nodes = components.nodes.subarray(from, from + m);
  const local = new Map<number, number>();
  nodes.forEach((u, i) => local.set(u, i));

  const rows: Map<number, bigint>[] = [];
  const rhs: bigint[] = [];
  /** Rows with a non-zero entry in each column (below the diagonal is what elimination needs). */
  const columnRows: Set<number>[] = Array.from({ length: m }, () => new Set<number>());
  for (let i = 0; i < m; i++) {
    const u = nodes[i];
    const outside = new FractionSum(budget);
    const row = new Map<number, bigint>();
    for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
      const w = weights.weight[e];
      if (w === 0) continue;
      const v = graph.edgeTarget[e];
      const j = components.compOf[v] === c ? local.get(v) : undefined;
      if (j === undefined) outside.add(BigInt(w), valueOf(v));
      else row.set(j, -BigInt(w));
    }
    row.set(i, BigInt(weights.denominator - weights.stay[u]));
    for (const [j, a] of row) {
      row.set(j, a * outside.den);
      columnRows[j].add(i);
    }
    rows.push(row);
    rhs.push(outside.num);
  }

  for (let k = 0; k < m; k++) {
    const pivotRow = rows[k];
    const pivot = pivotRow.get(k) ?? 0n;
    if (pivot <= 0n) throw new BudgetExceeded('elimination met a non-positive pivot');
    for (const i of [...columnRows[k]]) {
      if (i <= k) continue;
      const row = rows[i];
      const factor = row.get(k)!;
      for (const [j, a] of row) row.set(j, a * pivot);
      for (const [j, a] of pivotRow) {
        const updated = (row.get(j) ?? 0n) - factor * a;
        if (updated === 0n) {
          row.delete(j);
          columnRows[j].delete(i);
        } else {
          row.set(j, updated);
          columnRows[j].add(i);
        }
      }
      rhs[i] = rhs[i] * pivot - factor * rhs[k];
      budget.spend(pivot, 2 * (row.size + pivotRow.size));
      let g = rhs[i];
      for (const a of row.values()) {
        if (g === 1n || g === -1n) break;
        g = gcd(g, a, budget);
      }
      if (g > 1n || g < -1n) {
        if (g < 0n) g = -g;
        for (const [j, a] of row) row.set(j, a / g);
        rhs[i] /= g;
      }
      for (const a of row.values()) budget.check(a);
      budget.check(rhs[i]);
    }
  }

  for (let k = m - 1; k >= 0; k--) {
    const sum = new FractionSum(budget);
    sum.num = rhs[k];
    for (const [j, a] of rows[k]) if (j > k) sum.add(-a, solved[nodes[j]]);
    solved[nodes[k]] = fraction(sum.num, sum.den * rows[k].get(k)!, budget);
  }
}
