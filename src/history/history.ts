/**
 * The sweep history: one SQLite file (better-sqlite3) holding every sweep's per-level and per-game
 * results, for trends over nights and for regressions against the previous night without a
 * --baseline. Tables runs, games and levels; PRAGMA user_version is the file's schema version.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { PreviousGame, PreviousLevel, SweepReport, TrendPoint } from '../report/index.js';
import { trendPoint } from '../report/index.js';

export const HISTORY_VERSION = 1;
export const HISTORY_FILE = 'history.sqlite';

/** Beside the report folders: `reports/<date>/` keeps its history in `reports/history.sqlite`. */
export const defaultHistoryPath = (out: string): string => join(dirname(resolve(out)), HISTORY_FILE);

/** The history cannot be opened, read or written; the message says which file and why, in one line. */
export class HistoryError extends Error {}

/**
 * One level on one night, as `arcgraph history` prints it; or a game that stopped with an error
 * before any level ran (its module failed to load on the workers...): one row with no level, its
 * verdict `error`, so the night shows in the game's history.
 */
export interface HistoryRow extends TrendPoint {
  game: string;
  /** Null on the row of a game that has no level that night. */
  level: number | null;
  tutorial: boolean;
  /** The game's content hash that night. */
  gameHash: string | null;
  /** The game's error that night (its jobs that failed), on each of its rows; null when none. */
  error: string | null;
}

const SCHEMA = `
CREATE TABLE runs (
  id INTEGER PRIMARY KEY, started_at TEXT NOT NULL UNIQUE, tool_version TEXT NOT NULL, status TEXT NOT NULL,
  passed INTEGER NOT NULL, seconds REAL NOT NULL, settings TEXT NOT NULL);
CREATE TABLE games (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, game TEXT NOT NULL, title TEXT NOT NULL,
  source TEXT NOT NULL, content_hash TEXT, outcome TEXT NOT NULL, qualification_passed INTEGER, error TEXT,
  seconds REAL NOT NULL, PRIMARY KEY (run_id, game));
CREATE TABLE levels (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, game TEXT NOT NULL, level INTEGER NOT NULL,
  tutorial INTEGER NOT NULL, start_hash TEXT, states INTEGER, fully_explored INTEGER, p_lower REAL, p_upper REAL,
  p_exact TEXT, shortest INTEGER, verdict TEXT NOT NULL, outcome TEXT NOT NULL, findings INTEGER NOT NULL,
  crashed INTEGER NOT NULL, seconds REAL NOT NULL, transitions_per_second REAL, PRIMARY KEY (run_id, game, level));
CREATE INDEX levels_by_level ON levels (game, level);
`;

const LEVEL_COLUMNS = `r.started_at AS startedAt, r.tool_version AS toolVersion, l.game, l.level, l.tutorial, g.content_hash AS gameHash,
  l.start_hash AS startHash, l.states, l.fully_explored AS fullyExplored, l.p_lower AS pLower, l.p_upper AS pUpper, l.p_exact AS pExact,
  l.shortest, l.verdict, l.outcome, l.findings, l.seconds, l.transitions_per_second AS transitionsPerSecond, g.error`;
/** The same columns for a game with no level row in its run: the game's own outcome and seconds. */
const GAME_COLUMNS = `r.started_at AS startedAt, r.tool_version AS toolVersion, g.game, NULL AS level, 0 AS tutorial, g.content_hash AS gameHash,
  NULL AS startHash, NULL AS states, NULL AS fullyExplored, NULL AS pLower, NULL AS pUpper, NULL AS pExact,
  NULL AS shortest, 'error' AS verdict, g.outcome, 0 AS findings, g.seconds, NULL AS transitionsPerSecond, g.error`;

type Raw = Record<string, unknown>;
const bool = (v: unknown): boolean | null => (v === null ? null : v === 1);

