import { describe, expect, it } from 'vitest';
import { denseWinProbability, randomGraph } from '../../test/support/dense.js';
import { corridor, lattice, race, rectangleWin, walkGraph } from '../../test/fixtures/walks.js';
import type { StateGraph } from '../graph/graph.js';
import { analyze } from './analyze.js';
import { exactSolve } from './exact.js';
import { solveInterval } from './interval.js';
import { transitionWeights } from './policy.js';
import { ExactBudget, approximate, floatFraction, fraction, type Fraction } from './rational.js';
import { reverseEdges } from './reachability.js';
import { LOSS, reachProblem } from './win-problem.js';

const problemOf = (graph: StateGraph) => reachProblem(graph, transitionWeights(graph, 'available'), reverseEdges(graph), LOSS);
const contains = (lower: number, upper: number, f: Fraction): boolean => {
  const lo = floatFraction(lower);
  const hi = floatFraction(upper);
  return lo.num * f.den <= f.num * lo.den && f.num * hi.den <= hi.num * f.den;
};
/** Gambler's ruin with P right moves and Q left ones: (1 - (Q/P)^i) / (1 - (Q/P)^N) = (P^N - Q^i P^(N-i)) / (P^N - Q^N). */
const ruin = (P: bigint, Q: bigint, n: number, i: number): Fraction => fraction(P ** BigInt(n) - Q ** BigInt(i) * P ** BigInt(n - i), P ** BigInt(n) - Q ** BigInt(n));

