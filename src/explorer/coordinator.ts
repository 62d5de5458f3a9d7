import { codeName, collisionProbability, type Game } from '../engine/index.js';
import { bfsPath, measureGraph, NodeFlag, type GraphMeasures, type StateGraph } from '../graph/index.js';
import { OrderedRunner } from '../parallel/index.js';
import { StepOutcome, type ExpandResult } from './expand.js';
import type { Expander } from './expander.js';
import { FrontierQueue } from './frontier.js';
import { openLevel, type GameSource, type OpenedLevel } from './source.js';
import type { PythonExploreInfo } from '../python/index.js';
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

/** The exploration's own numbers (`explore` in src/level.ts adds the analysis to them). */
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
  /** A real ARC game (Python): how its level started, its identity, how clicks were expanded. */
  python?: PythonExploreInfo;
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

const flagsOf = (outcome: number, lastLevel: boolean): number =>
  outcome === StepOutcome.WON ? NodeFlag.WON | (lastLevel ? NodeFlag.COMPLETE : 0) : outcome === StepOutcome.LOST ? NodeFlag.LOST : 0;

/**
 * Breadth-first exploration of one level. Batches of frontier states are expanded by workers in
 * any order, but merged strictly in queue order, so node numbering and every number in the
 * result are the same whatever the worker count or completion order. Limits are checked per node
 * before its successors are merged, so they are never exceeded.
 */
export async function exploreGraph(source: GameSource, options: ExploreOptions): Promise<{ result: ExploreResult; graph: StateGraph }> {
  const opened = await openLevel(source, options.level, options.workers);
  const coordinator = new Coordinator(opened, options, await opened.root());
  await coordinator.run();
  return coordinator.finish();
}

/** A batch handed to a worker: the ids of its states, and whether it was expanded on this thread. */
interface Batch {
  ids: Int32Array;
  local: boolean;
}

/** One exploration's state: the store of the graph so far, the frontier, the batches in flight and the budgets. */
class Coordinator {
  private readonly game: Game;
  private readonly store: Store;
  private readonly queue = new FrontierQueue();
  private readonly workers: number;
  private readonly expander: Expander;
  private readonly inflight = new OrderedRunner<Batch, ExpandResult>();
  private readonly maxNodes: number;
  private readonly maxEdges: number;
  private readonly maxSteps: number;
  private readonly deadline: number;
  private readonly started = performance.now();
  // About 32k game steps a batch (a few thousand states of a keyboard game): the ~30 us round trip
  // of a task is then noise, and a batch still takes only tens of milliseconds.
  private readonly targetSteps: number;
  private stepsPerState: number;
  private steps = 0;
  private expandedCount = 0;
  private stopReason: StopReason | null = null;
  private lastProgress = 0;

  constructor(
    private readonly opened: OpenedLevel,
    private readonly options: ExploreOptions,
    root: { bytes: Uint8Array; lo: number; hi: number; status: string },
  ) {
    this.game = opened.game;
    this.maxNodes = options.maxNodes ?? Infinity;
    this.maxEdges = options.maxEdges ?? Infinity;
    this.maxSteps = options.maxSteps ?? Infinity;
    this.deadline = options.maxSeconds === undefined ? Infinity : performance.now() + options.maxSeconds * 1000;
    this.store = new Store(Number.isFinite(this.maxNodes) ? this.maxNodes : undefined);
    const status = root.status === 'won' ? StepOutcome.WON : root.status === 'lost' ? StepOutcome.LOST : StepOutcome.PLAYING;
    this.store.add(root.lo, root.hi, 0, -1, 0, flagsOf(status, opened.lastLevel));
    if (root.status === 'playing') this.queue.push(0, root.bytes.slice());
    this.workers = options.expander?.workers ?? opened.workers;
    this.expander = options.expander ?? opened.expander();
    this.targetSteps = options.batchSteps ?? opened.batchSteps ?? 32_768;
    this.stepsPerState = Math.max(1, opened.stepsPerState ?? this.game.actions.length);
  }

  private stop(reason: StopReason): void {
    this.stopReason ??= reason;
  }

