/**
 * What version of a game and of each level a sweep saw, as short SHA-256 digests: a level's covers
 * its reset state's canonical bytes and start frame (it changes when the level's start does); a game's
 * covers its code (the module file, or every .js file of its folder for an index.js module, as
 * the suite's games are laid out) and every level's start. The history keeps both per night.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Game } from '../engine/index.js';
import { modulePath, type LoadedGame } from '../suite/index.js';

const digest = (hash: ReturnType<typeof createHash>): string => hash.digest('hex').slice(0, 16);

/**
 * The level's start hash: its reset state's canonical bytes and its start frame (a level's layout
 * is often constant data outside the state, but it shows in the frame). Null when the game cannot
 * build or draw its reset state (the sweep reports that as a crash).
 */
export function startHash(game: Game, level: number): string | null {
  try {
    const state = game.init(level);
    const layers = game.render(state);
    return digest(createHash('sha256').update(game.encode(state)).update(layers[layers.length - 1] ?? new Uint8Array(0)));
  } catch {
    return null;
  }
}

function codeFiles(module: string): string[] {
  if (basename(module) !== 'index.js') return [module];
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (/\.[cm]?js$/.test(entry.name)) files.push(join(dir, entry.name));
    }
  };
  walk(dirname(module));
  return files;
}

/** The digest of a module's code files as they are on disk now; null when they cannot be read. */
export function codeHash(module: string): string | null {
  const path = modulePath(module);
  const hash = createHash('sha256');
  try {
    for (const file of codeFiles(path)) hash.update(file.slice(dirname(path).length)).update(readFileSync(file));
  } catch {
    return null;
  }
  return digest(hash);
}

/** The game's content hash (its levels' starts computed by `game`, the loaded game by default); null when its code cannot be read. */
export function contentHash(loaded: LoadedGame, game: Game = loaded.game): string | null {
  const hash = createHash('sha256');
  try {
    const path = modulePath(loaded.module);
    for (const file of codeFiles(path)) hash.update(file.slice(dirname(path).length)).update(readFileSync(file));
  } catch {
    return null;
  }
  for (let level = 1; level <= game.levels; level++) hash.update(`${level}:${startHash(game, level) ?? 'none'}`);
  return digest(hash);
}
