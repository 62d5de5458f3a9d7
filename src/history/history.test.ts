import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../sweep/sweep.js';
import { stubQualifier } from '../../test/support/sweep.js';
import type { SweepReport } from '../report/index.js';
import { historyTable } from '../cli/commands/history.js';
import { History, HistoryError } from './history.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);
const dir = mkdtempSync(join(tmpdir(), 'arcgraph-history-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('History', () => {
  let report: SweepReport;
  beforeAll(async () => {
    report = await sweep({ games: [fixture('ruin'), fixture('boom')], out: join(dir, 'night'), workers: 1, threshold: 0.5, qualifier: stubQualifier({ fail: { ruin: [2] } }) });
  });

  it('keeps every level of a run, reads it back as the next night\'s previous, and replaces a run recorded twice', () => {
    const h = History.open(join(dir, 'h.sqlite'));
    h.append(report);
    h.append(report);
    const rows = h.levels();
    expect(rows).toHaveLength(report.summary.levels);
    expect(h.earlier('9999')).toEqual({ runs: 1, previous: report.startedAt });
    expect(h.earlier(report.startedAt)).toEqual({ runs: 0, previous: null });
    const ruin4 = report.games[0].levels[3];
    expect(h.previousLevel('ruin', 4, '9999')).toEqual({
      source: 'history',
      startedAt: report.startedAt,
      outcome: ruin4.outcome,
      states: ruin4.explore!.nodes,
      startHash: ruin4.startHash,
      gameHash: report.games[0].contentHash,
      shortestWin: ruin4.analysis!.shortestWin!.length,
      pWin: { lower: ruin4.analysis!.pWin.lower, upper: ruin4.analysis!.pWin.upper },
      crashed: false,
    });
    expect(h.previousLevel('boom', 1, '9999')).toMatchObject({ crashed: true, states: null, shortestWin: null, pWin: null });
    expect(h.previousGame('ruin', '9999')).toEqual({ error: false, qualificationPassed: false });
    expect(h.levels({ game: 'ruin', level: 2 })[0]).toMatchObject({ findings: 1, pExact: '2/5', verdict: 'pass', outcome: 'fail' });
    h.close();
  });

  it('lists a game that stopped with an error before any level ran: one row that night, no level, the error', () => {
    const h = History.open(join(dir, 'errored.sqlite'));
    h.append(report);
    // the next night boom's module does not load on the workers: no level of it runs
    const night: SweepReport = JSON.parse(JSON.stringify(report));
    night.startedAt = '9000-01-01T00:00:00.000Z';
    const why = 'level 1 explore: cannot load game module boom.js: Unexpected token';
    Object.assign(night.games[1], { levels: [], qualification: null, error: why, outcome: 'fail', seconds: 0.5 });
    h.append(night);
    const boom = h.levels({ game: 'boom' });
    expect(boom.map((r) => [r.startedAt, r.level])).toEqual([...report.games[1].levels.map((l) => [report.startedAt, l.level]), [night.startedAt, null]]);
    expect(boom.at(-1)).toMatchObject({ game: 'boom', level: null, verdict: 'error', outcome: 'fail', error: why, states: null, findings: 0, seconds: 0.5, gameHash: night.games[1].contentHash });
    // in the whole history too, and never as a level
    expect(h.levels().filter((r) => r.level === null)).toHaveLength(1);
    expect(h.levels({ game: 'boom', level: 1 }).map((r) => r.startedAt)).toEqual([report.startedAt]);
    expect(h.levels({ game: 'boom', before: night.startedAt }).every((r) => r.level !== null)).toBe(true);
    const table = historyTable(boom).split('\n');
    expect(table.at(-1)).toMatch(/\sboom\s+\S+\s+—\s+—\s+—\s+—\s+—\s+error\s+error: level 1 explore: cannot load game module boom\.js: Unexpected token\s+0\s+0\.50/);
    h.close();
  });

  it('refuses, without touching it, an SQLite file that is not a history, or one from a newer arcgraph', () => {
    const Database = createRequire(import.meta.url)('better-sqlite3');
    const other = join(dir, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE notes (text TEXT)');
    db.close();
    const before = readFileSync(other);
    expect(() => History.open(other)).toThrow(HistoryError);
    expect(() => History.open(other)).toThrow(/not an arcgraph sweep history \(tables: notes\)/);
    expect(readFileSync(other)).toEqual(before);
    const newer = join(dir, 'newer.sqlite');
    History.open(newer).close();
    const n = new Database(newer);
    n.pragma('user_version = 9');
    n.close();
    expect(() => History.open(newer)).toThrow(/written by a newer arcgraph \(history version 9/);
  });
});
