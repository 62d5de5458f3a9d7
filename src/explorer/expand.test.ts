import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { GameAction } from '../engine/actions.js';
import { clickClasses, playerMoves, type Game } from '../engine/game.js';
import { fingerprint, initIdentity } from '../engine/identity.js';
import { loadGame } from '../suite/loader.js';
import { expandBatch, StepOutcome, type ExpandTask } from './expand.js';

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
