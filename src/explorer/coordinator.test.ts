import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import graphology from 'graphology';
import { parse as parseGexf } from 'graphology-library/gexf.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { CELLS, GameAction, GRID, parseAction, type Action } from '../engine/actions.js';
import type { Game } from '../engine/game.js';
import { fingerprint, initIdentity } from '../engine/identity.js';
import { loadGame } from '../suite/loader.js';
import { inlineExpander, poolExpander, type Expander } from './expander.js';
import { bfsPath, depthOf } from '../graph/index.js';
import { exploreGraph, GameCrash, type ExploreOptions } from './coordinator.js';
import type { ExpandResult } from './expand.js';
import { Watchdog } from '../parallel/index.js';
import { MAX_TICKET, TicketIds } from './tickets.js';
import { ID_BASE, SharedTable } from './shared-table.js';
import { NodeFlag, type StateGraph } from '../graph/graph.js';
import { exportGraph } from '../graph/graphology.js';
import { tempFolders } from '../../test/support/temp.js';

const tempDir = tempFolders('arcgraph-coordinator-');

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

/** An inline expander that says it has `workers` workers, and the states of each batch it is handed. */
function sizedInline(game: Game, workers: number): { expander: Expander; sizes: number[] } {
  const inner = inlineExpander(game);
  const sizes: number[] = [];
  return { expander: { workers, ready: true, run: (task) => (sizes.push(task.ends.length), inner.run(task)) }, sizes };
}

/**
 * Independent truth: a plain single-threaded BFS with string identities over every action and
 * every one of the 4,096 click cells (ignoring click targets).
 */
function bruteForce(game: Game, level: number) {
  const key = (s: unknown): string => Buffer.from(game.encode(s)).toString('hex');
  const moves: Action[] = [];
  for (const id of game.actions) {
    if (id !== GameAction.ACTION6) moves.push({ id });
    else for (let c = 0; c < CELLS; c++) moves.push({ id, x: c % GRID, y: Math.floor(c / GRID) });
  }
  const root = game.init(level);
  const seen = new Map<string, number>([[key(root), 0]]);
  const queue = [root];
  const edges = new Set<string>();
  /** Successor fingerprints of each expanded state, by its fingerprint. */
  const successors = new Map<string, Set<string>>();
  const fpKey = (s: unknown): string => {
    const f = fingerprint(game.encode(s));
    return `${f.lo}:${f.hi}`;
  };
  let won = 0;
  let lost = 0;
  const count = (s: unknown): void => {
    const st = game.status(s);
    if (st === 'won') won++;
    if (st === 'lost') lost++;
  };
  count(root);
  for (let i = 0; i < queue.length; i++) {
    const s = queue[i];
    if (game.status(s) !== 'playing') continue;
    const out = new Set<string>();
    successors.set(fpKey(s), out);
    for (const m of moves) {
      const t = game.step(s, m);
      out.add(fpKey(t));
      const k = key(t);
      let id = seen.get(k);
      if (id === undefined) {
        id = seen.size;
        seen.set(k, id);
        queue.push(t);
        count(t);
      }
      edges.add(`${i}>${id}`);
    }
  }
  return { nodes: seen.size, edges: edges.size, won, lost, successors };
}

/** The same adjacency read off the explorer's graph, by fingerprint. */
function successorsOf(g: StateGraph): Map<string, Set<string>> {
  const key = (u: number): string => `${g.fingerprintLo![u]}:${g.fingerprintHi![u]}`;
  const out = new Map<string, Set<string>>();
  for (let u = 0; u < g.nodeCount; u++) {
    if (!(g.flags[u] & NodeFlag.EXPANDED)) continue;
    const set = new Set<string>();
    for (let e = g.edgeStart[u]; e < g.edgeStart[u + 1]; e++) set.add(key(g.edgeTarget[e]));
    out.set(key(u), set);
  }
  return out;
}

/** Everything in the result that does not depend on timing. */
function stable(r: object): object {
  const { seconds, transitionsPerSecond, workers, storeBytes, bytesPerState, schedule, ...rest } = r as Record<string, unknown>;
  return rest;
}

function arrays(g: StateGraph): object {
  return { ...g, actions: [...g.actions] };
}

