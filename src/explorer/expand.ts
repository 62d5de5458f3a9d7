/** The expand kernel: one batch of frontier states stepped through every action, successors fingerprinted and packed in typed arrays. */
import { GameAction, KEY_ACTIONS, actionCode, type Action } from '../engine/index.js';
import { clickClasses, type Game } from '../engine/index.js';
import { fingerprintInto, type Fingerprint } from '../engine/index.js';

/** Successor status codes shipped back to the coordinator (StepOutcome, not the report's level Outcome). */
export const StepOutcome = { PLAYING: 0, WON: 1, LOST: 2 } as const;

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
   * -2 - j when record j of an earlier state in this batch is the same successor, else -1 (the
   * coordinator looks it up). So the successors the coordinator looks up are distinct in a batch.
   */
  node: Int32Array;
  /**
   * Successor bytes of the records back to back, and each record's end offset: the canonical
   * bytes of a playing successor with node -1 (the coordinator keeps them if it is new), none
   * for the others.
   */
  bytes: Uint8Array;
  bytesEnd: Uint32Array;
  /** Set when the game threw: which state of the batch, which action code, what it said. */
  error?: { state: number; action: number; message: string };
}


/**
 * The records of a batch in typed arrays that grow by doubling (no per-record objects), indexed
 * by fingerprint: an open-addressing table of record index + 1, holding the latest record of
 * each successor (so a state's own record of it is found first).
 */
class Records {
  count = 0;
  private index: Int32Array;
  private mask: number;
  lo: Uint32Array;
  hi: Uint32Array;
  keys: Uint8Array;
  cells: Uint16Array;
  action: Uint16Array;
  outcome: Uint8Array;
  node: Int32Array;
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
    this.node = new Int32Array(capacity);
    this.bytesEnd = new Uint32Array(capacity);
    this.bytes = new Uint8Array(capacity * 32);
    this.index = new Int32Array(2 * capacity);
    this.mask = 0;
    this.reindex();
  }

  /** Where the last `latest` stopped: the successor's slot, or the empty slot its record goes in. */
  private slot = 0;

  /** The latest record of this successor, or -1. The next `add` is for this successor. */
  latest(lo: number, hi: number): number {
    const { index, mask } = this;
    for (let slot = lo & mask; ; slot = (slot + 1) & mask) {
      const r = index[slot] - 1;
      if (r < 0 || (this.lo[r] === lo && this.hi[r] === hi)) {
        this.slot = slot;
        return r;
      }
    }
  }

  /** Adds the record of the successor `latest` was just asked about (its slot is reused). */
  add(lo: number, hi: number, keys: number, cells: number, action: number, outcome: number, node: number, bytes: Uint8Array | null): void {
    const grew = this.count === this.lo.length;
    if (grew) this.grow();
    const r = this.count++;
    this.lo[r] = lo;
    this.hi[r] = hi;
    this.keys[r] = keys;
    this.cells[r] = cells;
    this.action[r] = action;
    this.outcome[r] = outcome;
    this.node[r] = node;
    if (grew) this.indexRecord(r);
    else this.index[this.slot] = r + 1;
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
    const double = <T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(a: T): T => {
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
    this.node = double(this.node);
    this.bytesEnd = double(this.bytesEnd);
    this.reindex();
  }

  /** Points the record's successor at record r (the latest). */
  private indexRecord(r: number): void {
    const { index, mask } = this;
    let slot = this.lo[r] & mask;
    for (; index[slot] !== 0; slot = (slot + 1) & mask) {
      const q = index[slot] - 1;
      if (this.lo[q] === this.lo[r] && this.hi[q] === this.hi[r]) break;
    }
    index[slot] = r + 1;
  }

  /** A table of at least twice the capacity in slots (a power of two), rebuilt in record order so the latest wins. */
  private reindex(): void {
    let slots = 1024;
    while (slots < 2 * this.lo.length) slots *= 2;
    this.index = new Int32Array(slots);
    this.mask = slots - 1;
    for (let r = 0; r < this.count; r++) this.indexRecord(r);
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
  /** The first record of the state being expanded. */
  let first = 0;
  let state: unknown;

  /**
   * Steps `state` by `a`: merges into this state's record of the same successor, or adds one
   * (pointing at an earlier state's record of it, see ExpandResult.node).
   */
  const visit = (a: Action, cellCount: number): void => {
    const next = game.step(state, a);
    const bytes = game.encode(next);
    fingerprintInto(bytes, fp);
    const r = rec.latest(fp.lo, fp.hi);
    if (r >= first) {
      if (cellCount) rec.cells[r] += cellCount;
      else rec.keys[r] |= 1 << a.id;
      return;
    }
    let node: number;
    let o: number;
    if (r >= 0) {
      // An earlier state of this batch reached it: point at the record the coordinator resolves.
      node = rec.node[r] === -1 ? -2 - r : rec.node[r];
      o = rec.outcome[r];
    } else {
      node = -1;
      const status = game.status(next);
      o = status === 'won' ? StepOutcome.WON : status === 'lost' ? StepOutcome.LOST : StepOutcome.PLAYING;
    }
    rec.add(fp.lo, fp.hi, cellCount ? 0 : 1 << a.id, cellCount, actionCode(a), o, node, o === StepOutcome.PLAYING && node === -1 ? bytes : null);
  };

  let start = 0;
  for (let s = 0; s < n; s++) {
    const end = task.ends[s];
    first = rec.count;
    let current: Action = KEY_ACTIONS[0];
    let taken = 0;
    try {
      state = game.decode(task.states.subarray(start, end));
      for (const id of game.actions) {
        if (id !== GameAction.ACTION6) {
          current = KEY_ACTIONS[id];
          taken++;
          visit(current, 0);
          continue;
        }
        for (const c of clickClasses(game, state)) {
          current = { id: GameAction.ACTION6, x: c.x, y: c.y };
          taken++;
          visit(current, c.cells);
        }
      }
    } catch (err) {
      // Records of this state past recordEnds[s - 1] are ignored by the coordinator.
      error = { state: s, action: actionCode(current), message: err instanceof Error ? err.message : String(err) };
      break;
    }
    steps[s] = taken;
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
    node: rec.node.subarray(0, r),
    bytes: rec.bytes.subarray(0, rec.bytesLength),
    bytesEnd: rec.bytesEnd.subarray(0, r),
  };
  if (error) result.error = error;
  return result;
}
