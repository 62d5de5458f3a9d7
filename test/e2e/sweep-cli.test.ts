/**
 * `arcgraph sweep` through the built CLI, on the real path (real qualification, small steps scale):
 * exit codes, --json, --baseline, and Ctrl-C half-way.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { parseReport, type SweepReport } from '../../src/report/schema.js';
import { tempFolders } from '../support/temp.js';

const CLI = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const fixture = (name: string): string => join(PACKAGE_ROOT, 'dist/test/fixtures', `${name}.js`);
const tempDir = tempFolders('arcgraph-sweep-cli-');
/** A report folder inside a fresh temp folder, so the default history (beside it) lands there too. */
const nightDir = (): string => join(tempDir(), 'night');
const QUICK = 'steps-scale=0.01';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function arcgraph(args: string[], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
      onStdout?.(stdout, child);
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * A combination lock written as a plain JavaScript game module: twelve right keys in a row win,
 * any wrong key loses, so a uniform random policy wins with probability exactly 4^-12.
 */
function vaultModule(): string {
  const file = join(tempDir(), 'vault.js');
  writeFileSync(
    file,
    `const CODE = [1, 2, 3, 4, 1, 2, 3, 4, 4, 3, 2, 1];
export default {
  id: 'vlt1', title: 'Vault', levels: 1, tutorialLevels: 0, actions: [1, 2, 3, 4],
  init: () => ({ pos: 0, lost: false }),
  step: (s, a) => (s.lost || s.pos === CODE.length ? s : a.id === CODE[s.pos] ? { pos: s.pos + 1, lost: false } : { pos: s.pos, lost: true }),
  status: (s) => (s.lost ? 'lost' : s.pos === CODE.length ? 'won' : 'playing'),
  render(s) {
    const f = new Uint8Array(4096).fill(5);
    f.fill(14, 0, s.pos * 64);
    if (s.lost) f.fill(8, 4032);
    return [f];
  },
  encode: (s) => Uint8Array.of(s.pos, s.lost ? 1 : 0),
  decode: (b) => ({ pos: b[0], lost: b[1] === 1 }),
};
`,
  );
  return file;
}

const reportIn = (dir: string): SweepReport => parseReport(readFileSync(join(dir, 'report.json'), 'utf8'));

describe('arcgraph sweep', () => {
  it('exits 0 when every level passes, and says where the report is', async () => {
    const out = nightDir();
    const r = await arcgraph(['sweep', '--games', vaultModule(), '--budget', QUICK, '--workers', '1', '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`report: ${join(out, 'index.html')}`);
    const report = reportIn(out);
    expect(report.passed).toBe(true);
    const level = report.games[0].levels[0];
    expect(level.analysis!.pWin.exact).toMatchObject({ p: '1', q: String(4 ** 12) });
    expect(level.qualification).toBe('pass');
    expect(report.games[0].qualification!.passed).toBe(true);
  });

  it('exits 1 when a level fails, with the reports written', async () => {
    const out = nightDir();
    const r = await arcgraph(['sweep', '--games', `${vaultModule()},${fixture('ruin')}`, '--budget', QUICK, '--out', out]);
    expect(r.code).toBe(1);
    const report = reportIn(out);
    expect(report.games.map((g) => g.outcome)).toEqual(['pass', 'fail']);
    expect(report.status).toBe('complete');
  });

  it('exits 2 with one line on stderr for bad input', async () => {
    const bad = join(tempDir(), 'bad.json');
    writeFileSync(bad, '{"schemaVersion": 1}');
    for (const args of [
      ['--budget', 'nodes=x'],
      ['--games', 'nope'],
      ['--games', ''],
      ['--baseline', bad],
      ['--workers', '0'],
      ['extra'],
    ]) {
      const r = await arcgraph(['sweep', ...args, '--out', nightDir()]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^arcgraph sweep: /);
    }
  });

  it('--json prints the report as one JSON object, with the regressions against --baseline', async () => {
    const first = nightDir();
    const ruin = fixture('ruin');
    await arcgraph(['sweep', '--games', ruin, '--budget', QUICK, '--out', first]);
    // a baseline in which level 3 was solved in 2 actions: now it takes 5
    const old = reportIn(first);
    old.games[0].levels[2].analysis!.shortestWin!.length = 2;
    const baseline = join(first, 'doctored.json');
    writeFileSync(baseline, JSON.stringify(old));
    const out = nightDir();
    const r = await arcgraph(['sweep', '--games', ruin, '--budget', QUICK, '--out', out, '--baseline', baseline, '--json']);
    expect(r.code).toBe(1);
    const printed = parseReport(r.stdout);
    expect(printed.regressions).toEqual([{ game: 'ruin', level: 3, kind: 'solution-longer', message: 'ruin level 3: shortest solution got longer, 2 -> 5 actions' }]);
    expect(printed).toEqual(reportIn(out));
    expect(r.stderr).toContain('REGRESSION solution-longer');
    expect(r.stderr).toContain(`report: ${join(out, 'index.html')}`);
  });

  it('Ctrl-C after the first game leaves complete reports of the finished games and exits 130', async () => {
    const out = nightDir();
    let sent = false;
    const r = await arcgraph(['sweep', '--games', ['ruin', 'maze', 'lights'].map(fixture).join(','), '--budget', QUICK, '--out', out], (text, child) => {
      if (!sent && /^ruin: (PASS|FAIL)/m.test(text)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(130);
    const report = reportIn(out);
    expect(report.status).toBe('interrupted');
    expect(report.games[0].game).toBe('ruin');
    expect(report.games.length).toBeLessThan(3);
    for (const g of report.games) expect(g.levels).toHaveLength(g.levelCount);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('INTERRUPTED');
  });
});
