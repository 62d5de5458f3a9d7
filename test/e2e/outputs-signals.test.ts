/**
 * Every command through the built CLI: output paths checked before any work (exit 2, one line,
 * at once), SIGINT and SIGTERM handled alike (partial results marked, exit 130), and a warning
 * for more workers than cores.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseReport } from '../../src/report/schema.js';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';

const CLI = join(PACKAGE_ROOT, 'dist/src/cli/main.js');
const fixture = (name: string): string => join(PACKAGE_ROOT, 'dist/test/fixtures', `${name}.js`);
const dir = mkdtempSync(join(tmpdir(), 'arcgraph-outputs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cli(args: string[], input = '') {
  const started = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: PACKAGE_ROOT, input, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, seconds: (performance.now() - started) / 1000 };
}

/** Exit 2, one line naming the option, within a few seconds (no work was done first). */
function expectRefused(r: ReturnType<typeof cli>, message: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(message);
  expect(r.seconds).toBeLessThan(10);
}

describe('output paths are checked before any work', () => {
  it('explore --export into a missing folder or /proc', () => {
    expectRefused(cli(['explore', 'bx19', '--level', '2', '--export', '/nonexistent-dir/x.gexf']), /^arcgraph explore: --export \/nonexistent-dir\/x\.gexf: no such folder \/nonexistent-dir$/);
    expectRefused(cli(['explore', 'bx19', '--level', '2', '--export', '/proc/self/x.gexf']), /--export .*: cannot write in \/proc\/self/);
  });

  it('sweep --out on /proc (where Node\'s mkdir spins forever) or under a file; nothing left for a bad game', () => {
    expectRefused(cli(['sweep', '--games', fixture('ruin'), '--out', '/proc/forbidden']), /^arcgraph sweep: --out \/proc\/forbidden: cannot create \/proc\/forbidden/);
    expectRefused(cli(['sweep', '--games', fixture('ruin'), '--out', '/etc/passwd/sub']), /--out \/etc\/passwd\/sub: \/etc\/passwd is not a folder/);
    const out = join(dir, 'never');
    expectRefused(cli(['sweep', '--games', 'nope', '--out', out]), /unknown game 'nope'/);
    expect(existsSync(out)).toBe(false);
  });

  it('qualify --out, replay --out and play --record', () => {
    expectRefused(cli(['qualify', fixture('ruin'), '--out', '/proc/forbidden']), /^arcgraph qualify: --out \/proc\/forbidden: cannot create/);
    expectRefused(cli(['play', fixture('ruin'), '--record', '/nonexistent-dir/p.jsonl'], 'quit\n'), /^arcgraph play: --record .*: no such folder/);
    expectRefused(cli(['replay', join(dir, 'whatever.jsonl'), '--out', dir]), /^arcgraph replay: --out .*: .* is a folder$/);
  });
});

describe('more workers than cores', () => {
  it('is allowed, with one warning line on stderr', () => {
    const many = availableParallelism() + 1;
    const r = cli(['explore', fixture('ruin'), '--level', '1', '--workers', String(many), '--json']);
    expect(r.status).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(new RegExp(`^arcgraph explore: warning: --workers ${many} is more than the \\d+ cores`))]);
    expect(JSON.parse(r.stdout).nodes).toBeGreaterThan(1);
  });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI and sends `signal` once `ready` says so (or after `afterMs`). */
function interrupted(args: string[], signal: NodeJS.Signals, when: { afterMs?: number; ready?: (stdout: string, stderr: string) => boolean }, input?: string): Promise<Run & { sent: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: PACKAGE_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let sent = false;
    const send = (): void => {
      if (sent) return;
      sent = true;
      child.kill(signal);
    };
    const check = (): void => {
      if (when.ready?.(stdout, stderr)) send();
    };
    child.stdout.on('data', (d) => ((stdout += d), check()));
    child.stderr.on('data', (d) => ((stderr += d), check()));
    if (input !== undefined) child.stdin.write(input);
    if (when.afterMs !== undefined) setTimeout(send, when.afterMs);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, sent }));
  });
}

