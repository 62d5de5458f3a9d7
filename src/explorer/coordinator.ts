/**
 * The explorer's coordinator: hands frontier batches to the expander under the step watchdog, merges
 * them in queue order, enforces limits, memory and deadlines, and turns the store into the result.
 * (Past 300 lines: one loop whose state, limits and stop reasons are read together; the merge, the
 * table, the store and the memory budget live in modules of their own.)
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CELLS, codeName, collisionProbability, fingerprintInto, GameAction, initIdentity, type Game } from '../engine/index.js';
import { bfsPath, FINGERPRINT_LIMIT, measureGraph, NodeFlag, type GraphMeasures, type StateGraph } from '../graph/index.js';
import { DEFAULT_STEP_SECONDS, OrderedRunner, StepStalled, Watchdog } from '../parallel/index.js';
import { FULLY_CHECKED, StepOutcome, type ClaimedBatch, type ExpandResult, type ExpandTask, type RootOfLevel } from './expand.js';
import type { Expander } from './expander.js';
import { FrontierQueue } from './frontier.js';
import { budgetBytes, MemoryProbe, peakFromNow, workerHeapMb } from './memory.js';
import { BatchMerger, type Limits, type Merged } from './merge.js';
import { ID_BASE, MAX_NODES, RESERVE_BLOCK, SharedTable } from './shared-table.js';
import { MAX_TICKET, TICKET_BLOCK, TicketIds } from './tickets.js';
import { openLevel, type GameSource, type OpenedLevel, type RootState } from './source.js';
import { ScheduleClock, type ScheduleStats } from './schedule.js';
import { MAX_EDGES, Store } from './store.js';
import { faultKindOf, isGameFault, type PythonExploreInfo } from '../python/index.js';

export type StopReason = 'max-nodes' | 'max-edges' | 'max-steps' | 'max-seconds' | 'max-memory' | 'interrupted';

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
  /**
   * Memory budget in GB (default: 80% of what the machine has free): the exploration stops with
   * `max-memory` while the process, and the analysis of the graph after it, still fit.
   */
  maxMemory?: number;
  /** Stops the exploration cleanly (Ctrl-C): the partial result is returned. */
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Where batches run (tests inject one); overrides `workers`. */
  expander?: Expander;
  /** Game steps per batch (sets how many states a batch carries). */
  batchSteps?: number;
  /**
   * Who claims successors in the shared fingerprint table: the workers as they expand, or the
   * coordinator as it merges batches. Default: the coordinator for up to COORDINATOR_CLAIMS
   * workers, else the workers. Results are the same.
   */
  claimIn?: 'workers' | 'coordinator';
  /** Slots the fingerprint table starts with (tests start small to make it grow). */
  tableSlots?: number;
  /** A game step in a worker that does not return within this many seconds stops the exploration with a GameCrash of kind 'hang' (default 10). */
  stepSeconds?: number;
  /** Called once when the search stops (not on a game's fault), before the graph is built and measured: the bench reads the coordinator's CPU time there. */
  onSearchEnd?: () => void;
}

/**
 * Up to this many workers, the coordinator claims successors itself, as it merges each batch. A
 * claim is a cache miss in a table of tens of megabytes (150-300 ns on the 2-core machine, where a
 * bx19 transition costs about 1.5 us): a worker that claims spends 10-20% more time a transition,
 * the same CPU the coordinator spends claiming for it, and the coordinator does it on its own
 * core while one is free (measured: 1 worker 0.8x raw with the coordinator claiming, about 0.7x
 * with the worker claiming). But one coordinator thread serves only so many workers: the one that
 * looked up every successor capped 15 workers at 63% of a 16-core machine's ceiling (about 3M
 * transitions/s, 250 ns a transition). Past four, the workers claim, and the coordinator only
 * numbers what they report pending and copies edges.
 */
