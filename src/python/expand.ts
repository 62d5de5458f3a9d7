/** The explorer's view of a Python level: its root and an expander whose batches run in the game's Python processes. */
import { ACTION_NAMES, codeName, fingerprintInto, initIdentity, sameBytes, type Fingerprint, type Status } from '../engine/index.js';
import { HASH_SEED, OTHER_HASH_SEED } from './discover.js';
import type { PyRoot, PythonGame, UnofferedMode } from './game.js';
import { Abandonment } from './pool.js';
import { faultKindOf, PythonError, stoppedAt, type PyFaultKind } from './process.js';
import type { Message } from './protocol.js';
import { i32, u16, u32 } from './protocol.js';

/** A batch as the explorer sends it: frontier snapshots back to back and the end of each. */
export interface SnapshotBatch {
  states: Uint8Array;
  ends: Uint32Array;
  /** The batch's first states whose every transition is taken again (the explorer's ExpandTask.checkFirst). */
  checkFirst?: number;
  /** The batch begins with the level's root (ExpandTask.rootFirst). */
  rootFirst?: boolean;
}

/** The successor records of a batch, in the layout of the explorer's ExpandResult (src/explorer/expand.ts). */
export interface BatchRecords {
  steps: Uint32Array;
  recordEnds: Uint32Array;
  lo: Uint32Array;
  hi: Uint32Array;
  keys: Uint8Array;
  cells: Uint16Array;
  action: Uint16Array;
  outcome: Uint8Array;
  node: Int32Array;
  bytes: Uint8Array;
  bytesEnd: Uint32Array;
  error?: { state: number; action: number; after?: number; message: string; kind?: PyFaultKind };
  /** The first transition taken again from its restored state that gave another successor or status. */
  identity?: { state: number; action: number; message: string };
  /** The first transition to a lost state whose RESET (as the ARC agent sends it after GAME_OVER) does not lead where a fresh attempt starts. */
  attempts?: { state: number; action: number; message: string };
}

/** The level's start under another PYTHONHASHSEED, which differs from the exploration's only in the order of its dicts' entries: its snapshot there. */
interface OrderOnly {
  snapshot: Uint8Array;
}

/** What a Python exploration adds to its result: how the level started, identity, clicks, snapshots. */
export interface PythonExploreInfo {
  levelStart: 'played' | 'set-level';
  /** Why a known winning path of the earlier levels was not used. */
  startNote?: string;
  identity: 'state' | 'frame';
  graphBuilder: boolean;
  snapshots: string;
  clicks: ClickInfo | null;
  /**
   * Under `--identity frame`: successors that showed a frame an earlier one showed while their full
   * states differed (hidden state merged away), how many of those pairs were checked (at most 200 a
   * process), and how many behaved differently (a move from each showed different frames: Markov
   * violations). Counted by each process on what it saw, summed: a diagnostic.
   */
  frameCollisions?: { collisions: number; checked: number; violations: number };
  /**
   * Actions the game does not offer that changed the level's start, or a state whose transitions were
   * checked (the first few and about 1 in 256), when sent: the engine steps a game with any action,
   * and the reference agent sends all seven. Absent when none did.
   */
  unofferedActs?: string[];
  /**
   * What the graph did with them: `stay` (ARC's convention: the reference policy takes them as
   * staying put, so its probability is not the engine's where `unofferedActs` lists some) or `step`
   * (explored as the engine steps them).
   */
  unoffered: UnofferedMode;
  /**
   * Where the other won states are (up to OTHER_WINS, the shortest action paths from the level's start
   * to the won states after the shortest win's, in BFS order): another way to win that the game may
   * carry into the next level, which a sweep explores from each (its report's otherStarts). Set by the
   * level's analysis (src/level.ts).
   */
  otherWins?: string[][];
  /**
   * The game keeps state across attempts: a lost state's RESET, stepped as the ARC agent steps it after
   * GAME_OVER, does not lead where a fresh attempt starts (the first such in the order states merged,
   * the same at any worker count). The graph is a fresh attempt's; the agent's later attempts start elsewhere.
   */
  attemptsWarning?: string;
  /**
   * With attemptsWarning: the actions from the level's start to that lost state, then the RESET the
   * agent sends there, so that the level's start path followed by them starts its next attempt.
   */
  attemptsActions?: string[];
  /** The game lists RESET (0) in its available_actions, which ARC's never does: why, and that the graph leaves it out. */
  listsReset?: string;
}

