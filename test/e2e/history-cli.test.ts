/**
 * The sweep history through the built CLI: three nightly sweeps of a game whose level 2 changes
 * before the third, compared with the previous night without --baseline; `arcgraph history`; and
 * a corrupt or unreachable history, which costs one warning and never the night's report.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { parseReport, type SweepReport } from '../../src/report/schema.js';
import type { HistoryRow } from '../../src/history/history.js';

const CLI = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const temp = mkdtempSync(join(tmpdir(), 'arcgraph-history-cli-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

function arcgraph(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * A lock: each level is a code of key actions; a wrong key loses, the whole code wins, so a uniform
 * random policy wins with probability 4^-length. The start frame shows the code's length.
 */
function lockModule(file: string, codes: number[][]): void {
  writeFileSync(
    file,
    `const CODES = ${JSON.stringify(codes)};
export default {
  id: 'lck1', title: 'Lock', levels: CODES.length, tutorialLevels: 0, actions: [1, 2, 3, 4],
  init: (level) => ({ level, pos: 0, lost: false }),
  step: (s, a) => (s.lost || s.pos === CODES[s.level - 1].length ? s : a.id === CODES[s.level - 1][s.pos] ? { ...s, pos: s.pos + 1 } : { ...s, lost: true }),
  status: (s) => (s.lost ? 'lost' : s.pos === CODES[s.level - 1].length ? 'won' : 'playing'),
  render(s) {
    const f = new Uint8Array(4096).fill(5);
    f.fill(2, 0, CODES[s.level - 1].length);
    f.fill(14, 64, 64 + s.pos);
    if (s.lost) f.fill(8, 4032);
    return [f];
  },
  encode: (s) => Uint8Array.of(s.level, s.pos, s.lost ? 1 : 0),
  decode: (b) => ({ level: b[0], pos: b[1], lost: b[2] === 1 }),
};
`,
  );
}

const reportIn = (dir: string): SweepReport => parseReport(readFileSync(join(dir, 'report.json'), 'utf8'));
const QUICK = ['--budget', 'steps-scale=0.01', '--workers', '1'];

