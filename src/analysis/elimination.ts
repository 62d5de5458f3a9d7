/**
 * Sparse fraction-free Gaussian elimination of one cycle class over the integers, pivots chosen by
 * least Markowitz cost (fill-reducing), rows kept reduced by their gcd.
 *
 * Memory: every per-node and per-entry structure is a typed array, except the BigInt values (the
 * matrix entries, one right-hand side and one solution per row), which live in plain arrays no
 * longer than the budget's `maxFill` (10^7 by default, far below V8's 1.2e8-element limit on an
 * array): the elimination gives up (BudgetExceeded) before it would hold more.
 */
import { BudgetExceeded, FractionSum, fraction, gcd, limbs, type ExactBudget, type Fraction } from './rational.js';
import { ColumnLists, PivotHeap, RowPool, sortRow } from './sparse-rows.js';
import { INTERRUPTED, runSteps, type AnalysisStop, type Steps } from './steps.js';

/**
 * A square system A y = b over the integers, one row per node of a class (local indices 0..m-1):
 * row i is col/val[start[i] .. start[i+1]-1] (any order, distinct columns, the diagonal included).
 * A must be a non-singular M-matrix (positive diagonal, non-positive elsewhere, irreducibly
 * diagonally dominant): then every Schur complement is one too, so diagonal pivots in any order
 * stay positive and no row exchange is needed.
 */
export interface ClassSystem {
  readonly m: number;
  readonly start: Int32Array;
  readonly col: Int32Array;
  readonly val: Float64Array;
  readonly rhs: bigint[];
}

const TWO_64 = 1n << 64n;

/**
 * Gives up early when the recent work per pivot (over the last eighth of the pivots, at least 1,024),
 * times the pivots left, is past twice the budget left. Numbers grow as an elimination goes on, so
 * that projection is low: a class that would fit is not turned away, and one that would not (a long
 * strip, a large lattice) is turned away well before the budget is spent. Deterministic: it reads
 * only the work counts.
 */
function giveUpEarly(budget: ExactBudget, checkpoints: Float64Array, step: number, m: number): void {
  const from = Math.max(0, (step - Math.max(1024, step >> 3)) >> 8);
  const perPivot = (checkpoints[from] - budget.left) / (step - (from << 8));
  if (perPivot * (m - step) > 2 * budget.left) {
    throw new BudgetExceeded(`the exact arithmetic budget would run out (projected after ${step} of ${m} pivots)`);
  }
}

/** What an elimination did, for the bench and the tests: entries created beyond A's own. */
export interface EliminationStats {
  fill: number;
}

/**
 * Solves A y = b exactly. Each step takes the active node of least Markowitz cost
 * (row entries - 1) * (column entries - 1) as the pivot (minimum degree on the current pattern:
 * a chain is eliminated from its ends with no fill at all), replaces every row i with an entry in
 * the pivot column by (p * row_i - a_ik * row_k) / gcd, and back-substitutes in reduced fractions.
 */
export function eliminateClass(system: ClassSystem, budget: ExactBudget, stats?: EliminationStats): Fraction[] {
  return runSteps(eliminateClassSteps(system, budget, stats));
}

/** Pivots between checkpoints: the loops run in plain functions (which V8 optimizes mid-loop; generator bodies it does not). */
const PIVOTS_A_STEP = 64;
const SOLUTIONS_A_STEP = 1024;

/** eliminateClass, yielding every 64 pivots and 1,024 back substitutions; a `stop` request ends it as a spent budget. */
export function* eliminateClassSteps(system: ClassSystem, budget: ExactBudget, stats?: EliminationStats, stop?: AnalysisStop): Steps<Fraction[]> {
  const { m } = system;
  const work = elimination(system, budget);
  for (let step = 0; step < m; step += PIVOTS_A_STEP) {
    yield;
    if (stop?.requested) throw new BudgetExceeded(INTERRUPTED);
    work.pivots(step, Math.min(m, step + PIVOTS_A_STEP));
  }
  if (stats) stats.fill = work.fill();
  for (let step = m - 1; step >= 0; step -= SOLUTIONS_A_STEP) {
    yield;
    if (stop?.requested) throw new BudgetExceeded(INTERRUPTED);
    work.solutions(step, Math.max(-1, step - SOLUTIONS_A_STEP));
  }
  return work.y;
}