/** How clicks were expanded: a probability is exact only when the partition is. */
export interface ClickInfo {
  method: 'classes' | 'all-cells';
  /** `exact` for all cells; `sampled` when classes were verified by stepping samples of each. */
  partition: 'exact' | 'sampled';
  classes: number;
  samples: number;
  /** Classes whose samples disagreed, stepped cell by cell instead. */
  split: number;
  splitCells: number;
}

/** Splits 16-byte digests into the 64-bit fingerprints the explorer keys states by (xxHash64 of the digest). */
function fingerprints(digests: Uint8Array, count: number): { lo: Uint32Array; hi: Uint32Array } {
  const lo = new Uint32Array(count);
  const hi = new Uint32Array(count);
  const fp: Fingerprint = { lo: 0, hi: 0 };
  for (let r = 0; r < count; r++) {
    fingerprintInto(digests.subarray(r * 16, r * 16 + 16), fp);
    lo[r] = fp.lo;
    hi[r] = fp.hi;
  }
  return { lo, hi };
}

/** The click stats of a batch's states, in the order the expand op sends them (workers/python/arcgraph/expand.py). */
const STAT_KEYS = ['classes', 'samples', 'split', 'splitCells'] as const;
/** Each state's totals end with the unoffered actions that acted at a checked state so far (bits 1..7, or-ed). */
const TOTALS = STAT_KEYS.length + 1;

let explorations = 0;

/** Why a successor that differs under another PYTHONHASHSEED is a warning (hashOrderWarning, otherSeedSample). */
const HASH_ORDER_WHY = ': the game follows the hash order of strings (iterates a set of them, or hashes one), which ARC randomises per process, so this answer holds under one seed alone';

/** One level of a Python game opened for exploring. */
export class PythonLevel {
  /** Names this exploration to the processes, which send each successor's snapshot once in it. */
  private readonly exploration = `${process.pid}:${++explorations}`;
  /** Click stats of the states merged into the graph (see merged). */
  private readonly stats = { classes: 0, samples: 0, split: 0, splitCells: 0 };
  /** Each batch's click stats so far after each of its states (STAT_KEYS order), until it is merged. */
  private readonly statTotals = new WeakMap<object, Uint32Array>();
  private levelStart: PythonExploreInfo['levelStart'] = 'played';
  /** Game steps expanding a state takes, as at the level's start (verified click classes count twice). */
  stepsPerState = 1;
  /** The latest frame-collision counts of each process (cumulative there). */
  private readonly collisions = new Map<number, { collisions: number; checked: number; violations: number }>();
  private startNote: string | undefined;
  /** Unoffered actions that changed the level's start or a checked state (bit 1 << action). */
  private unofferedMask = 0;
  /** Why some states travel as action paths though the game pickles (the first reason, in order of the text: the same whichever process met it). */
  private pathReason: string | undefined;
  /** The first merged batch's attempts warning (BatchRecords.attempts), and the actions from the level's start that reproduce it. */
  private attemptsWarning: string | undefined;
  private attemptsActions: string[] | undefined;
  private readonly stopped = new Abandonment();
  /** The level's start and its expansion in the game's process under another PYTHONHASHSEED, or why they differ already (otherSeedStart). */
  private otherSeed: Promise<Message | string | OrderOnly> | undefined;
  /** The level's start, as the root batch's moves are compared from it (hashOrderWarning). */
  private start: PyRoot | undefined;