type Explored = Awaited<ReturnType<typeof exploreGraph>>;

/** The spread fixture's level 1 and its reference: one batch at a time on this thread, claimed by the coordinator, a table that never grows. */
async function spreadReference(): Promise<{ loaded: Awaited<ReturnType<typeof loadGame>>; reference: Explored }> {
  const loaded = await loadGame(fixture('spread'));
  return { loaded, reference: await exploreGraph(loaded, { level: 1, expander: inlineExpander(loaded.game), batchSteps: 10 ** 9 }) };
}

/** The same graph and numbers as the reference (timings and store sizes aside). */
function expectSame(run: Explored, reference: Explored): void {
  expect(stable(run.result)).toEqual(stable(reference.result));
  expect(arrays(run.graph)).toEqual(arrays(reference.graph));
}

/** Wraps an expander to count the states it was given (the rest were expanded on the coordinator's thread). */
function counting(inner: Expander, ready: () => boolean = () => inner.ready): { expander: Expander; states: () => number } {
  let states = 0;
  const expander: Expander = {
    workers: inner.workers,
    get ready() {
      return ready();
    },
    run(task) {
      states += task.ends.length;
      return inner.run(task);
    },
  };
  if (inner.runAndClaim) {
    expander.runAndClaim = (task, table, tickets) => {
      states += task.ends.length;
      return inner.runAndClaim!(task, table, tickets);
    };
  }
  return { expander, states: () => states };
}

/** The shared pool of this size, started and with the game loaded. */
async function startedPool(workers: number, module: string, level: number): Promise<Expander> {
  const expander = poolExpander(workers, module, level, new Watchdog());
  while (!expander.ready) await new Promise((resolve) => setTimeout(resolve, 5));
  return expander;
}

beforeAll(async () => {
  await initIdentity();
});

