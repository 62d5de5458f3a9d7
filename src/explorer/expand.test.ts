import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GameAction } from '../engine/actions.js';
import { sameBytes } from '../engine/checks.js';
import { clickClasses, playerMoves, type Game } from '../engine/game.js';
import { fingerprint, initIdentity } from '../engine/identity.js';
import { loadGame } from '../suite/loader.js';
import { expandAndClaim, expandBatch, StepOutcome, type ClaimedBatch, type ExpandTask } from './expand.js';
import { SharedTable } from './shared-table.js';
import { TicketIds, TicketSource } from './tickets.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

/** The first `count` playing states of a level in BFS order, as canonical bytes. */
function playingStates(game: Game, level: number, count: number): Uint8Array[] {
  const seen = new Set<string>();
  const queue = [game.init(level)];
  const out: Uint8Array[] = [];
  for (let i = 0; i < queue.length && out.length < count; i++) {
    if (game.status(queue[i]) !== 'playing') continue;
    out.push(game.encode(queue[i]));
    for (const a of playerMoves(game, queue[i])) {
      const next = game.step(queue[i], a);
      const key = Buffer.from(game.encode(next)).toString('hex');
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(next);
      }
    }
  }
  return out;
}

function taskOf(states: Uint8Array[], level: number): ExpandTask {
  const ends = new Uint32Array(states.length);
  let total = 0;
  states.forEach((s, i) => (ends[i] = total += s.length));
  const bytes = new Uint8Array(total);
  states.forEach((s, i) => bytes.set(s, ends[i] - s.length));
  return { module: '', level, states: bytes, ends };
}

/** What the kernel must give whatever its index remembers: per state its distinct successors in action order, pointers to the same successor, bytes where they are due. */
function checkRecords(game: Game, states: Uint8Array[], level: number) {
  const r = expandBatch(game, taskOf(states, level));

  // Independent truth: each state's distinct successors in action order, and the keys and click cells reaching each.
  const truth: string[] = [];
  for (const bytes of states) {
    const s = game.decode(bytes);
    const seen = new Map<string, { keys: number; cells: number }>();
    const classCells = new Map(game.actions.includes(GameAction.ACTION6) ? clickClasses(game, s).map((c) => [`${c.x},${c.y}`, c.cells]) : []);
    for (const a of playerMoves(game, s)) {
      const f = fingerprint(game.encode(game.step(s, a)));
      const key = `${f.lo}:${f.hi}`;
      const ways = seen.get(key) ?? { keys: 0, cells: 0 };
      if (a.id === GameAction.ACTION6) ways.cells += classCells.get(`${a.x},${a.y}`)!;
      else ways.keys |= 1 << a.id;
      seen.set(key, ways);
    }
    for (const [key, { keys, cells }] of seen) truth.push(`${key} ${keys} ${cells}`);
  }
  expect(Array.from(r.lo, (lo, k) => `${lo}:${r.hi[k]} ${r.keys[k]} ${r.cells[k]}`)).toEqual(truth);

  let stateStart = 0;
  let s = 0;
  let refs = 0;
  let repeatsSent = 0;
  const sent = new Set<string>();
  for (let k = 0; k < r.lo.length; k++) {
    while (k >= r.recordEnds[s]) stateStart = r.recordEnds[s++];
    const key = `${r.lo[k]}:${r.hi[k]}`;
    const node = r.node[k];
    const bytes = r.bytes.subarray(k > 0 ? r.bytesEnd[k - 1] : 0, r.bytesEnd[k]);
    if (node <= -2) {
      // An earlier state's record of the same successor, one the coordinator resolves itself.
      const j = -2 - node;
      refs++;
      expect(j).toBeLessThan(stateStart);
      expect(`${r.lo[j]}:${r.hi[j]}`).toBe(key);
      expect(r.node[j]).toBe(-1);
      expect(r.outcome[k]).toBe(r.outcome[j]);
    } else {
      expect(node).toBe(-1);
      if (sent.has(key)) repeatsSent++;
      sent.add(key);
    }
    if (node === -1 && r.outcome[k] === StepOutcome.PLAYING) {
      const f = fingerprint(bytes);
      expect(`${f.lo}:${f.hi}`).toBe(key);
    } else {
      expect(bytes.length).toBe(0);
    }
  }
  return { records: r.lo.length, refs, repeatsSent };
}

