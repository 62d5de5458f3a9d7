import { ACTION_NAMES } from '../../engine/index.js';
import type { Game } from '../../engine/index.js';
import { InputError } from '../../errors.js';
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
                   add source and baselineActions)`;

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
    const python = pythonOptions(p.values);
    const dir = python.arcGames;
    if (dir !== undefined) {
      const folders = arcGamesIn(dir);
      if (folders.length === 0) throw new InputError(`no ARC games in ${dir} (an environment_files tree: <id>/<version>/<id>.py)`);
      for (const folder of folders) {
        const game = openPythonGame(folder, python);
        summaries.push({ ...summarize(game), source: folder, ...(game.baselineActions && { baselineActions: [...game.baselineActions] }) });
        game.close();
      }
    } else for (const id of suiteIds().sort()) summaries.push(summarize((await loadGame(id)).game));
    console.log(p.values.json ? JSON.stringify(summaries) : gamesTable(summaries));
    return 0;
  },
};

export default command;
