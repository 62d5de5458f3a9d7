import { describe, expect, it } from 'vitest';
import { corridor, lattice, rectangleWin, walkGraph } from '../../test/fixtures/walks.js';
import { analyze } from './analyze.js';
import { DEFAULT_INTERVAL, solveInterval } from './interval.js';
import { transitionWeights } from './policy.js';
import { reverseEdges } from './reachability.js';
import { LOSS, reachProblem } from './win-problem.js';
import type { StateGraph } from '../graph/graph.js';

const problemOf = (graph: StateGraph) => reachProblem(graph, transitionWeights(graph, 'available'), reverseEdges(graph), LOSS);

describe('interval iteration', () => {
  it('brackets a class too big for exact solving to 1e-9 relative (a 6 x 40,001 lattice strip, value x/6)', () => {
    const graph = walkGraph(lattice(6, 40_000, [2, 20_000], false));
    const { pWin, verdict } = analyze(graph);
    expect(pWin.method).toBe('interval');
    expect(pWin.exactGaveUp).toMatch(/in a cycle class of 200005 states/);
    expect(pWin.converged).toBe(true);
    expect(pWin.lower).toBeLessThanOrEqual(1 / 3);
    expect(pWin.upper).toBeGreaterThanOrEqual(1 / 3);
    expect(pWin.relativeWidth).toBeLessThan(1e-9);
    expect(verdict).toBe('fail');
  });

  it('is off 0 and 1 after a single sweep, wherever a double can tell (breadth-first sweep orders)', () => {
    for (const [graph, value] of [
      [walkGraph(corridor(60, 25)), 25 / 60],
      [walkGraph(lattice(20, 20, [7, 12], true)), rectangleWin(20, 20, 7, 12)],
    ] as const) {
      const r = solveInterval(problemOf(graph), { ...DEFAULT_INTERVAL, maxWork: 1 });
      expect(r.converged).toBe(false);
      expect(r.sweeps).toBe(1);
      expect(r.lower).toBeGreaterThan(0);
      expect(r.upper).toBeLessThan(1);
      expect(r.lower).toBeLessThanOrEqual(value);
      expect(r.upper).toBeGreaterThanOrEqual(value);
    }
  });

  it("is not [0, 1] on the 2,501-cell corridor when it has to do without the exact solve", () => {
    const { pWin, verdict, hint } = analyze(walkGraph(corridor(2_500, 1_000)), { exact: false, interval: { ...DEFAULT_INTERVAL, maxWork: 600_000_000 } });
    expect(pWin.method).toBe('interval');
    expect(pWin.exactGaveUp).toBe('not tried');
    expect(pWin.converged).toBe(false);
    expect(pWin.lower).toBeGreaterThan(1e-9);
    expect(pWin.lower).toBeLessThanOrEqual(0.4);
    expect(pWin.upper).toBeGreaterThanOrEqual(0.4);
    expect(pWin.upper).toBeLessThan(1);
    expect(verdict).toBe('inconclusive');
    expect(hint).toMatch(/work budget/);
  });

  it('converges on slow classes with enough work, and its guesses close the gap early', () => {
    const graph = walkGraph(lattice(30, 30, [11, 19], true));
    const value = rectangleWin(30, 30, 11, 19);
    const r = solveInterval(problemOf(graph));
    expect(r.converged).toBe(true);
    expect(r.lower).toBeLessThanOrEqual(value * (1 + 1e-13));
    expect(r.upper).toBeGreaterThanOrEqual(value * (1 - 1e-13));
    expect((r.upper - r.lower) / r.upper).toBeLessThan(1e-9);
  });

  it('does not iterate, and says why, when its arrays would not fit the memory budget; it asks for no less than it takes', () => {
    const graph = walkGraph(lattice(6, 40_000, [2, 20_000], false));
    const problem = problemOf(graph);
    const refused = solveInterval(problem, DEFAULT_INTERVAL, () => false);
    expect(refused).toMatchObject({ lower: 0, upper: 1, converged: false, sweeps: 0 });
    expect(refused.gaveUp).toMatch(/interval iteration needs .* GB \(its largest cycle class has 200005 states\), past the memory budget/);
    let asked = 0;
    const before = process.memoryUsage().arrayBuffers;
    const r = solveInterval(problem, DEFAULT_INTERVAL, (bytes) => ((asked = bytes), true));
    // Its arrays are still referenced or not yet collected; a collection in between only lowers the growth.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThanOrEqual(asked);
    expect(asked).toBeGreaterThan(20 * graph.nodeCount + 105 * 200_005);
    expect(r).toMatchObject(solveInterval(problem));
    // analyze says so in the probability it reports, and gives up the exact solve the same way.
    const { pWin, verdict } = analyze(graph, { memory: () => false });
    expect(pWin).toMatchObject({ method: 'interval', lower: 0, upper: 1, converged: false });
    expect(pWin.exactGaveUp).toMatch(/past the memory budget/);
    expect(pWin.intervalGaveUp).toMatch(/past the memory budget/);
    expect(verdict).toBe('inconclusive');
  });
});