describe('explore', () => {
  const cases: [string, number][] = [
    ['ruin', 1], ['ruin', 3], ['ruin', 6], ['maze', 1], ['maze', 2], ['lights', 1], ['lights', 2], ['spread', 1],
  ];
  it.each(cases)('%s level %i matches a brute-force search, edge for edge', async (name, level) => {
    const loaded = await loadGame(fixture(name));
    const truth = bruteForce(loaded.game, level);
    const { result, graph } = await exploreGraph(loaded, { level, workers: 2 });
    expect(result).toMatchObject({ nodes: truth.nodes, edges: truth.edges, fullyExplored: true, stopReason: null, frontier: 0 });
    expect(result.terminals.won).toBe(truth.won);
    expect(result.terminals.lost).toBe(truth.lost);
    expect(successorsOf(graph)).toEqual(truth.successors);
  });

  it('gives the same graph and numbers with 1, 2, 3, 8 or 16 workers, whoever claims, in any completion order', async () => {
    const { loaded, reference } = await spreadReference();
    const expanded = reference.result.nodes - reference.result.terminals.won - reference.result.terminals.lost;
    const runs = [];
    let again = 0;
    for (const [workers, claimIn] of [[1, 'workers'], [2, 'workers'], [3, 'workers'], [8, 'workers'], [16, 'workers'], [2, 'coordinator'], [8, 'coordinator']] as const) {
      // Every batch goes to the started pool's threads (none is expanded on this thread), through
      // a table that starts tiny: it grows many times, and batches that find it full are cut
      // short and their rest expanded again.
      const { expander, states } = counting(await startedPool(workers, loaded.module, 1));
      const run = await exploreGraph(loaded, { level: 1, expander, batchSteps: 300, claimIn, tableSlots: 1024 });
      expect(states()).toBeGreaterThanOrEqual(expanded);
      again += states() - expanded;
      runs.push(run);
    }
    expect(again).toBeGreaterThan(0);
    let seed = 7;
    const jitter = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % 5);
    runs.push(await exploreGraph(loaded, { level: 1, expander: inlineExpander(loaded.game, jitter), batchSteps: 100, tableSlots: 600 }));
    for (const run of runs) {
      expectSame(run, reference);
    }
  });

  it('hands the workers a grown table whose tags are all ids, and tickets that start over, and has them collect at the end, with the same result', async () => {
    const { loaded, reference } = await spreadReference();
    const inner = await startedPool(3, loaded.module, 1);
    let capacity = 0;
    let collections = 0;
    const grown: { tickets: number; drawn: number }[] = [];
    const expander: Expander = {
      workers: 3,
      ready: true,
      collect: () => collections++,
      run: (task) => inner.run(task),
      runAndClaim(task, table, tickets) {
        if (capacity !== 0 && table.capacity !== capacity) {
          // The first batch after a growth: what the table and the tickets hold before it claims.
          let named = 0;
          new SharedTable(table).forEach((_lo, _hi, tag) => (named += tag < ID_BASE ? 1 : 0));
          grown.push({ tickets: named, drawn: new Uint32Array(tickets.counter)[0] });
        }
        capacity = table.capacity;
        return inner.runAndClaim!(task, table, tickets);
      },
    };
    // Batches small enough that the claims in flight never fill the table past its limit (a batch
    // cut short leaves later batches unmerged at the growth, and their tickets must stay).
    const run = await exploreGraph(loaded, { level: 1, expander, batchSteps: 20, claimIn: 'workers', tableSlots: 4096 });
    expect(grown.length).toBeGreaterThan(3);
    expect(grown).toEqual(grown.map(() => ({ tickets: 0, drawn: 0 })));
    // Once, when the search ends: the old tables here are too small to be worth one.
    expect(collections).toBe(1);
    expectSame(run, reference);
  });

  it('packs hundreds of results into a few reply buffers, each used again once its batch is merged, with the same result', async () => {
    const { loaded, reference } = await spreadReference();
    const inner = await startedPool(3, loaded.module, 1);
    // A buffer comes back from a worker as a new object over the same memory: a merged result's
    // buffer is marked in its last word, past the messages packed into it.
    const MARK = 0x7eadbeef;
    const last = (r: { node: Int32Array }): Int32Array => new Int32Array(r.node.buffer, r.node.buffer.byteLength - 4, 1);
    let batches = 0;
    let reused = 0;
    const seen = <T extends { node: Int32Array }>(r: T): T => {
      batches++;
      if (last(r)[0] === MARK) reused++;
      return r;
    };
    const expander: Expander = {
      workers: 3,
      ready: true,
      run: async (task) => seen(await inner.run(task)),
      runAndClaim: async (task, table, tickets) => seen(await inner.runAndClaim!(task, table, tickets)),
      release(r) {
        last(r as ExpandResult)[0] = MARK;
        inner.release!(r);
      },
    };
    for (const claimIn of ['workers', 'coordinator'] as const) {
      batches = 0;
      reused = 0;
      const run = await exploreGraph(loaded, { level: 1, expander, batchSteps: 20, claimIn });
      expect(batches).toBeGreaterThan(300);
      // All but the first few (a buffer too small for a result is replaced by a larger one).
      expect(reused).toBeGreaterThan(0.8 * batches);
      expectSame(run, reference);
    }
  });

  it('sizes batches by the frontier where the workers claim: short while it is narrow, up to 32k steps once it is wide', async () => {
    const loaded = await loadGame('bx19');
    const inner = await startedPool(2, loaded.module, 2);
    const sizes: number[] = [];
    const expander: Expander = {
      workers: 2,
      ready: true,
      run: (task) => inner.run(task),
      runAndClaim: (task, table, tickets) => (sizes.push(task.ends.length), inner.runAndClaim!(task, table, tickets)),
      release: (r) => inner.release!(r),
    };
    const { result } = await exploreGraph(loaded, { level: 2, expander, claimIn: 'workers', maxNodes: 300_000 });
    expect(result.stopReason).toBe('max-nodes');
    // bx19 takes 5 steps a state: 8k steps are 1,638 states, 32k steps 6,553, capped at 4,096 a batch.
    expect(sizes.slice(0, 20).every((n) => n <= 1_638)).toBe(true);
    expect(Math.max(...sizes)).toBe(4_096);
    expect(sizes.filter((n) => n === 4_096).length).toBeGreaterThan(10);
  });

  it('keeps a batch of a game with grid-sized states under 16 MB of successors', async () => {
    // A cursor in a 16x16 corner of a 64x64 grid paints its cell: 8 KB a state, 5 moves a state.
    const N = 64;
    type Grid = { x: number; y: number; g: Uint8Array };
    const game: Game<Grid> = {
      id: 'grid',
      title: 'Grid painter',
      levels: 1,
      tutorialLevels: 0,
      actions: [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4, GameAction.ACTION5],
      init: () => ({ x: 0, y: 0, g: new Uint8Array(2 * N * N) }),
      step: (s, a) => {
        if (a.id === GameAction.ACTION5) {
          const g = s.g.slice();
          g[s.y * N + s.x] ^= 1;
          return { ...s, g };
        }
        const dx = a.id === GameAction.ACTION4 ? 1 : a.id === GameAction.ACTION3 ? -1 : 0;
        const dy = a.id === GameAction.ACTION2 ? 1 : a.id === GameAction.ACTION1 ? -1 : 0;
        return { x: Math.max(0, Math.min(15, s.x + dx)), y: Math.max(0, Math.min(15, s.y + dy)), g: s.g };
      },
      status: () => 'playing',
      render: () => [new Uint8Array(N * N)],
      encode: (s) => {
        const b = new Uint8Array(2 + s.g.length);
        b[0] = s.x;
        b[1] = s.y;
        b.set(s.g, 2);
        return b;
      },
      decode: (b) => ({ x: b[0], y: b[1], g: b.slice(2) }),
    };
    const inner = inlineExpander(game);
    const bytes: number[] = [];
    const expander: Expander = { workers: 1, ready: true, run: (task) => (bytes.push(task.states.length), inner.run(task)) };
    const { result } = await exploreGraph(game, { level: 1, expander, maxNodes: 6_000 });
    expect(result.stopReason).toBe('max-nodes');
    // Each state's 5 successors of 8 KB: 16 MB is 2,048 steps, about 410 states (half a state's over by rounding).
    const successorBytes = bytes.map((b) => 5 * b);
    expect(Math.max(...successorBytes)).toBeLessThanOrEqual(16 * 2 ** 20 + 5 * 8194);
    expect(Math.max(...successorBytes)).toBeGreaterThan(15 * 2 ** 20);
  });

  it('hands out no batch past a node limit the batches in flight are expected to reach', async () => {
    const loaded = await loadGame('bx19');
    const { expander, states } = counting(await startedPool(3, loaded.module, 2));
    for (const maxNodes of [50_000, 200_000]) {
      const before = states();
      const { result } = await exploreGraph(loaded, { level: 2, expander, batchSteps: 2_000, maxNodes });
      expect(result.stopReason).toBe('max-nodes');
      // Batches of 400 states, up to 12 in flight: without the check, thousands of states past the limit.
      const wasted = states() - before - (result.nodes - result.frontier);
      expect(wasted).toBeGreaterThanOrEqual(0);
      expect(wasted).toBeLessThanOrEqual(800);
    }
  });

  it('shares a narrow frontier evenly between idle workers instead of handing one of them a full batch', async () => {
    const loaded = await loadGame('bx19');
    const { expander, sizes } = sizedInline(loaded.game, 4);
    // Batches of 2 states (10 steps, 5 moves a state); the reset state has 3 successors and 4 workers are idle.
    const { result } = await exploreGraph(loaded, { level: 2, expander, batchSteps: 10, maxNodes: 200 });
    expect(sizes.slice(0, 4)).toEqual([1, 1, 1, 1]);
    expect(result.stopReason).toBe('max-nodes');
  });

  it('hands out full batches while a result waits to be merged, and shares the frontier among idle workers only when none does', async () => {
    const loaded = await loadGame('bx19');
    // Eight workers whose batches are all done by the time the coordinator looks: a result always waits.
    const { expander, sizes } = sizedInline(loaded.game, 8);
    const { result } = await exploreGraph(loaded, { level: 2, expander, maxNodes: 50_000, batchSteps: 2_000 });
    // The first layers are shared evenly (one state each while the frontier is that narrow)...
    expect(sizes.slice(0, 4)).toEqual([1, 1, 1, 1]);
    // ...and past them batches stay full: 2,000 steps are 400 bx19 states. Shared among idle
    // workers after every merge, the same search went out in 425 batches of 79 states on average.
    expect(result.schedule.batches).toBe(sizes.length);
    expect(result.schedule.batches).toBeLessThan(150);
    expect(sizes.filter((n) => n >= 390).length).toBeGreaterThan(60);
  });

  it('takes in the results that came back during a run of merges before merging on, with the same result', async () => {
    const { loaded, reference } = await spreadReference();
    // Every fourth batch comes back late, so results wait behind it and are then merged in a run;
    // the others come back on the event loop's next turn. Each merge takes 2 ms.
    const inner = inlineExpander(loaded.game);
    const events: string[] = [];
    let launched = 0;
    const expander: Expander = {
      workers: 2,
      ready: true,
      run(task) {
        const late = launched++ % 4 === 0;
        const id = launched;
        events.push(`L${id}`);
        const result = inner.run(task);
        return new Promise((resolve) => (late ? setTimeout : setImmediate)(() => (events.push(`C${id}`), resolve(result)), 10));
      },
      release() {
        const end = performance.now() + 2;
        while (performance.now() < end);
        events.push('M');
      },
    };
    const run = await exploreGraph(loaded, { level: 1, expander, batchSteps: 100, claimIn: 'coordinator' });
    expectSame(run, reference);
    // Merges in a run happened (results waited behind a late one) ...
    expect(events.join(' ')).toMatch(/M M/);
    // ... and yet a batch that came back at once was taken in after at most one merge.
    const mergesBefore = (i: number): number => events.slice(0, i).filter((e) => e === 'M').length;
    let prompt = 0;
    for (let id = 1; id <= launched; id++) {
      if ((id - 1) % 4 === 0) continue;
      const back = events.indexOf(`C${id}`);
      expect(mergesBefore(back) - mergesBefore(events.indexOf(`L${id}`))).toBeLessThanOrEqual(1);
      prompt++;
    }
    expect(prompt).toBeGreaterThan(20);
  });

  it('claims for an expander that cannot reach the table and repeats successors within a batch, with the same result', async () => {
    const { loaded, reference } = await spreadReference();
    // Like a Python game's processes: plain ExpandResult records, a successor that an earlier state
    // of the batch reached sent again in full (node -1, its bytes) rather than as a pointer.
    const inner = inlineExpander(loaded.game);
    const repeating: Expander = {
      workers: 3,
      ready: true,
      async run(task) {
        const r = await inner.run(task);
        const node = r.node.slice();
        const outcome = r.outcome.slice();
        const chunks: Uint8Array[] = [];
        const bytesEnd = new Uint32Array(node.length);
        let length = 0;
        for (let k = 0; k < node.length; k++) {
          let j = k;
          while (r.node[j] <= -2) j = -2 - r.node[j];
          node[k] = -1;
          outcome[k] = r.outcome[j];
          const bytes = r.bytes.subarray(j > 0 ? r.bytesEnd[j - 1] : 0, r.bytesEnd[j]);
          chunks.push(bytes);
          bytesEnd[k] = length += bytes.length;
          if (k !== j) expect([r.lo[k], r.hi[k]]).toEqual([r.lo[j], r.hi[j]]);
        }
        const bytes = new Uint8Array(length);
        chunks.forEach((c, k) => bytes.set(c, k > 0 ? bytesEnd[k - 1] : 0));
        return { ...r, node, outcome, bytes, bytesEnd };
      },
    };
    const run = await exploreGraph(loaded, { level: 1, expander: repeating, batchSteps: 500, tableSlots: 700 });
    expectSame(run, reference);
  });

  it('counts a pool that cannot load the game as started, so its batches fail instead of running here', async () => {
    const module = join(tmpdir(), 'arcgraph-no-such-game.js');
    const expander = poolExpander(3, module, 1, new Watchdog());
    for (let waited = 0; !expander.ready && waited < 20_000; waited += 5) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(expander.ready).toBe(true);
    await expect(expander.run({ module, level: 1, states: new Uint8Array(0), ends: new Uint32Array(0) })).rejects.toThrow(/arcgraph-no-such-game/);
  });

  it('numbers nodes so that replaying each BFS path from the reset state reaches that node', async () => {
    const loaded = await loadGame(fixture('maze'));
    const { graph } = await exploreGraph(loaded, { level: 2, workers: 1 });
    for (let u = 0; u < graph.nodeCount; u++) {
      let s = loaded.game.init(2);
      for (const code of bfsPath(graph, u)) s = loaded.game.step(s, code < 8 ? { id: code as GameAction } : parseAction(`6@${(code - 8) % 64},${Math.floor((code - 8) / 64)}`));
      const fp = fingerprint(loaded.game.encode(s));
      expect([fp.lo, fp.hi]).toEqual([graph.fingerprintLo![u], graph.fingerprintHi![u]]);
      expect(depthOf(graph, u)).toBe(bfsPath(graph, u).length);
    }
  });

  it('never exceeds a node, edge or step limit, stops deterministically, and reports the frontier', async () => {
    const loaded = await loadGame(fixture('lights'));
    const full = (await exploreGraph(loaded, { level: 2, workers: 1 })).result;
    const limits: [keyof ExploreOptions, 'nodes' | 'edges' | 'transitions', string][] = [
      ['maxNodes', 'nodes', 'max-nodes'], ['maxEdges', 'edges', 'max-edges'], ['maxSteps', 'transitions', 'max-steps'],
    ];
    for (const [option, measure, reason] of limits) {
      for (const limit of [1, 10, 57, 300, Math.floor(full[measure] / 2), full[measure] - 1]) {
        // Workers that claim against a coordinator that claims: the same stop.
        const a = (await exploreGraph(loaded, { level: 2, workers: 3, claimIn: 'workers', batchSteps: 300, [option]: limit })).result;
        const b = (await exploreGraph(loaded, { level: 2, workers: 1, [option]: limit })).result;
        expect(a[measure]).toBeLessThanOrEqual(limit);
        expect(stable(a)).toEqual(stable(b));
        expect(a.fullyExplored).toBe(false);
        expect(a.stopReason).toBe(reason);
        expect(a.frontier).toBeGreaterThan(0);
      }
      const exact = (await exploreGraph(loaded, { level: 2, workers: 2, [option]: full[measure] })).result;
      expect(exact.fullyExplored).toBe(true);
    }
  });

  it('stops at the node limit, not with a crash, before the workers could draw more tickets than a tag names', async () => {
    const loaded = await loadGame(fixture('spread'));
    const full = await exploreGraph(loaded, { level: 1, workers: 2 });
    // The ticket counter as if 2^31 claims were near: from the fourth batch on, none may be sent.
    let asked = 0;
    const drawn = vi.spyOn(TicketIds.prototype, 'drawn', 'get').mockImplementation(() => (++asked > 3 ? MAX_TICKET - 1000 : 0));
    try {
      const { result, graph } = await exploreGraph(loaded, { level: 1, workers: 2, claimIn: 'workers', batchSteps: 200 });
      expect(result).toMatchObject({ stopReason: 'max-nodes', fullyExplored: false });
      expect(result.nodes).toBeGreaterThan(1);
      expect(result.nodes).toBeLessThan(full.result.nodes);
      for (let u = 0; u < graph.nodeCount; u++) expect(graph.fingerprintLo![u]).toBe(full.graph.fingerprintLo![u]);
    } finally {
      drawn.mockRestore();
    }
  });

  it('stops at the memory budget with a consistent partial graph, and runs to the end within a generous one', async () => {
    const loaded = await loadGame(fixture('spread'));
    const full = await exploreGraph(loaded, { level: 1, workers: 2 });
    // A budget the process is already far past (a collection meanwhile must not bring it back
    // under): it stops after the first batch it merges.
    const { result, graph } = await exploreGraph(loaded, { level: 1, workers: 2, maxMemory: process.memoryUsage.rss() / 2 / 2 ** 30, batchSteps: 200 });
    expect(result).toMatchObject({ stopReason: 'max-memory', fullyExplored: false });
    expect(result.nodes).toBeGreaterThan(1);
    expect(result.nodes).toBeLessThan(full.result.nodes);
    // The partial graph is the start of the full one: same numbering, same edges for each expanded node.
    for (let u = 0; u < graph.nodeCount; u++) {
      expect(graph.fingerprintLo![u]).toBe(full.graph.fingerprintLo![u]);
      if (!(graph.flags[u] & NodeFlag.EXPANDED)) continue;
      const edges = (g: StateGraph) => [...g.edgeTarget.subarray(g.edgeStart[u], g.edgeStart[u + 1])];
      expect(edges(graph)).toEqual(edges(full.graph));
    }
    const roomy = await exploreGraph(loaded, { level: 1, workers: 2, maxMemory: 64 });
    expect(stable(roomy.result)).toEqual(stable(full.result));
  });

  it('says once when the search has stopped, after its last progress, whether complete or at a limit', async () => {
    const loaded = await loadGame(fixture('lights'));
    for (const limit of [{}, { maxNodes: 57 }]) {
      const events: string[] = [];
      const { result } = await exploreGraph(loaded, { level: 2, workers: 2, batchSteps: 30, ...limit, onProgress: () => events.push('progress'), onSearchEnd: () => events.push('end') });
      events.push('returned');
      expect(events.filter((e) => e === 'end')).toHaveLength(1);
      expect(events.slice(-2)).toEqual(['end', 'returned']);
      expect(result.fullyExplored).toBe(!('maxNodes' in limit));
    }
  });

  it('stops on an abort signal with the partial result', async () => {
    const loaded = await loadGame(fixture('lights'));
    const abort = new AbortController();
    abort.abort();
    const { result } = await exploreGraph(loaded, { level: 2, workers: 1, signal: abort.signal, batchSteps: 10 });
    expect(result.stopReason).toBe('interrupted');
    expect(result.fullyExplored).toBe(false);
    // Stopped before the first batch was merged: the root alone, on the frontier.
    expect(result.nodes).toBe(1);
    expect(result.frontier).toBe(1);
  });

  it('exports GEXF and Graphology JSON that read back to the same graph', async () => {
    const loaded = await loadGame(fixture('maze'));
    const { graph } = await exploreGraph(loaded, { level: 1, workers: 1 });
    const dir = tempDir();
    await exportGraph(graph, join(dir, 'g.gexf'));
    await exportGraph(graph, join(dir, 'g.json'));
    const fromGexf = parseGexf(graphology.DirectedGraph, readFileSync(join(dir, 'g.gexf'), 'utf8'));
    const fromJson = graphology.DirectedGraph.from(JSON.parse(readFileSync(join(dir, 'g.json'), 'utf8')));
    for (const g of [fromGexf, fromJson]) {
      expect(g.order).toBe(graph.nodeCount);
      expect(g.size).toBe(graph.edgeCount);
      for (let u = 0; u < graph.nodeCount; u++) {
        expect(g.getNodeAttribute(String(u), 'depth')).toBe(depthOf(graph, u));
        const out = g.outNeighbors(String(u)).map(Number).sort((x, y) => x - y);
        const expected = [...new Set(graph.edgeTarget.subarray(graph.edgeStart[u], graph.edgeStart[u + 1]))].sort((x, y) => x - y);
        expect(out).toEqual(expected);
      }
      const start = g.getNodeAttributes('0');
      expect(start.kind).toBe('start');
      const weights = g.outEdges('0').map((e) => g.getEdgeAttribute(e, 'weight') as number);
      expect(weights.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    const won = fromJson.filterNodes((_, a) => a.kind === 'won' || a.kind === 'complete');
    expect(won.length).toBe([...graph.flags].filter((f) => f & NodeFlag.WON).length);
  });

  it.each(['coordinator', 'workers'] as const)('reports a crashing game with an action sequence that reproduces the crash (%s claiming)', async (claimIn) => {
    const loaded = await loadGame(fixture('boom'));
    const err = await exploreGraph(loaded, { level: 1, workers: 2, claimIn }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GameCrash);
    const crash = err as GameCrash;
    expect(crash.game).toBe('boom');
    expect(crash.level).toBe(1);
    let s = loaded.game.init(1);
    const actions = crash.actions.map(parseAction);
    for (const a of actions.slice(0, -1)) s = loaded.game.step(s, a);
    expect(() => loaded.game.step(s, actions[actions.length - 1])).toThrow(crash.reason);
  });
});