describe('expandBatch', () => {
  beforeAll(initIdentity);

  it.each([
    ['spread', 1],
    ['lights', 1],
    ['maze', 2],
  ])('points repeated successors at their first record and ships bytes only for the rest (%s)', async (name, level) => {
    const { game } = await loadGame(fixture(name));
    const { refs, repeatsSent } = checkRecords(game, playingStates(game, level, 600), level);
    expect(refs).toBeGreaterThan(0);
    // A batch this small fits the index: every repeat is a pointer.
    expect(repeatsSent).toBe(0);
  });

  it('remembers the latest states only in a long batch: older repeats come as records of their own', async () => {
    const { game } = await loadGame(fixture('spread'));
    const { records, refs, repeatsSent } = checkRecords(game, playingStates(game, 1, 7000), 1);
    expect(records).toBeGreaterThan(16_000);
    expect(repeatsSent).toBeGreaterThan(0);
    expect(refs).toBeGreaterThan(repeatsSent);
  });

  it('merges the moves of a state with a successor for every cell (clicks without targets), state after state', () => {
    // Each state is (depth, cell); a click on cell c leads to (depth + 1, c), ACTION1 to (depth + 1, 0) like a click on cell 0.
    const game: Game<number[]> = {
      id: 'cells',
      title: 'Every cell a successor',
      levels: 1,
      tutorialLevels: 0,
      actions: [GameAction.ACTION1, GameAction.ACTION6],
      init: () => [0, 0],
      step: (s, a) => [s[0] + 1, a.id === GameAction.ACTION6 ? a.y! * 64 + a.x! : 0],
      status: (s) => (s[0] >= 3 ? 'lost' : 'playing'),
      render: () => [new Uint8Array(4096)],
      encode: (s) => Uint8Array.of(s[0], s[1] >> 8, s[1] & 255),
      decode: (b) => [b[0], (b[1] << 8) | b[2]],
    };
    // Four states of depth 1 share their 4,096 successors: the second points at the first's, the
    // index forgets before the third, whose records are sent again, and the fourth points at those.
    const states = [0, 1, 2, 3].map((cell) => game.encode([1, cell]));
    const { records, refs, repeatsSent } = checkRecords(game, states, 1);
    expect(records).toBe(4 * 4096);
    expect(refs).toBe(2 * 4096);
    expect(repeatsSent).toBe(4096);
  });
});

/** A batch claimed in a fresh table (a few successors known first: numbered, claimed by another batch, claimed and since numbered), and the same batch expanded without claims. */
function claimBatch(game: Game, states: Uint8Array[], level: number, limit?: number) {
  const task = taskOf(states, level);
  const truth = expandBatch(game, task);
  const table = SharedTable.create(1 << 16, limit);
  const ids = new TicketIds();
  // Seeds: the successors of state 2 (met first there; a fault in a later state leaves them the same).
  const key = (k: number): string => `${truth.lo[k]}:${truth.hi[k]}`;
  const seeded = new Map<string, { id?: number; ticket?: number }>();
  const [a, b, c] = [0, 1, 2].map((i) => Math.min(truth.recordEnds[1] + i, truth.recordEnds[2] - 1));
  table.reserve(3);
  table.insertAt(-1 - table.lookup(truth.lo[a], truth.hi[a]), truth.lo[a], truth.hi[a], 7);
  seeded.set(key(a), { id: 7 });
  for (const [k, ticket, id] of [[b, 900_001, undefined], [c, 900_002, 8]] as const) {
    if (seeded.has(key(k))) continue;
    table.claim(truth.lo[k], truth.hi[k], ticket);
    if (id !== undefined) ids.set(ticket, id);
    seeded.set(key(k), id === undefined ? { ticket } : { id });
  }
  table.release();
  const seededEntries = table.claims;
  const result = expandAndClaim(game, task, table, new TicketSource(ids.handle));
  return { truth, result, seeded, table, seededEntries };
}

