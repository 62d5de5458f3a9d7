/** Where Python games come from: the interpreter and engine to run them with, and ARC game folders. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../suite/index.js';
import type { HostCommand } from './process.js';

/** How Python games run: the interpreter (default python3) and a folder holding `arcengine/` (else the interpreter's own). */
export interface PythonSettings {
  python?: string;
  engine?: string;
}

export const HOST_SCRIPT = join(PACKAGE_ROOT, 'workers', 'python', 'arcgraph_host.py');

/** The interpreter: --python, else ARCGRAPH_PYTHON, else python3. */
export const pythonOf = (s: PythonSettings = {}): string => s.python ?? process.env.ARCGRAPH_PYTHON ?? 'python3';

/** The folder put first on PYTHONPATH for `import arcengine`: the setting, else ARCGRAPH_ARC_ENGINE, else none. */
export const engineOf = (s: PythonSettings = {}): string | undefined => s.engine ?? (process.env.ARCGRAPH_ARC_ENGINE || undefined);

/**
 * The PYTHONHASHSEED of every host that explores, plays or walks a game: pinned, so a game that
 * follows string hash order (a set of strings iterated) behaves alike in every process and run.
 */
export const HASH_SEED = 0;
/**
 * The seed of the one process per game that checks for such a game (PythonGame.runUnderOtherSeed):
 * ARC runs each game process under a random seed, so an answer that holds under HASH_SEED alone is not the game's.
 */
export const OTHER_HASH_SEED = 1;

/**
 * The command of a host for `gameFile`. PYTHONHASHSEED is pinned (identities and set iteration do
 * not depend on the process), numerical libraries run one thread each (the workers are the
 * parallelism), and byte code is cached under the temp dir, not beside the user's game.
 */
export function hostCommand(gameFile: string, settings: PythonSettings, flags: readonly string[], stallMs = 0, hashSeed = HASH_SEED): HostCommand {
  const engine = engineOf(settings);
  const path = [engine && resolve(engine), process.env.PYTHONPATH].filter(Boolean).join(delimiter);
  return {
    python: pythonOf(settings),
    script: HOST_SCRIPT,
    args: ['--game', gameFile, ...flags],
    stallMs,
    env: {
      ...process.env,
      PYTHONPATH: path,
      PYTHONHASHSEED: String(hashSeed),
      PYTHONPYCACHEPREFIX: join(tmpdir(), 'arcgraph-pycache'),
      OMP_NUM_THREADS: '1',
      OPENBLAS_NUM_THREADS: '1',
      MKL_NUM_THREADS: '1',
    },
  };
}

/**
 * The folder nearest above a game file that holds an `arcengine/` package: games are often checked
 * out beside the engine (the public repository's layout), so the missing-engine error can name it.
 */