/** The elimination's state, and its two loops over a range of steps each. */
function elimination(system: ClassSystem, budget: ExactBudget): { pivots(from: number, to: number): void; solutions(from: number, downTo: number): void; fill(): number; y: Fraction[] } {
  const { m, start, col: inCol, val: inVal } = system;
  const rhs = system.rhs.slice();
  const nnz = start[m];
  if (nnz > budget.maxFill) throw new BudgetExceeded(`a class of ${nnz} entries is past ${budget.maxFill} stored numbers`);
  const rows = new RowPool(m, Math.min(2 * budget.maxFill, Math.max(1024, 2 * nnz)), budget.maxFill);
  const cols = new ColumnLists(m, Math.max(1024, 2 * nnz + 4 * m));
  const colCount = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const s = start[i];
    const l = start[i + 1] - s;
    rows.start[i] = s;
    rows.len[i] = l;
    for (let t = 0; t < l; t++) {
      rows.col[s + t] = inCol[t + s];
      rows.val[s + t] = BigInt(inVal[t + s]);
      colCount[inCol[t + s]]++;
    }
    sortRow(rows, s, l);
  }
  rows.top = rows.live = nnz;
  for (let j = 0; j < m; j++) cols.cap[j] = colCount[j] + 2;
  for (let j = 1; j < m; j++) cols.start[j] = cols.start[j - 1] + cols.cap[j - 1];
  cols.top = m > 0 ? cols.start[m - 1] + cols.cap[m - 1] : 0;
  if (cols.top > cols.row.length) cols.row = new Int32Array(2 * cols.top);
  for (let i = 0; i < m; i++) for (let e = start[i]; e < start[i + 1]; e++) cols.add(inCol[e], i);

  const done = new Uint8Array(m);
  const seen = new Int32Array(m).fill(-1);
  const order = new Int32Array(m);
  const heap = new PivotHeap();
  const cost = (v: number): number => (rows.len[v] - 1) * (colCount[v] - 1);
  for (let v = 0; v < m; v++) heap.push(cost(v), v);

  let pivotCol = new Int32Array(64);
  let pivotVal: bigint[] = [];
  let touched = new Int32Array(64);
  let fill = 0;

  /** The entry of row i in column k (rows are sorted), or 0n. */
  const entry = (i: number, k: number): bigint => {
    let lo = rows.start[i];
    let hi = lo + rows.len[i] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = rows.col[mid];
      if (c === k) return rows.val[mid];
      if (c < k) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0n;
  };

  // the budget left every 256 pivots, for the projection of giveUpEarly
  const checkpoints = new Float64Array((m >> 8) + 1);
  const pivots = (from: number, to: number): void => {
    for (let step = from; step < to; step++) {
      if ((step & 255) === 0) {
        checkpoints[step >> 8] = budget.left;
        if (step >= 1024) giveUpEarly(budget, checkpoints, step, m);
      }
      let k: number;
      for (;;) {
        heap.pop();
        k = heap.topNode;
        if (!done[k] && heap.topCost === cost(k)) break;
      }
      // copy the pivot row and column list out: updates may move the pools
      const kl = rows.len[k];
      if (pivotCol.length < kl) pivotCol = new Int32Array(2 * kl);
      const ks = rows.start[k];
      pivotCol.set(rows.col.subarray(ks, ks + kl));
      for (let t = 0; t < kl; t++) pivotVal[t] = rows.val[ks + t];
      const p = entry(k, k);
      if (p <= 0n) throw new BudgetExceeded('elimination met a non-positive pivot (not an M-matrix)');
      const cl = cols.len[k];
      if (touched.length < cl) touched = new Int32Array(2 * cl);
      touched.set(cols.row.subarray(cols.start[k], cols.start[k] + cl));
      const rk = rhs[k];

      for (let t = 0; t < cl; t++) {
        const i = touched[t];
        if (i === k || done[i] || seen[i] === step) continue;
        seen[i] = step;
        const f = entry(i, k);
        if (f === 0n) continue;
        // row_i := (p / g) row_i - (f / g) row_k, g = gcd(p, f): the smallest integer combination
        const g0 = gcd(p, f, budget);
        const mp = p / g0;
        const mf = f / g0;
        const lm = Math.max(limbs(mp), limbs(mf));
        const il = rows.len[i];
        rows.reserve(il + kl);
        const is = rows.start[i];
        const out = rows.top;
        const { col: rc, val: rv } = rows;
        let w = out;
        let a = is;
        let b = 0;
        let units = 0;
        const aEnd = is + il;
        while (a < aEnd || b < kl) {
          const ca = a < aEnd ? rc[a] : 0x7fffffff;
          const cb = b < kl ? pivotCol[b] : 0x7fffffff;
          let v: bigint;
          let j: number;
          if (ca < cb) {
            j = ca;
            v = mp === 1n ? rv[a] : mp * rv[a];
            a++;
          } else if (cb < ca) {
            j = cb;
            b++;
            if (j === k) continue;
            v = -(mf * pivotVal[b - 1]);
            colCount[j]++;
            cols.add(j, i);
            fill++;
          } else {
            j = ca;
            const va = rv[a++];
            const vb = pivotVal[b++];
            if (j === k) continue;
            v = (mp === 1n ? va : mp * va) - mf * vb;
            if (v === 0n) {
              colCount[j]--;
              continue;
            }
          }
          rc[w] = j;
          rv[w++] = v;
          units += v < TWO_64 && v > -TWO_64 ? lm : lm * limbs(v);
        }
        let r = mp === 1n ? rhs[i] : mp * rhs[i];
        if (rk !== 0n) r -= mf * rk;
        budget.charge(units + lm);
        // divide the row by the gcd of its entries and right-hand side: numbers stay near minor size
        let g = 0n;
        for (let e = out; e < w && g !== 1n; e++) g = gcd(g, rv[e], budget);
        if (g !== 1n && r !== 0n) g = gcd(g, r, budget);
        if (g > 1n) {
          for (let e = out; e < w; e++) rv[e] /= g;
          r /= g;
        }
        for (let e = out; e < w; e++) budget.check(rv[e]);
        rhs[i] = budget.check(r);
        rows.live += w - out - il;
        rows.start[i] = out;
        rows.len[i] = w - out;
        rows.top = w;
        heap.push(cost(i), i);
      }
      done[k] = 1;
      order[step] = k;
      for (let t = 0; t < kl; t++) {
        const j = pivotCol[t];
        if (j === k || done[j]) continue;
        colCount[j]--;
        heap.push(cost(j), j);
      }
    }
  };

  // back substitution, last pivot first: every other entry of a pivot row is a later pivot
  const y: Fraction[] = new Array<Fraction>(m);
  const solutions = (from: number, downTo: number): void => {
    for (let step = from; step > downTo; step--) {
      const k = order[step];
      const sum = new FractionSum(budget);
      sum.num = rhs[k];
      let diagonal = 0n;
      for (let e = rows.start[k]; e < rows.start[k] + rows.len[k]; e++) {
        const j = rows.col[e];
        if (j === k) diagonal = rows.val[e];
        else sum.add(-rows.val[e], y[j]);
      }
      y[k] = fraction(sum.num, sum.den * diagonal, budget);
    }
  };
  return { pivots, solutions, fill: () => fill, y };
}