export const COORDINATOR_CLAIMS = 4;

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
  /** Bytes of the store at the end of the exploration: fingerprint table, node and edge arrays. */
  storeBytes: number;
  bytesPerState: number;
  /** A real ARC game (Python): how its level started, its identity, how clicks were expanded. */
  python?: PythonExploreInfo;
  /** Where the workers' time went while searching (see ScheduleStats). */
  schedule: ScheduleStats;
  /**
   * Set when a sampled transition's identity did not hold (its successor decoded and encoded again,
   * or the step taken again, gave other bytes): states that should merge may not, and the graph's
   * numbers cannot be trusted. The actions reach the state from reset; the last one is the step.
   */
  identityWarning: { message: string; actions: string[] } | null;
  /**
   * The search stopped (a limit, its time, Ctrl-C) while a game step had been running for a while
   * (past half the step limit, or a second): the actions from reset to it (its last action is the
   * step) and how long it had run. A hang a time budget would otherwise hide. Absent when none.
   */
  stuckStep?: { actions: string[]; seconds: number; message: string };
}

/** How a game failed: a step threw, a step never returned, a worker ran out of memory. */
export type FaultKind = 'crash' | 'hang' | 'out-of-memory';

/**
 * A game step threw (or hung, or ran its thread out of memory): where, and the action sequence
 * from the level's reset state that reproduces it (for a hang or out of memory, its last action
 * is the one that did not return).
 */
export class GameCrash extends Error {
  constructor(
    readonly game: string,
    readonly level: number,
    readonly actions: string[],
    readonly reason: string,
    readonly kind: FaultKind = 'crash',
  ) {
    const what = kind === 'crash' ? 'crashed' : kind === 'hang' ? 'hung' : 'ran out of memory';
    super(`${game} level ${level} ${what} after ${actions.length} actions from reset [${actions.join(', ')}]: ${reason}`);
  }
}

/**
 * Breadth-first exploration of one level. Workers expand batches of frontier states in any order
 * and deduplicate their successors in a shared fingerprint table; the coordinator merges batches
 * strictly in queue order and numbers each new state at the first record that reaches it, so node
 * numbering and every number in the result are those of a sequential BFS, whatever the worker
 * count or completion order. Limits are checked per node before its successors are merged, so
 * they are never exceeded.
 */
/** What an exploration gives: its measures, its graph, and the memory budget it kept to in bytes (the analysis after it keeps to the same). */
export interface Explored {
  result: ExploreResult;
  graph: StateGraph;
  budget: number;
}

export async function exploreGraph(source: GameSource, options: ExploreOptions): Promise<Explored> {
  const opened = await openLevel(source, options.level, options.workers);
  const watchdog = new Watchdog(options.stepSeconds ?? DEFAULT_STEP_SECONDS);
  const expander = options.expander ?? opened.expander(watchdog, workerHeapMb(opened.workers, options.maxMemory));
  let root: RootState;
  try {
    root = expander.root ? await builtRoot(await expander.root()) : await opened.root();
  } catch (err) {
    // An init that never returns (or eats its thread's heap) on a pool's thread, under the watchdog.
    if (err instanceof StepStalled) {
      const hang = err.kind !== 'out-of-memory';
      const why = hang ? `init(${options.level}) did not return within ${err.limitSeconds} s (a hang)` : 'building it ran its worker thread out of memory (ERR_WORKER_OUT_OF_MEMORY)';
      throw new GameCrash(opened.game.id, options.level, [], `the reset state cannot be built: ${why}`, hang ? 'hang' : 'out-of-memory');
    }
    // A real ARC game's start reports its own errors (a level that does not exist is bad input), but
    // the game's fault there (its constructor or RESET raised) is a crash at the reset, as a JavaScript game's init or encode throwing here.
    if (opened.python && !isGameFault(err)) throw err;
    throw new GameCrash(opened.game.id, options.level, [], `the reset state cannot be built: ${err instanceof Error ? err.message : String(err)}`, isGameFault(err) ? faultKindOf(err.kind) : 'crash');
  }
  const coordinator = new Coordinator(opened, options, root, watchdog, expander);
  await coordinator.run();
  options.onSearchEnd?.();
  return coordinator.finish();
}

/** The root a pool's thread built, with its fingerprint. */
async function builtRoot(built: RootOfLevel): Promise<RootState> {
  await initIdentity();
  const { lo, hi } = fingerprintInto(built.bytes, { lo: 0, hi: 0 });
  return { bytes: built.bytes, lo, hi, status: built.status };
}

/** A batch handed out: its states (kept to expand a remainder again). A ClaimedBatch comes back where the workers claim, else an ExpandResult. */
interface Batch {
  ids: Int32Array;
  states: Uint8Array;
  ends: Uint32Array;
}

