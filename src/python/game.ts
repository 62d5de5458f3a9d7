/**
 * A Python game (a real ARC-AGI-3 game on arcengine) behind the TypeScript game contract: metadata
 * from the host's hello, the contract's functions as synchronous requests to a dedicated process
 * (for the sequential algorithms), and the heavy kernels (expand, walks, fuzz) on a pool of processes.
 */
import { basename, resolve } from 'node:path';
import { actionCode, sameBytes, type Action, type PlayerAction } from '../engine/index.js';
import type { Frame, Game, SessionOptions, Status } from '../engine/index.js';
import { GameLoadError, InputError } from '../errors.js';
import { arcFolderProblem, arcGameFile, arcGameWithoutMetadata, hostCommand, noMetadataMessage, OTHER_HASH_SEED, noEngineMessage, noPythonMessage, type PythonSettings } from './discover.js';
import { PythonPool } from './pool.js';
import { PythonError, type RunningStep } from './process.js';
import type { Message } from './protocol.js';
import { PySession } from './session.js';
import { SyncHost } from './sync.js';

export type IdentityMode = 'state' | 'frame';
export type ClickMode = 'classes' | 'all';

export interface PythonGameOptions extends PythonSettings {
  /** Set the game module's GRAPH_BUILDER flag (undo history and multi-frame effects off) where it has one. */
  graphBuilder?: boolean;
  /** `frame`: states merged by their frame alone (to see what frame-only hashing merges). */
  identity?: IdentityMode;
  /** `classes` (default): one click per verified class of cells; `all`: all 4,096 cells (exact, slow). */
  clicks?: ClickMode;
  /** Pseudo-random cells stepped to verify each click class of more than one cell, counting its last (default 1); a class wider than a grid cell also steps its leftmost and rightmost. */
  verify?: number;
  /** Under `classes`: a camera showing at most this many grid cells has every class stepped once per grid cell, unsampled (default 64: an 8x8 board; 0: never). */
  smallGrid?: number;
  /** A step running longer than this is stopped and reported (default 60 s). */
  stepSeconds?: number;
  /** Address-space limit of each process, MB (a game that eats memory raises MemoryError); 0 for none. */
  memoryMb?: number;
  /** Snapshots compressed with zlib level 1 (less memory on the frontier, more CPU). */
  compress?: boolean;
  /**
   * `step`: the actions the game does not offer are stepped by the engine, as the reference agent
   * sends them (the game's `actions` are then all seven, `offered` its own); `stay` (default): they
   * leave the state unchanged (ARC's convention). Only the reference policy draws them.
   */
  unoffered?: UnofferedMode;
}

export type UnofferedMode = 'stay' | 'step';

/** What the host said about its game when it started. */
export interface PythonInfo {
  id: string;
  /** The full id of the game's metadata (`tu93-2b534c15`), as ARC recordings carry it; the file's stem without metadata. */
  gameId: string;
  version: string;
  title: string;
  file: string;
  levels: number;
  /** The actions the graph and the walks step: the game's own, or all seven under `unoffered: 'step'`. */
  actions: number[];
  /** The game's available actions (less RESET). */
  offered: number[];
  /** Why the game's available_actions are wrong, when they list RESET (0): it is explored without it. */
  listsReset?: string;
  baseline: number[] | null;
  tags: string[];
  graphBuilder: boolean;
  python: string;
  engine: string;
  snapshots: string;
}

/** A state of the game contract's facade: its snapshot, identity, status while exploring `level`, and frames. */
export interface PyState {
  readonly snapshot: Uint8Array;
  readonly digest: Uint8Array;
  readonly status: Status;
  readonly frames: Frame[];
  readonly level: number;
}

/** A level's start state, and how it was reached. */
export interface PyRoot {
  snapshot: Uint8Array;
  digest: Uint8Array;
  frame: Frame;
  levelStart: 'played' | 'set-level';
  /** Its status: a game whose step loses on its RESET starts lost. */
  status: Status;
  /** Why a known winning path could not be used (then set-level was). */
  note?: string;
  /** Moves from the start state (keys, and one per click class): how many steps expanding a state takes. */
  moves: number;
  /** Actions the game does not offer that change its start (the engine steps a game with any action). */
  unofferedActs: number[];
}

const STATUS: readonly Status[] = ['playing', 'won', 'lost'];
/** A state's identity bytes as text (a map key). */
export const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

/** How many other won states a level's result names (otherWins): a sweep explores the next level from each. */
export const OTHER_WINS = 3;