describe('sweep history over three nights', () => {
  const game = join(temp, 'lock.js');
  const reports = join(temp, 'reports');
  const history = join(reports, 'history.sqlite');
  const nights: SweepReport[] = [];

  it('records each night, compares with the previous one, and flags the changed level', async () => {
    const seven = [1, 2, 3, 4, 1, 2, 3];
    lockModule(game, [seven, [4, 3, 2, 1, 4, 3, 2]]);
    for (const night of [1, 2, 3]) {
      // before the third night level 2 changes: a longer code
      if (night === 3) lockModule(game, [seven, [4, 3, 2, 1, 4, 3, 2, 1, 4]]);
      const r = await arcgraph(['sweep', '--games', game, ...QUICK, '--out', join(reports, `night-${night}`)]);
      expect(r.stderr).toBe('');
      nights.push(reportIn(join(reports, `night-${night}`)));
      // a regression is flagged, not a failure: the levels still pass
      expect(r.code, r.stdout).toBe(0);
      if (night === 3) expect(r.stdout).toContain('REGRESSION solution-longer: lck1 level 2');
    }
    const [first, second, third] = nights;
    expect(first.history).toEqual({ path: history, earlierRuns: 0, previousRun: null, warning: null });
    expect(third.history).toEqual({ path: history, earlierRuns: 2, previousRun: second.startedAt, warning: null });
    expect(first.games[0].levels.map((l) => l.previous)).toEqual([null, null]);
    const [one, two] = second.games[0].levels;
    expect(one.previous).toMatchObject({ source: 'history', startedAt: first.startedAt, states: 15, shortestWin: 7, startHash: one.startHash });
    expect(two.previous?.startHash).toBe(two.startHash);
    expect(second.regressions).toEqual([]);
    // the third night: level 2 changed (new start hash, a new game hash) and its solution is longer
    const changed = third.games[0].levels[1];
    expect(changed.startHash).not.toBe(two.startHash);
    expect(third.games[0].levels[0].startHash).toBe(one.startHash);
    expect(third.games[0].contentHash).not.toBe(second.games[0].contentHash);
    expect(second.games[0].contentHash).toBe(first.games[0].contentHash);
    expect(third.regressions).toEqual([{ game: 'lck1', level: 2, kind: 'solution-longer', message: 'lck1 level 2: shortest solution got longer, 7 -> 9 actions' }]);
    const md = readFileSync(join(reports, 'night-3', 'report.md'), 'utf8');
    expect(md).toContain('level changed; states 15 → 19; shortest 7 → 9');
    const page = readFileSync(join(reports, 'night-3', 'games/lck1/level-2.html'), 'utf8');
    expect(page).toContain('3 nights in the history, this one included.');
  });

  it('arcgraph history prints the table, filtered by game and level, or as JSON', async () => {
    const json = await arcgraph(['history', '--history', history, '--json']);
    expect(json.code).toBe(0);
    const { file, rows } = JSON.parse(json.stdout) as { file: string; rows: HistoryRow[] };
    expect(file).toBe(history);
    expect(rows.map((r) => [r.startedAt, r.level, r.states, r.shortest, r.pExact, r.outcome])).toEqual(
      nights.flatMap((n, i) => [
        [n.startedAt, 1, 15, 7, `1/${4 ** 7}`, 'pass'],
        [n.startedAt, 2, i < 2 ? 15 : 19, i < 2 ? 7 : 9, `1/${4 ** (i < 2 ? 7 : 9)}`, 'pass'],
      ]),
    );
    for (const [i, n] of nights.entries()) {
      const level = n.games[0].levels[1];
      expect(rows[2 * i + 1]).toMatchObject({ game: 'lck1', toolVersion: n.tool.version, gameHash: n.games[0].contentHash, startHash: level.startHash, seconds: level.seconds, transitionsPerSecond: level.explore!.transitionsPerSecond, verdict: 'pass', findings: 0 });
    }
    const table = await arcgraph(['history', '--history', history, '--game', 'lck1', '--level', '2']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^STARTED\s+VERSION\s+GAME\s+GAME HASH\s+LEVEL\s+LEVEL HASH\s+STATES\s+P\(WIN\)\s+SHORTEST/);
    expect(lines.slice(1, 4).map((l) => l.split(/\s+/)[6])).toEqual(['15', '15', '19']);
    expect(lines.slice(1, 4).map((l) => l.split(/\s+/)[5])).toEqual(nights.map((n) => n.games[0].levels[1].startHash!.slice(0, 8)));
    const help = await arcgraph(['history', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: arcgraph history');
  });

  it('a corrupt or unreachable history costs one warning, never the report; the file is left as it was', async () => {
    const corrupt = join(temp, 'corrupt.sqlite');
    const garbage = 'this is not an SQLite database\n'.repeat(200);
    writeFileSync(corrupt, garbage);
    for (const file of [corrupt, join(temp, 'no-such-folder', 'history.sqlite')]) {
      const out = join(temp, `night-${file === corrupt ? 'corrupt' : 'missing'}`);
      const r = await arcgraph(['sweep', '--games', game, ...QUICK, '--out', out, '--history', file]);
      expect(r.code).toBe(0);
      const warnings = r.stderr.trim().split('\n');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(new RegExp(`^arcgraph sweep: warning: the sweep history ${file} cannot be used: .*; this night is not recorded`));
      const report = reportIn(out);
      expect(report.status).toBe('complete');
      expect(report.history!.warning).toContain('cannot be used');
      expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('this night is not recorded');
    }
    expect(readFileSync(corrupt, 'utf8')).toBe(garbage);
    const read = await arcgraph(['history', '--history', corrupt]);
    expect(read.code).toBe(2);
    expect(read.stderr.trim().split('\n')).toHaveLength(1);
    expect(read.stderr).toMatch(/^arcgraph history: the sweep history .* cannot be used: file is not a database/);
    const none = await arcgraph(['history', '--history', join(temp, 'none.sqlite')]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^arcgraph history: no sweep history at /);
  });
});
