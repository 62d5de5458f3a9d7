/**
 * The coordinator alone. One coordinator merges every worker's batches, so its time a transition
 * bounds every worker count (1e9 / it: the most transitions a second one coordinator merges). The
 * explorer rows measure it from the coordinator thread's CPU in a live run, where messages, the
 * pool and waking to cold caches between batches add to it (replaying with 15 ms idle gaps
 * between batches raised bx19:2's 105-125 ns a transition to 130-159). Here an exploration's
 * batches are recorded as they come back (expanded on this thread) and the same exploration is
 * replayed from them: the coordinator hands out the same batches and merges the recorded results,
 * with no game code, workers or messages. Both ways of claiming: the coordinator claiming
 * successors itself (the default up to COORDINATOR_CLAIMS workers) and numbering what the workers
 * claimed (past it).
 */
import type { Game } from '../src/engine/index.js';
import { expandAndClaim, expandBatch, exploreGraph, Scratch, type ClaimedBatch, type ExpandResult, type Expander } from '../src/explorer/index.js';
import { SharedTable } from '../src/explorer/shared-table.js';
import { TicketSource } from '../src/explorer/tickets.js';
import type { LoadedGame } from '../src/suite/index.js';
import { collectGarbage, timing, type Timing } from './measure.js';

type Claiming = 'coordinator' | 'workers';

export interface CoordinatorBench {
  game: string;
  level: number;
  maxNodes: number;
  transitions: number;
  /** Nanoseconds of the search a transition, replayed, by who claims; and the batches merged. */
  modes: { claimIn: Claiming; batches: number; ns: Timing }[];
}

type Recorded = ExpandResult | ClaimedBatch;

/** A copy of a batch result whose typed arrays are its own (the kernel's scratch arrays are reused by the next batch). */
function copied<T extends object>(result: T): T {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) copy[key] = ArrayBuffer.isView(value) ? (value as Uint8Array).slice() : value;
  return copy as T;
}

/** A recorded result to merge: merging rewrites `node` alone, so only `node` is copied. */
const toMerge = <T extends Recorded>(r: T): T => ({ ...r, node: r.node.slice() });

/** Expands batches on this thread, as a worker would, keeping a copy of each result in `out`. */
function recorder(game: Game, out: Recorded[]): Expander {
  const scratch = new Scratch();
  const keep = <T extends Recorded>(result: T): T => {
    const kept = copied(result);
    out.push(kept);
    return toMerge(kept);
  };
  return {
    workers: 1,
    ready: true,
    run: async (task): Promise<ExpandResult> => keep(expandBatch(game, task, scratch)),
    runAndClaim: async (task, table, tickets): Promise<ClaimedBatch> => keep(expandAndClaim(game, task, new SharedTable(table), new TicketSource(tickets), scratch)),
  };
}

/** Gives back recorded results in order, as if just expanded. */
function player(results: Recorded[]): Expander {
  let next = 0;
  const take = async <T>(): Promise<T> => {
    if (next >= results.length) throw new Error('the replay asked for more batches than were recorded');
    return results[next++] as T;
  };
  return { workers: 1, ready: true, run: take, runAndClaim: take };
}

/**
 * Records an exploration of the level to `maxNodes` for each way of claiming, then replays it
 * `reps` times after a warm-up; a replay must give the recorded exploration's counts.
 */
export async function benchCoordinator(loaded: LoadedGame, level: number, maxNodes: number, reps: number): Promise<CoordinatorBench> {
  const modes: CoordinatorBench['modes'] = [];
  let transitions = 0;
  for (const claimIn of ['coordinator', 'workers'] as const) {
    const recorded: Recorded[] = [];
    collectGarbage();
    const { result: truth } = await exploreGraph(loaded, { level, maxNodes, claimIn, expander: recorder(loaded.game, recorded) });
    transitions = truth.transitions;
    const ns: number[] = [];
    for (let round = 0; round <= reps; round++) {
      // Made before the clock starts.
      const results = recorded.map(toMerge);
      collectGarbage();
      let searched = 0;
      const started = performance.now();
      const { result } = await exploreGraph(loaded, { level, maxNodes, claimIn, expander: player(results), onSearchEnd: () => (searched = performance.now()) });
      if (result.nodes !== truth.nodes || result.edges !== truth.edges || result.transitions !== truth.transitions) {
        throw new Error(`the replay of ${recorded.length} batches gave ${result.nodes} nodes, ${result.edges} edges, ${result.transitions} transitions; the recording ${truth.nodes}, ${truth.edges}, ${truth.transitions}`);
      }
      if (round > 0) ns.push(((searched - started) * 1e6) / result.transitions);
    }
    modes.push({ claimIn, batches: recorded.length, ns: timing(ns) });
  }
  return { game: loaded.game.id, level, maxNodes, transitions, modes };
}
