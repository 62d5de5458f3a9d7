/** The explorer's memory budget (`--max-memory`): its default, and what a graph will need once explored. */
import { freemem, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import { FINGERPRINT_LIMIT } from '../graph/index.js';

const GB = 2 ** 30;

/**
 * The default budget: 80% of the memory this process can have (the machine's, or its cgroup's
 * limit), counting only what is free now plus what the process already holds, since other
 * processes share the machine.
 */
export function defaultMemoryBudget(): number {
  const constrained = process.constrainedMemory?.() ?? 0;
  const total = constrained > 0 ? Math.min(constrained, totalmem()) : totalmem();
  return 0.8 * Math.min(total, freemem() + process.memoryUsage.rss());
}

/** The default budget as this process first saw it (worker heaps are sized from it once, so shared pools are reused). */
let firstBudget: number | undefined;

/** Worker heaps are at least this large (MB): a game's own data and a batch fit with room. */
export const WORKER_HEAP_FLOOR_MB = 256;

/**
 * Each worker thread's old-generation limit (MB): an equal share of the memory budget (given in GB,
 * else the default as the process first saw it) between the workers and the coordinator, at
 * least WORKER_HEAP_FLOOR_MB, in steps of 64 MB.
 */
export function workerHeapMb(workers: number, maxMemoryGb?: number): number {
  const budget = maxMemoryGb !== undefined ? maxMemoryGb * GB : (firstBudget ??= defaultMemoryBudget());
  return Math.max(WORKER_HEAP_FLOOR_MB, 64 * Math.floor(budget / (workers + 1) / 2 ** 20 / 64));
}

/** Bytes of a budget given in GB (the CLI's and the library's unit). */
export const budgetBytes = (gb: number | undefined): number => (gb === undefined ? defaultMemoryBudget() : gb * GB);

/**
 * Bytes the analysis of a graph of this size needs beyond the graph itself, at its peak, whatever
 * the graph's shape: reverse edges and transition weights (4 bytes a node and 4 an edge each),
 * three node masks, and while the win problem's components are found, its values, the set the
 * root reaches, the components' labels and Pearce's stacks (up to 21 bytes a node). The explorer's
 * own table, tickets and frontier are gone by then. Measured on bx19 level 3 (complete, 63.6M
 * states, 208M edges): 2.60 GB against this 3.40; its first 20M states: 0.86 against 1.09. The
 * solvers' arrays depend on the graph's cycles, not its size: they check the budget themselves.
 */
export function analysisBytes(nodes: number, edges: number): number {
  return 32 * nodes + 8 * edges;
}

/**
 * Bytes the end of the search adds while the table still lives: each node's fingerprint (graphs
 * small enough to keep them) and the components of the cycle measures (13 bytes a node).
 */
export function finishBytes(nodes: number): number {
  return (nodes <= FINGERPRINT_LIMIT ? 8 : 0) * nodes + 13 * nodes;
}

/**
 * The process's peak from now on, as the explorer budgets it: what it holds now (`rss`) plus
 * `more` bytes it is about to take, or the work after the search on a graph of `nodes` and `edges`:
 * its end while the search's memory lives, then the analysis once the search's own table, tickets
 * and frontier (`searchOnly` bytes) are gone.
 */
export function peakFromNow(rss: number, more: number, searchOnly: number, nodes: number, edges: number): number {
  return rss + Math.max(more, finishBytes(nodes), analysisBytes(nodes, edges) - searchOnly);
}

/** Share of V8's heap limit past which a thread counts as out of memory: past the limit itself, V8 aborts the process with a fatal dump. */
const HEAP_SHARE = 0.85;

/**
 * The analysis' memory check (its MemoryCheck) against a budget in bytes: whether `bytes` more fit
 * the resident set, and `heapBytes` of them this thread's JavaScript heap.
 */
export function budgetCheck(budget: number): (bytes: number, heapBytes?: number) => boolean {
  return (bytes, heapBytes = 0) => {
    const heap = getHeapStatistics();
    return process.memoryUsage.rss() + bytes <= budget && heap.used_heap_size + heapBytes <= HEAP_SHARE * heap.heap_size_limit;
  };
}

/**
 * Resident memory of the process: sampled at most every `everyMs` (reading it took milliseconds
 * while worker threads were busy), and in between the last sample plus what the caller's own
 * accounting has grown by since.
 */
export class MemoryProbe {
  private last = -Infinity;
  private sampled = 0;
  private accountedThen = 0;
  /** Share of V8's heap limit in use at the last sample. */
  private heapShare = 0;

  constructor(private readonly everyMs = 1000) {}

  /**
   * Whether this thread's JavaScript heap is near V8's limit (past it, V8 aborts the process with
   * a fatal dump whatever the budget says): the caller stops while it can still say why.
   */
  get heapNearLimit(): boolean {
    return this.heapShare > HEAP_SHARE;
  }

  rss(accounted: number): number {
    const now = performance.now();
    if (now - this.last >= this.everyMs) {
      const heap = getHeapStatistics();
      this.heapShare = heap.used_heap_size / heap.heap_size_limit;
      this.sampled = process.memoryUsage.rss();
      this.accountedThen = accounted;
      this.last = now;
    }
    return this.sampled + Math.max(0, accounted - this.accountedThen);
  }
}