export class PythonGame implements Game<PyState> {
  readonly id: string;
  readonly title: string;
  readonly levels: number;
  /** Level 1 of an ARC-AGI-3 game is its tutorial (exempt from the random-win threshold). */
  readonly tutorialLevels = 1;
  /** The frames of a state are those of the step that made it (Game.stepLayers). */
  readonly stepLayers = true;
  readonly actions: readonly PlayerAction[];
  /** The game's own available actions (`actions` are all seven when the unoffered ones are stepped). */
  readonly offered: readonly PlayerAction[];
  readonly baselineActions?: readonly number[];
  readonly info: PythonInfo;
  readonly options: Required<Pick<PythonGameOptions, 'identity' | 'clicks' | 'verify' | 'stepSeconds'>> & PythonGameOptions;
  private readonly sync: SyncHost;
  private readonly pool: PythonPool;
  /** The one process under another PYTHONHASHSEED (runUnderOtherSeed). */
  private readonly otherSeed: PythonPool;
  /** Winning paths (action codes from the level's start) found so far, by level. */
  private readonly wins = new Map<number, number[]>();
  /** Each explored level's count of different won states, and whether its graph was complete (recordWonStates). */
  private readonly wonStates = new Map<number, { count: number; complete: boolean }>();
  /** Paths from the game's RESET to a level's start, by level (the user's, or a sweep's). */
  private readonly starts = new Map<number, number[]>();
  /** Levels whose start path the user gave (--start-actions): it must reach the level. */
  private readonly given = new Set<number>();
  private readonly roots = new Map<string, PyRoot>();
  /** States this facade made, by digest, so decode can find them (bounded). */
  private readonly known = new Map<string, PyState>();

  constructor(readonly file: string, options: PythonGameOptions = {}) {
    this.options = { identity: 'state', clicks: 'classes', verify: 1, smallGrid: 64, stepSeconds: 60, ...options };
    const flags = [
      ...(options.graphBuilder ? ['--graph-builder'] : []),
      ...(this.options.identity === 'frame' ? ['--identity', 'frame'] : []),
      ...(options.compress ? ['--compress'] : []),
      ...(options.memoryMb ? ['--memory-mb', String(options.memoryMb)] : []),
      ...(options.unoffered === 'step' ? ['--unoffered', 'step'] : []),
    ];
    // The alarm stops a step at stepSeconds; one that blocks it (a hang in C) is killed a little later.
    const command = (seed?: number) => hostCommand(file, options, flags, this.options.stepSeconds * 1000 + 3000, seed);
    this.sync = new SyncHost(command());
    this.pool = new PythonPool(() => command());
    this.otherSeed = new PythonPool(() => command(OTHER_HASH_SEED));
    let hello: Message;
    try {
      hello = this.sync.hello(120_000);
    } catch (err) {
      this.sync.close();
      throw openError(err, options, file);
    }
    const info = hello.header.info as PythonInfo;
    this.info = info;
    this.id = info.id;
    this.title = info.title;
    this.levels = info.levels;
    this.actions = info.actions.filter((a) => a >= 1 && a <= 7) as PlayerAction[];
    this.offered = (info.offered ?? info.actions).filter((a) => a >= 1 && a <= 7) as PlayerAction[];
    if (info.baseline && info.baseline.length >= this.levels) this.baselineActions = info.baseline.slice(0, this.levels);
  }

  /**
   * Time limit of a whole request of `steps` steps: a backstop only (the heartbeat stops a step that
   * hangs), for a process that stops beating between steps.
   */
  timeoutMs(steps: number): number {
    return Math.min(2 ** 31 - 1, 120_000 + this.options.stepSeconds * 2000 + steps * 1000);
  }

  // -- level starts

  /** Records a winning path of `level` (codes from its start), so the next level can start where it leads. */
  recordWin(level: number, codes: readonly number[]): void {
    const known = this.wins.get(level);
    if (!known || codes.length < known.length) this.wins.set(level, [...codes]);
  }

  /**
   * Records how many different won states `level`'s graph ended in, and whether the graph was complete:
   * with more than one (or a partial graph, whose other wins may lie past its budget), a later level's
   * start may depend on how the level was won (a played start says so).
   */
  recordWonStates(level: number, count: number, complete = true): void {
    this.wonStates.set(level, { count, complete });
  }

  /** The note of a played start of `level` reached from the earlier levels' wins, when another win of one of them may start it elsewhere. */
  private carriedNote(level: number): string | undefined {
    for (let l = level - 1; l >= 1; l--) {
      const won = this.wonStates.get(l);
      if (!won) continue;
      // Two won states may differ only in what the game does not read (the level it left): "may" is all that is known.
      if (won.count > 1) return `level ${l} ends in ${won.count} different won states: this start is where its shortest win leads; another win may start this level elsewhere (a sweep explores it from up to ${OTHER_WINS} of the others: otherStarts; --start-actions plays one)`;
      if (!won.complete) return `level ${l} was explored partially: this start is where its shortest win found leads; a win past its budget may start this level elsewhere`;
    }
    return undefined;
  }

