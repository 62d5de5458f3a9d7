import graphology from 'graphology';
import { playerMoves, type Game } from '../src/engine/game.js';
import { fingerprintInto } from '../src/engine/identity.js';
import type { LoadedGame } from '../src/engine/loader.js';
import { exploreGraph } from '../src/explorer/explore.js';
import { median, rate, type Timing } from './measure.js';

/** The first `count` non-terminal states in BFS order, as canonical bytes (the explorer's frontier). */
export function bfsStates(game: Game, level: number, count: number): Uint8Array[] {
  const seen = new Set<string>();
  const fp = { lo: 0, hi: 0 };
  const queue: unknown[] = [game.init(level)];
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
  return out;
}

/** The limit: decode, step every move, encode, hash and classify, single-threaded, nothing stored. */
export function rawStepLoop(game: Game, states: Uint8Array[]): number {
  const fp = { lo: 0, hi: 0 };
  const t = performance.now();
  let steps = 0;
  for (const bytes of states) {
    const s = game.decode(bytes);
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
}

export async function benchExplorer(loaded: LoadedGame, level: number, maxNodes: number, naiveMaxNodes: number, workerCounts: number[], reps: number): Promise<ExplorerBench> {
  const { game } = loaded;
  const states = bfsStates(game, level, maxNodes);
  const raw = await rate(reps, () => rawStepLoop(game, states));
  const naive = await rate(reps, () => naiveExplorer(game, level, naiveMaxNodes));
  const workers: ExplorerBench['workers'] = [];
  for (const k of workerCounts) {
    let bytesPerState = 0;
    const nodeRates: number[] = [];
    const transitions = await rate(reps, async () => {
      const { result: r } = await exploreGraph(loaded, { level, workers: k, maxNodes });
      bytesPerState = r.bytesPerState;
      nodeRates.push(r.nodes / r.seconds);
      return r.transitionsPerSecond;
    });
    const states = { median: median(nodeRates.slice(1)), runs: nodeRates.slice(1) };
    workers.push({ workers: k, transitions, states, bytesPerState });
  }
  return { game: game.id, level, maxNodes, raw, naive, naiveMaxNodes, workers };
}