/** Every record of the states merged names its successor as the table says: a known id, or a pending successor under the ticket its fingerprint was claimed with, its bytes and outcome those of the truth. */
function checkClaims({ truth, result, seeded, table }: ReturnType<typeof claimBatch>): number {
  const records = result.expanded > 0 ? result.recordEnds[result.expanded - 1] : 0;
  expect(Array.from(result.recordEnds)).toEqual(Array.from(truth.recordEnds.subarray(0, result.expanded)));
  expect(Array.from(result.keys.subarray(0, records))).toEqual(Array.from(truth.keys.subarray(0, records)));
  const ticketOf = new Map<string, number>();
  const keyOfTicket = new Map<number, string>();
  for (let k = 0; k < records; k++) {
    const key = `${truth.lo[k]}:${truth.hi[k]}`;
    const node = result.node[k];
    if (node >= 0) {
      expect(seeded.get(key)?.id).toBe(node);
      continue;
    }
    const p = -1 - node;
    expect(p).toBeLessThan(result.ticket.length);
    const ticket = result.ticket[p];
    expect(ticketOf.get(key) ?? ticket).toBe(ticket);
    expect(keyOfTicket.get(ticket) ?? key).toBe(key);
    ticketOf.set(key, ticket);
    keyOfTicket.set(ticket, key);
    if (seeded.has(key)) expect(seeded.get(key)!.ticket).toBe(ticket);
    // The table holds the fingerprint under this ticket.
    expect(table.claim(truth.lo[k], truth.hi[k], 0)).toBe(-2);
    expect(table.ticket).toBe(ticket);
    const first = truth.node[k] <= -2 ? -2 - truth.node[k] : k;
    expect(result.outcome[p]).toBe(truth.outcome[first]);
    const bytes = result.bytes.subarray(p > 0 ? result.bytesEnd[p - 1] : 0, result.bytesEnd[p]);
    if (result.outcome[p] === StepOutcome.PLAYING) {
      const f = fingerprint(bytes);
      expect(`${f.lo}:${f.hi}`).toBe(key);
    } else expect(bytes.length).toBe(0);
  }
  // Successors the batch claimed itself (the others were in the table before it).
  return [...ticketOf.keys()].filter((key) => !seeded.has(key)).length;
}

/** The spread game, its status or a step throwing at one state. */
function faulty(game: Game, fault: { status?: (bytes: Uint8Array) => boolean; step?: (bytes: Uint8Array, action: number) => boolean }): Game {
  return {
    ...game,
    status: (s) => {
      if (fault.status?.(game.encode(s))) throw new Error('status fault');
      return game.status(s);
    },
    step: (s, a) => {
      if (fault.step?.(game.encode(s), a.id)) throw new Error('step fault');
      return game.step(s, a);
    },
  };
}