describe('SIGINT and SIGTERM alike', () => {
  it('explore: SIGTERM prints the partial result marked interrupted, exit 130', async () => {
    const r = await interrupted(['explore', 'bx19', '--level', '2', '--workers', '1', '--json'], 'SIGTERM', { afterMs: 2500 });
    expect(r.code).toBe(130);
    expect(JSON.parse(r.stdout)).toMatchObject({ stopReason: 'interrupted', fullyExplored: false, interrupted: true });
    // the text says so in words (it said 'stopped by interrupted')
    const text = await interrupted(['explore', 'bx19', '--level', '2', '--workers', '1'], 'SIGINT', { afterMs: 2500 });
    expect(text.code).toBe(130);
    expect(text.stdout).toMatch(/not fully explored: interrupted, \d+ states on the frontier/);
  });

  it('explore: a SIGTERM during the probability analysis cuts the solvers short at once, the bounds sound and marked interrupted, exit 130', async () => {
    // latt is explored in a blink; its one cycle class of 6,241 states keeps the solvers busy for many seconds (about 20 here).
    const started = performance.now();
    const r = await interrupted(['explore', fixture('lattice'), '--workers', '1', '--json'], 'SIGTERM', { afterMs: 3000 });
    const seconds = (performance.now() - started) / 1000;
    expect(r.code).toBe(130);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ fullyExplored: true, interrupted: true, pWin: { interrupted: true, converged: false } });
    expect(report.pWin.exactGaveUp).toMatch(/^interrupted \(Ctrl-C or SIGTERM\)/);
    // 1/4 by symmetry (four sides, the start at the centre): the bounds cut short still hold it
    expect(report.pWin.lower).toBeLessThanOrEqual(0.25);
    expect(report.pWin.upper).toBeGreaterThanOrEqual(0.25);
    expect(seconds).toBeLessThan(6);
  });

  it('random: the attempts so far, said to be partial, exit 130', async () => {
    const json = await interrupted(['random', 'bx19', '--level', '2', '--steps', '1000000000', '--workers', '1', '--json'], 'SIGINT', { afterMs: 2500 });
    expect(json.code).toBe(130);
    const r = JSON.parse(json.stdout);
    expect(r.interrupted).toBe(true);
    expect(r.steps).toBeGreaterThan(0);
    expect(r.steps).toBeLessThan(1_000_000_000);
    const text = await interrupted(['random', 'bx19', '--level', '2', '--steps', '1000000000', '--workers', '1'], 'SIGTERM', { afterMs: 2500 });
    expect(text.code).toBe(130);
    expect(text.stdout).toMatch(/^PARTIAL: interrupted after \d+ steps of the budget/);
  });

  it('qualify: the regimes stop, the ones not run are skipped, exit 130', async () => {
    const out = join(dir, 'qualify-out');
    const r = await interrupted(['qualify', 'bx19', '--level', '2', '--workers', '1', '--out', out, '--json'], 'SIGTERM', { afterMs: 3000 });
    expect(r.code).toBe(130);
    const q = JSON.parse(r.stdout);
    expect(q.interrupted).toBe(true);
    // a partial run is no qualification: never passed, and the fuzz cut short says so (it used to say pass)
    expect(q.passed).toBe(false);
    expect(q.levels[0].regimes.fuzz.status).toBe('interrupted');
    expect(q.levels[0].regimes.random2.status).toBe('skipped');
    const text = await interrupted(['qualify', 'bx19', '--level', '2', '--workers', '1', '--out', join(dir, 'qualify-out-text')], 'SIGINT', { afterMs: 3000 });
    expect(text.code).toBe(130);
    expect(text.stdout).toMatch(/^2 +skipped +skipped +interrupted \d/m);
    expect(text.stdout.trimEnd()).toMatch(/PARTIAL: interrupted, not qualified$/);
    expect(text.stdout).not.toMatch(/PASSED/);
  });

  it('sweep: SIGTERM after the first game finishes the reports as interrupted, exit 130', async () => {
    const out = join(dir, 'sweep-term');
    const r = await interrupted(['sweep', '--games', ['ruin', 'maze', 'lights'].map(fixture).join(','), '--budget', 'steps-scale=0.01', '--out', out], 'SIGTERM', { ready: (stdout) => /^ruin: (PASS|FAIL)/m.test(stdout) });
    expect(r.sent).toBe(true);
    expect(r.code).toBe(130);
    const report = parseReport(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.status).toBe('interrupted');
    expect(readdirSync(out).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('play: SIGTERM ends the session as quitting does, the recording written, exit 130', async () => {
    const rec = join(dir, 'ruin.play.recording.jsonl');
    // stdin stays open: the script never ends on its own.
    const r = await interrupted(['play', fixture('ruin'), '--record', rec], 'SIGTERM', { afterMs: 1500 }, 'ACTION4\n');
    expect(r.code).toBe(130);
    expect(readFileSync(rec, 'utf8').trimEnd().split('\n').length).toBeGreaterThanOrEqual(1);
  });
});
