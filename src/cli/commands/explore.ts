import { InputError, loadGame } from '../../engine/loader.js';
import { exploreGraph, type ExploreResult } from '../../explorer/explore.js';
import { exportGraph, fitsGraphology } from '../../explorer/graphology.js';
import type { Command } from '../main.js';
import { numberOption, onePositional, parse } from '../args.js';
import { progressLine } from '../progress.js';

const USAGE = `Usage: arcgraph explore <game> --level N [options]

Builds the state graph of one level breadth-first over a worker pool and prints its measures.
<game> is a suite game id or a path to a JavaScript module whose default export is a game.

Options:
  --level N          level to explore (default 1)
  --workers K        worker threads (default: all cores)
  --max-nodes N      stop before the graph would exceed N states
  --max-edges N      stop before it would exceed N distinct edges
  --max-steps N      stop before N game steps (successor computations) are exceeded
  --max-seconds S    stop after about S seconds
  --export FILE      write the graph: FILE.gexf (Gephi) or FILE.json (Graphology)
  --json             print one JSON object
Ctrl-C stops cleanly and prints the partial result.`;

function describe(r: ExploreResult): string {
  const lines = [
    `${r.game} level ${r.level}: ${r.nodes} states, ${r.edges} edges, ${r.transitions} transitions (merge density ${r.mergeDensity.toFixed(3)})`,
    r.fullyExplored ? 'fully explored' : `not fully explored: stopped by ${r.stopReason}, ${r.frontier} states on the frontier`,
    `depth: max ${r.maxDepth}; states per depth ${r.depthHistogram.join(' ')}`,
    `cycles: ${r.cycles.nonTrivial} strongly connected components of 2+ states (largest ${r.cycles.largest}), ${r.cycles.selfLoops} self-loops`,
    `terminals: ${r.terminals.won} won (${r.terminals.complete} completing the game), ${r.terminals.lost} game over`,
    `fingerprint collision probability: ${r.collisionProbability.toExponential(2)}`,
    `speed: ${Math.round(r.transitionsPerSecond)} transitions/s on ${r.workers} worker(s) in ${r.seconds.toFixed(2)} s; store ${Math.round(r.bytesPerState)} bytes/state`,
  ];
  return lines.join('\n');
}

const command: Command = {
  summary: 'build the state graph of a level and measure it',
  async run(argv) {
    const p = parse(argv, {
      level: { type: 'string' },
      workers: { type: 'string' },
      'max-nodes': { type: 'string' },
      'max-edges': { type: 'string' },
      'max-steps': { type: 'string' },
      'max-seconds': { type: 'string' },
      export: { type: 'string' },
      json: { type: 'boolean' },
    }, 'explore');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    const loaded = await loadGame(onePositional(p, 'game', 'explore'));
    const v = p.values;
    const file = v.export as string | undefined;
    if (file !== undefined && !/\.(gexf|json)$/.test(file)) throw new InputError(`--export ${file}: the file must end in .gexf (Gephi) or .json (Graphology)`);
    const json = v.json === true;
    const abort = new AbortController();
    const onSigint = (): void => {
      if (abort.signal.aborted) process.exit(130);
      abort.abort();
    };
    process.on('SIGINT', onSigint);
    const bar = progressLine(!json);
    try {
      const { result, graph } = await exploreGraph(loaded, {
        level: numberOption(v, 'level', { min: 1 }) ?? 1,
        workers: numberOption(v, 'workers', { min: 1, max: 256 }),
        maxNodes: numberOption(v, 'max-nodes', { min: 1 }),
        maxEdges: numberOption(v, 'max-edges', { min: 0 }),
        maxSteps: numberOption(v, 'max-steps', { min: 0 }),
        maxSeconds: numberOption(v, 'max-seconds', { min: 0, real: true }),
        signal: abort.signal,
        onProgress: bar.update,
      });
      bar.done();
      if (file !== undefined) {
        if (fitsGraphology(graph)) await exportGraph(graph, file);
        else console.error(`arcgraph explore: not exporting ${file}: ${graph.nodeCount} states is above Graphology's practical limits; the measures below come from the compact graph`);
      }
      console.log(json ? JSON.stringify(result) : describe(result));
      return 0;
    } finally {
      bar.done();
      process.off('SIGINT', onSigint);
    }
  },
};

export default command;
