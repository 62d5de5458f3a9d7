/**
 * An opened level: the one place that resolves a game source, checks the level and picks the
 * worker count, and that gives the explorer its root state and the expander of its batches (so a
 * game that runs elsewhere than in a JavaScript module only needs another kind of opened level).
 */
import { InputError } from '../errors.js';
import { checkedBytes, checkedStatus, fingerprintInto, initIdentity, type Game, type Status } from '../engine/index.js';
import { workerCount, type Watchdog } from '../parallel/index.js';
import { arcFolderProblem, arcGameById, arcGameFile, unknownGameMessage, arcGameWithoutMetadata, openPythonGame, PythonGame, PythonLevel, type PythonExploreInfo, type PythonGameOptions } from '../python/index.js';
import { loadGame, looksLikePath, suiteIds, suiteModule, type LoadedGame } from '../suite/index.js';
import { expandBatch } from './expand.js';
import { inlineExpander, poolExpander, type Expander } from './expander.js';

/**
 * A suite id, module path or ARC game folder, a loaded game, or a game object (which then runs on
 * this thread, unless it is a PythonGame: that one runs in its own Python processes).
 */
export type GameSource = string | LoadedGame | Game;

/** A resolved game: its module (for worker threads) if it has one, and how many threads run it. */
export interface OpenedGame {
  game: Game;
  module?: string;
  workers: number;
  /** A real ARC game: its kernels run in Python processes (one per worker). */
  python?: PythonGame;
}

/**
 * The one place a game reference is resolved: a suite id or JavaScript module path (src/suite), an
 * ARC game folder or `<id>.py` beside its metadata.json, or the id of a game in the ARC games folder
 * (--arc-games, ARCGRAPH_ARC_GAMES) when it is not a suite id.
 */
export async function resolveGame(ref: string, python: PythonGameOptions & { arcGames?: string } = {}): Promise<ResolvedGame> {
  if (suiteModule(ref)) return loadGame(ref);
  const file = arcGameFile(ref) ?? arcGameById(ref, python.arcGames);
  if (file) return openPythonGame(file, python);
  // an ARC game without its metadata.json: say so, not what importing its folder as a module says
  if (arcGameWithoutMetadata(ref)) return openPythonGame(ref, python);
  // a folder is no JavaScript module (Node imports none): an ARC id folder of several versions, or one holding no game, says so
  if (arcFolderProblem(ref)) return openPythonGame(ref, python);
  if (!looksLikePath(ref)) throw new InputError(unknownGameMessage(ref, suiteIds(), python.arcGames));
  return loadGame(ref);
}

/** The level's reset state as the explorer stores it: canonical bytes, 64-bit fingerprint, status. */
export interface RootState {
  bytes: Uint8Array;
  lo: number;
  hi: number;
  status: Status;
}

export interface OpenedLevel extends OpenedGame {
  level: number;
  /** Winning the last level completes the game. */
  lastLevel: boolean;
  /** Computes the root (game code runs here: call it where a throw is reported). */
  root(): Promise<RootState>;
  /** Where the explorer's batches run: the shared pool for a module (under the watchdog, each thread's heap capped at heapMb), else this thread. */
  expander(watchdog: Watchdog, heapMb?: number): Expander;
  /** Game steps a batch should carry, when the default does not suit (Python steps cost about a millisecond). */
  batchSteps?: number;
  /** States (the root first) whose every transition has its identity checked, when FULLY_CHECKED costs too much. */
  fullyChecked?: number;
  /** Game steps expanding a state takes, known once the root is (sizes the first batches). */
  readonly stepsPerState?: number;
  /**
   * The first `states` states of a batch `expander` returned were merged into the graph (what
   * `describe` counts must count those alone); `pathTo(i)`: the action codes from the level's start to the batch's state i.
   */
  merged?(batch: object, states: number, pathTo: (i: number) => number[]): void;
  /** What the result adds about how this level ran (a Python level: its start, identity, clicks). */
  describe?(): { python: PythonExploreInfo };
}

/** Resolves a game source and picks its worker count (1 for a game object: no module to load in a thread). */
export async function openGame(source: GameSource, workers?: number): Promise<OpenedGame> {
  if (source instanceof PythonGame) return { game: source, python: source, workers: workerCount(workers) };
  // A real ARC game as the sweep carries it: its game object, its .py file as its module.
  if (typeof source === 'object' && 'game' in source && source.game instanceof PythonGame) return { game: source.game, python: source.game, workers: workerCount(workers) };
  if (typeof source === 'string') {
    const resolved = await resolveGame(source);
    if (resolved instanceof PythonGame) return { game: resolved, python: resolved, workers: workerCount(workers) };
    source = resolved;
  }
  const { game, module } = typeof source === 'string' ? await loadGame(source) : 'game' in source && 'module' in source ? source : { game: source as Game, module: undefined };
  return module ? { game, module, workers: workerCount(workers) } : { game, workers: workerCount(workers, false) };
}

/** A resolved game reference: a JavaScript game and its module, or a real ARC game. */
export type ResolvedGame = LoadedGame | PythonGame;

/**
 * Done with a resolved game: a real ARC game's processes end, one still running work nobody will
 * read (a batch or attempts left by a stop) at once, so the command exits with its result.
 */
export function closeGame(resolved: ResolvedGame): void {
  if (resolved instanceof PythonGame) resolved.close();
}

/** The game of a resolved reference. */
export const gameOf = (resolved: ResolvedGame): Game => (resolved instanceof PythonGame ? resolved : resolved.game);

/** Throws the user's error for a level the game does not have. */
export function checkLevel(game: Game, level: number): void {
  if (!Number.isInteger(level) || level < 1 || level > game.levels) throw new InputError(`level ${level} does not exist: ${game.id} has levels 1..${game.levels}`);
}

/** Opens one level of a game source for exploring or playing. */
export async function openLevel(source: GameSource, level: number, workers?: number): Promise<OpenedLevel> {
  const opened = await openGame(source, workers);
  const { game, module } = opened;
  checkLevel(game, level);
  if (opened.python) {
    const py = new PythonLevel(opened.python, level, opened.workers);
    return {
      ...opened,
      level,
      lastLevel: level === game.levels,
      root: () => py.root(),
      expander: () => ({ workers: opened.workers, ready: true, run: (task) => py.expand(task), abandon: () => py.abandon(), running: (batches) => py.running(batches) }),
      // About 128 steps (a tenth of a second or two) a batch: the pipe is amortised and a limit is seen soon.
      batchSteps: 128,
      // A Python step is a millisecond or more (lp85's click classes: 30 a state): every transition of
      // the first 4 states is taken again, then the sample's 1 in 256.
      fullyChecked: 4,
      get stepsPerState() {
        return py.stepsPerState;
      },
      merged: (batch, states, pathTo) => py.merged(batch, states, pathTo),
      describe: () => ({ python: py.describe() }),
    };
  }
  return {
    ...opened,
    level,
    lastLevel: level === game.levels,
    async root() {
      await initIdentity();
      const state = game.init(level);
      const bytes = checkedBytes(game.encode(state));
      const { lo, hi } = fingerprintInto(bytes, { lo: 0, hi: 0 });
      return { bytes, lo, hi, status: checkedStatus(game.status(state)) };
    },
    expander: (watchdog, heapMb) => (module ? poolExpander(opened.workers, module, level, watchdog, heapMb) : inlineExpander(game)),
  };
}
