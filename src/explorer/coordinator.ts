import { codeName } from '../engine/index.js';
import type { Game } from '../engine/index.js';
import { collisionProbability, fingerprintInto, initIdentity } from '../engine/index.js';
import { InputError } from '../errors.js';
import { loadGame, type LoadedGame } from '../suite/index.js';
import { expandBatch, Outcome, type ExpandResult } from './expand.js';
import { inlineExpander, poolExpander, type Expander } from './expander.js';
import { defaultWorkers, inOrder } from '../parallel/index.js';
import { FrontierQueue } from './frontier.js';
import { NodeFlag, type StateGraph } from '../graph/index.js';
import { measureGraph, type GraphMeasures } from '../graph/index.js';
import { Store } from './store.js';

export type StopReason = 'max-nodes' | 'max-edges' | 'max-steps' | 'max-seconds' | 'interrupted';

export interface ExploreOptions {
  /** Level to explore (1-based). */
  level: number;
  /** Worker threads; default: the machine's available parallelism. Games given as objects run inline. */
  workers?: number;
  maxNodes?: number;
  maxEdges?: number;
  /** Budget of game steps (successor computations). */
  maxSteps?: number;
  maxSeconds?: number;
  /** Stops the exploration cleanly (Ctrl-C): the partial result is returned. */
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Where batches run (tests inject one); overrides `workers`. */
  expander?: Expander;
  /** Game steps per batch (sets how many states a batch carries). */
  batchSteps?: number;
}

export interface Progress {
  nodes: number;
  edges: number;
  transitions: number;
  depth: number;
  frontier: number;
  seconds: number;
  storeBytes: number;
}

/** The exploration's own numbers (`explore` in src/explore.ts adds the analysis to them). */
export interface ExploreResult extends GraphMeasures {
  game: string;
  level: number;
  workers: number;
  transitions: number;
  mergeDensity: number;
  fullyExplored: boolean;
  stopReason: StopReason | null;
  collisionProbability: number;
  seconds: number;
  transitionsPerSecond: number;
  storeBytes: number;
  bytesPerState: number;
}

/** A game step threw: where, and the action sequence from the level's reset state that reproduces it. */
export class GameCrash extends Error {
  constructor(
    readonly game: string,
    readonly level: number,
    readonly actions: string[],
    readonly reason: string,
  ) {
    super(`${game} level ${level} crashed after ${actions.length} actions from reset [${actions.join(', ')}]: ${reason}`);
  }
}

/** A suite id or module path, a loaded game, or a game object (which then runs on this thread). */
export type GameSource = string | LoadedGame | Game;

export async function resolveSource(source: GameSource): Promise<{ game: Game; module?: string }> {
  if (typeof source === 'string') return loadGame(source);
  if ('game' in source && 'module' in source) return source;
  return { game: source as Game };
}

/** The action codes from the root to node `u` along BFS parents. */
export function pathTo(graph: Pick<StateGraph, 'parent' | 'parentAction'>, u: number): number[] {
  const path: number[] = [];
  for (let v = u; graph.parent[v] >= 0; v = graph.parent[v]) path.push(graph.parentAction[v]);
  return path.reverse();
}

const flagsOf = (outcome: number, lastLevel: boolean): number =>
  outcome === Outcome.WON ? NodeFlag.WON | (lastLevel ? NodeFlag.COMPLETE : 0) : outcome === Outcome.LOST ? NodeFlag.LOST : 0;

/**
 * Breadth-first exploration of one level. Batches of frontier states are expanded by workers in
 * any order, but merged strictly in queue order, so node numbering and every number in the
 * result are the same whatever the worker count or completion order. Limits are checked per node
 * before its successors are merged, so they are never exceeded.
 */
