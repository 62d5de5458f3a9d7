import { GameAction, actionCode, type Action } from '../engine/actions.js';
import { clickClasses, type Game } from '../engine/game.js';
import { fingerprintInto, type Fingerprint } from '../engine/identity.js';

/** Successor status codes shipped back to the coordinator. */
export const Outcome = { PLAYING: 0, WON: 1, LOST: 2 } as const;

/** A batch of frontier states to expand: their canonical bytes back to back. */
export interface ExpandTask {
  module: string;
  level: number;
  states: Uint8Array;
  /** End offset of each state in `states`. */
  ends: Uint32Array;
}

/**
 * The successors of a batch, one record per distinct successor of each state (actions into the
 * same successor merged, keeping which keys and how many click cells lead there), in action order.
 */
export interface ExpandResult {
  /** Game steps taken for each state. */
  steps: Uint32Array;
  /** End index of each state's records. */
  recordEnds: Uint32Array;
  lo: Uint32Array;
  hi: Uint32Array;
  keys: Uint8Array;
  cells: Uint16Array;
  action: Uint16Array;
  outcome: Uint8Array;
  /**
   * Successor bytes of the records back to back, and each record's end offset: a playing
   * successor's canonical bytes (the coordinator keeps them if the state is new), none for a
   * terminal one (never expanded).
   */
  bytes: Uint8Array;
  bytesEnd: Uint32Array;
  /** Set when the game threw: which state of the batch, which action code, what it said. */
  error?: { state: number; action: number; message: string };
}

const KEY_ACTIONS: Action[] = [0, 1, 2, 3, 4, 5, 6, 7].map((id) => ({ id: id as GameAction }));

/** The records of a batch in typed arrays that grow by doubling (no per-record objects). */
class Records {
  count = 0;
  lo: Uint32Array;
  hi: Uint32Array;
  keys: Uint8Array;
  cells: Uint16Array;
  action: Uint16Array;
  outcome: Uint8Array;
  bytesEnd: Uint32Array;
  bytes: Uint8Array;
  bytesLength = 0;

  constructor(capacity: number) {
    this.lo = new Uint32Array(capacity);
    this.hi = new Uint32Array(capacity);
    this.keys = new Uint8Array(capacity);
    this.cells = new Uint16Array(capacity);
    this.action = new Uint16Array(capacity);
    this.outcome = new Uint8Array(capacity);
    this.bytesEnd = new Uint32Array(capacity);
    this.bytes = new Uint8Array(capacity * 32);
  }

  add(lo: number, hi: number, keys: number, cells: number, action: number, outcome: number, bytes: Uint8Array | null): void {
    if (this.count === this.lo.length) this.grow();
    const r = this.count++;
    this.lo[r] = lo;
    this.hi[r] = hi;
    this.keys[r] = keys;
    this.cells[r] = cells;
    this.action[r] = action;
    this.outcome[r] = outcome;
    if (bytes) {
      if (this.bytesLength + bytes.length > this.bytes.length) {
        const next = new Uint8Array(Math.max(this.bytes.length * 2, this.bytesLength + bytes.length));
        next.set(this.bytes.subarray(0, this.bytesLength));
        this.bytes = next;
      }
      this.bytes.set(bytes, this.bytesLength);
      this.bytesLength += bytes.length;
    }
    this.bytesEnd[r] = this.bytesLength;
  }

  private grow(): void {
    const double = <T extends Uint8Array | Uint16Array | Uint32Array>(a: T): T => {
      const next = new (a.constructor as new (n: number) => T)(a.length * 2);
      next.set(a);
      return next;
    };
    this.lo = double(this.lo);
    this.hi = double(this.hi);
    this.keys = double(this.keys);
    this.cells = double(this.cells);
    this.action = double(this.action);
    this.outcome = double(this.outcome);
    this.bytesEnd = double(this.bytesEnd);
  }
}

/** Expands every state of the batch over every available action (clicks over their classes). */
export function expandBatch(game: Game, task: ExpandTask): ExpandResult {
  const n = task.ends.length;
  const steps = new Uint32Array(n);
  const recordEnds = new Uint32Array(n);
  const rec = new Records(Math.max(16, n * game.actions.length));
  const fp: Fingerprint = { lo: 0, hi: 0 };
  let error: ExpandResult['error'];
  /** This state's records by fingerprint low half, built once a state has many (4,096 clicks). */
  let index: Map<number, number> | undefined;
  let first = 0;
  let state: unknown;

  /** Steps `state` by `a`; merges into this state's record of the same successor, or adds one. */
  const visit = (a: Action, cellCount: number, s: number): void => {
    const next = game.step(state, a);
    const bytes = game.encode(next);
    fingerprintInto(bytes, fp);
    steps[s]++;
    let r = -1;
    if (index) {
      const q = index.get(fp.lo);
      if (q !== undefined) r = rec.hi[q] === fp.hi ? q : scan(fp.lo, fp.hi);
    } else {
      r = scan(fp.lo, fp.hi);
    }
    if (r >= 0) {
      if (cellCount) rec.cells[r] += cellCount;
      else rec.keys[r] |= 1 << a.id;
      return;
    }
    const status = game.status(next);
    const o = status === 'won' ? Outcome.WON : status === 'lost' ? Outcome.LOST : Outcome.PLAYING;
    rec.add(fp.lo, fp.hi, cellCount ? 0 : 1 << a.id, cellCount, actionCode(a), o, o === Outcome.PLAYING ? bytes : null);
    if (index) {
      if (!index.has(fp.lo)) index.set(fp.lo, rec.count - 1);
    } else if (rec.count - first > 16) {
      index = new Map();
      for (let q = first; q < rec.count; q++) if (!index.has(rec.lo[q])) index.set(rec.lo[q], q);
    }
  };
  const scan = (l: number, h: number): number => {
    for (let q = first; q < rec.count; q++) if (rec.lo[q] === l && rec.hi[q] === h) return q;
    return -1;
  };

  let start = 0;
  for (let s = 0; s < n; s++) {
    const end = task.ends[s];
    first = rec.count;
    index = undefined;
    let current: Action = KEY_ACTIONS[0];
    try {
      state = game.decode(task.states.subarray(start, end));
      for (const id of game.actions) {
        if (id !== GameAction.ACTION6) {
          current = KEY_ACTIONS[id];
          visit(current, 0, s);
          continue;
        }
        for (const c of clickClasses(game, state)) {
          current = { id: GameAction.ACTION6, x: c.x, y: c.y };
          visit(current, c.cells, s);
        }
      }
    } catch (err) {
      // Records of this state past recordEnds[s - 1] are ignored by the coordinator.
      error = { state: s, action: actionCode(current), message: err instanceof Error ? err.message : String(err) };
      break;
    }
    recordEnds[s] = rec.count;
    start = end;
  }

  const r = rec.count;
  const result: ExpandResult = {
    steps,
    recordEnds,
    lo: rec.lo.subarray(0, r),
    hi: rec.hi.subarray(0, r),
    keys: rec.keys.subarray(0, r),
    cells: rec.cells.subarray(0, r),
    action: rec.action.subarray(0, r),
    outcome: rec.outcome.subarray(0, r),
    bytes: rec.bytes.subarray(0, rec.bytesLength),
    bytesEnd: rec.bytesEnd.subarray(0, r),
  };
  if (error) result.error = error;
  return result;
}
