import { analyze } from '../src/analysis/index.js';
import { loadGame } from '../src/suite/index.js';
import { exploreGraph } from '../src/explorer/index.js';
import { median } from './measure.js';

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
