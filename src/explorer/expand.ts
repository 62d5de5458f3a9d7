/**
 * The expand kernel: one batch of frontier states stepped through every action, successors
 * fingerprinted and packed in typed arrays. (Past 300 lines: the hot loop, its records, the claims
 * and the identity sample share the batch's typed arrays and stay in one module so the loop's
 * calls stay monomorphic and inlined.)
 */
import { GameAction, KEY_ACTIONS, actionCode, type Action } from '../engine/index.js';
import { clickClasses, sameBytes, type Game } from '../engine/index.js';
import { fingerprintInto, type Fingerprint } from '../engine/index.js';
import { CLAIMED, FOUND_TICKET, type SharedTable } from './shared-table.js';
import type { TicketSource } from './tickets.js';
import type { FaultKind } from './coordinator.js';
import { PROGRESS_SLOTS } from '../parallel/index.js';

/** Successor status codes shipped back to the coordinator (StepOutcome, not the report's level Outcome). */
export const StepOutcome = { PLAYING: 0, WON: 1, LOST: 2 } as const;


/** A batch of frontier states to expand: their canonical bytes back to back. */
export interface ExpandTask {
  module: string;
  level: number;
  states: Uint8Array;
  /** End offset of each state in `states`. */
  ends: Uint32Array;
  /** Check the identity of every transition, not a sample (the root's batch: a fault at reset is seen at once). */
  checkAll?: boolean;
}

/**
 * Transitions whose successor's fingerprint has these low bits clear have their identity checked
 * (about 1 in 256, the same transitions whatever the batching; measured on bx19: a check costs
 * about 1.3 transitions, so about 0.5% more time): the successor decoded and encoded
 * again must give the same bytes, and the same step taken again the same bytes.
 */
export const IDENTITY_SAMPLE = 255;

/** A sampled transition whose identity did not hold: which state of the batch, which action, what differed. */
export interface IdentityFault {
  state: number;
  action: number;
  message: string;
}

/** Why a transition's identity does not hold, or undefined (the game may throw here: the caller reports it as a step's exception). */
function identityFault(game: Game, state: unknown, a: Action, bytes: Uint8Array): string | undefined {
  if (!sameBytes(game.encode(game.decode(bytes)), bytes)) return 'decoding a state and encoding it again gave other bytes: encode is not canonical';
  if (!sameBytes(game.encode(game.step(state, a)), bytes)) return 'the same step taken again gave other bytes: encode is not canonical or step is not deterministic';
  return undefined;
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
   * coordinator looks it up). Only repeats of recent states' successors are marked so (see
   * Records): the coordinator may look a successor up more than once in a batch.
   */
  node: Int32Array;
  /**
   * Successor bytes of the records back to back, and each record's end offset: the canonical
   * bytes of a playing successor with node -1 (the coordinator keeps them if it is new), none
   * for the others.
   */
  bytes: Uint8Array;
  bytesEnd: Uint32Array;
  /** Set when the game threw: which state of the batch, which action code, what it said (and, from a Python game, the fault: a crash unless said). */
  error?: { state: number; action: number; message: string; kind?: FaultKind };
  /** The batch's first sampled transition whose identity did not hold. */
  identity?: IdentityFault;
  /** Milliseconds its worker thread spent expanding it (pool workers say). */
  kernelMs?: number;
}


/**
 * Slots of the records' index: 64 KB, which stays in the core's cache where an index of the whole
 * batch did not (see Records.startState). It holds a quarter of its slots before a state, and a
 * state adds at most CELLS + 7 records: it never fills.
 */
const INDEX_SLOTS = 2 ** 14;

/**
 * The records of a batch in typed arrays that grow by doubling (no per-record objects), indexed
 * by fingerprint: an open-addressing table of record index + 1, holding the latest record of
 * each successor (so a state's own record of it is found first). The index covers the records of
 * the latest states only (see startState): it is what merges a state's actions into one record
 * per successor, and it spots most repeats of an earlier state's successor; a repeat it misses
 * becomes a record of its own, which the coordinator resolves like any other.
 */
class Records {
  count = 0;
  private readonly index = new Int32Array(INDEX_SLOTS);
  /** The first record the index covers. */
  private indexed = 0;
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