/** The table grows by a quarter when its claims pass this share of its slots: its load stays between 0.6 and 0.75, 16-20 bytes a state. */
const GROW_AT = 0.75;
const GROW_BY = 1.25;
/** A table this large, dropped, is worth a collection in every worker (a few milliseconds a thread). */
const COLLECT_AFTER = 256 * 2 ** 20;
/** States a batch carries at most. */
const MAX_BATCH_STATES = 4096;
/**
 * Successor bytes a batch carries at most (game steps x state size): a game whose state is a whole
 * 64x64 grid (4 KB) made 128 MB batches at 32k steps, each copied into the worker's records, its
 * message and the frontier. A 4 KB-state keyboard game to 200k states, 2 workers: 1.84 GB peak
 * and 216k transitions/s at 32k steps, 1.44 GB and 267k at 4k (300k states); keyboard games of
 * tens of bytes a state are not concerned.
 */
const MAX_BATCH_BYTES = 16 * 2 ** 20;
/** Batches a worker has running (so it never waits for the coordinator) and handed out but not merged, at most. */
const RUNNING_PER_WORKER = 2;
const UNMERGED_PER_WORKER = 4;
/**
 * Merging this long without a turn of the event loop, the coordinator takes one. A result that
 * comes back is seen only on a turn (it is a message), and until then its worker's slot counts as
 * running, so no batch is handed out for it: a run of merges behind a late oldest batch (up to four
 * a worker wait in order) otherwise left the workers that finished meanwhile without a batch until
 * it ended. On the 16-core machine, 16 workers were idle 17-19% of the time while the coordinator
 * was busy, and 19-21% waiting for a batch handed out only after their previous one had ended.
 * A turn costs microseconds; on 2 cores (more threads than cores) throughput is the same.
 */
const TURN_AFTER_MS = 1;

/** One exploration's state: the store of the graph so far, the shared table, the frontier, the batches in flight and the budgets. */
class Coordinator {
  private readonly game: Game;
  private readonly store: Store;
  private table: SharedTable;
  private readonly queue = new FrontierQueue();
  private readonly merger: BatchMerger;
  /** The ids of the tickets workers claim under (when they claim). */
  private readonly tickets = new TicketIds();
  private readonly workers: number;
  private readonly expander: Expander;
  private readonly inflight = new OrderedRunner<Batch, ClaimedBatch | ExpandResult>();
  private readonly maxNodes: number;
  private readonly maxEdges: number;
  private readonly maxSteps: number;
  private readonly deadline: number;
  private readonly budget: number;
  private readonly memory = new MemoryProbe();
  private readonly started = performance.now();
  /**
   * Game steps a batch carries, at least and at most. About 32k (a few thousand states of a
   * keyboard game): a batch's fixed cost to the coordinator (0.1-0.2 ms of its CPU: the task, its
   * messages, the wake-ups) is then small against its merge, and a batch takes tens of
   * milliseconds. Where the workers claim (many of them), a quarter of each worker's share of the
   * frontier, from 8k to 32k: on a narrow frontier the first layers and the merge, which waits for
   * the oldest batch, wait for a short batch (16 cores, bx19:2 at 1M states, layers of 85-165k
   * states: 8k against 32k was +10% at 16 workers, +15% at 8), on a wide one the fixed cost stays low.
   */
  private readonly batchSteps: { least: number; most: number };
  private stepsPerState: number;
  /** Bytes of a state, on average in the batches handed out so far (the root's to begin with). */
  private stateBytes: number;
  private expandedCount = 0;
  /** States in the batches handed out and not yet taken for merging. */
  private handedOut = 0;
  private stopReason: StopReason | null = null;
  private identityWarning: ExploreResult['identityWarning'] = null;
  private stuckStep: ExploreResult['stuckStep'];
  /** Batches launched and not merged yet, by their states' bytes (as an expander names them). */
  private readonly unmerged = new Map<Uint8Array, Batch>();
  private lastProgress = 0;
  /** The table must grow before more is claimed: nothing is dispatched until it has. */
  private growNeeded = false;
  /** What is left of a batch the table had no room for, to expand again once it has grown. */
  private remainder: Batch | undefined;
  private readonly claimInWorkers: boolean;
  /** Moves a state has at most (its successors). */
  private readonly moves: number;
  private readonly watchdog: Watchdog;
  private readonly schedule: ScheduleClock;
  /** When the event loop last turned under the coordinator (see TURN_AFTER_MS). */
  private lastTurn = performance.now();

