/** The explorer's memory budget (`--max-memory`): its default, and what a graph will need once explored. */
import { freemem, totalmem } from 'node:os';

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

/** Bytes of a budget given in GB (the CLI's and the library's unit). */
export const budgetBytes = (gb: number | undefined): number => (gb === undefined ? defaultMemoryBudget() : gb * GB);

/**
 * Bytes the analysis of a graph of this size needs beyond the graph itself, at its peak (reverse
 * edges, the search from the root, transition weights, the win problem's components and bounds;
 * measured on bx19 and cm16 graphs, rounded up): the exploration stops early enough to leave it.
 */
export function analysisBytes(nodes: number, edges: number): number {
  return 56 * nodes + 8 * edges;
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

  constructor(private readonly everyMs = 1000) {}

  rss(accounted: number): number {
    const now = performance.now();
    if (now - this.last >= this.everyMs) {
      this.sampled = process.memoryUsage.rss();
      this.accountedThen = accounted;
      this.last = now;
    }
    return this.sampled + Math.max(0, accounted - this.accountedThen);
  }
}
