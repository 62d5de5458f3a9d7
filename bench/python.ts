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
  /** The machine's parallel ceiling: the loop in two processes at once, their summed rate, and its ratio to one loop. */
  ceiling: { transitions: Timing; vsLoop: Timing };
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
  const ceiling: number[] = [];
  type Loop = { transitions: number; seconds: number; cpuSeconds: number };
  const bfs = { op: 'bfs', level: 1, maxStates: states, maxSeconds: 600 };
  try {
    for (let round = 0; round <= reps; round++) {
      const l = game.call(bfs, [], states * 10).header as Loop;
      if (round > 0) {
        loop.push(l.transitions / l.seconds);
        loopCpu.push(l.transitions / l.cpuSeconds);
      }
      // Two loops at once, in the two pool processes (both started and loaded first).
      await game.warm(2);
      const started = performance.now();
      const both = await Promise.all([game.run(2, bfs, [], states * 10), game.run(2, bfs, [], states * 10)]);
      const sum = both.reduce((n, m) => n + (m.header as unknown as Loop).transitions, 0);
      if (round > 0) ceiling.push(sum / ((performance.now() - started) / 1000));
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
    ceiling: { transitions: timing(ceiling), vsLoop: perRound(ceiling, loop) },
  };
}
