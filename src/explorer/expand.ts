/**
 * The expand kernel: one batch of frontier states stepped through every action, successors
 * fingerprinted and packed in typed arrays. (Past 300 lines: the hot loop, its records, the claims
 * and the identity sample share the batch's typed arrays and stay in one module so the loop's
 * calls stay monomorphic and inlined.)
 */
import { GameAction, KEY_ACTIONS, actionCode, type Action } from '../engine/index.js';
import { checkedBytes, checkedStatus, clickClasses, sameBytes, sameLayers, type Game, type Status } from '../engine/index.js';
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
  /**
   * The batch's first this many states have the identity of every transition checked, not a
   * sample: those among the exploration's first FULLY_CHECKED states, so that a small level, and a
   * fault at reset, is checked whole.
   */
  checkFirst?: number;
  /** The batch begins with the level's root (node 0): a Python kernel checks more around its steps. */
  rootFirst?: boolean;
  /** Build the level's reset state instead (no states): the result is a RootOfLevel. */
  root?: boolean;
}

/**
 * Transitions whose successor's fingerprint has these low bits clear have their identity checked
 * (about 1 in 256, the same transitions whatever the batching; measured on bx19: a check costs
 * about 1.3 transitions, so about 0.5% more time): the successor decoded and encoded
 * again must give the same bytes, and the same step taken again the same bytes.
 */
export const IDENTITY_SAMPLE = 255;

/** States (in BFS order, the root first) whose every transition has its identity checked. */
export const FULLY_CHECKED = 1024;

/** A sampled transition whose identity did not hold: which state of the batch, which action, what differed. */
export interface IdentityFault {
  state: number;
  action: number;
  message: string;
}

/**
 * Why a transition's identity does not hold, or undefined (the game may throw here: the caller
 * reports it as a step's exception). The successor's status counts as much as its bytes: states
 * merged by their bytes must also end the same way.
 */
function identityFault(game: Game, state: unknown, stateBytes: Uint8Array, a: Action, next: unknown, bytes: Uint8Array): string | undefined {
  // First: a step that changed its input makes every later check of this state (and its other moves)
  // wrong. Its bytes differ from those it was decoded from; a fresh decode that encodes back to them
  // tells that from an encode that is not canonical.
  if (!sameBytes(game.encode(state), stateBytes)) {
    if (!sameBytes(game.encode(game.decode(stateBytes)), stateBytes)) return 'decoding a state and encoding it again gave other bytes: encode is not canonical';
    return 'the step changed the state it was given (its bytes before and after differ): step must return a new state and leave its input alone';
  }
  const copy = game.decode(bytes);
  if (!sameBytes(game.encode(copy), bytes)) return 'decoding a state and encoding it again gave other bytes: encode is not canonical';
  const status = game.status(next);
  const asked = game.status(next);
  if (asked !== status) return `asking the status of one state twice gave ${JSON.stringify(status)}, then ${JSON.stringify(asked)}: status is not a function of the state`;
  const copied = game.status(copy);
  if (copied !== status) return `a decode(encode(state)) copy has status ${JSON.stringify(copied)} where the state has ${JSON.stringify(status)}: status reads state the bytes do not hold`;
  // States merged by their bytes must look the same: a copy that renders otherwise holds less than the
  // state (encode drops what render shows). A render that throws is qualify's finding (exploring draws no frame else).
  if (rendersApart(game, copy, next)) return 'a decode(encode(state)) copy renders another frame than the state: encode drops state that render shows, so states that differ are merged';
  const again = game.step(state, a);
  if (!sameBytes(game.encode(again), bytes)) return 'the same step taken again gave other bytes: encode is not canonical or step is not deterministic';
  if (game.status(again) !== status) return 'the same step taken again gave a successor with another status: step or status is not deterministic';
  return undefined;
}

/** Whether a state and its decode(encode()) copy render different frames (the settled frame of a game whose earlier layers belong to the step); false when render throws. */
function rendersApart(game: Game, copy: unknown, next: unknown): boolean {
  const settled = (layers: ReturnType<Game['render']>): ReturnType<Game['render']> => (game.stepLayers ? layers.slice(-1) : layers);
  try {
    return !sameLayers(settled(game.render(copy)), settled(game.render(next)));
  } catch {
    return false;
  }
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
  /** The state's fault; `action` -1 when no step was under way (its decode or click targets failed);
   *  `after`, an action stepped on that successor which faulted (RESET after a loss, as the agent sends it). */
  error?: { state: number; action: number; after?: number; message: string; kind?: FaultKind };
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

  /** Adds one, its bytes `source[start..end)` (none for a successor that is not playing), and returns its index. */
  add(ticket: number, outcome: number, source: Uint8Array, start: number, end: number): number {
    if (this.count === this.ticket.length) {
      this.ticket = doubled(this.ticket);
      this.outcome = doubled(this.outcome);
      this.bytesEnd = doubled(this.bytesEnd);
    }
    const p = this.count++;
    this.ticket[p] = ticket;
    this.outcome[p] = outcome;
    this.bytes = roomFor(this.bytes, this.bytesLength, end - start);
    // A state is tens of bytes (a keyboard game) to a few KB (a grid): short ones copied in a loop,
    // which costs less than the view a block copy needs.
    const out = this.bytes;
    let at = this.bytesLength;
    if (end - start > 64) {
      out.set(source.subarray(start, end), at);
      at += end - start;
    } else for (let i = start; i < end; i++) out[at++] = source[i];
    this.bytesLength = at;
    this.bytesEnd[p] = at;
    return p;
  }
}

