/** Where the report site's files lie, relative to the report folder (pages link with these). */
import { posix } from 'node:path';

export const SITE = {
  index: 'index.html',
  assets: 'assets',
  gamePage: (game: string): string => posix.join('games', game, 'index.html'),
  levelPage: (game: string, level: number): string => posix.join('games', game, `level-${level}.html`),
  /** The level's artefacts (frames, graph data, artefacts.json), written at sweep time. */
  levelDir: (game: string, level: number): string => posix.join('games', game, `level-${level}`),
} as const;

export const ARTEFACTS_FILE = 'artefacts.json';

/** A link from page `from` to file `to`, both relative to the report folder. */
export const linkFrom = (from: string, to: string): string => posix.relative(posix.dirname(from), to) || posix.basename(to);

/**
 * The exact command that replays a reproduction of a game swept from `source` (its GameReport's
 * source): a game found by a path (a module, an ARC game folder, which a sweep records for an ARC
 * game named by its id) is given with --game; a suite game is found by the recording's own game id.
 */
export const replayCommand = (path: string, source: string): string => `arcgraph replay ${path}${/[\\/]|\.[cm]?[jt]s$/.test(source) ? ` --game ${source}` : ''}`;