  constructor(
    private readonly opened: OpenedLevel,
    private readonly options: ExploreOptions,
    root: RootState,
    watchdog: Watchdog,
    expander: Expander,
  ) {
    this.game = opened.game;
    this.budget = budgetBytes(options.maxMemory);
    this.maxNodes = options.maxNodes ?? Infinity;
    this.maxEdges = options.maxEdges ?? Infinity;
    this.maxSteps = options.maxSteps ?? Infinity;
    this.deadline = options.maxSeconds === undefined ? Infinity : performance.now() + options.maxSeconds * 1000;
    const clicks = this.game.actions.includes(GameAction.ACTION6);
    // Room for a node limit up to 16M from the start, else the columns double from 64K nodes.
    const nodes = Number.isFinite(this.maxNodes) ? Math.min(this.maxNodes + 1, 2 ** 24) : 2 ** 16;
    this.store = new Store({ nodes, edges: Math.min(this.maxEdges, 4 * nodes), clicks });
    this.workers = options.expander?.workers ?? opened.workers;
    this.schedule = new ScheduleClock(this.workers);
    this.watchdog = watchdog;
    this.expander = expander;
    this.claimInWorkers = !!this.expander.runAndClaim && (options.claimIn ?? (this.workers <= COORDINATOR_CLAIMS ? 'coordinator' : 'workers')) === 'workers';
    // Room for every thread's reservation block and a state's moves from the start, and for a
    // node limit (plus the moves of the state merged last) without growing. Workers that claim
    // also claim the successors of the batches in flight when the limit is reached: a quarter
    // more (16 workers, bx19:2 to 1M states: the table grew at the end, 80 ms with every worker idle).
    const moves = this.game.actions.length + (clicks ? CELLS : 0);
    const ahead = this.claimInWorkers ? 1.25 : 1;
    const expected = Math.min(Number.isFinite(this.maxNodes) ? ahead * this.maxNodes + 2 * moves : 0, 2 ** 24);
    this.table = SharedTable.create(options.tableSlots ?? Math.max(2 ** 16, Math.ceil(expected / GROW_AT) + 1, 4 * (this.workers + 1) * (RESERVE_BLOCK + moves)));
    this.table.insertAt(-1 - this.table.lookup(root.lo, root.hi), root.lo, root.hi, 0);
    this.moves = moves;
    this.merger = new BatchMerger(this.store, this.queue, opened.lastLevel, () => this.table, this.tickets, (count) => this.makeRoom(count));
    this.store.addNode(root.status === 'won' ? NodeFlag.WON | (opened.lastLevel ? NodeFlag.COMPLETE : 0) : root.status === 'lost' ? NodeFlag.LOST : 0, 0);
    if (root.status === 'playing') this.queue.push(0, root.bytes.slice());
    const fixed = options.batchSteps ?? opened.batchSteps;
    this.batchSteps = fixed !== undefined ? { least: fixed, most: fixed } : { least: this.claimInWorkers ? 8_192 : 32_768, most: 32_768 };
    this.stepsPerState = Math.max(1, opened.stepsPerState ?? this.game.actions.length);
    this.stateBytes = Math.max(1, root.bytes.length);
    this.limits = {
      nodes: Math.min(this.maxNodes, MAX_NODES),
      nodeReason: 'max-nodes',
      edges: Math.min(this.maxEdges, MAX_EDGES),
      edgeReason: 'max-edges',
      steps: this.maxSteps,
    };
  }

  private stop(reason: StopReason): void {
    this.stopReason ??= reason;
  }

  /** The limits merging checks: the user's, or what a graph can hold at most (typed arrays, Int32 ids). */
  private readonly limits: Limits;

  /**
   * Room in the store for every record of a batch as a new node and an edge, before merging it;
   * false (and the search stops) when growing would pass the memory budget or the system refuses.
   */
  private room(records: number): boolean {
    const { store } = this;
    const nodes = Math.min(store.nodeCount + records, this.limits.nodes);
    const edges = Math.min(store.edgeCount + records, this.limits.edges);
    const copy = store.growthBytes(nodes, edges);
    if (copy > 0 && !this.fits(copy, nodes, edges)) return false;
    return store.ensure(nodes, edges);
  }