  constructor(
    readonly game: PythonGame,
    readonly level: number,
    readonly workers: number,
  ) {}

  /** The level's start: its snapshot as the frontier's bytes, its fingerprint and status. */
  async root(): Promise<{ bytes: Uint8Array; lo: number; hi: number; status: Status }> {
    await initIdentity();
    // The worker processes start (a second or more each: numpy, the game) while the root is computed.
    const warming = this.game.warm(this.workers);
    // A start that fails ends the game's processes before they are all up: that is not another error.
    warming.catch(() => undefined);
    const root = this.game.root(this.level);
    this.start = root;
    this.otherSeed = this.otherSeedStart(root);
    // its verdict is read with the root's batch; one that fails is a warning, not this promise's rejection
    this.otherSeed.catch(() => undefined);
    await warming;
    this.levelStart = root.levelStart;
    this.startNote = root.note;
    for (const a of root.unofferedActs) this.unofferedMask |= 1 << a;
    const clicks = this.game.actions.includes(6) ? root.moves - (this.game.actions.length - 1) : 0;
    this.stepsPerState = root.moves + (this.game.options.clicks === 'classes' ? clicks * Math.min(1, this.game.options.verify) : 0);
    const { lo, hi } = fingerprintInto(root.digest, { lo: 0, hi: 0 });
    return { bytes: root.snapshot, lo, hi, status: root.status };
  }

  /**
   * The level's start made again in the game's process under another PYTHONHASHSEED, and expanded
   * there when it is the same start: the moves from it, compared with the root batch's (hashOrderWarning).
   * A game that iterates a set of strings, or uses hash() of one, behaves otherwise there (one other
   * seed: a set of two strings keeps its order under it about half the time).
   */
  private async otherSeedStart(root: PyRoot): Promise<Message | string | OrderOnly> {
    const { game, level } = this;
    const path = game.startPath(level);
    const where = `in a process under another PYTHONHASHSEED (${OTHER_HASH_SEED}; the exploration's run under ${HASH_SEED})`;
    try {
      const start = await game.runUnderOtherSeed({ op: 'root', level, orderFree: true, ...(path && path.length > 0 && { path }) }, [], path?.length ?? 1, this.stopped.signal);
      if (!sameBytes(start.blobs[1], root.digest)) {
        // A dict filled by iterating a set of strings (dc22's at its level start) holds the same entries
        // in another order: a state apart only if a step acts on that order, which its moves tell.
        const mine = await game.run(this.workers, { op: 'digest', orderFree: true }, [root.snapshot, root.frame], 1, this.stopped.signal);
        if (!sameBytes(start.blobs[3], mine.blobs[0])) return `the level start differs ${where}`;
        return { snapshot: start.blobs[0] };
      }
      if (root.status !== 'playing') return `the level start is the same ${where}`;
      const ends = Uint32Array.of(start.blobs[0].length);
      return await game.runUnderOtherSeed({ op: 'expand', level, clicks: game.options.clicks, verify: game.options.verify, smallGrid: game.options.smallGrid }, [start.blobs[0], new Uint8Array(ends.buffer)], root.moves, this.stopped.signal);
    } catch (err) {
      if (!(err instanceof PythonError) || err.kind === 'interrupted') throw err;
      return `the level start failed ${where}: ${err.message}`;
    }
  }