  /** Merges one expanded batch, node by node in id order, until a limit stops the search. */
  private merge(ids: Int32Array, r: ExpandResult): void {
    const { store, queue } = this;
    const { lo, hi, keys, cells, action, outcome, node, bytes, bytesEnd, recordEnds } = r;
    let merged = 0;
    let first = 0;
    for (; merged < ids.length && this.stopReason === null; merged++) {
      const u = ids[merged];
      if (r.error && r.error.state === merged) {
        const actions = [...bfsPath(store, u), r.error.action].map(codeName);
        throw new GameCrash(this.game.id, this.opened.level, actions, r.error.message);
      }
      const end = recordEnds[merged];
      this.checkLimits(r, merged, first, end);
      if (this.stopReason !== null) break;
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
            node[k] = store.add(lo[k], hi[k], depth, u, action[k], flagsOf(outcome[k], this.opened.lastLevel), found);
            if (outcome[k] === StepOutcome.PLAYING) queue.push(node[k], bytes, k > 0 ? bytesEnd[k - 1] : 0, bytesEnd[k]);
          }
        }
      }
      this.steps += r.steps[merged];
      this.expandedCount++;
      first = end;
    }
    store.addExpanded(ids.subarray(0, merged), recordEnds, node, keys, cells, action);
    this.stepsPerState = Math.max(1, this.steps / Math.max(1, this.expandedCount));
  }

  /** Stops before state `merged` of a batch (its records first..end) if merging it would pass a limit. */
  private checkLimits(r: ExpandResult, merged: number, first: number, end: number): void {
    const { store } = this;
    if (this.steps + r.steps[merged] > this.maxSteps) this.stop('max-steps');
    else if (store.edgeCount + end > this.maxEdges) this.stop('max-edges');
    else if (store.nodeCount + (end - first) > this.maxNodes) {
      let fresh = 0;
      for (let k = first; k < end; k++) if (r.node[k] === -1 && store.find(r.lo[k], r.hi[k]) < 0) fresh++;
      if (store.nodeCount + fresh > this.maxNodes) this.stop('max-nodes');
    }
  }

  private report(depth: number): void {
    const now = performance.now();
    if (!this.options.onProgress || now - this.lastProgress < 250) return;
    this.lastProgress = now;
    const { store } = this;
    this.options.onProgress({ nodes: store.nodeCount, edges: store.edgeCount, transitions: this.steps, depth, frontier: this.queue.size, seconds: (now - this.started) / 1000, storeBytes: store.bytes });
  }

  /** Hands frontier batches out: up to two per worker running (so a worker never waits for this thread), four per worker unmerged. */
  private dispatch(): void {
    const { queue, inflight, workers, opened } = this;
    const batchStates = Math.min(4096, Math.max(1, Math.round(this.targetSteps / this.stepsPerState)));
    const task = (batch: { states: Uint8Array; ends: Uint32Array }) => ({ module: opened.module ?? '', level: opened.level, states: batch.states, ends: batch.ends });
    if (!this.expander.ready && opened.expandHere) {
      // The pool's threads are still starting: expand a small batch here meanwhile (a small level
      // may be done before they are up), then give the pool's messages a turn.
      if (this.stopReason === null && queue.size > 0 && inflight.size === 0) {
        const batch = queue.take(Math.ceil(batchStates / 8));
        inflight.add({ ids: batch.ids, local: true }, Promise.resolve(opened.expandHere(task(batch))), true);
      }
      return;
    }
    while (this.stopReason === null && queue.size > 0 && inflight.running < 2 * workers && inflight.size < 4 * workers) {
      const idle = workers - inflight.running;
      if (queue.size < batchStates && idle <= 0) break;
      const count = queue.size >= batchStates ? batchStates : Math.ceil(queue.size / Math.max(1, idle));
      const batch = queue.take(count);
      inflight.add({ ids: batch.ids, local: false }, this.expander.run(task(batch)));
    }
  }

  /**
   * Merges batches in order until the frontier is empty or a limit stops the search. After a
   * stop, batches still in flight are left to finish on the shared pool, their results unused (a
   * worker cannot be interrupted mid-batch; the analysis overlaps with them).
   */
  async run(): Promise<void> {
    const { inflight } = this;
    while (this.stopReason === null) {
      this.dispatch();
      if (inflight.size === 0) break;
      if (!inflight.headDone) {
        // Merging waits for the oldest batch; meanwhile any batch finishing frees a worker to feed.
        await inflight.anyFinished();
        continue;
      }
      const { task, result } = (await inflight.next())!;
      this.merge(task.ids, result);
      if (this.options.signal?.aborted) this.stop('interrupted');
      if (performance.now() > this.deadline) this.stop('max-seconds');
      this.report(this.store.depth[task.ids[task.ids.length - 1]]);
      if (task.local) await new Promise(setImmediate);
    }
  }

  finish(): { result: ExploreResult; graph: StateGraph } {
    const { store, steps } = this;
    const seconds = (performance.now() - this.started) / 1000;
    const graph = store.graph(this.game.actions);
    const measures = measureGraph(graph);
    const result: ExploreResult = {
      game: this.game.id,
      level: this.opened.level,
      workers: this.workers,
      ...measures,
      transitions: steps,
      mergeDensity: steps > 0 ? 1 - (graph.nodeCount - 1) / steps : 0,
      fullyExplored: measures.frontier === 0,
      stopReason: measures.frontier === 0 ? null : this.stopReason,
      collisionProbability: collisionProbability(graph.nodeCount, steps),
      seconds,
      transitionsPerSecond: seconds > 0 ? steps / seconds : 0,
      storeBytes: store.bytes,
      bytesPerState: store.bytes / graph.nodeCount,
      ...this.opened.describe?.(),
    };
    return { result, graph };
  }
}
