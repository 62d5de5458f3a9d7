/** The game suite and game modules: ids and module paths to loaded, validated games. */
import { existsSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SUITE } from '../../games/index.js';
import { validateGame, type Game } from '../engine/index.js';
import { GameLoadError, InputError } from '../errors.js';

/** A game and the module it came from, so worker threads can load the same game. */
export interface LoadedGame {
  game: Game;
  /** Absolute path of a JavaScript module whose default export is the game (or its file: URL, see moduleHref). */
  module: string;
}


const here = dirname(fileURLToPath(import.meta.url));
/** The package root, whether running from `src/` (tests) or `dist/src/` (built). */
export const PACKAGE_ROOT = here.includes(`${join('dist', 'src')}`) ? resolve(here, '../../..') : resolve(here, '../..');

/**
 * Maps a module path to something Node can import in a worker thread: TypeScript sources of this
 * package (as run by vitest) are mapped to their compiled twin under dist/.
 */
export function runnableModule(path: string): string {
  if (!path.endsWith('.ts')) return path;
  const rel = relative(PACKAGE_ROOT, path);
  const built = join(PACKAGE_ROOT, 'dist', rel.replace(/\.ts$/, '.js'));
  if (!existsSync(built)) throw new Error(`${path} has no compiled twin at ${built}: run npm run build`);
  return built;
}

/** The ids of the suite's games, in the order games/index.ts lists them. */
export const suiteIds = (): string[] => Object.keys(SUITE);

/** The compiled module of a suite game (suite games always run from dist/, built by npm install). */
export function suiteModule(id: string): string | undefined {
  const entry = SUITE[id.toLowerCase()];
  return entry && join(PACKAGE_ROOT, 'dist', 'games', entry);
}

/**
 * A module is a path, or a file: URL with a `?hash=` query: a fresh import of a module file that
 * changed on disk since this process imported it (Node keeps the first import of a URL for good).
 * A game folder's index.js also has `&folder=DIR`: its files are imported afresh with it (see
 * fresh-folders.ts).
 */
export const moduleHref = (module: string): string => (module.startsWith('file:') ? module : pathToFileURL(module).href);
/** The file a module (a path or a file: URL) is read from. */
export const modulePath = (module: string): string => (module.startsWith('file:') ? fileURLToPath(module) : module);

/** Whether a game reference is a path (a folder separator, or a .js file name), not an id. */
export const looksLikePath = (ref: string): boolean => /[\\/]|\.[cm]?js$/.test(ref);

/**
 * Loads a suite game by id, or a game module by path (its default export). With `version` (the
 * file's digest), the module is imported afresh under that version, not from Node's import cache.
 */
export async function loadGame(ref: string, version?: string): Promise<LoadedGame> {
  const suite = suiteModule(ref);
  if (!suite && !looksLikePath(ref)) {
    throw new InputError(`unknown game '${ref}': suite games are ${Object.keys(SUITE).join(', ') || '(none)'}, or give a path to a JavaScript module`);
  }
  const module = suite ?? resolve(ref);
  if (!suite && !existsSync(module)) throw new InputError(`no such game module: ${ref}`);
  // what Node would refuse in its own words (a folder, a .json): not a JavaScript module at all
  if (!suite && (statSync(module).isDirectory() || !/\.[cm]?[jt]s$/.test(module))) {
    throw new InputError(`${ref} is not a game: give a JavaScript module file (.js, .mjs, .cjs) whose default export is a game, a suite id, or a real ARC game (an <id>/<version>/ folder, or the <id>.py beside its metadata.json)`);
  }
  const runnable = version === undefined ? runnableModule(module) : freshModule(runnableModule(module), version);
  // the module's own faults are the game's (a sweep reports them as its error and goes on)
  const id = suite ? ref : basename(module).replace(/\.[cm]?[jt]s$/, '');
  let exports: Record<string, unknown>;
  try {
    exports = await importGame(runnable);
  } catch (err) {
    throw new GameLoadError(id, `cannot load game module ${ref}: ${String((err as Error)?.message ?? err).split('\n')[0]}`);
  }
  if (exports.default === undefined) throw new GameLoadError(id, `${ref} has no default export: export the game as default`);
  try {
    return { game: validateGame(exports.default, ref), module: runnable };
  } catch (err) {
    throw new GameLoadError(id, (err as Error).message);
  }
}

/** The module `path` imported afresh under `version` (its files' digest): a game folder's index.js with its whole folder. */
function freshModule(path: string, version: string): string {
  const href = `${pathToFileURL(path).href}?hash=${version}`;
  return basename(path) === 'index.js' ? `${href}&folder=${encodeURIComponent(dirname(path))}` : href;
}

let folderHooks = false;
/** Imports a game module; a fresh game folder's first, in each thread, registers the hooks that import its files afresh too (a worker thread has its own). */
function importGame(module: string): Promise<Record<string, unknown>> {
  const href = moduleHref(module);
  if (!folderHooks && new URL(href).searchParams.has('folder')) {
    folderHooks = true;
    // from dist/ even under vitest: the hooks run in Node's loader, which reads no TypeScript
    register(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'src', 'suite', 'fresh-folders.js')));
  }
  return import(href);
}

/** Loads a game module known to be valid (in a worker thread), cached per module path. */
const cache = new Map<string, Promise<Game>>();
export function loadGameModule(module: string): Promise<Game> {
  let game = cache.get(module);
  if (!game) {
    game = importGame(module).then((m) => validateGame(m.default, module));
    cache.set(module, game);
  }
  return game;
}