  /** Whether the process fits the budget with `more` bytes now, and later with the work after the search on a graph of `nodes` and `edges`. */
  private fits(more: number, nodes: number, edges: number): boolean {
    const searchOnly = this.table.residentBytes + this.tickets.bytes + this.queue.bytes;
    return peakFromNow(this.memory.rss(this.storeBytes), more, searchOnly, nodes, edges) <= this.budget;
  }

  /** Merges one expanded batch, node by node in id order, until a limit stops the search; its result is read no more after. */
  private merge(batch: Batch, r: ClaimedBatch | ExpandResult): void {
    try {
      this.mergeResult(batch, r);
    } finally {
      this.expander.release?.(r);
    }
  }

  private mergeResult(batch: Batch, r: ClaimedBatch | ExpandResult): void {
    const limits = this.limits;
    this.schedule.batch(batch.ids.length, r.kernelMs);
    if (!this.room(r.node.length)) return this.stop('max-memory');
    const done: Merged = this.claimInWorkers ? this.merger.mergeClaimed(batch.ids, r as ClaimedBatch, limits) : this.merger.mergeExpanded(batch.ids, r as ExpandResult, limits);
    this.expandedCount += done.merged;
    this.opened.merged?.(r, done.merged, (i) => Array.from(bfsPath(this.store.graph(this.game.actions), batch.ids[i])));
    this.stepsPerState = Math.max(1, this.merger.steps / Math.max(1, this.expandedCount));
    if (r.identity && !this.identityWarning && r.identity.state < done.merged) {
      const path = bfsPath(this.store.graph(this.game.actions), batch.ids[r.identity.state]);
      // Action 0 (RESET): a warning of the level's start or of the game as a whole, no step's.
      this.identityWarning = { message: r.identity.message, actions: [...path, ...(r.identity.action === 0 ? [] : [r.identity.action])].map(codeName) };
    }
    if (done.stop) return this.stop(done.stop);
    if (done.full) {
      const start = done.merged > 0 ? batch.ends[done.merged - 1] : 0;
      this.remainder = { ...batch, ids: batch.ids.subarray(done.merged), states: batch.states.subarray(start), ends: batch.ends.subarray(done.merged).map((e) => e - start) };
      this.growNeeded = true;
      return;
    }
    if (r.error) {
      const path = bfsPath(this.store.graph(this.game.actions), batch.ids[done.merged]);
      throw new GameCrash(this.game.id, this.opened.level, [...path, ...(r.error.action >= 0 ? [r.error.action] : []), ...(r.error.after !== undefined ? [r.error.after] : [])].map(codeName), r.error.message, r.error.kind);
    }
  }

  /** Stops when the process and the work after the search on the graph so far would no longer fit the budget. */
  private checkMemory(): void {
    const { store } = this;
    if (!this.fits(0, store.nodeCount, store.edgeCount) || this.memory.heapNearLimit) this.stop('max-memory');
  }

  /** With the table to itself: grows it now if `count` more entries would pass its load (false when the budget has no room). */
  private makeRoom(count: number): boolean {
    if (this.table.claims + count <= GROW_AT * this.table.capacity) return true;
    this.grow();
    return this.stopReason === null;
  }

  /**
   * Rebuilds the table a quarter larger (no worker may be claiming meanwhile), unless the budget
   * has no room for it. With every batch merged, every claimed state is numbered: the tags take
   * the ids and the tickets start over, so they cost 4 bytes only for the claims since.
   */
  private grow(): void {
    const capacity = Math.ceil(this.table.capacity * GROW_BY);
    if (!this.fits(capacity * 12, this.store.nodeCount, this.store.edgeCount)) {
      this.stop('max-memory');
      return;
    }
    const { tickets } = this;
    const settled = this.claimInWorkers && this.inflight.size === 0;
    let unnumbered = 0;
    const numbered = (tag: number): number => {
      if (tag >= ID_BASE) return tag;
      const id = tickets.get(-1 - tag);
      if (id >= 0) return id + ID_BASE;
      unnumbered++;
      return tag;
    };
    const dropped = this.table.bytes;
    this.table = settled ? this.table.grown(capacity, numbered) : this.table.grown(capacity);
    if (settled && unnumbered === 0) tickets.renew();
    this.growNeeded = false;
    // The workers hold the old table (and the old tickets) until they collect their garbage.
    if (this.claimInWorkers && dropped >= COLLECT_AFTER) this.expander.collect?.();
  }

