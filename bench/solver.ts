import { analyze } from '../src/analysis/analyze.js';
import type { LoadedGame } from '../src/engine/loader.js';
import { exploreGraph } from '../src/explorer/explore.js';
import { median } from './measure.js';

export interface SolverBench {
  game: string;
  level: number;
  sizes: { states: number; edges: number; method: string; seconds: number; runs: number[] }[];
}

/** Time of the probability solve (the whole analysis) on graphs of growing size. */
export async function benchSolver(loaded: LoadedGame, level: number, sizes: number[], workers: number, reps: number): Promise<SolverBench> {
  const out: SolverBench['sizes'] = [];
  for (const size of sizes) {
    const { graph } = await exploreGraph(loaded, { level, workers, maxNodes: size });
    const runs: number[] = [];
    let method = '';
    for (let i = 0; i <= reps; i++) {
      const t = performance.now();
      method = analyze(graph, { tutorial: level <= loaded.game.tutorialLevels }).pWin.method;
      if (i > 0) runs.push((performance.now() - t) / 1000);
    }
    out.push({ states: graph.nodeCount, edges: graph.edgeCount, method, seconds: median(runs), runs });
  }
  return { game: loaded.game.id, level, sizes: out };
}
