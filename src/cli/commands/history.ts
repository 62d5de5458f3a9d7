import { resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { History, HistoryError, HISTORY_FILE, type HistoryRow } from '../../history/index.js';
import { formatProbability } from '../../report/index.js';
import { numberOption, parse } from '../args.js';
import type { Command } from '../main.js';
import { textTable } from '../table.js';

const USAGE = `Usage: arcgraph history [--game G] [--level N] [--history FILE] [--json]

Prints the sweep history: one row per level per sweep, oldest first: when the sweep started, the
arcgraph version, the game's content hash and the level's start-state hash (they change when the
game or the level does), states, random-win probability (exact p/q or bounds), shortest solution,
verdict, outcome, qualification findings, seconds and transitions per second. A game that stopped
with an error before any level ran (its module failed to load, its metadata.json is missing or
malformed...) has one row that night, with no level and the error as its outcome.
  --game G         only this game id
  --level N        only this level
  --history FILE   the history file (default reports/${HISTORY_FILE})
  --json           print {file, rows: [...]}
Exit codes: 0 printed, 2 bad input (no such history, or not a history file).`;

const grouped = (n: number | null): string => (n === null ? '—' : Math.round(n).toLocaleString('en-US'));

function pWin(r: HistoryRow): string {
  if (r.pExact !== null) return r.pExact.length <= 16 ? r.pExact : formatProbability(r.pLower ?? 0);
  if (r.pLower === null || r.pUpper === null) return '—';
  return `[${formatProbability(r.pLower)}, ${formatProbability(r.pUpper)}]`;
}

/** A game's error in a table cell: its first words (--json prints it whole). */
const ERROR_WIDTH = 72;
const errorCell = (error: string): string => `error: ${error.length <= ERROR_WIDTH ? error : `${error.slice(0, ERROR_WIDTH - 1)}…`}`;

export function historyTable(rows: readonly HistoryRow[]): string {
  const head = ['STARTED', 'VERSION', 'GAME', 'GAME HASH', 'LEVEL', 'LEVEL HASH', 'STATES', 'P(WIN)', 'SHORTEST', 'VERDICT', 'OUTCOME', 'FINDINGS', 'SECONDS', 'TRANS/S'];
  const body = rows.map((r) => [
    r.startedAt.replace(/\.\d+Z$/, 'Z'),
    r.toolVersion,
    r.game,
    (r.gameHash ?? '—').slice(0, 8),
    r.level === null ? '—' : String(r.level),
    (r.startHash ?? '—').slice(0, 8),
    `${grouped(r.states)}${r.fullyExplored === false ? '+' : ''}`,
    pWin(r),
    r.shortest === null ? '—' : String(r.shortest),
    r.verdict,
    // a game's row without a level says why it has none
    r.level === null && r.error !== null ? errorCell(r.error) : r.outcome,
    String(r.findings),
    r.seconds.toFixed(2),
    grouped(r.transitionsPerSecond),
  ]);
  return textTable([head, ...body], new Set([4, 6, 8, 11, 12, 13]));
}

const command: Command = {
  summary: 'print the sweep history: every level of every recorded sweep (filter by game, level)',
  async run(argv) {
    const p = parse(argv, { game: { type: 'string' }, level: { type: 'string' }, history: { type: 'string' }, json: { type: 'boolean' } }, 'history');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    if (p.positionals.length > 0) throw new InputError(`unexpected argument '${p.positionals[0]}' (see arcgraph history --help)`);
    const level = numberOption(p.values, 'level', { min: 1 });
    const game = typeof p.values.game === 'string' ? p.values.game : undefined;
    const file = resolve(typeof p.values.history === 'string' ? p.values.history : resolve('reports', HISTORY_FILE));
    let rows: HistoryRow[];
    try {
      const history = History.open(file, { mustExist: true, readonly: true });
      try {
        rows = history.levels({ game, level });
      } finally {
        history.close();
      }
    } catch (err) {
      if (err instanceof HistoryError) throw new InputError(err.message);
      throw err;
    }
    if (p.values.json) console.log(JSON.stringify({ file, rows }));
    else if (rows.length === 0) console.log(`No rows in ${file}${game || level ? ' for this filter' : ''}.`);
    else console.log(`${historyTable(rows)}\n(${file}; + after the states: explored partially)`);
    return 0;
  },
};

export default command;