  private report(): void {
    const now = performance.now();
    if (!this.options.onProgress || now - this.lastProgress < 250) return;
    this.lastProgress = now;
    const { store } = this;
    this.options.onProgress({ nodes: store.nodeCount, edges: store.edgeCount, transitions: this.merger.steps, depth: store.layers - 1, frontier: this.queue.size, seconds: (now - this.started) / 1000, storeBytes: this.storeBytes });
  }

  private get storeBytes(): number {
    return this.store.bytes + this.table.bytes + this.tickets.bytes;
  }

  /** Starts a batch on the expander, where the workers claim its successors or not. */
  private launch(ids: Int32Array, states: Uint8Array, ends: Uint32Array, first = false): void {
    const { opened, expander } = this;
    const batch: Batch = { ids, states, ends };
    this.unmerged.set(states, batch);
    this.handedOut += ids.length;
    // The first states' every transition has its identity checked (a fault at reset is seen at once).
    let checkFirst = 0;
    while (checkFirst < ids.length && ids[checkFirst] < (opened.fullyChecked ?? FULLY_CHECKED)) checkFirst++;
    const task: ExpandTask = { module: opened.module ?? '', level: opened.level, states, ends, ...(checkFirst > 0 && { checkFirst }), ...(ids[0] === 0 && { rootFirst: true }) };
    const result: Promise<ClaimedBatch | ExpandResult> = this.claimInWorkers ? expander.runAndClaim!(task, this.table.handle, this.tickets.handle) : expander.run(task);
    if (first) this.inflight.addFirst(batch, result);
    else this.inflight.add(batch, result);
  }

  /** Hands frontier batches out: up to two per worker running (so a worker never waits for this thread), four per worker unmerged. */
  private dispatch(): void {
    const { queue, inflight, workers } = this;
    if (this.growNeeded || this.stopReason !== null) return;
    const { least, most } = this.batchSteps;
    const steps = Math.min(most, Math.max(least, (queue.size * this.stepsPerState) / (4 * workers)), MAX_BATCH_BYTES / this.stateBytes);
    const batchStates = Math.min(MAX_BATCH_STATES, Math.max(1, Math.round(steps / this.stepsPerState)));
    while (queue.size > 0 && inflight.running < RUNNING_PER_WORKER * workers && inflight.size < UNMERGED_PER_WORKER * workers) {
      // Idle workers share a narrow frontier evenly: a full batch to one of them would keep the
      // others waiting for its successors (on 16 cores most of the first BFS layers ran that way).
      // Not while a result waits to be merged: its successors come first, so that batches stay
      // full. Shared after every merge, a busy coordinator's frontier went out in slivers, each
      // costing it a batch's fixed cost (about 0.1 ms), which slowed it further.
      const idle = inflight.headDone ? 0 : workers - inflight.running;
      if (queue.size < batchStates && idle <= 0) break;
      if (inflight.size > 0 && this.limitInFlight()) break;
      if (this.claimInWorkers && this.tickets.drawn + (inflight.size + 1) * MAX_BATCH_STATES * this.moves + workers * TICKET_BLOCK > MAX_TICKET) {
        // The batches in flight and this one could draw more tickets than a tag can name (2^31
        // claims). A loose bound, a state's every move: click games stop near 10^9 claims.
        this.stop(this.limits.nodeReason);
        return;
      }
      const count = idle > 0 ? Math.min(batchStates, Math.ceil(queue.size / idle)) : batchStates;
      const batch = queue.take(count);
      this.stateBytes = (this.stateBytes + batch.states.length / batch.ids.length) / 2;
      this.launch(batch.ids, batch.states, batch.ends);
    }
  }