/** Records whose home slots the claims read ahead of the one they are on (see claimRecords). */
const CLAIM_AHEAD = 32;
/** What claims' read-ahead read, kept so that the reads are not optimized away. */
let readAhead = 0;

/** A status as an outcome; one outside the contract throws (checkedStatus), after the two common tests. */
const outcomeOf = (status: unknown): number => (status === 'won' ? StepOutcome.WON : status === 'lost' ? StepOutcome.LOST : (checkedStatus(status), StepOutcome.PLAYING));

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
 * classes), one record per distinct successor of a state. A successor that no earlier state of
 * the batch reached is left to look up (node -1), with its outcome and, if it is playing, its bytes.
 */
function expandStates(game: Game, task: ExpandTask, scratch: Scratch | undefined, progress: Int32Array | undefined) {
  const n = task.ends.length;
  // Where the watchdog sees this batch (src/parallel/watchdog.ts): state, action code (-1: the state itself), a beat.
  const at = progress ?? new Int32Array(PROGRESS_SLOTS);
  at[0] = 0;
  const steps = new Uint32Array(n);
  const recordEnds = new Uint32Array(n);
  const capacity = Math.max(16, n * game.actions.length);
  const rec = scratch ? (scratch.records = Records.reuse(scratch.records, capacity)) : new Records(capacity);
  const fp: Fingerprint = { lo: 0, hi: 0 };
  const clicks = game.actions.includes(GameAction.ACTION6);
  let error: ExpandResult['error'];
  let identity: IdentityFault | undefined;
  const checkFirst = task.checkFirst ?? 0;
  /** The first record of the state being expanded. */
  let first = 0;
  let state: unknown;
  /** The bytes `state` was decoded from (a step that changes its input is found against them). */
  let stateBytes: Uint8Array = new Uint8Array(0);

  /**
   * Steps `state` by `a`: merges into this state's record of the same successor, or adds one
   * (pointing at an earlier state's record of it, see ExpandResult.node).
   */
  const visit = (a: Action, cellCount: number): void => {
    const next = game.step(state, a);
    const bytes = checkedBytes(game.encode(next));
    fingerprintInto(bytes, fp);
    if (!identity && (s < checkFirst || (fp.lo & IDENTITY_SAMPLE) === 0)) {
      // a beat: the step taken again gets a step limit of its own from the watchdog
      at[3]++;
      const message = identityFault(game, state, stateBytes, a, next, bytes);
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
      rec.add(fp.lo, fp.hi, keys, cellCount, actionCode(a), rec.outcome[r], rec.node[r] !== -1 ? rec.node[r] : -2 - r, null);
      return;
    }
    const o = outcomeOf(game.status(next));
    rec.add(fp.lo, fp.hi, keys, cellCount, actionCode(a), o, -1, o === StepOutcome.PLAYING ? bytes : null);
  };

  // The action being stepped; none while the state is decoded or its click targets asked (a fault there is the state's own).
  let current: Action | undefined;
  let phase = '';
  let start = 0;
  let s = 0;
  for (; s < n; s++) {
    const end = task.ends[s];
    rec.startState();
    first = rec.count;
    current = undefined;
    let taken = 0;
    at[1] = s;
    at[2] = -1;
    at[3]++;
    try {
      phase = 'decode failed: ';
      stateBytes = task.states.subarray(start, end);
      state = game.decode(stateBytes);
      phase = 'clickTargets failed: ';
      const classes = clicks ? clickClasses(game, state) : undefined;
      phase = '';
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
    } catch (err) {
      // Records of the failing state and after are ignored by the coordinator.
      error = { state: s, action: current ? actionCode(current) : -1, message: `${current ? '' : phase}${err instanceof Error ? err.message : String(err)}` };
      break;
    }
    steps[s] = taken;
    recordEnds[s] = rec.count;
    start = end;
  }
  return { steps, recordEnds, rec, error, identity, expanded: s };
}

/**
 * How many of the first `expanded` states' successors the table has room to claim: all, or the
 * most states whose successors to look up fit its limit (reserved here, given back by `release`).
 */
