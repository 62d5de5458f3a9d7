import { readFileSync } from 'node:fs';
import graphology from 'graphology';
import { playerMoves, type Game } from '../src/engine/index.js';
import type { LoadedGame } from '../src/suite/index.js';
import { COORDINATOR_CLAIMS, exploreGraph, type ExploreResult, type IdleReason, type ScheduleStats } from '../src/explorer/index.js';
import { rawLoopThreads } from './ceiling.js';
import { collectGarbage, median, perRound, timing, type Timing } from './measure.js';
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

/**
 * CPU seconds this thread (the coordinator) has used, from /proc on Linux (Node 20 has no
 * per-thread figure; utime and stime count USER_HZ = 100 ticks a second), else null.
 */
function coordinatorCpu(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * Where an exploration's CPU time goes, in nanoseconds a transition: the coordinator's thread
 * (building the graph at the end included) and every other thread of the process (the workers).
 * Less sensitive to a shared machine's drift than throughput, and the coordinator's figure says
 * how many transitions a second one coordinator serves at least (1e9 / it): the ceiling of any
 * worker count.
 */
export interface CpuSplit {
  coordinatorNs: number;
  /** The coordinator's CPU until the search stopped (building and measuring the graph after it left out): what caps the worker counts. */
  searchNs: number;
  workersNs: number;
}

/** Explores with `options` and splits its CPU time (null where the coordinator's thread cannot be read). */
async function explore(loaded: LoadedGame, options: Parameters<typeof exploreGraph>[1]): Promise<{ result: ExploreResult; cpu: CpuSplit | null }> {
  const main = coordinatorCpu();
  const all = process.cpuUsage();
  let searched: number | null = null;
  const { result } = await exploreGraph(loaded, { ...options, onSearchEnd: () => (searched = coordinatorCpu()) });
  const used = process.cpuUsage(all);
  const mainEnd = coordinatorCpu();
  if (main === null || mainEnd === null || searched === null || result.transitions === 0) return { result, cpu: null };
  const coordinator = mainEnd - main;
  const total = (used.user + used.system) / 1e6;
  const ns = (seconds: number): number => (seconds * 1e9) / result.transitions;
  return { result, cpu: { coordinatorNs: ns(coordinator), searchNs: ns(searched - main), workersNs: ns(Math.max(0, total - coordinator)) } };
}

/** Medians of each share of the runs' schedules (see ScheduleStats). */
function scheduleMedians(runs: ScheduleStats[]): ScheduleStats {
  const of = (pick: (s: ScheduleStats) => number | null): number | null => {
    const known = runs.map(pick).filter((x): x is number => x !== null);
    return known.length > 0 ? median(known) : null;
  };
  const idle = { frontier: 0, order: 0, window: 0, growth: 0 };
  for (const r of Object.keys(idle) as IdleReason[]) idle[r] = of((s) => s.idle[r]) ?? 0;
  return { busy: of((s) => s.busy), idle, coordinator: of((s) => s.coordinator), batches: of((s) => s.batches) ?? 0, statesPerBatch: of((s) => s.statesPerBatch) ?? 0 };
}

/** Medians of CPU splits (null when none could be read). */
function cpuMedians(splits: (CpuSplit | null)[]): CpuSplit | null {
  const known = splits.filter((c): c is CpuSplit => c !== null);
  const of = (field: keyof CpuSplit): number => median(known.map((c) => c[field]));
  return known.length > 0 ? { coordinatorNs: of('coordinatorNs'), searchNs: of('searchNs'), workersNs: of('workersNs') } : null;
}

export interface ExplorerBench {
  game: string;
  level: number;
  maxNodes: number;
  raw: Timing;
  naive: Timing;
  naiveMaxNodes: number;
  /** Transitions per second by worker count (the default claim mode, see COORDINATOR_CLAIMS). */
  workers: { workers: number; transitions: Timing; states: Timing; bytesPerState: number; cpu: CpuSplit | null; schedule: ScheduleStats }[];
  /** At 2 workers, the claim mode the default does not pick there, and its per-round ratio to the default. */
  otherClaim: { workers: number; claimIn: 'workers' | 'coordinator'; transitions: Timing; vsDefault: Timing; cpu: CpuSplit | null } | null;
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
  const runs = workerCounts.map(() => ({ transitions: [] as number[], states: [] as number[], bytesPerState: 0, cpu: [] as (CpuSplit | null)[], schedule: [] as ScheduleStats[] }));
  const ceiling = workerCounts.map(() => [] as number[]);
  const two = workerCounts.indexOf(2);
  const otherMode = two >= 0 ? (2 <= COORDINATOR_CLAIMS ? 'workers' : 'coordinator') : null;
  const other: number[] = [];
  const otherCpu: (CpuSplit | null)[] = [];
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
      const { result, cpu } = await explore(loaded, { level, workers: k, maxNodes });
      runs[i].bytesPerState = result.bytesPerState;
      if (!keep) continue;
      runs[i].transitions.push(result.transitionsPerSecond);
      runs[i].states.push(result.nodes / result.seconds);
      runs[i].cpu.push(cpu);
      runs[i].schedule.push(result.schedule);
    }
    if (otherMode) {
      collectGarbage();
      const { result, cpu } = await explore(loaded, { level, workers: 2, maxNodes, claimIn: otherMode });
      if (keep) other.push(result.transitionsPerSecond);
      if (keep) otherCpu.push(cpu);
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
    workers: workerCounts.map((k, i) => ({ workers: k, transitions: timing(runs[i].transitions), states: timing(runs[i].states), bytesPerState: runs[i].bytesPerState, cpu: cpuMedians(runs[i].cpu), schedule: scheduleMedians(runs[i].schedule) })),
    paired: {
      oneVsRaw: perRound(one, raw),
      oneVsNaive: perRound(one, naive),
      vsOneWorker: workerCounts.map((k, i) => ({ workers: k, ratio: perRound(runs[i].transitions, one) })),
    },
    ceiling: workerCounts.map((k, i) => ({ threads: k, transitions: timing(ceiling[i]), vsOneThread: perRound(ceiling[i], raw) })),
    otherClaim: otherMode ? { workers: 2, claimIn: otherMode, transitions: timing(other), vsDefault: perRound(other, runs[two].transitions), cpu: cpuMedians(otherCpu) } : null,
  };
}
