/** The raw single-threaded step loop, the baseline every explorer speed is compared with. */
import { playerMoves, type Game } from '../src/engine/index.js';
import { fingerprintInto } from '../src/engine/index.js';

/** States as canonical bytes packed back to back, with the end offset of each. */
export interface PackedStates {
  bytes: Uint8Array;
  ends: Uint32Array;
}

/**
 * The first `count` non-terminal states in BFS order (the explorer's frontier), their canonical
 * bytes packed back to back: a million separate arrays would weigh on every garbage collection of
 * the explorer runs measured beside them.
 */
export function bfsStates(game: Game, level: number, count: number): PackedStates {
  const seen = new Set<string>();
  const fp = { lo: 0, hi: 0 };
  let queue: unknown[] = [game.init(level)];
  const out: Uint8Array[] = [];
  for (let i = 0; i < queue.length && out.length < count; i++) {
    const s = queue[i];
    if (game.status(s) !== 'playing') continue;
    out.push(game.encode(s));
    for (const a of playerMoves(game, s)) {
      const t = game.step(s, a);
      fingerprintInto(game.encode(t), fp);
      const key = `${fp.lo}:${fp.hi}`;
      if (!seen.has(key)) {
        seen.add(key);
        queue.push(t);
      }
    }
  }
  queue = [];
  const ends = new Uint32Array(out.length);
  let total = 0;
  out.forEach((b, i) => (ends[i] = total += b.length));
  const bytes = new Uint8Array(total);
  out.forEach((b, i) => bytes.set(b, ends[i] - b.length));
  return { bytes, ends };
}

/** The limit: decode, step every move, encode, hash and classify, single-threaded, nothing stored. Returns the transitions taken. */
export function rawSteps(game: Game, states: PackedStates): number {
  const fp = { lo: 0, hi: 0 };
  let steps = 0;
  for (let i = 0, start = 0; i < states.ends.length; start = states.ends[i++]) {
    const s = game.decode(states.bytes.subarray(start, states.ends[i]));
    for (const a of playerMoves(game, s)) {
      const next = game.step(s, a);
      fingerprintInto(game.encode(next), fp);
      game.status(next);
      steps++;
    }
  }
  return steps;
}