  /**
   * The warning that the game follows string hash order, when the root's moves (the records of the
   * root batch's first state) differ from those under another PYTHONHASHSEED: ARC randomises the seed
   * per process, so an answer that holds under the exploration's alone is not the game's.
   */
  private async hashOrderWarning(result: BatchRecords, digests: Uint8Array): Promise<BatchRecords['identity'] | undefined> {
    const other = await this.otherSeed!;
    const why = HASH_ORDER_WHY;
    if (typeof other === 'string') return other.startsWith('the level start is the same') ? undefined : { state: 0, action: 0, message: other + why };
    if (result.error?.state === 0) return undefined; // a fault of the start: the exploration reports it
    const count = result.recordEnds[0];
    if ('snapshot' in other) return this.orderOnlyWarning(other, Array.from(result.action.subarray(0, count)));
    if (other.header.error) return undefined;
    const theirs = u16(other.blobs[5]);
    const outcomes = other.blobs[6];
    const warning = (action: number): BatchRecords['identity'] => ({ state: 0, action, message: `this move from the level start gives another successor in a process under another PYTHONHASHSEED (${OTHER_HASH_SEED}; the exploration's run under ${HASH_SEED})${why}` });
    // moves whose successors differ there in their digests alone: perhaps only in a dict's order (differUnderOtherSeed)
    const apart: number[] = [];
    for (let r = 0; r < Math.max(count, theirs.length); r++) {
      if (r >= count || r >= theirs.length || theirs[r] !== result.action[r] || outcomes[r] !== result.outcome[r]) return warning(r < theirs.length ? theirs[r] : result.action[r]);
      if (!sameBytes(other.blobs[2].subarray(r * 16, r * 16 + 16), digests.subarray(r * 16, r * 16 + 16))) apart.push(r);
    }
    if (apart.length === 0) return undefined;
    const start = this.start!.snapshot;
    let differ: number[];
    try {
      differ = await this.game.differUnderOtherSeed(apart.map(() => start), apart.map((r) => result.action[r]), apart.map((r) => digests.subarray(r * 16, r * 16 + 16)), this.stopped.signal);
    } catch (err) {
      if (!(err instanceof PythonError) || err.kind === 'interrupted') throw err;
      return undefined; // a process failed (or the exploration stopped): no answer to compare
    }
    return differ.length > 0 ? warning(result.action[apart[differ[0]]]) : undefined;
  }

  /**
   * The warning for a level start that differs under another PYTHONHASHSEED only in its dicts' order,
   * when one of its moves (`actions`, the root batch's) gives another successor there than here, both
   * compared with dicts taken in key order: a step acts on that order.
   */
  private async orderOnlyWarning(other: OrderOnly, actions: number[]): Promise<BatchRecords['identity'] | undefined> {
    if (actions.length === 0) return undefined;
    let theirs: Message;
    let mine: Message;
    try {
      [theirs, mine] = await Promise.all([
        this.game.runUnderOtherSeed({ op: 'restep', actions, orderFree: true }, [other.snapshot], actions.length, this.stopped.signal),
        this.game.run(this.workers, { op: 'restep', actions, orderFree: true }, [this.start!.snapshot], actions.length, this.stopped.signal),
      ]);
    } catch (err) {
      if (!(err instanceof PythonError) || err.kind === 'interrupted') throw err;
      return undefined; // a process failed (or the exploration stopped): no answer to compare
    }
    const r = actions.findIndex((_, i) => !sameBytes(theirs.blobs[i], mine.blobs[i]));
    if (r < 0) return undefined;
    return { state: 0, action: actions[r], message: `this move from the level start gives another successor in a process under another PYTHONHASHSEED (${OTHER_HASH_SEED}; the exploration's run under ${HASH_SEED}), where the start holds a dict's entries in another order${HASH_ORDER_WHY}` };
  }

