import graphology from 'graphology';
import { playerMoves, type Game } from '../src/engine/index.js';
import type { LoadedGame } from '../src/suite/index.js';
import { COORDINATOR_CLAIMS, exploreGraph } from '../src/explorer/index.js';
import { rawLoopThreads } from './ceiling.js';
import { collectGarbage, perRound, timing, type Timing } from './measure.js';
import { bfsStates } from './raw.js';

/** The naive explorer: a Graphology graph kept live, string identities, one insertion per transition. */
export function naiveExplorer(game: Game, level: number, maxNodes: number): number {
  const graph = new graphology.DirectedGraph();
  const key = (s: unknown): string => Buffer.from(game.encode(s)).toString('base64');
  const root = game.init(level);
  const queue: unknown[] = [root];
  graph.addNode(key(root));
  let transitions = 0;
  const t = performance.now();
  for (let i = 0; i < queue.length && graph.order < maxNodes; i++) {
    const s = queue[i];
    if (game.status(s) !== 'playing') continue;
    const from = key(s);
    for (const a of playerMoves(game, s)) {
      const next = game.step(s, a);
      const to = key(next);
      if (!graph.hasNode(to)) {
        graph.addNode(to);
        queue.push(next);
      }
      graph.mergeEdge(from, to);
      transitions++;
    }
  }
  return transitions / ((performance.now() - t) / 1000);
}

export interface ExplorerBench {
  game: string;
  level: number;
  maxNodes: number;
  raw: Timing;
  naive: Timing;
  naiveMaxNodes: number;
  /** Transitions per second by worker count (the default claim mode, see COORDINATOR_CLAIMS). */
  workers: { workers: number; transitions: Timing; states: Timing; bytesPerState: number }[];
  /** At 2 workers, the claim mode the default does not pick there, and its per-round ratio to the default. */
  otherClaim: { workers: number; claimIn: 'workers' | 'coordinator'; transitions: Timing; vsDefault: Timing } | null;
  /**
   * Ratios taken within each round (rounds run every configuration back to back, so the shared
   * machine's slow drift cancels), with their medians: 1 worker to the raw loop and to the naive
   * explorer, and each worker count to 1 worker.
   */
  paired: { oneVsRaw: Timing; oneVsNaive: Timing; vsOneWorker: { workers: number; ratio: Timing }[] };
  /**
   * The machine's parallel ceiling (bench/ceiling.ts): the raw loop in k threads at once, and its
   * per-round ratio to 1 thread (whose figure is `raw`).
   */
  ceiling: { threads: number; transitions: Timing; vsOneThread: Timing }[];
}

/**
 * Runs the raw loop in 1..k threads, the naive explorer and the explorer at each worker count in
 * turn, for a warm-up round and then `reps` rounds. `workerCounts` starts with 1. The raw loop
 * runs in threads of its own, as the explorer's workers do: on this thread, after the naive
 * explorer (or anything else) has stepped states built by a game's init, a game's code can run
 * much slower (bx19: 1.9x, its init and decode give states different shapes).
 */
export async function benchExplorer(loaded: LoadedGame, level: number, maxNodes: number, naiveMaxNodes: number, workerCounts: number[], reps: number): Promise<ExplorerBench> {
  const { game } = loaded;
  const states = bfsStates(game, level, maxNodes);
  const naive: number[] = [];
  const runs = workerCounts.map(() => ({ transitions: [] as number[], states: [] as number[], bytesPerState: 0 }));
  const ceiling = workerCounts.map(() => [] as number[]);
  const two = workerCounts.indexOf(2);
  const otherMode = two >= 0 ? (2 <= COORDINATOR_CLAIMS ? 'workers' : 'coordinator') : null;
  const other: number[] = [];
  for (let round = 0; round <= reps; round++) {
    const keep = round > 0;
    for (const [i, k] of workerCounts.entries()) {
      const c = await rawLoopThreads(loaded.module, states, k);
      if (keep) ceiling[i].push(c);
    }
    collectGarbage();
    const n = naiveExplorer(game, level, naiveMaxNodes);
    if (keep) naive.push(n);
    for (const [i, k] of workerCounts.entries()) {
      collectGarbage();
      const { result } = await exploreGraph(loaded, { level, workers: k, maxNodes });
      runs[i].bytesPerState = result.bytesPerState;
      if (!keep) continue;
      runs[i].transitions.push(result.transitionsPerSecond);
      runs[i].states.push(result.nodes / result.seconds);
    }
    if (otherMode) {
      collectGarbage();
      const { result } = await exploreGraph(loaded, { level, workers: 2, maxNodes, claimIn: otherMode });
      if (keep) other.push(result.transitionsPerSecond);
    }
  }
  const one = runs[0].transitions;
  const raw = ceiling[0];
  return {
    game: game.id,
    level,
    maxNodes,
    raw: timing(raw),
    naive: timing(naive),
    naiveMaxNodes,
    workers: workerCounts.map((k, i) => ({ workers: k, transitions: timing(runs[i].transitions), states: timing(runs[i].states), bytesPerState: runs[i].bytesPerState })),
    paired: {
      oneVsRaw: perRound(one, raw),
      oneVsNaive: perRound(one, naive),
      vsOneWorker: workerCounts.map((k, i) => ({ workers: k, ratio: perRound(runs[i].transitions, one) })),
    },
    ceiling: workerCounts.map((k, i) => ({ threads: k, transitions: timing(ceiling[i]), vsOneThread: perRound(ceiling[i], raw) })),
    otherClaim: otherMode ? { workers: 2, claimIn: otherMode, transitions: timing(other), vsDefault: perRound(other, runs[two].transitions) } : null,
  };
}