  /** Empties the records for the next batch, keeping the arrays when they are large enough. */
  static reuse(old: Records | undefined, capacity: number): Records {
    if (!old || old.lo.length < capacity) return new Records(capacity);
    old.count = 0;
    old.bytesLength = 0;
    old.forget();
    return old;
  }

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
  }

  /**
   * Before a state's first record: once the index holds a quarter of its slots, it forgets the
   * records so far, so that it stays small. A successor that two states of a batch share mostly
   * comes from states close in the frontier (bx19: a window of 2,000 records holds three quarters
   * of them), and a probe of the small index costs a fraction of one of the whole batch's.
   */
  startState(): void {
    if (4 * (this.count - this.indexed) > this.index.length) this.forget();
  }

  private forget(): void {
    this.index.fill(0);
    this.indexed = this.count;
  }

  /** Where the last `latest` stopped: the successor's slot, or the empty slot its record goes in. */
  private slot = 0;

  /** The latest record of this successor, or -1. The next `add` is for this successor. */
  latest(lo: number, hi: number): number {
    const { index } = this;
    for (let slot = lo & (INDEX_SLOTS - 1); ; slot = (slot + 1) & (INDEX_SLOTS - 1)) {
      const r = index[slot] - 1;
      if (r < 0 || (this.lo[r] === lo && this.hi[r] === hi)) {
        this.slot = slot;
        return r;
      }
    }
  }

  /** Adds the record of the successor `latest` was just asked about (its slot is reused). */
  add(lo: number, hi: number, keys: number, cells: number, action: number, outcome: number, node: number, bytes: Uint8Array | null): void {
    if (this.count === this.lo.length) this.grow();
    const r = this.count++;
    this.lo[r] = lo;
    this.hi[r] = hi;
    this.keys[r] = keys;
    this.cells[r] = cells;
    this.action[r] = action;
    this.outcome[r] = outcome;
    this.node[r] = node;
    this.index[this.slot] = r + 1;
    if (bytes) {
      this.bytes = roomFor(this.bytes, this.bytesLength, bytes.length);
      this.bytes.set(bytes, this.bytesLength);
      this.bytesLength += bytes.length;
    }
    this.bytesEnd[r] = this.bytesLength;
  }

  private grow(): void {
    this.lo = doubled(this.lo);
    this.hi = doubled(this.hi);
    this.keys = doubled(this.keys);
    this.cells = doubled(this.cells);
    this.action = doubled(this.action);
    this.outcome = doubled(this.outcome);
    this.node = doubled(this.node);
    this.bytesEnd = doubled(this.bytesEnd);
  }
}

/**
 * The successors of a batch after claiming them in the shared fingerprint table (see
 * shared-table.ts): each record's target is a node id where the table already had one, else a
 * pending successor, which the coordinator numbers when it merges the batch (the first record in
 * canonical order to reach a state numbers it).
 */
export interface ClaimedBatch {
  /** States of the batch expanded: all of them, unless the table reached its limit (`full`). */
  expanded: number;
  steps: Uint32Array;
  recordEnds: Uint32Array;
  keys: Uint8Array;
  cells: Uint16Array;
  action: Uint16Array;
  /** Per record: the target's node id (>= 0), or -1 - p for pending successor p. */
  node: Int32Array;
  /**
   * Pending successors (claimed, not numbered yet when the worker looked): the ticket the batch
   * claimed it under or found it claimed under, and its outcome.
   */
  ticket: Int32Array;
  outcome: Uint8Array;
  /** Canonical bytes of the playing pending successors back to back, and each one's end offset. */
  bytes: Uint8Array;
  bytesEnd: Uint32Array;
  /** The table reached its limit before state `expanded`: the rest is to be expanded again once it has grown. */
  full?: boolean;
  error?: ExpandResult['error'];
  identity?: IdentityFault;
  kernelMs?: number;
}

/**
 * A worker thread's arrays, reused from one batch to the next (it packs each result before it
 * starts the next): a batch otherwise allocates a few megabytes of zeroed arrays, and their
 * collection shows in the profile. Only for results copied before the next batch.
 */
export class Scratch {
  records?: Records;
  pending?: PendingSuccessors;
}

