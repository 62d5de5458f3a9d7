/**
 * Merging expanded batches into the graph, strictly in queue order: each parent's records become
 * its edges, and each new successor is numbered at the first record, in this order, that reaches
 * it, which is where a sequential breadth-first search numbers it. Two kinds of batch: claimed in
 * the shared table by the workers (ClaimedBatch: known successors come as ids, the others as
 * pending, named by tickets) or not (ExpandResult: the coordinator alone writes the table, as it
 * merges).
 */
import { NodeFlag } from '../graph/index.js';
import { StepOutcome, type ClaimedBatch, type ExpandResult } from './expand.js';
import type { FrontierQueue } from './frontier.js';
import type { SharedTable } from './shared-table.js';
import type { Store } from './store.js';
import type { TicketIds } from './tickets.js';

export type LimitReason = 'max-nodes' | 'max-edges' | 'max-steps' | 'max-memory';

/** The limits merging checks before each parent (so they are never exceeded), and what stopping at each is called. */
export interface Limits {
  nodes: number;
  nodeReason: LimitReason;
  edges: number;
  edgeReason: LimitReason;
  steps: number;
}

/** How far a batch got: parents merged, and why it stopped before the others. */
export interface Merged {
  merged: number;
  /** A limit was reached before parent `merged`. */
  stop?: LimitReason;
  /** The table had no room to claim parent `merged`'s successors: the rest is to be expanded again once it has grown. */
  full?: boolean;
}

const flagsOf = (outcome: number, lastLevel: boolean): number =>
  outcome === StepOutcome.WON ? NodeFlag.WON | (lastLevel ? NodeFlag.COMPLETE : 0) : outcome === StepOutcome.LOST ? NodeFlag.LOST : 0;

export class BatchMerger {
  /** Game steps of the parents merged. */
  steps = 0;
  /** The layer of the parent being merged (parents come in id order). */
  private parentLayer = 0;

  constructor(
    private readonly store: Store,
    private readonly queue: FrontierQueue,
    private readonly lastLevel: boolean,
    /** The current table (it is replaced when it grows). */
    private readonly table: () => SharedTable,
    /** The ids of the tickets workers claim under (ClaimedBatch). */
    private readonly tickets: TicketIds,
    /**
     * For batches nobody claimed (the coordinator alone writes the table): grows the table when
     * `count` more entries would pass its load; false when the memory budget has no room for it.
     */
    private readonly makeRoom: (count: number) => boolean,
  ) {}

  /** Adds a new node for a successor one layer below the current parent's, queued if it is still playing. */
  private number(outcome: number, bytes: Uint8Array, start: number, end: number): number {
    const id = this.store.addNode(flagsOf(outcome, this.lastLevel), this.parentLayer + 1);
    if (outcome === StepOutcome.PLAYING) this.queue.push(id, bytes, start, end);
    return id;
  }

  private enter(u: number): void {
    while (u >= this.store.layerFirst(this.parentLayer + 1)) this.parentLayer++;
  }

  /** The limit merging this parent (its records first..end, `fresh(first, end)` of them new successors) would pass. */
  private limit(limits: Limits, steps: number, first: number, end: number, fresh: (first: number, end: number) => number): LimitReason | undefined {
    const { store } = this;
    if (this.steps + steps > limits.steps) return 'max-steps';
    // This batch's edges are added after it: `end` counts the earlier parents' too.
    if (store.edgeCount + end > limits.edges) return limits.edgeReason;
    if (store.nodeCount + (end - first) > limits.nodes && store.nodeCount + fresh(first, end) > limits.nodes) return limits.nodeReason;
    return undefined;
  }

  /** Merges a batch its worker claimed in the table, parent by parent from `ids[0]`: a pending successor is numbered at its ticket's first record. */
  mergeClaimed(ids: Int32Array, r: ClaimedBatch, limits: Limits): Merged {
    const { tickets } = this;
    const { recordEnds, node, ticket, outcome, bytes, bytesEnd } = r;
    const fresh = (first: number, end: number): number => {
      let count = 0;
      // A parent's records are distinct successors: distinct tickets.
      for (let k = first; k < end; k++) if (node[k] < 0 && tickets.get(ticket[-1 - node[k]]) < 0) count++;
      return count;
    };
    let merged = 0;
    let first = 0;
    let stop: LimitReason | undefined;
    for (; merged < r.expanded; merged++) {
      const end = recordEnds[merged];
      stop = this.limit(limits, r.steps[merged], first, end, fresh);
      if (stop) break;
      this.enter(ids[merged]);
      for (let k = first; k < end; k++) {
        const v = node[k];
        if (v >= 0) continue;
        const p = -1 - v;
        let id = tickets.get(ticket[p]);
        if (id < 0) {
          id = this.number(outcome[p], bytes, p > 0 ? bytesEnd[p - 1] : 0, bytesEnd[p]);
          tickets.set(ticket[p], id);
        }
        node[k] = id;
      }
      this.steps += r.steps[merged];
      first = end;
    }
    this.store.addExpanded(ids.subarray(0, merged), recordEnds, node, r.keys, r.cells, r.action);
    return stop ? { merged, stop } : r.full && merged === r.expanded ? { merged, full: true } : { merged };
  }

  /** Merges a batch nobody claimed, with the table to itself: each successor the expander left for lookup (node -1) is looked up here, in order, a new one numbered at once. */
  mergeExpanded(ids: Int32Array, r: ExpandResult, limits: Limits): Merged {
    const { recordEnds, node, lo, hi } = r;
    const fresh = (first: number, end: number): number => {
      let count = 0;
      for (let k = first; k < end; k++) if (node[k] === -1 && this.table().find(lo[k], hi[k]) < 0) count++;
      return count;
    };
    const states = r.error ? r.error.state : recordEnds.length;
    let merged = 0;
    let first = 0;
    let stop: LimitReason | undefined;
    for (; merged < states; merged++) {
      const end = recordEnds[merged];
      stop = this.limit(limits, r.steps[merged], first, end, fresh);
      if (stop) break;
      if (!this.makeRoom(end - first)) {
        stop = 'max-memory';
        break;
      }
      this.enter(ids[merged]);
      this.insertExclusive(r, first, end);
      this.steps += r.steps[merged];
      first = end;
    }
    this.store.addExpanded(ids.subarray(0, merged), recordEnds, node, r.keys, r.cells, r.action);
    return stop ? { merged, stop } : { merged };
  }

  /**
   * Resolves records first..end of a parent with the table to itself: a known successor's id, else
   * a new node. (Reading the next records' home slots ahead, so that their cache misses overlap,
   * made no difference here: bx19:2 to 1M states, the coordinator alone on recorded batches, 91-111
   * ns a transition with 0, 64 or 256 records read ahead; the workers' claims, after the game's
   * allocations, do gain from it: see claimRecords.)
   */
  private insertExclusive(r: ExpandResult, first: number, end: number): void {
    const table = this.table();
    const { node, lo, hi, outcome, bytes, bytesEnd } = r;
    for (let k = first; k < end; k++) {
      const v = node[k];
      if (v <= -2) {
        node[k] = node[-2 - v];
        continue;
      }
      let id = table.lookup(lo[k], hi[k]);
      if (id < 0) {
        const slot = -1 - id;
        id = this.number(outcome[k], bytes, k > 0 ? bytesEnd[k - 1] : 0, bytesEnd[k]);
        table.insertAt(slot, lo[k], hi[k], id);
      }
      node[k] = id;
    }
  }
}