  /**
   * Whether the batches handed out are expected to reach a node, edge or step limit once merged
   * (at the averages a merged state has given so far): a batch handed out after them would be
   * expanded for nothing (at 16 workers, 64 batches are in flight: a tenth of bx19:2's first
   * million states). A wrong guess costs no exactness (merging stops at the limit itself) and no
   * progress (it holds batches back only while one is in flight).
   */
  private limitInFlight(): boolean {
    const { store, limits, handedOut } = this;
    const parents = Math.max(1, this.expandedCount);
    return (
      this.merger.steps + handedOut * this.stepsPerState >= limits.steps ||
      store.nodeCount + (handedOut * (store.nodeCount - 1)) / parents >= limits.nodes ||
      store.edgeCount + (handedOut * store.edgeCount) / parents >= limits.edges
    );
  }

  /**
   * Merges batches in order until the frontier is empty or a limit stops the search. After a
   * stop, batches still in flight are left to finish on the shared pool, their results unused (a
   * worker cannot be interrupted mid-batch; the analysis overlaps with them).
   */
  async run(): Promise<void> {
    const { inflight } = this;
    // A deadline or Ctrl-C wakes the wait below, even while a step is stuck in a worker.
    const wake = (): void => inflight.wake();
    const timer = Number.isFinite(this.deadline) ? setTimeout(wake, Math.max(0, this.deadline - performance.now()) + 5) : undefined;
    this.options.signal?.addEventListener('abort', wake);
    try {
      await this.loop();
    } finally {
      clearTimeout(timer);
      this.options.signal?.removeEventListener('abort', wake);
      this.schedule.stop();
      if (inflight.running > 0 && this.stopReason !== null) await this.noteStuckStep();
      // Batches still in flight finish on the shared pool unused; one stuck is stopped.
      if (inflight.running > 0) {
        this.watchdog.stop();
        this.expander.abandon?.();
      }
      // The table is of no more use to the workers: their hold on it must not last through the analysis.
      if (this.claimInWorkers) this.expander.collect?.();
    }
  }

  /**
   * The search stopped with batches running: a step that has run past half the step limit (or a
   * second) is noted with its actions, as a hang the stop would hide. A step already running a
   * quarter of a second is given until then (a step is normally milliseconds), so one that began
   * just before the stop is seen too; the wait ends as soon as it returns.
   */
  private async noteStuckStep(): Promise<void> {
    const running = this.expander.running?.bind(this.expander);
    if (!running) return;
    const limit = this.options.stepSeconds ?? DEFAULT_STEP_SECONDS;
    const enough = Math.min(limit / 2, 1);
    const longest = (): ReturnType<NonNullable<Expander['running']>>[number] | undefined =>
      running(new Set(this.unmerged.keys())).reduce<ReturnType<NonNullable<Expander['running']>>[number] | undefined>((a, r) => (!a || r.seconds > a.seconds ? r : a), undefined);
    let step = longest();
    for (let waited = 0; step && step.seconds >= 0.25 && step.seconds < enough && waited < 1000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      step = longest();
    }
    if (!step || step.seconds < enough) return;
    const batch = this.unmerged.get(step.batch);
    if (!batch || step.state >= batch.ids.length) return;
    const path = bfsPath(this.store.graph(this.game.actions), batch.ids[step.state]);
    // (no action: the step stuck decoding the state, or listing its click targets)
    const actions = [...path, ...(step.action >= 0 ? [step.action] : [])].map(codeName);
    const seconds = Math.round(step.seconds * 10) / 10;
    this.stuckStep = { actions, seconds, message: `a step was still running after ${seconds} s when the search stopped (${this.stopReason}): ${actions.length} actions from reset [${actions.join(', ')}] (a hang?)` };
  }

  /** The oldest batch's result; a batch stopped by the watchdog becomes the game's fault at the state it was on. */
  private async nextBatch(): Promise<{ task: Batch; result: ClaimedBatch | ExpandResult }> {
    const head = this.inflight.head!;
    try {
      return (await this.inflight.next())!;
    } catch (err) {
      throw err instanceof StepStalled ? this.stalled(head, err) : err;
    }
  }