  /**
   * A path from RESET to the start of `level` (a sweep's, from the earlier levels' wins). `given`: the
   * user's own, which must reach it (else the start is an InputError, not a fall back to set-level).
   */
  setStart(level: number, actions: readonly Action[], given = false): void {
    this.starts.set(level, actions.map(actionCode));
    if (given) this.given.add(level);
    else this.given.delete(level);
  }

  /**
   * The actions from RESET to `level`'s start: the user's or a sweep's (a later attempt's start ends
   * with the RESET after a loss, at level 1 too), else the known wins of every earlier level; undefined if none.
   */
  startPath(level: number): number[] | undefined {
    const given = this.starts.get(level);
    if (given) return given;
    if (level === 1) return [];
    const path: number[] = [];
    for (let l = 1; l < level; l++) {
      const win = this.wins.get(l);
      if (!win) return undefined;
      path.push(...win);
    }
    return path;
  }

  /** The start state of `level` (cached for its start path). */
  root(level: number): PyRoot {
    const path = this.startPath(level);
    const key = `${level}:${path?.join(',') ?? '-'}`;
    let root = this.roots.get(key);
    if (!root) {
      const m = this.call({ op: 'root', level, ...(path && path.length > 0 && { path }) }, [], path?.length ?? 1);
      root = { snapshot: m.blobs[0], digest: m.blobs[1], frame: m.blobs[2], levelStart: m.header.levelStart as PyRoot['levelStart'], status: STATUS[Number(m.header.status)], moves: Number(m.header.moves), unofferedActs: (m.header.unofferedActs as number[] | undefined) ?? [] };
      if (typeof m.header.note === 'string') root.note = m.header.note;
      else if (root.levelStart === 'played' && !this.given.has(level)) root.note = this.carriedNote(level);
      // The user's own path that misses the level's start is their mistake, not a start to fall back from silently.
      if (this.given.has(level) && root.levelStart !== 'played') throw new InputError(`the start actions given for level ${level} do not lead to its start: ${root.note ?? 'no reason given'}`);
      this.roots.set(key, root);
    }
    return root;
  }

  // -- the game contract, as synchronous requests

  init(level: number): PyState {
    const root = this.root(level);
    return this.remember({ snapshot: root.snapshot, digest: root.digest, status: root.status, frames: [root.frame], level });
  }

  step(state: PyState, action: Action): PyState {
    const m = this.call({ op: 'step', level: state.level, action: actionCode(action) }, [state.snapshot], 1);
    const layers = Number(m.header.layers);
    const frames: Frame[] = [];
    for (let k = 0; k < layers; k++) frames.push(m.blobs[2].slice(k * 4096, (k + 1) * 4096));
    return this.remember({ snapshot: m.blobs[0], digest: m.blobs[1], status: STATUS[Number(m.header.status)], frames, level: state.level });
  }

  status(state: PyState): Status {
    return state.status;
  }

  render(state: PyState): Frame[] {
    return state.frames.map((f) => f.slice());
  }

  encode(state: PyState): Uint8Array {
    return state.digest;
  }

  decode(bytes: Uint8Array): PyState {
    const state = this.known.get(hex(bytes));
    if (!state) throw new Error(`${this.id}: no state with identity ${hex(bytes)} was made here (a Python state travels as its snapshot, not its identity)`);
    return state;
  }

  /** A session played with the engine's perform_action (replay, play, reproductions). */
  session(startLevel: number, options?: SessionOptions): PySession {
    return new PySession(this, startLevel, options);
  }

  /**
   * The latest state made with each identity, so `decode(encode(state))` gives back `state` itself
   * while it is the latest: states of equal identity differ in what the identity leaves out, their
   * frames' animation layers (those of the step that reached each) and their level and status (a
   * level's win is the next level's start). The first one made is the wrong one to give back.
   */
  private remember(state: PyState): PyState {
    const key = hex(state.digest);
    if (!this.known.delete(key) && this.known.size >= 10_000) this.known.delete(this.known.keys().next().value!);
    this.known.set(key, state);
    return state;
  }

  /** A synchronous request to this game's own process; a game's failure becomes a thrown Error naming it. */
  call(header: Record<string, unknown>, blobs: readonly Uint8Array[], steps: number): Message {
    return this.sync.call({ ...header, stepSeconds: this.options.stepSeconds }, blobs, this.timeoutMs(steps));
  }

  /** A request to one of `workers` pool processes (its process is killed if `abandon` aborts before it is answered). */
  run(workers: number, header: Record<string, unknown>, blobs: readonly Uint8Array[], steps: number, abandon?: AbortSignal, tag?: object): Promise<Message> {
    return this.pool.run(workers, { stepSeconds: this.options.stepSeconds, ...header }, blobs, this.timeoutMs(steps), abandon, tag);
  }