/** Pending successors of a batch, in growing typed arrays. */
export class PendingSuccessors {
  count = 0;
  ticket = new Int32Array(256);
  outcome = new Uint8Array(256);
  bytesEnd = new Uint32Array(256);
  bytes: Uint8Array = new Uint8Array(8192);
  bytesLength = 0;

  static reuse(old: PendingSuccessors | undefined): PendingSuccessors {
    if (!old) return new PendingSuccessors();
    old.count = 0;
    old.bytesLength = 0;
    return old;
  }

  /** Adds one and returns its index. */
  add(ticket: number, outcome: number, bytes: Uint8Array | null): number {
    if (this.count === this.ticket.length) {
      this.ticket = doubled(this.ticket);
      this.outcome = doubled(this.outcome);
      this.bytesEnd = doubled(this.bytesEnd);
    }
    const p = this.count++;
    this.ticket[p] = ticket;
    this.outcome[p] = outcome;
    if (bytes) {
      this.bytes = roomFor(this.bytes, this.bytesLength, bytes.length);
      this.bytes.set(bytes, this.bytesLength);
      this.bytesLength += bytes.length;
    }
    this.bytesEnd[p] = this.bytesLength;
    return p;
  }
}

/** Where a worker claims successors: the shared table, and the tickets it claims under. */
interface Claims {
  table: SharedTable;
  tickets: TicketSource;
}

/**
 * New successors a worker claims at a time, gathered across states: their home slots are read
 * ahead together (see claimDeferred), so the more of them, the more cache misses overlap (a bx19
 * state has two or three).
 */
const CLAIM_GROUP = 32;
/** A record's node while its successor waits for its claim (no pending index is this large). */
const UNCLAIMED = -(2 ** 31);
/** What claims' read-ahead read, kept so that the reads are not optimized away. */
let readAhead = 0;

const outcomeOf = (status: string): number => (status === 'won' ? StepOutcome.WON : status === 'lost' ? StepOutcome.LOST : StepOutcome.PLAYING);

/** `bytes` if it has room for `more` past `used`, else a copy of its first `used` at least twice as long. */
function roomFor(bytes: Uint8Array, used: number, more: number): Uint8Array {
  if (used + more <= bytes.length) return bytes;
  const next = new Uint8Array(Math.max(2 * bytes.length, used + more));
  next.set(bytes.subarray(0, used));
  return next;
}

/** A typed array twice as long, holding `a`'s elements first. */
function doubled<T extends Uint8Array | Uint16Array | Uint32Array | Int32Array>(a: T): T {
  const next = new (a.constructor as new (n: number) => T)(a.length * 2);
  next.set(a);
  return next;
}

/**
 * The kernel: expands every state of the batch over every available action (clicks over their
 * classes). With a table, the successors that no earlier state of the batch reached are claimed
 * there a group at a time (a node id, or pending), their home slots read ahead so that their
 * cache misses overlap; without one, they are left for the coordinator to look up (-1).
 */