function reserveClaims(table: SharedTable, rec: Records, recordEnds: Uint32Array, expanded: number): number {
  // The successors to look up before each state.
  const { node } = rec;
  const before = new Uint32Array(expanded + 1);
  for (let s = 0, k = 0; s < expanded; s++) {
    let count = before[s];
    for (const end = recordEnds[s]; k < end; k++) if (node[k] === -1) count++;
    before[s + 1] = count;
  }
  if (table.reserve(before[expanded])) return expanded;
  // Near the limit: the most states that fit.
  let lo = 0;
  let hi = expanded - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (table.reserve(before[mid])) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Claims the successors of records 0..records that the batch left to look up, in the shared
 * table under tickets from `tickets`, and settles each record: a node id (the table's, or the one the coordinator wrote for
 * the ticket found), or pending with its ticket, outcome and bytes. After the batch's game code,
 * in one pass: the game's allocations, between claims, had the table's cache lines and pages
 * evicted (a claim then cost 2-3x as much), and the home slots a few records ahead are read first
 * with plain loads, whose misses overlap.
 */
function claimRecords(table: SharedTable, tickets: TicketSource, rec: Records, records: number, pending: PendingSuccessors): void {
  const { node, lo, hi, outcome, bytes, bytesEnd } = rec;
  let touched = 0;
  let sink = 0;
  for (let k = 0; k < records; k++) {
    if (k === touched) {
      const upTo = Math.min(records, k + CLAIM_AHEAD);
      for (let j = k; j < upTo; j++) if (node[j] === -1) sink ^= table.touch(lo[j]);
      touched = upTo;
    }
    const v = node[k];
    if (v <= -2) {
      // An earlier record of the batch, settled already.
      node[k] = node[-2 - v];
      continue;
    }
    const ticket = tickets.peek();
    let id = table.claim(lo[k], hi[k], ticket);
    let named = ticket;
    if (id === CLAIMED) tickets.take();
    else if (id === FOUND_TICKET) {
      named = table.ticket;
      const known = tickets.get(named);
      if (known >= 0) id = known;
    }
    if (id >= 0) {
      node[k] = id;
      continue;
    }
    const from = k > 0 ? bytesEnd[k - 1] : 0;
    node[k] = -1 - pending.add(named, outcome[k], bytes, from, bytesEnd[k]);
  }
  readAhead ^= sink;
}

/** A level's reset state: its canonical bytes and status (game code: run where a hang is watched). */
export interface RootOfLevel {
  bytes: Uint8Array;
  status: Status;
}

/** Builds the level's reset state, with its progress on the watchdog's slots: state 0, the state itself. */
export function rootOfLevel(game: Game, level: number, progress?: Int32Array): RootOfLevel {
  if (progress) {
    progress[1] = 0;
    progress[2] = -1;
    progress[3]++;
  }
  const state = game.init(level);
  return { bytes: checkedBytes(game.encode(state)), status: checkedStatus(game.status(state)) };
}

/** Expands every state of the batch over every available action (clicks over their classes). */
export function expandBatch(game: Game, task: ExpandTask, scratch?: Scratch, progress?: Int32Array): ExpandResult {
  const { steps, recordEnds, rec, error, identity } = expandStates(game, task, scratch, progress);
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

/**
 * Expands the batch and claims its successors in the shared table under tickets from `tickets` (a
 * JavaScript worker's whole job). Where the table has no room for every successor, the batch ends
 * at the first state whose successors do not fit (`full`): the rest is expanded again once it has grown.
 */
export function expandAndClaim(game: Game, task: ExpandTask, table: SharedTable, tickets: TicketSource, scratch?: Scratch, progress?: Int32Array): ClaimedBatch {
  const { steps, recordEnds, rec, error, identity, expanded } = expandStates(game, task, scratch, progress);
  const p = scratch ? (scratch.pending = PendingSuccessors.reuse(scratch.pending)) : new PendingSuccessors();
  const claimed = reserveClaims(table, rec, recordEnds, expanded);
  const r = claimed > 0 ? recordEnds[claimed - 1] : 0;
  try {
    claimRecords(table, tickets, rec, r, p);
  } finally {
    table.release();
  }
  const result: ClaimedBatch = {
    expanded: claimed,
    steps: steps.subarray(0, claimed),
    recordEnds: recordEnds.subarray(0, claimed),
    keys: rec.keys.subarray(0, r),
    cells: rec.cells.subarray(0, r),
    action: rec.action.subarray(0, r),
    node: rec.node.subarray(0, r),
    ticket: p.ticket.subarray(0, p.count),
    outcome: p.outcome.subarray(0, p.count),
    bytes: p.bytes.subarray(0, p.bytesLength),
    bytesEnd: p.bytesEnd.subarray(0, p.count),
  };
  // A state the table had no room for comes before any fault: the fault is met again when the rest is expanded.
  if (claimed < expanded) result.full = true;
  else if (error) result.error = error;
  if (identity) result.identity = identity;
  return result;
}
