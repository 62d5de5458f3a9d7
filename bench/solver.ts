import { analyze } from '../src/analysis/index.js';
import { loadGame } from '../src/suite/index.js';
import { exploreGraph } from '../src/explorer/index.js';
import { DEFAULT_INTERVAL } from '../src/analysis/interval.js';
import { transitionWeights } from '../src/analysis/policy.js';
import { winProbability, type PWin } from '../src/analysis/probability.js';
import { reverseEdges } from '../src/analysis/reachability.js';
import type { StateGraph } from '../src/graph/index.js';
import { corridor, lattice, walkGraph } from '../test/fixtures/walks.js';
import { collectGarbage, median } from './measure.js';

export interface SolverCase {
  game: string;
  level: number;
  /** Stop the exploration here (a partial graph is solved for bounds). */
  maxNodes?: number;
}

export interface SolverBench {
  sizes: { game: string; level: number; states: number; edges: number; method: string; seconds: number; runs: number[] }[];
}

/** Time of the whole analysis (reachability, shortest paths, probability solve) against graph size. */
export async function benchSolver(cases: SolverCase[], workers: number, reps: number): Promise<SolverBench> {
  const sizes: SolverBench['sizes'] = [];
  for (const c of cases) {
    const loaded = await loadGame(c.game);
    const { graph } = await exploreGraph(loaded, { level: c.level, workers, maxNodes: c.maxNodes });
    const runs: number[] = [];
    let method = '';
    for (let i = 0; i <= reps; i++) {
      const t = performance.now();
      method = analyze(graph, { tutorial: c.level <= loaded.game.tutorialLevels }).pWin.method;
      if (i > 0) runs.push((performance.now() - t) / 1000);
    }
    sizes.push({ game: c.game, level: c.level, states: graph.nodeCount, edges: graph.edgeCount, method, seconds: median(runs), runs });
  }
  return { sizes };
}

export interface ClassBench {
  sizes: { family: string; classSize: number; method: string; relativeWidth: number; converged: boolean; seconds: number; runs: number[]; exactGaveUp?: string }[];
}

/**
 * Solve time against the size of one cycle class (the whole probability solve, from the graph):
 * exact on gambler's-ruin corridors (a chain: no fill, small numbers), interval iteration on lattice
 * strips 6 cells wide (a fast-mixing class whose exact numbers grow with its length), and the exact
 * solve tried on the strips too while it can finish. Rounds run every case once, in turn.
 */
export function benchClasses(classSizes: number[], rounds: number, exactStripUpTo: number): ClassBench {
  const cases: { family: string; classSize: number; graph: () => StateGraph; exact: boolean }[] = [];
  for (const size of classSizes) {
    cases.push({ family: 'corridor', classSize: size, graph: () => walkGraph(corridor(size + 1, Math.floor((2 * (size + 1)) / 5))), exact: true });
    const length = Math.round(size / 5);
    cases.push({ family: 'strip 6 wide', classSize: 5 * length, graph: () => walkGraph(lattice(6, length - 1, [2, length >> 1], false)), exact: false });
    if (size <= exactStripUpTo) cases.push({ family: 'strip 6 wide', classSize: 5 * length, graph: () => walkGraph(lattice(6, length - 1, [2, length >> 1], false)), exact: true });
  }
  const runs = cases.map(() => [] as number[]);
  const last: (PWin | null)[] = cases.map(() => null);
  for (let round = 0; round < rounds; round++) {
    for (const [i, c] of cases.entries()) {
      const graph = c.graph();
      const weights = transitionWeights(graph, 'available');
      const rev = reverseEdges(graph);
      collectGarbage();
      const t = performance.now();
      last[i] = winProbability(graph, weights, rev, 0, { exact: c.exact, interval: DEFAULT_INTERVAL });
      runs[i].push((performance.now() - t) / 1000);
    }
  }
  return {
    sizes: cases.map((c, i) => {
      const p = last[i]!;
      return {
        family: c.family,
        classSize: c.classSize,
        method: p.method,
        relativeWidth: p.relativeWidth,
        converged: p.converged,
        seconds: median(runs[i]),
        runs: runs[i],
        ...(p.exactGaveUp && c.exact ? { exactGaveUp: p.exactGaveUp } : {}),
      };
    }),
  };
}
