import { ACTION_NAMES } from '../../engine/index.js';
import type { Game } from '../../engine/index.js';
import { GameLoadError, InputError } from '../../errors.js';
import { loadGame, suiteIds } from '../../suite/index.js';
import { arcGamesIn, openPythonGame } from '../../python/index.js';
import { parse, PYTHON_OPTIONS, pythonOptions } from '../args.js';
import { textTable } from '../table.js';
import type { Command } from '../main.js';

const USAGE = `Usage: arcgraph games [--arc-games DIR] [--json]

Lists the games of the suite (games/index.ts), or with --arc-games the real ARC-AGI-3 games of an
environment_files tree: id, title, levels, tutorial levels, actions.
  --arc-games DIR  an environment_files tree (<id>/<version>/<id>.py beside metadata.json)
  --python PATH    the Python interpreter of ARC games (default python3; the engine from its
                   packages or ARCGRAPH_ARC_ENGINE)
  --json           print a JSON array of {id, title, levels, tutorialLevels, actions} (ARC games
                   add source and baselineActions)
An ARC game that cannot be loaded (its module fails on import, its metadata.json is missing or
malformed) is named on stderr, one line each, after the others are listed; then the exit code is 1.`;

/** What `games --json` prints for one game. */
export interface GameSummary {
  id: string;
  title: string;
  levels: number;
  tutorialLevels: number;
  actions: string[];
  /** An ARC game's folder. */
  source?: string;
  baselineActions?: number[];
}

export function summarize(game: Game): GameSummary {
  return {
    id: game.id,
    title: game.title,
    levels: game.levels,
    tutorialLevels: game.tutorialLevels,
    actions: game.actions.map((a) => ACTION_NAMES[a]),
  };
}

/** A plain-text table, one game per row, columns padded to their widest cell. */
export function gamesTable(summaries: readonly GameSummary[]): string {
  if (summaries.length === 0) return 'No games in the suite (games/index.ts lists none).';
  const rows = [['ID', 'TITLE', 'LEVELS', 'TUTORIAL', 'ACTIONS'], ...summaries.map((s) => [s.id, s.title, String(s.levels), String(s.tutorialLevels), s.actions.join(' ')])];
  return textTable(rows);
}

const command: Command = {
  summary: 'list the games of the suite (id, title, levels, tutorial levels, actions)',
  async run(argv) {
    const p = parse(argv, { json: { type: 'boolean' }, ...PYTHON_OPTIONS }, 'games');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    if (p.positionals.length > 0) throw new InputError(`takes no arguments, got ${p.positionals.join(' ')} (see arcgraph games --help)`);
    const summaries: GameSummary[] = [];
    const broken: string[] = [];
    const python = pythonOptions(p.values);
    const dir = python.arcGames;
    if (dir !== undefined) {
      const folders = arcGamesIn(dir);
      if (folders.length === 0) throw new InputError(`no ARC games in ${dir} (an environment_files tree: <id>/<version>/<id>.py)`);
      for (const folder of folders) {
        let game;
        try {
          game = openPythonGame(folder, python);
        } catch (err) {
          // a game whose own files are broken is named, one line, and the others are listed
          if (!(err instanceof GameLoadError)) throw err;
          broken.push(`arcgraph games: ${err.game} (${folder}) cannot be loaded: ${err.message}`);
          continue;
        }
        summaries.push({ ...summarize(game), source: folder, ...(game.baselineActions && { baselineActions: [...game.baselineActions] }) });
        game.close();
      }
    } else for (const id of suiteIds().sort()) summaries.push(summarize((await loadGame(id)).game));
    // every game of the folder broken: their lines say it, not an empty suite's
    if (p.values.json || summaries.length > 0 || broken.length === 0) console.log(p.values.json ? JSON.stringify(summaries) : gamesTable(summaries));
    for (const line of broken) console.error(line);
    return broken.length > 0 ? 1 : 0;
  },
};

export default command;