function expandStates(game: Game, task: ExpandTask, claims: Claims | undefined, scratch: Scratch | undefined, progress: Int32Array | undefined) {
  const n = task.ends.length;
  // Where the watchdog sees this batch (src/parallel/watchdog.ts): state, action code (-1: the state itself), a beat.
  const at = progress ?? new Int32Array(PROGRESS_SLOTS);
  at[0] = 0;
  const steps = new Uint32Array(n);
  const recordEnds = new Uint32Array(n);
  const capacity = Math.max(16, n * game.actions.length);
  const rec = scratch ? (scratch.records = Records.reuse(scratch.records, capacity)) : new Records(capacity);
  const pending = claims ? (scratch ? (scratch.pending = PendingSuccessors.reuse(scratch.pending)) : new PendingSuccessors()) : undefined;
  const fp: Fingerprint = { lo: 0, hi: 0 };
  const clicks = game.actions.includes(GameAction.ACTION6);
  const keyMoves = game.actions.length - (clicks ? 1 : 0);
  let error: ExpandResult['error'];
  let identity: IdentityFault | undefined;
  const checkAll = task.checkAll === true;
  let full = false;
  /** The first record of the state being expanded. */
  let first = 0;
  let state: unknown;
  /** The successors to claim: their records, the states of the batch they come from, their states, bytes and the actions that reached them. */
  let deferred = 0;
  let deferredRecord = new Int32Array(64);
  let deferredState = new Int32Array(64);
  let claimedAs = new Int32Array(64);
  let claimedTicket = new Int32Array(64);
  const deferredNext: unknown[] = [];
  const deferredBytes: Uint8Array[] = [];
  const deferredAction: Action[] = [];

  /**
   * Steps `state` by `a`: merges into this state's record of the same successor, or adds one
   * (pointing at an earlier state's record of it, see ExpandResult.node).
   */
  const visit = (a: Action, cellCount: number): void => {
    const next = game.step(state, a);
    const bytes = game.encode(next);
    fingerprintInto(bytes, fp);
    if (!identity && (checkAll || (fp.lo & IDENTITY_SAMPLE) === 0)) {
      const message = identityFault(game, state, a, bytes);
      if (message) identity = { state: s, action: actionCode(a), message };
    }
    const r = rec.latest(fp.lo, fp.hi);
    if (r >= first) {
      if (cellCount) rec.cells[r] += cellCount;
      else rec.keys[r] |= 1 << a.id;
      return;
    }
    const keys = cellCount ? 0 : 1 << a.id;
    if (r >= 0) {
      // An earlier state of this batch reached it: its record says what it is, once claimed.
      if (rec.node[r] === UNCLAIMED) claimDeferred(claims!, pending!);
      rec.add(fp.lo, fp.hi, keys, cellCount, actionCode(a), rec.outcome[r], pending || rec.node[r] !== -1 ? rec.node[r] : -2 - r, null);
      return;
    }
    if (claims) {
      if (deferred === deferredRecord.length) {
        deferredRecord = doubled(deferredRecord);
        deferredState = doubled(deferredState);
        claimedAs = doubled(claimedAs);
        claimedTicket = doubled(claimedTicket);
      }
      deferredRecord[deferred] = rec.count;
      deferredState[deferred] = s;
      deferredNext[deferred] = next;
      deferredBytes[deferred] = bytes;
      deferredAction[deferred++] = a;
      rec.add(fp.lo, fp.hi, keys, cellCount, actionCode(a), 0, UNCLAIMED, null);
      return;
    }
    const o = outcomeOf(game.status(next));
    rec.add(fp.lo, fp.hi, keys, cellCount, actionCode(a), o, -1, o === StepOutcome.PLAYING ? bytes : null);
  };

  /**
   * Claims the successors gathered back to back, then settles each: a node id (the table's, or
   * the one the coordinator wrote for the ticket found), or pending with its ticket, outcome and
   * bytes. A successor's status is game code: while it runs, the watchdog and `failing` name the
   * state it came from.
   */
  const claimDeferred = ({ table: t, tickets: source }: Claims, p: PendingSuccessors): void => {
    // Every home slot read first, with plain loads that do not wait on each other: a claim's
    // compare-exchange and publishing store are locked instructions, which hold back the loads
    // after them, so claims alone take their cache misses one at a time.
    for (let j = 0; j < deferred; j++) touched ^= t.touch(rec.lo[deferredRecord[j]]);
    for (let j = 0; j < deferred; j++) {
      const r = deferredRecord[j];
      const ticket = source.peek();
      let id = t.claim(rec.lo[r], rec.hi[r], ticket);
      if (id === CLAIMED) {
        source.take();
        claimedTicket[j] = ticket;
      } else if (id === FOUND_TICKET) {
        claimedTicket[j] = t.ticket;
        const known = source.get(t.ticket);
        if (known >= 0) id = known;
      }
      claimedAs[j] = id;
    }
    for (let j = 0; j < deferred; j++) {
      const r = deferredRecord[j];
      const id = claimedAs[j];
      if (id >= 0) {
        rec.node[r] = id;
        continue;
      }
      current = deferredAction[j];
      failing = at[1] = deferredState[j];
      at[2] = actionCode(current);
      at[3]++;
      const o = outcomeOf(game.status(deferredNext[j]));
      rec.node[r] = -1 - p.add(claimedTicket[j], o, o === StepOutcome.PLAYING ? deferredBytes[j] : null);
    }
    failing = -1;
    at[1] = s;
    deferred = 0;
  };

  /**
   * Claims what is gathered from the states before `before` (the others' records are not sent):
   * the fault of a status that threw, if one did.
   */
  const claimBefore = (before: number): ExpandResult['error'] => {
    while (deferred > 0 && deferredState[deferred - 1] >= before) deferred--;
    try {
      claimDeferred(claims!, pending!);
      return undefined;
    } catch (err) {
      return fault(failing, err);
    }
  };
  const fault = (state: number, err: unknown): ExpandResult['error'] => ({ state, action: actionCode(current), message: err instanceof Error ? err.message : String(err) });
  let current: Action = KEY_ACTIONS[0];
  /** The state whose successor's status is running, while claims settle (else -1). */
  let failing = -1;
  let touched = 0;

  let start = 0;
  let s = 0;
  for (; s < n; s++) {
    const end = task.ends[s];
    rec.startState();
    first = rec.count;
    current = KEY_ACTIONS[0];
    let taken = 0;
    at[1] = s;
    at[2] = -1;
    at[3]++;
    try {
      state = game.decode(task.states.subarray(start, end));
      const classes = clicks ? clickClasses(game, state) : undefined;
      // Room in the table for every successor gathered and every one this state may claim, or stop
      // here until it grows.
      if (claims && !claims.table.reserve(deferred + keyMoves + (classes?.length ?? 0))) {
        error = claimBefore(s);
        full = !error;
        break;
      }
      for (const id of game.actions) {
        if (id !== GameAction.ACTION6) {
          current = KEY_ACTIONS[id];
          at[2] = id;
          at[3]++;
          taken++;
          visit(current, 0);
          continue;
        }
        for (const c of classes!) {
          current = { id: GameAction.ACTION6, x: c.x, y: c.y };
          at[2] = actionCode(current);
          at[3]++;
          taken++;
          visit(current, c.cells);
        }
      }
      if (claims && deferred >= CLAIM_GROUP) claimDeferred(claims, pending!);
    } catch (err) {
      // Records of the failing state and after are ignored by the coordinator; the earlier states'
      // successors are claimed (where a status throws there, that state fails instead).
      const thrown = fault(failing >= 0 ? failing : s, err);
      error = failing < 0 && claims ? (claimBefore(s) ?? thrown) : thrown;
      break;
    }
    steps[s] = taken;
    recordEnds[s] = rec.count;
    start = end;
  }
  if (claims && !error && !full) error = claimBefore(n);
  claims?.table.release();
  readAhead ^= touched;
  return { steps, recordEnds, rec, pending, error, identity, full, expanded: error ? error.state : s };
}