  /**
   * The batch's checked transitions past the start (those of its first `checkFirst` states and the
   * 1 in 256 whose successor's digest begins with a zero byte: the ones its process took again)
   * stepped again in the process under another PYTHONHASHSEED: the first whose successor differs
   * there is the warning that the game follows string hash order (a set of names iterated deep in
   * the level). The start's moves are hashOrderWarning's.
   */
  private async otherSeedSample(batch: SnapshotBatch, result: BatchRecords, digests: Uint8Array): Promise<BatchRecords['identity'] | undefined> {
    const pre: Uint8Array[] = [];
    const actions: number[] = [];
    const at: { state: number; record: number }[] = [];
    const check = batch.checkFirst ?? 0;
    for (let s = batch.rootFirst ? 1 : 0, r = s > 0 ? result.recordEnds[0] : 0; s < result.recordEnds.length; s++) {
      const state = batch.states.subarray(s > 0 ? batch.ends[s - 1] : 0, batch.ends[s]);
      for (; r < result.recordEnds[s]; r++) {
        if (s >= check && digests[r * 16] !== 0) continue;
        pre.push(state);
        actions.push(result.action[r]);
        at.push({ state: s, record: r });
      }
    }
    if (pre.length === 0) return undefined;
    let apart: number[];
    try {
      apart = await this.game.differUnderOtherSeed(pre, actions, at.map(({ record }) => digests.subarray(record * 16, record * 16 + 16)), this.stopped.signal);
    } catch (err) {
      if (!(err instanceof PythonError) || err.kind === 'interrupted') throw err;
      return undefined; // a process failed (or the exploration stopped): no answer to compare
    }
    if (apart.length === 0) return undefined;
    const i = apart[0];
    return { state: at[i].state, action: actions[i], message: `this step gives another successor in a process under another PYTHONHASHSEED (${OTHER_HASH_SEED}; the exploration's run under ${HASH_SEED})${HASH_ORDER_WHY}` };
  }

  /** Expands a batch in one of the game's processes. */
  async expand(batch: SnapshotBatch): Promise<BatchRecords> {
    const { game } = this;
    const steps = batch.ends.length * Math.max(1, game.actions.length);
    let m;
    try {
      // tagged with the batch's bytes (the explorer's batch holds them), so `running` names the batch a step is in
      m = await game.run(this.workers, { op: 'expand', level: this.level, clicks: game.options.clicks, verify: game.options.verify, smallGrid: game.options.smallGrid, exploration: this.exploration, check: batch.checkFirst ?? 0, root: batch.rootFirst === true, startPath: game.startPath(this.level) ?? [] }, [batch.states, new Uint8Array(batch.ends.buffer, batch.ends.byteOffset, batch.ends.byteLength)], steps, this.stopped.signal, batch.states);
    } catch (err) {
      // A step that never returned (its process was killed), or one that ended its process: the fault of the state it was on.
      const at = stoppedAt(err);
      if (!at) throw err;
      const n = batch.ends.length;
      const none = new Uint32Array(0);
      return { steps: new Uint32Array(n), recordEnds: new Uint32Array(n), lo: none, hi: none, keys: new Uint8Array(0), cells: new Uint16Array(0), action: new Uint16Array(0), outcome: new Uint8Array(0), node: new Int32Array(0), bytes: new Uint8Array(0), bytesEnd: none, error: { state: at.item, action: at.action, message: at.message, kind: at.kind } };
    }
    const [stepsB, endsB, digests, keys, cells, action, outcome, node, bytes, bytesEnd, totals] = m.blobs;
    const count = keys.length;
    const fc = m.header.frameCollisions as { collisions: number; checked: number; violations: number } | undefined;
    if (fc) this.collisions.set(Number(m.header.pid ?? 0), fc);
    const paths = m.header.paths;
    if (typeof paths === 'string' && (this.pathReason === undefined || paths < this.pathReason)) this.pathReason = paths;
    const result: BatchRecords = { steps: u32(stepsB), recordEnds: u32(endsB), ...fingerprints(digests, count), keys, cells: u16(cells), action: u16(action), outcome, node: i32(node), bytes, bytesEnd: u32(bytesEnd) };
    this.statTotals.set(result, u32(totals));
    const identity = m.header.identity as BatchRecords['identity'];
    if (identity) result.identity = { state: Number(identity.state), action: Number(identity.action), message: String(identity.message) };
    const attempts = m.header.attempts as BatchRecords['attempts'];
    if (attempts) result.attempts = { state: Number(attempts.state), action: Number(attempts.action), message: String(attempts.message) };
    const error = m.header.error as { state: number; action: number; after?: number; message: string; kind: string } | undefined;
    if (error) {
      // The records of the failed state are left out, as the explorer's own kernel leaves them.
      const padded = new Uint32Array(batch.ends.length);
      padded.set(result.recordEnds);
      const stepsPadded = new Uint32Array(batch.ends.length);
      stepsPadded.set(result.steps);
      result.recordEnds = padded;
      result.steps = stepsPadded;
      result.error = { state: error.state, action: error.action, ...(error.after !== undefined && { after: Number(error.after) }), message: error.message, kind: faultKindOf(error.kind) };
    }
    if (batch.rootFirst && this.otherSeed) {
      const warning = await this.hashOrderWarning(result, digests);
      if (warning && !result.identity) result.identity = warning;
    }
    if (!result.identity && !result.error) {
      const warning = await this.otherSeedSample(batch, result, digests);
      if (warning) result.identity = warning;
    }
    return result;
  }