describe('expandAndClaim', () => {
  beforeAll(initIdentity);

  it.each([
    ['spread', 1, 600],
    ['lights', 1, 300],
    ['clicks', 1, 300],
  ])('claims the new successors of a batch once each, across states, as the table and the tickets say (%s)', async (name, level, count) => {
    const { game } = await loadGame(fixture(name));
    const states = playingStates(game, level, count);
    const claimed = claimBatch(game, states, level);
    expect(claimed.result.expanded).toBe(states.length);
    expect(claimed.result.error).toBeUndefined();
    const claimedHere = checkClaims(claimed);
    // The table holds the seeds and one entry per successor this batch claimed.
    expect(claimed.table.claims).toBe(claimed.seededEntries + claimedHere);
    expect(claimedHere).toBeGreaterThan(20);
  });

  it('ships the bytes of pending successors whatever their length (grid-sized states)', async () => {
    const { game: small } = await loadGame(fixture('spread'));
    // The same game with 200 bytes of its state's hash after each encoding (copied in blocks, not byte by byte).
    const pad = (b: Uint8Array): Uint8Array => {
      const out = new Uint8Array(b.length + 200);
      out.set(b);
      for (let i = 0; i < 200; i++) out[b.length + i] = (b[i % b.length] * 31 + i) & 255;
      return out;
    };
    const game: Game = { ...small, encode: (s) => pad(small.encode(s)), decode: (b) => small.decode(b.subarray(0, b.length - 200)) };
    const states = playingStates(game, 1, 200);
    const claimed = claimBatch(game, states, 1);
    expect(claimed.result.expanded).toBe(states.length);
    expect(checkClaims(claimed)).toBeGreaterThan(20);
    expect(claimed.result.bytesEnd[0]).toBeGreaterThan(200);
  });

  it('names the state whose successor\'s status threw', async () => {
    const { game } = await loadGame(fixture('spread'));
    const states = playingStates(game, 1, 40);
    const plain = claimBatch(game, states, 1);
    // The first new successor of state 3.
    const r = plain.truth;
    const k = Array.from(r.node).findIndex((v, i) => i >= r.recordEnds[2] && v === -1 && r.outcome[i] === StepOutcome.PLAYING);
    const target = r.bytes.subarray(r.bytesEnd[k - 1], r.bytesEnd[k]);
    const failing = claimBatch(faulty(game, { status: (b) => sameBytes(b, target) }), states, 1);
    expect(failing.result.error).toMatchObject({ state: 3, action: r.action[k], message: 'status fault' });
    expect(failing.result.expanded).toBe(3);
    checkClaims(failing);
  });

  it('claims the successors of the states before a step that threw, and none of that state\'s', async () => {
    const { game } = await loadGame(fixture('spread'));
    const states = playingStates(game, 1, 40);
    const { truth, seeded } = claimBatch(game, states, 1);
    // A state whose first two moves reach successors new to the batch and the table; its third move throws, after they were gathered.
    const newBy = (s: number, action: number): number => {
      for (let k = truth.recordEnds[s - 1]; k < truth.recordEnds[s]; k++) if (truth.keys[k] & (1 << action)) return truth.node[k] === -1 && !seeded.has(`${truth.lo[k]}:${truth.hi[k]}`) ? k : -1;
      return -1;
    };
    const s = states.findIndex((_, i) => i >= 3 && newBy(i, 1) >= 0 && newBy(i, 2) >= 0);
    expect(s).toBeGreaterThan(0);
    const failing = claimBatch(faulty(game, { step: (b, a) => sameBytes(b, states[s]) && a === 3 }), states, 1);
    expect(failing.result.error).toMatchObject({ state: s, action: 3, message: 'step fault' });
    expect(failing.result.expanded).toBe(s);
    expect(failing.table.claims).toBe(failing.seededEntries + checkClaims(failing));
    for (const k of [newBy(s, 1), newBy(s, 2)]) expect(failing.table.find(truth.lo[k], truth.hi[k])).toBe(-1);
  });

  it('stops at the state the table has no room for, with every earlier successor claimed', async () => {
    const { game } = await loadGame(fixture('spread'));
    const states = playingStates(game, 1, 600);
    const full = claimBatch(game, states, 1, 300);
    const r: ClaimedBatch = full.result;
    expect(r.full).toBe(true);
    expect(r.expanded).toBeGreaterThan(10);
    expect(r.expanded).toBeLessThan(600);
    checkClaims(full);
    expect(full.table.claims).toBeLessThanOrEqual(300);
    // The longest run of states whose successors to look up fit: one state more would not have.
    const lookups = (states: number): number => full.truth.node.subarray(0, full.truth.recordEnds[states - 1]).filter((v) => v === -1).length;
    expect(full.seededEntries + lookups(r.expanded)).toBeLessThanOrEqual(300);
    expect(full.seededEntries + lookups(r.expanded + 1)).toBeGreaterThan(300);
  });
});