function toRow(raw: Raw): HistoryRow {
  return {
    startedAt: raw.startedAt as string,
    toolVersion: raw.toolVersion as string,
    game: raw.game as string,
    level: raw.level as number | null,
    tutorial: raw.tutorial === 1,
    gameHash: raw.gameHash as string | null,
    startHash: raw.startHash as string | null,
    states: raw.states as number | null,
    fullyExplored: bool(raw.fullyExplored),
    pLower: raw.pLower as number | null,
    pUpper: raw.pUpper as number | null,
    pExact: raw.pExact as string | null,
    shortest: raw.shortest as number | null,
    verdict: raw.verdict as string,
    outcome: raw.outcome as HistoryRow['outcome'],
    findings: raw.findings as number,
    seconds: raw.seconds as number,
    transitionsPerSecond: raw.transitionsPerSecond as number | null,
    error: raw.error as string | null,
  };
}

const oneLine = (err: unknown): string => ((err as Error)?.message ?? String(err)).split('\n')[0];

export class History {
  private constructor(
    readonly path: string,
    private readonly db: BetterSqlite3.Database,
  ) {}

  /**
   * Opens the history at `path`, creating it (and its schema) when it does not exist unless
   * `mustExist`. Throws HistoryError when the file is not an SQLite database, is not an arcgraph
   * history, or was written by a newer arcgraph; it never changes such a file.
   */
  static open(path: string, opts: { mustExist?: boolean; readonly?: boolean } = {}): History {
    if (opts.mustExist && !existsSync(path)) throw new HistoryError(`no sweep history at ${path}`);
    let Database: typeof BetterSqlite3;
    try {
      // loaded here so that a broken native build costs the history only, never the sweep
      Database = createRequire(import.meta.url)('better-sqlite3');
    } catch (err) {
      throw new HistoryError(`cannot load better-sqlite3 for the history ${path}: ${oneLine(err)}`);
    }
    let db: BetterSqlite3.Database | undefined;
    try {
      if (!opts.readonly && !existsSync(dirname(resolve(path)))) throw new Error(`no such folder ${dirname(resolve(path))}`);
      db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: opts.mustExist ?? false });
      const version = db.pragma('user_version', { simple: true }) as number;
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
      if (version === 0 && tables.length === 0) {
        if (opts.readonly) throw new Error('the file is empty');
        db.exec(SCHEMA);
        db.pragma(`user_version = ${HISTORY_VERSION}`);
      } else if (version > HISTORY_VERSION) {
        throw new Error(`written by a newer arcgraph (history version ${version}; this one reads ${HISTORY_VERSION})`);
      } else if (version !== HISTORY_VERSION || !['runs', 'games', 'levels'].every((t) => tables.includes(t))) {
        throw new Error(`an SQLite database, but not an arcgraph sweep history (tables: ${tables.join(', ') || 'none'})`);
      }
      db.pragma('foreign_keys = ON');
      return new History(path, db);
    } catch (err) {
      db?.close();
      throw new HistoryError(`the sweep history ${path} cannot be used: ${oneLine(err)}`);
    }
  }

  close(): void {
    this.db.close();
  }

  private guard<T>(what: string, work: () => T): T {
    try {
      return work();
    } catch (err) {
      throw new HistoryError(`the sweep history ${this.path}: cannot ${what}: ${oneLine(err)}`);
    }
  }

  /** Runs recorded before `before` (an ISO start time), and the latest of them. */
  earlier(before: string): { runs: number; previous: string | null } {
    return this.guard('read its runs', () => {
      const r = this.db.prepare('SELECT count(*) AS n, max(started_at) AS last FROM runs WHERE started_at < ?').get(before) as { n: number; last: string | null };
      return { runs: r.n, previous: r.last };
    });
  }

  /** The game in the latest run before `before` that has it. */
  previousGame(game: string, before: string): PreviousGame | undefined {
    return this.guard('read a game', () => {
      const r = this.db
        .prepare('SELECT g.error, g.qualification_passed AS q FROM games g JOIN runs r ON r.id = g.run_id WHERE g.game = ? AND r.started_at < ? ORDER BY r.started_at DESC LIMIT 1')
        .get(game, before) as { error: string | null; q: number | null } | undefined;
      return r && { error: r.error !== null, qualificationPassed: bool(r.q) };
    });
  }

  /** The level in the latest run before `before` that has it, as the report's `previous`. */
  previousLevel(game: string, level: number, before: string): PreviousLevel | null {
    const [last] = this.levels({ game, level, before, newestFirst: true, limit: 1 });
    if (!last) return null;
    return {
      source: 'history',
      startedAt: last.startedAt,
      outcome: last.outcome,
      states: last.states,
      startHash: last.startHash,
      gameHash: last.gameHash,
      shortestWin: last.shortest,
      pWin: last.pLower === null || last.pUpper === null ? null : { lower: last.pLower, upper: last.pUpper },
      crashed: last.verdict === 'crash',
    };
  }

  /**
   * Level rows, oldest first unless `newestFirst`; filtered by game, level, and runs started before
   * `before`. Without a level filter, a game that has no level in a run (it stopped with an error
   * first) has a row of its own there, with no level: else that night would be missing from its history.
   */
  levels(filter: { game?: string; level?: number; before?: string; newestFirst?: boolean; limit?: number } = {}): HistoryRow[] {
    return this.guard('read its levels', () => {
      const filtered = (conditions: [string, string | number | undefined][]): { where: string[]; args: (string | number)[] } => {
        const used = conditions.filter(([, value]) => value !== undefined);
        return { where: used.map(([sql]) => sql), args: used.map(([, value]) => value as string | number) };
      };
      const levels = filtered([['l.game = ?', filter.game], ['l.level = ?', filter.level], ['r.started_at < ?', filter.before]]);
      let sql = `SELECT ${LEVEL_COLUMNS} FROM levels l JOIN runs r ON r.id = l.run_id LEFT JOIN games g ON g.run_id = l.run_id AND g.game = l.game${levels.where.length > 0 ? ` WHERE ${levels.where.join(' AND ')}` : ''}`;
      let args = levels.args;
      if (filter.level === undefined) {
        const games = filtered([['g.game = ?', filter.game], ['r.started_at < ?', filter.before]]);
        const where = ['NOT EXISTS (SELECT 1 FROM levels l WHERE l.run_id = g.run_id AND l.game = g.game)', ...games.where];
        sql += ` UNION ALL SELECT ${GAME_COLUMNS} FROM games g JOIN runs r ON r.id = g.run_id WHERE ${where.join(' AND ')}`;
        args = [...args, ...games.args];
      }
      const order = filter.newestFirst ? 'startedAt DESC' : 'startedAt';
      sql = `SELECT * FROM (${sql}) ORDER BY ${order}, game, level${filter.limit ? ` LIMIT ${Math.floor(filter.limit)}` : ''}`;
      return (this.db.prepare(sql).all(...args) as Raw[]).map(toRow);
    });
  }

  /**
   * Records a sweep: its run, games and levels, in one transaction. A run with the same start time
   * is replaced, so recording the same report twice keeps one copy.
   */
  append(report: SweepReport): void {
    this.guard('record the run', () =>
      this.db.transaction(() => {
        this.db.prepare('DELETE FROM runs WHERE started_at = ?').run(report.startedAt);
        const run = this.db
          .prepare('INSERT INTO runs (started_at, tool_version, status, passed, seconds, settings) VALUES (?, ?, ?, ?, ?, ?)')
          .run(report.startedAt, report.tool.version, report.status, report.passed ? 1 : 0, report.seconds, JSON.stringify(report.settings)).lastInsertRowid;
        const addGame = this.db.prepare('INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)');
        const addLevel = this.db.prepare('INSERT INTO levels VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
        const flag = (b: boolean | null): number | null => (b === null ? null : b ? 1 : 0);
        for (const game of report.games) {
          addGame.run(run, game.game, game.title, game.source, game.contentHash, game.outcome, flag(game.qualification?.passed ?? null), game.error, game.seconds);
          for (const level of game.levels) {
            const p = trendPoint(report, game, level);
            addLevel.run(run, game.game, level.level, level.tutorial ? 1 : 0, p.startHash, p.states, flag(p.fullyExplored), p.pLower, p.pUpper, p.pExact, p.shortest, p.verdict, p.outcome, p.findings, level.crash ? 1 : 0, p.seconds, p.transitionsPerSecond);
          }
        }
      })(),
    );
  }
}