  /**
   * The explorer merged the first `states` states of a batch `expand` returned: their click stats
   * count (those of states expanded but not merged, at a limit or in flight, do not: the numbers
   * are the same at any worker count).
   */
  merged(batch: object, states: number, pathTo: (i: number) => number[]): void {
    const attempts = (batch as BatchRecords).attempts;
    if (attempts && this.attemptsWarning === undefined && attempts.state < states) {
      this.attemptsWarning = attempts.message;
      // the lost state's path, and the RESET the agent sends there: where its next attempt starts
      this.attemptsActions = [...pathTo(attempts.state), attempts.action, 0].map(codeName);
    }
    const totals = this.statTotals.get(batch);
    this.statTotals.delete(batch);
    if (!totals || states === 0) return;
    const at = TOTALS * (states - 1);
    STAT_KEYS.forEach((k, i) => (this.stats[k] += totals[at + i]));
    this.unofferedMask |= totals[at + STAT_KEYS.length];
  }

  /**
   * The steps this exploration's batches are on now in the game's processes: the batch (its
   * states' bytes), the state's index in it, the action's code, and how long the step has run.
   */
  running(batches: ReadonlySet<Uint8Array>): { batch: Uint8Array; state: number; action: number; seconds: number }[] {
    return this.game.runningSteps().flatMap((r) => (r.tag instanceof Uint8Array && batches.has(r.tag) ? [{ batch: r.tag, state: r.item, action: r.action, seconds: r.seconds }] : []));
  }

  /** The exploration stopped with batches still running, their results unused (a batch can run for minutes: a click class split cell by cell). */
  abandon(): void {
    this.stopped.abandon();
  }

  /** What the exploration's result says about this level's Python side. */
  describe(): PythonExploreInfo {
    const { game } = this;
    const clicks: ClickInfo | null = !game.actions.includes(6)
      ? null
      : game.options.clicks === 'all'
        ? { method: 'all-cells', partition: 'exact', ...this.stats }
        : { method: 'classes', partition: 'sampled', ...this.stats };
    return {
      levelStart: this.levelStart,
      ...(this.startNote && { startNote: this.startNote }),
      ...(this.unofferedMask !== 0 && { unofferedActs: ACTION_NAMES.filter((_, a) => this.unofferedMask & (1 << a)) }),
      unoffered: game.options.unoffered ?? 'stay',
      ...(game.info.listsReset && { listsReset: game.info.listsReset }),
      ...(this.attemptsWarning && { attemptsWarning: this.attemptsWarning, attemptsActions: this.attemptsActions! }),
      identity: game.options.identity,
      graphBuilder: !!game.options.graphBuilder && game.info.graphBuilder,
      snapshots: this.pathReason === undefined ? game.info.snapshots : `${game.info.snapshots}; some states travel as action paths (${this.pathReason})`,
      clicks,
      ...(game.options.identity === 'frame' && {
        frameCollisions: [...this.collisions.values()].reduce((a, c) => ({ collisions: a.collisions + c.collisions, checked: a.checked + c.checked, violations: a.violations + c.violations }), { collisions: 0, checked: 0, violations: 0 }),
      }),
    };
  }
}