  /** The exploration's fault for a batch that did not finish: the path to the state it was on and the action that did not return. */
  private stalled(batch: Batch, err: StepStalled): GameCrash {
    const [, s, code] = err.at;
    const path = bfsPath(this.store.graph(this.game.actions), batch.ids[Math.max(0, s)]);
    const actions = [...path, ...(code >= 0 ? [code] : [])].map(codeName);
    const where = code >= 0 ? `a step (or its encoding or status)` : 'decoding a state (or listing its click targets)';
    if (err.kind === 'out-of-memory') return new GameCrash(this.game.id, this.opened.level, actions, `${where} ran its worker thread out of memory (ERR_WORKER_OUT_OF_MEMORY)`, 'out-of-memory');
    return new GameCrash(this.game.id, this.opened.level, actions, `${where} did not return within ${err.limitSeconds} s: its worker thread was stopped`, 'hang');
  }

  private async loop(): Promise<void> {
    const { inflight } = this;
    while (this.stopReason === null) {
      if (this.options.signal?.aborted) this.stop('interrupted');
      if (performance.now() > this.deadline) this.stop('max-seconds');
      if (this.stopReason !== null) break;
      // Workers that claim must be idle while the table is rebuilt, and every batch merged, so
      // that the tickets can start over (unless the batches after a remainder must wait for it).
      // Workers that do not claim never touch the table.
      if (this.growNeeded && (!this.claimInWorkers || inflight.size === 0 || (this.remainder && inflight.running === 0))) {
        this.grow();
        if (this.stopReason !== null) break;
      }
      if (this.remainder && !this.growNeeded) {
        const { ids, states, ends } = this.remainder;
        this.remainder = undefined;
        this.launch(ids, states, ends, true);
      }
      this.dispatch();
      if (inflight.size === 0 && !this.remainder) break;
      if (this.remainder || !inflight.headDone) {
        // Merging waits for the oldest batch; meanwhile any batch finishing frees a worker to feed.
        this.markIdle();
        await inflight.anyFinished();
        this.lastTurn = performance.now();
        this.schedule.mark(0, 'frontier');
        continue;
      }
      const { task, result } = await this.nextBatch();
      this.unmerged.delete(task.states);
      this.handedOut -= task.ids.length;
      this.merge(task, result);
      if (!this.growNeeded && this.table.claims > GROW_AT * this.table.capacity) this.growNeeded = true;
      if (this.options.signal?.aborted) this.stop('interrupted');
      if (performance.now() > this.deadline) this.stop('max-seconds');
      this.checkMemory();
      this.report();
      if (performance.now() - this.lastTurn >= TURN_AFTER_MS) {
        // The results that came back meanwhile are taken in, and their workers' slots freed for the next dispatch.
        await nextTurn();
        this.lastTurn = performance.now();
      }
    }
  }

  /** While the coordinator waits: how many workers have no batch, and what holds the next one back. */
  private markIdle(): void {
    const { inflight, queue } = this;
    const idle = Math.max(0, this.workers - inflight.running);
    // States held back near a limit count as nothing to hand out (order or frontier), not as a full window.
    const windowFull = queue.size > 0 && inflight.size >= UNMERGED_PER_WORKER * this.workers;
    const reason = this.growNeeded ? 'growth' : windowFull ? 'window' : inflight.size > inflight.running ? 'order' : 'frontier';
    this.schedule.mark(idle, reason);
  }

  /** Each node's fingerprint, read back from the table (for graphs small enough to keep them). */
  private fingerprints(): { lo: Uint32Array; hi: Uint32Array } | undefined {
    const n = this.store.nodeCount;
    if (n > FINGERPRINT_LIMIT) return undefined;
    const lo = new Uint32Array(n);
    const hi = new Uint32Array(n);
    this.table.forEach((l, h, tag) => {
      const id = tag >= ID_BASE ? tag - ID_BASE : this.tickets.get(-1 - tag);
      if (id >= 0 && id < n) {
        lo[id] = l;
        hi[id] = h;
      }
    });
    return { lo, hi };
  }

  finish(): Explored {
    const { store } = this;
    const steps = this.merger.steps;
    const seconds = (performance.now() - this.started) / 1000;
    const storeBytes = this.storeBytes;
    const graph = store.graph(this.game.actions, this.fingerprints());
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
      storeBytes,
      bytesPerState: storeBytes / graph.nodeCount,
      identityWarning: this.identityWarning,
      ...(this.stuckStep && { stuckStep: this.stuckStep }),
      schedule: this.schedule.stats(),
      ...this.opened.describe?.(),
    };
    return { result, graph, budget: this.budget };
  }
}