/** Expands every state of the batch over every available action (clicks over their classes). */
export function expandBatch(game: Game, task: ExpandTask, scratch?: Scratch, progress?: Int32Array): ExpandResult {
  const { steps, recordEnds, rec, error, identity } = expandStates(game, task, undefined, scratch, progress);
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
  if (identity) result.identity = identity;
  return result;
}

/** Expands the batch and claims its successors in the shared table under tickets from `tickets` (a JavaScript worker's whole job). */
export function expandAndClaim(game: Game, task: ExpandTask, table: SharedTable, tickets: TicketSource, scratch?: Scratch, progress?: Int32Array): ClaimedBatch {
  const { steps, recordEnds, rec, pending, error, identity, full, expanded } = expandStates(game, task, { table, tickets }, scratch, progress);
  const r = expanded > 0 ? recordEnds[expanded - 1] : 0;
  const p = pending!;
  const result: ClaimedBatch = {
    expanded,
    steps: steps.subarray(0, expanded),
    recordEnds: recordEnds.subarray(0, expanded),
    keys: rec.keys.subarray(0, r),
    cells: rec.cells.subarray(0, r),
    action: rec.action.subarray(0, r),
    node: rec.node.subarray(0, r),
    ticket: p.ticket.subarray(0, p.count),
    outcome: p.outcome.subarray(0, p.count),
    bytes: p.bytes.subarray(0, p.bytesLength),
    bytesEnd: p.bytesEnd.subarray(0, p.count),
  };
  if (full) result.full = true;
  if (error) result.error = error;
  if (identity) result.identity = identity;
  return result;
}