export function engineNear(gameFile: string, levels = 5): string | undefined {
  let dir = dirname(resolve(gameFile));
  for (let i = 0; i < levels; i++) {
    if (isFile(join(dir, 'arcengine', '__init__.py'))) return dir;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return undefined;
}

/** The one-line message for a missing engine: what was looked for, how to install it, and an engine found beside the game. */
export function noEngineMessage(settings: PythonSettings, detail: string, gameFile?: string): string {
  const engine = engineOf(settings);
  const where = engine ? `in ${engine} (ARCGRAPH_ARC_ENGINE or --arc-engine) and in ${pythonOf(settings)}'s own packages` : `in ${pythonOf(settings)}'s packages (ARCGRAPH_ARC_ENGINE unset)`;
  const near = gameFile && engineNear(gameFile);
  const hint = near && (!engine || resolve(engine) !== near) ? `; ${join(near, 'arcengine')} sits above the game: ARCGRAPH_ARC_ENGINE=${near} uses it` : '';
  return `cannot import the ARC engine 'arcengine' ${where}: install it with \`pip install arcengine\`, or point ARCGRAPH_ARC_ENGINE at a folder holding arcengine/${hint} (${detail})`;
}

export function noPythonMessage(settings: PythonSettings): string {
  return `no Python interpreter '${pythonOf(settings)}' (looked on PATH; --python PATH or ARCGRAPH_PYTHON picks another): install Python 3.10+ with numpy, then \`pip install arcengine\``;
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();
const isFile = (p: string): boolean => existsSync(p) && statSync(p).isFile();

/**
 * The game file of an ARC game reference, or undefined when `ref` is not one: an `<id>.py` beside
 * its metadata.json, an `<id>/<version>/` folder, or an `<id>/` folder with one version.
 */
export function arcGameFile(ref: string): string | undefined {
  const path = resolve(ref);
  if (path.endsWith('.py')) return isFile(path) && isFile(join(dirname(path), 'metadata.json')) ? path : undefined;
  if (!isDir(path)) return undefined;
  const own = join(path, `${basename(path)}.py`);
  if (isFile(own) && isFile(join(path, 'metadata.json'))) return own;
  const id = basename(path);
  const versions = readdirSync(path).filter((v) => isFile(join(path, v, `${id}.py`)) && isFile(join(path, v, 'metadata.json')));
  if (versions.length === 1) return join(path, versions[0], `${id}.py`);
  // A <version>/ folder whose game file is named after its parent.
  const parentId = basename(dirname(path));
  const inVersion = join(path, `${parentId}.py`);
  if (isFile(inVersion) && isFile(join(path, 'metadata.json'))) return inVersion;
  return undefined;
}

/**
 * The `<id>.py` of a reference shaped like an ARC game (an `<id>.py`, an `<id>/<version>/` folder
 * holding it, or an `<id>/` folder with one version holding it) whose metadata.json is missing;
 * undefined otherwise (an ARC game, or no ARC game at all).
 */
export function arcGameWithoutMetadata(ref: string): string | undefined {
  if (arcGameFile(ref)) return undefined;
  const path = resolve(ref);
  const bare = (file: string): string | undefined => (isFile(file) && !isFile(join(dirname(file), 'metadata.json')) ? file : undefined);
  if (path.endsWith('.py')) return bare(path);
  if (!isDir(path)) return undefined;
  const id = basename(path);
  const candidates = [join(path, `${id}.py`), join(path, `${basename(dirname(path))}.py`), ...readdirSync(path).map((v) => join(path, v, `${id}.py`))];
  return candidates.map(bare).find((f) => f !== undefined);
}

/** The one line saying that an ARC game's metadata.json is missing beside its `<id>.py`. */
export const noMetadataMessage = (file: string): string =>
  `${join(dirname(file), 'metadata.json')} is missing beside ${basename(file)}: an ARC game is its <id>.py beside its metadata.json (game_id, title, baseline_actions...)`;

/**
 * The version folders of an ARC game's `<id>/` folder (those holding `<id>.py`), sorted. ARC's
 * environment_files tree gives each game id a folder of versions named by their hash (tu93/2b534c15/):
 * their names carry no order, so an id folder holding two is ambiguous and refused (openPythonGame
 * names them), never resolved to one silently.
 */
export function arcVersions(idFolder: string): string[] {
  const path = resolve(idFolder);
  if (!isDir(path)) return [];
  const id = basename(path);
  return readdirSync(path).filter((v) => isFile(join(path, v, `${id}.py`))).sort();
}

/**
 * The games of an environment_files tree (`<id>/<version>/<id>.py`), sorted by id: each id's version
 * folder, or its id folder itself when it holds no version or several (opening it then says which:
 * that game's error in a sweep or a listing, not a game skipped without a word). Hidden folders
 * and `__pycache__` are not games.
 */
export function arcGamesIn(dir: string): string[] {
  const root = resolve(dir);
  if (!isDir(root)) return [];
  const games: string[] = [];
  for (const id of readdirSync(root).sort()) {
    if (id.startsWith('.') || id.startsWith('__') || !isDir(join(root, id))) continue;
    const versions = arcVersions(join(root, id));
    games.push(versions.length === 1 ? join(root, id, versions[0]) : join(root, id));
  }
  return games;
}

/**
 * Why `ref`, a folder, is no ARC game arcgraph can open, as one line; undefined when it is one or
 * is not a folder. An id folder with several versions names them, one with none says so.
 */
export function arcFolderProblem(ref: string): string | undefined {
  const path = resolve(ref);
  if (!isDir(path) || arcGameFile(path)) return undefined;
  const id = basename(path);
  const versions = arcVersions(path);
  if (versions.length > 1) return `${id} holds ${versions.length} versions (${versions.join(', ')}): name one, e.g. ${join(ref, versions[versions.length - 1])} (ARC's version folders are named by their hash, in no order: arcgraph does not pick one)`;
  return `${ref} holds no ARC game: an ARC game is an <id>/<version>/ folder holding <id>.py beside its metadata.json (or that <id>.py); a JavaScript game is a module file`;
}

/** The ARC games folder: --arc-games, else ARCGRAPH_ARC_GAMES. */
export const arcGamesDir = (given?: string): string | undefined => given ?? (process.env.ARCGRAPH_ARC_GAMES || undefined);

/** An ARC game by id in the games folder (`tu93` -> <dir>/tu93/<version>), or undefined. */
export function arcGameById(id: string, dir?: string): string | undefined {
  const root = arcGamesDir(dir);
  if (!root || /[\\/]/.test(id) || id.startsWith('.')) return undefined;
  const folder = [join(resolve(root), id), join(resolve(root), id.toLowerCase())].find(isDir);
  if (!folder) return undefined;
  const versions = arcVersions(folder);
  // several versions, or none: the id folder itself (opening it names the problem)
  return versions.length === 1 ? join(folder, versions[0]) : folder;
}

/** The ids of the games of an environment_files tree (its game folders, sorted). */
export function arcIdsIn(dir: string): string[] {
  const root = resolve(dir);
  if (!isDir(root)) return [];
  return readdirSync(root).filter((id) => !id.startsWith('.') && !id.startsWith('__') && isDir(join(root, id))).sort();
}

/**
 * The one line for a game reference that is nothing known: the suite's ids, and the ARC games of
 * the games folder (--arc-games, ARCGRAPH_ARC_GAMES) or how to point at them.
 */
export function unknownGameMessage(ref: string, suite: readonly string[], arcGames?: string): string {
  const dir = arcGamesDir(arcGames);
  const ids = dir === undefined ? [] : arcIdsIn(dir);
  const arc =
    dir === undefined
      ? 'a real ARC game by its folder (<id>/<version>/) or <id>.py, or by its id with --arc-games DIR (or ARCGRAPH_ARC_GAMES)'
      : ids.length > 0
        ? `the ARC games of ${dir}: ${ids.join(', ')}; or an ARC game folder`
        : `no ARC games in ${dir}; an ARC game folder`;
  return `unknown game '${ref}': suite games are ${suite.join(', ') || '(none)'}; ${arc}; or a path to a JavaScript module`;
}