  /**
   * A request to this game's process under another PYTHONHASHSEED (started on first use): what it
   * answers differently from the pool's processes comes of the game following string hash order.
   */
  runUnderOtherSeed(header: Record<string, unknown>, blobs: readonly Uint8Array[], steps: number, abandon?: AbortSignal): Promise<Message> {
    return this.otherSeed.run(1, { stepSeconds: this.options.stepSeconds, ...header }, blobs, this.timeoutMs(steps), abandon);
  }

  /**
   * Which of the transitions (`pre` snapshots stepped with `actions`, giving `digests` here) give
   * another successor in the process under another PYTHONHASHSEED, beyond the order of a dict's
   * entries: those that differ there are stepped again on both sides with digests that take every
   * dict in key order (a step that fills a dict by iterating a set of strings, and acts on nothing
   * of its order, is not the game following hash order). Indices into the arrays.
   */
  async differUnderOtherSeed(pre: readonly Uint8Array[], actions: readonly number[], digests: readonly Uint8Array[], abandon?: AbortSignal): Promise<number[]> {
    if (pre.length === 0) return [];
    const m = await this.runUnderOtherSeed({ op: 'restep', actions }, pre, pre.length, abandon);
    const apart = actions.flatMap((_, i) => (sameBytes(m.blobs[i], digests[i]) ? [] : [i]));
    if (apart.length === 0) return [];
    const again = { op: 'restep', actions: apart.map((i) => actions[i]), orderFree: true };
    const blobs = apart.map((i) => pre[i]);
    const [theirs, mine] = await Promise.all([this.runUnderOtherSeed(again, blobs, blobs.length, abandon), this.run(1, again, blobs, blobs.length, abandon)]);
    return apart.filter((_, k) => !sameBytes(theirs.blobs[k], mine.blobs[k]));
  }

  /** The step each busy pool process is on now (with the tag of its request) and how long it has run. */
  runningSteps(): RunningStep[] {
    return this.pool.running();
  }

  /** Starts `workers` pool processes and waits until they have loaded the game (a time budget then counts game steps, not start-up). */
  warm(workers: number): Promise<void> {
    return this.pool.warm(workers);
  }

  /** Ends this game's processes (idle ones do not keep Node alive; a sweep closes each game when done). */
  close(): void {
    this.pool.close();
    this.otherSeed.close();
    this.sync.close();
  }
}

function openError(err: unknown, options: PythonSettings, file: string): Error {
  // stopped by the user's Ctrl-C or SIGTERM while it started: an interruption, not bad input
  if (!(err instanceof PythonError) || err.kind === 'interrupted') return err as Error;
  if (err.kind === 'no-python') return new InputError(noPythonMessage(options));
  if (err.kind === 'load' && err.message.startsWith('no-engine:')) return new InputError(noEngineMessage(options, err.message.slice('no-engine: '.length), file));
  // the game's own files fail (its module on import, its metadata): that game's error in a sweep
  if (err.kind === 'load') return new GameLoadError(basename(file).replace(/\.py$/, ''), err.message);
  return new InputError(`${file}: the Python host did not start: ${err.message}`);
}

/** Opens an ARC game folder or `<id>.py` (InputError when it is not one, or Python or the engine is missing). */
export function openPythonGame(ref: string, options: PythonGameOptions = {}): PythonGame {
  const file = arcGameFile(ref);
  const bare = file ? undefined : arcGameWithoutMetadata(ref);
  if (bare) throw new GameLoadError(basename(bare).replace(/\.py$/, ''), noMetadataMessage(bare));
  // an id folder of several versions, or none: that game's error (a sweep or a listing goes on with the others)
  const problem = file ? undefined : arcFolderProblem(ref);
  if (problem) throw new GameLoadError(basename(resolve(ref)), problem);
  if (!file) throw new InputError(`${ref} is not an ARC game (an <id>/<version>/ folder, or the <id>.py beside its metadata.json)`);
  return new PythonGame(file, options);
}

/**
 * A game whose unoffered actions are stepped explores all seven actions: only the reference policy,
 * which draws all seven, reads such a graph right (the available policy would draw unoffered ones).
 */
export function checkUnofferedPolicy(game: unknown, policy: string): void {
  if (game instanceof PythonGame) checkUnofferedMode(game.options.unoffered, policy, `the ${game.offered.length}`);
}

/** The same check on the options alone (a sweep's, before its games load); `offered` says how many the game offers where known. */
export function checkUnofferedMode(unoffered: UnofferedMode | undefined, policy: string, offered = 'those'): void {
  if (unoffered === 'step' && policy !== 'reference') {
    throw new InputError(`the actions a game does not offer are stepped (--unoffered step) for the reference policy alone, which sends them; the ${policy} policy draws from ${offered} the game offers (drop --unoffered step, or use --policy reference)`);
  }
}
