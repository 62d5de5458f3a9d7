/**
 * The Python bridge benchmark: transitions a second of `arcgraph explore` on real ARC games at 1, 2
 * and all workers, against a single-process Python BFS loop (restore, step, identity, nothing else)
 * measured in the same rounds. Each configuration also reports the CPU seconds its processes used,
 * because the development machine is shared: a wall-clock rate there measures the neighbours too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { exploreGraph } from '../src/explorer/index.js';
import { openPythonGame, type PythonGame } from '../src/python/index.js';
import { perRound, timing, type Timing } from './measure.js';

export interface PythonBench {
  game: string;
  level: number;
  states: number;
  /** The single-process loop, transitions a second (wall clock, and per CPU second of its process). */
  loop: Timing;
  loopPerCpuSecond: Timing;
  workers: { workers: number; transitions: Timing; vsLoop: Timing }[];
}

/** Where the ARC engine and games are, or undefined (the benchmark is then skipped). */
export function arcPaths(): { engine: string; games: string } | undefined {
  const engine = process.env.ARCGRAPH_ARC_ENGINE || join(process.cwd(), '..', 'shared', 'arc');
  const games = process.env.ARCGRAPH_ARC_GAMES || join(engine, 'environment_files');
  return existsSync(join(engine, 'arcengine')) && existsSync(games) ? { engine, games } : undefined;
}

/** Runs the loop and each worker count in turn, a warm-up round then `reps` rounds, on level 1 of `id` up to `states` states. */
export async function benchPython(paths: { engine: string; games: string }, id: string, states: number, workerCounts: number[], reps: number): Promise<PythonBench> {
  const game: PythonGame = openPythonGame(join(paths.games, id), { engine: paths.engine, graphBuilder: true });
  const loop: number[] = [];
  const loopCpu: number[] = [];
  const runs = workerCounts.map(() => [] as number[]);
  try {
    for (let round = 0; round <= reps; round++) {
      const l = game.call({ op: 'bfs', level: 1, maxStates: states, maxSeconds: 600 }, [], states * 10).header as { transitions: number; seconds: number; cpuSeconds: number };
      if (round > 0) {
        loop.push(l.transitions / l.seconds);
        loopCpu.push(l.transitions / l.cpuSeconds);
      }
      for (const [i, k] of workerCounts.entries()) {
        const { result } = await exploreGraph(game, { level: 1, workers: k, maxNodes: states });
        if (round > 0) runs[i].push(result.transitionsPerSecond);
      }
    }
  } finally {
    game.close();
  }
  return {
    game: id,
    level: 1,
    states,
    loop: timing(loop),
    loopPerCpuSecond: timing(loopCpu),
    workers: workerCounts.map((k, i) => ({ workers: k, transitions: timing(runs[i]), vsLoop: perRound(runs[i], loop) })),
  };
}