export async function exploreGraph(source: GameSource, options: ExploreOptions): Promise<{ result: ExploreResult; graph: StateGraph }> {
  await initIdentity();
  const { game, module } = await resolveSource(source);
  const { level } = options;
  if (!Number.isInteger(level) || level < 1 || level > game.levels) {
    throw new InputError(`level ${level} does not exist: ${game.id} has levels 1..${game.levels}`);
  }
  const lastLevel = level === game.levels;
  const maxNodes = options.maxNodes ?? Infinity;
  const maxEdges = options.maxEdges ?? Infinity;
  const maxSteps = options.maxSteps ?? Infinity;
  const deadline = options.maxSeconds === undefined ? Infinity : performance.now() + options.maxSeconds * 1000;
  const started = performance.now();

  const store = new Store(Number.isFinite(maxNodes) ? maxNodes : undefined);
  const queue = new FrontierQueue();
  const root = game.init(level);
  const rootBytes = game.encode(root);
  const fp = fingerprintInto(rootBytes, { lo: 0, hi: 0 });
  const rootStatus = game.status(root);
  store.add(fp.lo, fp.hi, 0, -1, 0, flagsOf(rootStatus === 'won' ? Outcome.WON : rootStatus === 'lost' ? Outcome.LOST : Outcome.PLAYING, lastLevel));
  if (rootStatus === 'playing') queue.push(0, rootBytes.slice());

  const workers = options.expander?.workers ?? (module ? Math.max(1, options.workers ?? defaultWorkers()) : 1);
  const expander = options.expander ?? (module ? poolExpander(workers, module, level) : inlineExpander(game));
  // About 32k game steps a batch (a few thousand states of a keyboard game): the ~30 us round trip
  // of a task is then noise, and a batch still takes only tens of milliseconds.
  const targetSteps = options.batchSteps ?? 32_768;
  let stepsPerState = Math.max(1, game.actions.length);
  let steps = 0;
  let expandedCount = 0;
  let stopReason: StopReason | null = null;
  let lastProgress = 0;
  const inflight: { ids: Int32Array; done: boolean; local?: boolean; result: Promise<ExpandResult> }[] = [];

  const stop = (reason: StopReason): void => {
    stopReason ??= reason;
  };

  /** Merges one expanded batch, node by node in id order, until a limit stops the search. */
  const merge = (ids: Int32Array, r: ExpandResult): void => {
    const { lo, hi, keys, cells, action, outcome, node, bytes, bytesEnd, recordEnds } = r;
    let merged = 0;
    let first = 0;
    for (; merged < ids.length && stopReason === null; merged++) {
      const u = ids[merged];
      if (r.error && r.error.state === merged) {
        const actions = [...pathTo(store, u), r.error.action].map(codeName);
        throw new GameCrash(game.id, level, actions, r.error.message);
      }
      const end = recordEnds[merged];
      if (steps + r.steps[merged] > maxSteps) stop('max-steps');
      else if (store.edgeCount + end > maxEdges) stop('max-edges');
      else if (store.nodeCount + (end - first) > maxNodes) {
        let fresh = 0;
        for (let k = first; k < end; k++) if (node[k] === -1 && store.find(lo[k], hi[k]) < 0) fresh++;
        if (store.nodeCount + fresh > maxNodes) stop('max-nodes');
      }
      if (stopReason !== null) break;
      const depth = store.depth[u] + 1;
      for (let k = first; k < end; k++) {
        const v = node[k];
        if (v <= -2) {
          // A repeat of an earlier record of this batch, resolved when its state was merged.
          node[k] = node[-2 - v];
        } else if (v === -1) {
          // The successors looked up are distinct within a batch (the worker pointed repeats at
          // their first record), so a new one is added at the slot its lookup stopped at.
          const found = store.lookup(lo[k], hi[k]);
          if (found >= 0) node[k] = found;
          else {
            node[k] = store.add(lo[k], hi[k], depth, u, action[k], flagsOf(outcome[k], lastLevel), found);
            if (outcome[k] === Outcome.PLAYING) queue.push(node[k], bytes, k > 0 ? bytesEnd[k - 1] : 0, bytesEnd[k]);
          }
        }
      }
      steps += r.steps[merged];
      expandedCount++;
      first = end;
    }
    store.addExpanded(ids.subarray(0, merged), recordEnds, node, keys, cells, action);
    stepsPerState = Math.max(1, steps / Math.max(1, expandedCount));
  };

  const report = (depth: number): void => {
    const now = performance.now();
    if (!options.onProgress || now - lastProgress < 250) return;
    lastProgress = now;
    options.onProgress({ nodes: store.nodeCount, edges: store.edgeCount, transitions: steps, depth, frontier: queue.size, seconds: (now - started) / 1000, storeBytes: store.bytes });
  };

  /** Batches not yet finished by a worker (each worker holds up to two, so it never waits for this thread). */
  let running = 0;
  /** Called when any batch finishes, so a worker that ran ahead gets its next batch at once. */
  let wake: (() => void) | undefined;
  const dispatch = (): void => {
    const batchStates = Math.min(4096, Math.max(1, Math.round(targetSteps / stepsPerState)));
    if (!expander.ready) {
      // The pool's threads are still starting: expand a small batch here meanwhile (a small level
      // may be done before they are up), then give the pool's messages a turn.
      if (stopReason === null && queue.size > 0 && inflight.length === 0) {
        const batch = queue.take(Math.ceil(batchStates / 8));
        const result = Promise.resolve(expandBatch(game, { module: module ?? '', level, states: batch.states, ends: batch.ends }));
        inflight.push({ ids: batch.ids, done: true, local: true, result });
      }
      return;
    }
    while (stopReason === null && queue.size > 0 && running < 2 * workers && inflight.length < 4 * workers) {
      const idle = workers - running;
      if (queue.size < batchStates && idle <= 0) break;
      const count = queue.size >= batchStates ? batchStates : Math.ceil(queue.size / Math.max(1, idle));
      const batch = queue.take(count);
      const entry = { ids: batch.ids, done: false, result: inOrder(expander.run({ module: module ?? '', level, states: batch.states, ends: batch.ends })) };
      running++;
      const finished = (): void => {
        entry.done = true;
        running--;
        wake?.();
      };
      entry.result.then(finished, finished);
      inflight.push(entry);
    }
  };

  // After a stop, batches still in flight are left to finish on the shared pool, their results
  // unused (a worker cannot be interrupted mid-batch; the analysis overlaps with them).
  while (stopReason === null) {
    dispatch();
    const next = inflight[0];
    if (!next) break;
    if (!next.done) {
      // Merging waits for the oldest batch; meanwhile any batch finishing frees a worker to feed.
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      continue;
    }
    inflight.shift();
    merge(next.ids, await next.result);
    if (options.signal?.aborted) stop('interrupted');
    if (performance.now() > deadline) stop('max-seconds');
    report(store.depth[next.ids[next.ids.length - 1]]);
    if (next.local) await new Promise(setImmediate);
  }

  const seconds = (performance.now() - started) / 1000;
  const graph = store.graph(game.actions);
  const measures = measureGraph(graph);
  const result: ExploreResult = {
    game: game.id,
    level,
    workers,
    ...measures,
    transitions: steps,
    mergeDensity: steps > 0 ? 1 - (graph.nodeCount - 1) / steps : 0,
    fullyExplored: measures.frontier === 0,
    stopReason: measures.frontier === 0 ? null : stopReason,
    collisionProbability: collisionProbability(graph.nodeCount, steps),
    seconds,
    transitionsPerSecond: seconds > 0 ? steps / seconds : 0,
    storeBytes: store.bytes,
    bytesPerState: store.bytes / graph.nodeCount,
  };
  return { result, graph };
}
