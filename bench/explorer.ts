import graphology from 'graphology';
import { playerMoves, type Game } from '../src/engine/game.js';
import { fingerprintInto } from '../src/engine/identity.js';
import type { LoadedGame } from '../src/engine/loader.js';
import { exploreGraph } from '../src/explorer/explore.js';
import { collectGarbage, median, type Timing } from './measure.js';

/**
 * The first `count` non-terminal states in BFS order (the explorer's frontier), their canonical
 * bytes packed back to back: a million separate arrays would weigh on every garbage collection of
 * the explorer runs measured beside them.
 */
export function bfsStates(game: Game, level: number, count: number): { bytes: Uint8Array; ends: Uint32Array } {
  const seen = new Set<string>();
  const fp = { lo: 0, hi: 0 };
  let queue: unknown[] = [game.init(level)];
  const out: Uint8Array[] = [];
  for (let i = 0; i < queue.length && out.length < count; i++) {
    const s = queue[i];
    if (game.status(s) !== 'playing') continue;
    out.push(game.encode(s));
    for (const a of playerMoves(game, s)) {
      const t = game.step(s, a);
      fingerprintInto(game.encode(t), fp);
      const key = `${fp.lo}:${fp.hi}`;
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(t);
      }
    }
  }
  queue = [];
  const ends = new Uint32Array(out.length);
  let total = 0;
  out.forEach((b, i) => (ends[i] = total += b.length));
  const bytes = new Uint8Array(total);
  out.forEach((b, i) => bytes.set(b, ends[i] - b.length));
  return { bytes, ends };
}

/** The limit: decode, step every move, encode, hash and classify, single-threaded, nothing stored. */
export function rawStepLoop(game: Game, states: { bytes: Uint8Array; ends: Uint32Array }): number {
  const fp = { lo: 0, hi: 0 };
  const t = performance.now();
  let steps = 0;
  for (let i = 0, start = 0; i < states.ends.length; start = states.ends[i++]) {
    const s = game.decode(states.bytes.subarray(start, states.ends[i]));
    for (const a of playerMoves(game, s)) {
      const next = game.step(s, a);
      fingerprintInto(game.encode(next), fp);
      game.status(next);
      steps++;
    }
  }
  return steps / ((performance.now() - t) / 1000);
}

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
  /** Transitions per second by worker count. */
  workers: { workers: number; transitions: Timing; states: Timing; bytesPerState: number }[];
  /**
   * Ratios taken within each round (rounds run every configuration back to back, so the shared
   * machine's slow drift cancels), with their medians: 1 worker to the raw loop and to the naive
   * explorer, and each worker count to 1 worker.
   */
  paired: { oneVsRaw: Timing; oneVsNaive: Timing; vsOneWorker: { workers: number; ratio: Timing }[] };
}

/**
 * Runs the raw loop, the naive explorer and the explorer at each worker count in turn, for a
 * warm-up round and then `reps` rounds.
 */
export async function benchExplorer(loaded: LoadedGame, level: number, maxNodes: number, naiveMaxNodes: number, workerCounts: number[], reps: number): Promise<ExplorerBench> {
  const { game } = loaded;
  const states = bfsStates(game, level, maxNodes);
  const raw: number[] = [];
  const naive: number[] = [];
  const runs = workerCounts.map(() => ({ transitions: [] as number[], states: [] as number[], bytesPerState: 0 }));
  for (let round = 0; round <= reps; round++) {
    const keep = round > 0;
    collectGarbage();
    const r = rawStepLoop(game, states);
    collectGarbage();
    const n = naiveExplorer(game, level, naiveMaxNodes);
    if (keep) {
      raw.push(r);
      naive.push(n);
    }
    for (const [i, k] of workerCounts.entries()) {
      collectGarbage();
      const { result } = await exploreGraph(loaded, { level, workers: k, maxNodes });
      runs[i].bytesPerState = result.bytesPerState;
      if (!keep) continue;
      runs[i].transitions.push(result.transitionsPerSecond);
      runs[i].states.push(result.nodes / result.seconds);
    }
  }
  const timing = (xs: number[]): Timing => ({ median: median(xs), runs: xs });
  const one = runs[workerCounts.indexOf(1)].transitions;
  return {
    game: game.id,
    level,
    maxNodes,
    raw: timing(raw),
    naive: timing(naive),
    naiveMaxNodes,
    workers: workerCounts.map((k, i) => ({ workers: k, transitions: timing(runs[i].transitions), states: timing(runs[i].states), bytesPerState: runs[i].bytesPerState })),
    paired: {
      oneVsRaw: timing(one.map((x, j) => x / raw[j])),
      oneVsNaive: timing(one.map((x, j) => x / naive[j])),
      vsOneWorker: workerCounts.map((k, i) => ({ workers: k, ratio: timing(runs[i].transitions.map((x, j) => x / one[j])) })),
    },
  };
}