describe('exact solving of cycle classes', () => {
  it("gives gambler's-ruin corridors of 2,501 and 25,001 cells (one class each) exactly i/N", () => {
    for (const n of [2_500, 25_000]) {
      const graph = walkGraph(corridor(n, (2 * n) / 5));
      const problem = problemOf(graph);
      expect(problem.components.compStart[1] - problem.components.compStart[0]).toBe(n - 1);
      const { pWin } = analyze(graph);
      expect(pWin.method).toBe('exact');
      expect(pWin.exact).toMatchObject({ p: '2', q: '5' });
      expect(pWin.relativeWidth).toBeLessThan(1e-15);
      const other = exactSolve(problemOf(walkGraph(corridor(n, 7))));
      expect(other.value).toEqual(fraction(7n, BigInt(n)));
      // a chain is eliminated from its ends: no fill at all
      expect(other.fill).toBe(0);
    }
  });

  it('gives biased walks their closed form, self-loops included', () => {
    const cases: [number, number, number, number, number][] = [
      [2_500, 1_000, 2, 1, 0],
      [600, 250, 3, 2, 1],
      [301, 300, 1, 2, 3],
    ];
    for (const [n, start, right, left, idle] of cases) {
      const { pWin } = analyze(walkGraph(corridor(n, start, right, left, idle)));
      expect(pWin.method).toBe('exact');
      const truth = ruin(BigInt(right), BigInt(left), n, start);
      expect({ num: BigInt(pWin.exact!.p), den: BigInt(pWin.exact!.q) }).toEqual(truth);
    }
  });

  it('gives the 2-D lattice walk its harmonic measure (closed form, and a dense solve when small)', () => {
    for (const [n, h, x, y] of [
      [4, 3, 1, 1],
      [6, 5, 2, 3],
      [30, 20, 11, 7],
      [24, 24, 5, 19],
    ]) {
      const graph = walkGraph(lattice(n, h, [x, y], true));
      const { pWin } = analyze(graph);
      expect(pWin.method).toBe('exact');
      const value = { num: BigInt(pWin.exact!.p), den: BigInt(pWin.exact!.q) };
      expect(Math.abs(approximate(value) / rectangleWin(n, h, x, y) - 1)).toBeLessThan(1e-12);
      if (graph.nodeCount < 60) expect(value).toEqual(fraction(...(Object.values(denseWinProbability(graph)) as [bigint, bigint])));
    }
  });

  it('gives a race against a timer (acyclic, an answer of hundreds of digits) the value of a dynamic program over time', () => {
    const [P, T] = [300, 420];
    const { pWin } = analyze(walkGraph(race(P, T)));
    expect(pWin.method).toBe('exact');
    // winning move sequences counted layer by layer, over 4^T: N(x, t) = sum of N(next, t + 1)
    let layer: bigint[] = Array.from({ length: P + 1 }, (_, x) => (x === P ? 1n : 0n));
    for (let t = T - 1; t >= 0; t--) {
      const scale = 4n ** BigInt(T - t - 1);
      layer = layer.map((_, x) => (x === P ? 4n * scale : layer[Math.min(P, x + 1)] + layer[Math.max(0, x - 1)] + layer[x] + layer[Math.min(P, x + 2)]));
    }
    const truth = fraction(layer[0], 4n ** BigInt(T));
    expect(truth.den.toString().length).toBeGreaterThan(200);
    expect({ num: BigInt(pWin.exact!.p), den: BigInt(pWin.exact!.q) }).toEqual(truth);
  });

  it('agrees with a dense rational solve and with interval iteration on random graphs', () => {
    let classes = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const graph = randomGraph(seed, 8 + (seed % 45), 2 + (seed % 3));
      const truth = denseWinProbability(graph);
      const { pWin } = analyze(graph);
      expect(pWin.method).toBe('exact');
      expect({ num: BigInt(pWin.exact!.p), den: BigInt(pWin.exact!.q) }).toEqual(truth);
      const problem = problemOf(graph);
      const interval = solveInterval(problem);
      expect(interval.converged).toBe(true);
      expect(contains(interval.lower, interval.upper, truth)).toBe(true);
      expect(interval.upper - interval.lower).toBeLessThanOrEqual(1e-9 * interval.upper);
      for (let c = 0; c < problem.components.count; c++) if (problem.components.compStart[c + 1] - problem.components.compStart[c] > 5) classes++;
    }
    // the random graphs did have cycle classes to eliminate
    expect(classes).toBeGreaterThan(50);
  });

  it('agrees with interval iteration on larger random graphs', () => {
    for (let seed = 1; seed <= 6; seed++) {
      // classes of a few hundred states with long-range edges: hundreds of digits, thousands of fill
      const graph = randomGraph(1000 + seed, 600, 3, 0.02);
      const problem = problemOf(graph);
      const exact = exactSolve(problem);
      expect(exact.value).not.toBeNull();
      const interval = solveInterval(problem);
      expect(contains(interval.lower, interval.upper, exact.value!)).toBe(true);
      expect(interval.upper - interval.lower).toBeLessThanOrEqual(1e-9 * interval.upper);
    }
  });

  it('gives up, and says why, instead of answering wrong when its budget is too small', () => {
    const problem = problemOf(walkGraph(lattice(12, 12, [3, 4], true)));
    const work = exactSolve(problem, new ExactBudget(20_000, 1 << 20));
    expect(work.value).toBeNull();
    expect(work.gaveUp).toMatch(/budget ran out \(in a cycle class of 121 states\)/);
    const bits = exactSolve(problem, new ExactBudget(1e12, 64));
    expect(bits.gaveUp).toMatch(/outgrew 64 bits/);
    const fill = exactSolve(problem, new ExactBudget(1e12, 1 << 20, 600));
    expect(fill.gaveUp).toMatch(/600 stored numbers/);
    expect(exactSolve(problem).value).not.toBeNull();
  });

  it('gives up, and says why, when its arrays would not fit the memory budget or the budget runs out while it works', () => {
    const problem = problemOf(walkGraph(corridor(2_500, 1_250)));
    const asked: [number, number][] = [];
    const refused = exactSolve(problem, undefined, (bytes, heap = 0) => (asked.push([bytes, heap]), false));
    expect(refused.value).toBeNull();
    expect(refused.gaveUp).toMatch(/unknown states need .* GB and more, past the memory budget/);
    // The positions (4 bytes a node) and a slot for each solution (8 in the heap) were asked for.
    expect(asked[0]).toEqual([4 * problem.graph.nodeCount + 8 * problem.components.nodes.length, 8 * problem.components.nodes.length]);
    expect(exactSolve(problem, undefined, () => true).value).toEqual(fraction(1_250n, 2_500n));
    // Room for the arrays, none at the first check while it works (a 20 x 20 lattice takes millions of limb operations): it stops there.
    const lattice20 = problemOf(walkGraph(lattice(20, 20, [7, 12], true)));
    let checks = 0;
    const later = exactSolve(lattice20, undefined, () => ++checks < 2);
    expect(later.value).toBeNull();
    expect(later.gaveUp).toMatch(/the memory budget ran out \(in a cycle class of \d+ states\)/);
    expect(checks).toBe(2);
  });
});
