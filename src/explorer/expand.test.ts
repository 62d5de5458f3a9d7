import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { playerMoves, type Game } from '../engine/game.js';
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

describe('expandBatch', () => {
  beforeAll(initIdentity);

  it.each([
    ['spread', 1],
    ['lights', 1],
    ['maze', 2],
  ])('points repeated successors at their first record and ships bytes only for the rest (%s)', async (name, level) => {
    const { game } = await loadGame(fixture(name));
    const states = playingStates(game, level, 600);
    const r = expandBatch(game, taskOf(states, level));

    // Independent truth: each state's distinct successors, in action order.
    const truth: string[] = [];
    for (const bytes of states) {
      const s = game.decode(bytes);
      const seen = new Set<string>();
      for (const a of playerMoves(game, s)) {
        const f = fingerprint(game.encode(game.step(s, a)));
        seen.add(`${f.lo}:${f.hi}`);
      }
      truth.push(...seen);
    }
    expect(Array.from(r.lo, (lo, k) => `${lo}:${r.hi[k]}`)).toEqual(truth);

    const unresolved = new Set<string>();
    let stateStart = 0;
    let s = 0;
    let refs = 0;
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
        expect(unresolved.has(key)).toBe(false);
        unresolved.add(key);
      }
      if (node === -1 && r.outcome[k] === StepOutcome.PLAYING) {
        const f = fingerprint(bytes);
        expect(`${f.lo}:${f.hi}`).toBe(key);
      } else {
        expect(bytes.length).toBe(0);
      }
    }
    expect(refs).toBeGreaterThan(0);
  });
});
