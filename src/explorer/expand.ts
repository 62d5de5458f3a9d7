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
  /** Index of the successor's bytes in `succEnds`, or -1 for terminal successors (never expanded). */
  succ: Int32Array;
  succBytes: Uint8Array;
  succEnds: Uint32Array;
  /** Set when the game threw: which state of the batch, which action code, what it said. */
  error?: { state: number; action: number; message: string };
}

const KEY_ACTIONS: Action[] = [0, 1, 2, 3, 4, 5, 6, 7].map((id) => ({ id: id as GameAction }));

/** Expands every state of the batch over every available action (clicks over their classes). */
export function expandBatch(game: Game, task: ExpandTask): ExpandResult {
  const n = task.ends.length;
  const steps = new Uint32Array(n);
  const recordEnds = new Uint32Array(n);
  const lo: number[] = [];
  const hi: number[] = [];
  const keys: number[] = [];
  const cells: number[] = [];
  const action: number[] = [];
  const outcome: number[] = [];
  const succ: number[] = [];
  const succChunks: Uint8Array[] = [];
  const succEnds: number[] = [];
  let succSize = 0;
  /** Successor bytes already shipped in this batch: fingerprint low half -> [high half, index, ...] */
  const shipped = new Map<number, number[]>();
  const fp: Fingerprint = { lo: 0, hi: 0 };
  let error: ExpandResult['error'];

  const shippedIndex = (l: number, h: number): number => {
    const list = shipped.get(l);
    if (list) for (let i = 0; i < list.length; i += 2) if (list[i] === h) return list[i + 1];
    return -1;
  };

  /** This state's records by fingerprint low half, built once a state has many (4,096 clicks). */
  let index: Map<number, number> | undefined;
  const recordOf = (l: number, h: number, first: number): number => {
    const r = index?.get(l);
    if (index && r === undefined) return -1;
    if (r !== undefined && hi[r] === h) return r;
    for (let q = first; q < lo.length; q++) if (lo[q] === l && hi[q] === h) return q;
    return -1;
  };
  const indexRecords = (first: number): void => {
    if (index) {
      const q = lo.length - 1;
      if (!index.has(lo[q])) index.set(lo[q], q);
    } else if (lo.length - first > 16) {
      index = new Map();
      for (let q = first; q < lo.length; q++) if (!index.has(lo[q])) index.set(lo[q], q);
    }
  };

  let start = 0;
  outer: for (let s = 0; s < n; s++) {
    const end = task.ends[s];
    const first = lo.length;
    let code = 0;
    index = undefined;
    try {
      const state = game.decode(task.states.subarray(start, end));
      const visit = (a: Action, cellCount: number): void => {
        code = actionCode(a);
        const next = game.step(state, a);
        const bytes = game.encode(next);
        fingerprintInto(bytes, fp);
        steps[s]++;
        const r = recordOf(fp.lo, fp.hi, first);
        if (r >= 0) {
          if (cellCount) cells[r] += cellCount;
          else keys[r] |= 1 << a.id;
          return;
        }
        const status = game.status(next);
        const o = status === 'won' ? Outcome.WON : status === 'lost' ? Outcome.LOST : Outcome.PLAYING;
        lo.push(fp.lo);
        hi.push(fp.hi);
        keys.push(cellCount ? 0 : 1 << a.id);
        cells.push(cellCount);
        action.push(code);
        outcome.push(o);
        let bytesAt = -1;
        if (o === Outcome.PLAYING) {
          bytesAt = shippedIndex(fp.lo, fp.hi);
          if (bytesAt < 0) {
            bytesAt = succEnds.length;
            succChunks.push(bytes);
            succSize += bytes.length;
            succEnds.push(succSize);
            const list = shipped.get(fp.lo);
            if (list) list.push(fp.hi, bytesAt);
            else shipped.set(fp.lo, [fp.hi, bytesAt]);
          }
        }
        succ.push(bytesAt);
        indexRecords(first);
      };
      for (const id of game.actions) {
        if (id !== GameAction.ACTION6) {
          visit(KEY_ACTIONS[id], 0);
          continue;
        }
        for (const c of clickClasses(game, state)) visit({ id: GameAction.ACTION6, x: c.x, y: c.y }, c.cells);
      }
    } catch (err) {
      // Records of this state past recordEnds[s - 1] are ignored by the coordinator.
      error = { state: s, action: code, message: err instanceof Error ? err.message : String(err) };
      break outer;
    }
    recordEnds[s] = lo.length;
    start = end;
  }

  const succBytes = new Uint8Array(succSize);
  let off = 0;
  for (const chunk of succChunks) {
    succBytes.set(chunk, off);
    off += chunk.length;
  }
  const result: ExpandResult = {
    steps,
    recordEnds,
    lo: Uint32Array.from(lo),
    hi: Uint32Array.from(hi),
    keys: Uint8Array.from(keys),
    cells: Uint16Array.from(cells),
    action: Uint16Array.from(action),
    outcome: Uint8Array.from(outcome),
    succ: Int32Array.from(succ),
    succBytes,
    succEnds: Uint32Array.from(succEnds),
  };
  if (error) result.error = error;
  return result;
}
