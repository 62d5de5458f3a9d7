import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { tempFolders } from '../support/temp.js';

const tempDir = tempFolders('arcgraph-explore-');

const fixture = (name: string): string => join(PACKAGE_ROOT, 'dist', 'test', 'fixtures', `${name}.js`);
const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' });

describe('arcgraph explore', () => {
  it('prints the documented JSON keys, with an exact probability and exit code 1 on a failing level', () => {
    const r = cli('explore', fixture('ruin'), '--level', '2', '--workers', '2', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    for (const key of ['game', 'level', 'nodes', 'edges', 'transitions', 'mergeDensity', 'maxDepth', 'depthHistogram', 'cycles', 'terminals', 'fullyExplored', 'stopReason', 'frontier', 'collisionProbability', 'schedule', 'winReachable', 'shortestWin', 'deadEnds', 'pWin', 'verdict', 'threshold']) {
      expect(out).toHaveProperty(key);
    }
    expect(out).toMatchObject({ game: 'ruin', level: 2, nodes: 6, fullyExplored: true, stopReason: null, winReachable: true, verdict: 'fail', threshold: 1e-4 });
    expect(out.shortestWin).toMatchObject({ length: 3, actions: ['ACTION4', 'ACTION4', 'ACTION4'] });
    expect(out.pWin).toMatchObject({ policy: 'available', method: 'exact', exact: { p: '2', q: '5' } });
    expect(out.pWin.relativeWidth).toBeLessThan(1e-15);
    expect(out.pWin.width).toBe(out.pWin.upper - out.pWin.lower);
  });

  it('says interval, with its width and why exact gave up, on a level whose class is too big for exact', () => {
    const small = JSON.parse(cli('explore', fixture('strip'), '--level', '2', '--json').stdout);
    expect(small.pWin).toMatchObject({ method: 'exact', exact: { p: '1', q: '3' } });
    const r = cli('explore', fixture('strip'), '--level', '1', '--workers', '2', '--json');
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ nodes: 7 * 40_001, fullyExplored: true, verdict: 'fail' });
    expect(out.pWin).toMatchObject({ method: 'interval', converged: true });
    expect(out.pWin.exactGaveUp).toMatch(/in a cycle class of 200005 states/);
    expect(out.pWin.lower).toBeLessThanOrEqual(1 / 3);
    expect(out.pWin.upper).toBeGreaterThanOrEqual(1 / 3);
    expect(out.pWin.relativeWidth).toBeLessThan(1e-9);
    expect(out.pWin.width).toBe(out.pWin.upper - out.pWin.lower);
  });

  it('passes a level below the threshold and writes the export', () => {
    const dir = tempDir();
    const file = join(dir, 'lights.gexf');
    const r = cli('explore', fixture('lights'), '--level', '2', '--export', file, '--threshold', '0.05', '--workers', '2');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('verdict against 0.05: pass');
    // Where the workers' time went, by their own clocks.
    expect(r.stdout).toMatch(/^schedule: workers \d+\.\d% busy; idle .*; [\d,]+ batch(es)? of [\d,]+ states?$/m);
    expect(readFileSync(file, 'utf8')).toContain('<gexf');
  });

  it('keeps each line of a deep level short: the first depths and actions, and how many more --json has', () => {
    const r = cli('explore', fixture('corridor'), '--workers', '2');
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThan(1_200);
    expect(r.stdout).toMatch(/^depth: max 300; states per depth( 1){40} \.\.\. \(the first 40 of 301 depths; --json for more\)$/m);
    expect(r.stdout).toMatch(/^shortest win: 300 actions: (ACTION4 ){100}\.\.\. \(the first 100 of 300 actions; --json for more\)$/m);
    const out = JSON.parse(cli('explore', fixture('corridor'), '--workers', '2', '--json').stdout);
    expect(out.depthHistogram).toEqual(Array(301).fill(1));
    expect(out.shortestWin.actions).toEqual(Array(300).fill('ACTION4'));
  });

  it('reports partial graphs with bounds and the limit that stopped them', () => {
    const out = JSON.parse(cli('explore', fixture('spread'), '--max-nodes', '500', '--json').stdout);
    expect(out).toMatchObject({ fullyExplored: false, stopReason: 'max-nodes', verdict: 'inconclusive' });
    expect(out.nodes).toBeLessThanOrEqual(500);
    expect(out.pWin.method).toBe('bounds');
    expect(out.pWin.lower).toBeLessThanOrEqual(out.pWin.upper);
  });

  it('stops at the memory budget with the partial result, analysed', () => {
    const out = JSON.parse(cli('explore', fixture('spread'), '--max-memory', '0.001', '--json').stdout);
    expect(out).toMatchObject({ fullyExplored: false, stopReason: 'max-memory', verdict: 'inconclusive' });
    expect(out.nodes).toBeGreaterThan(1);
    expect(out.pWin.method).toBe('bounds');
  });

  it('exits 1 on a crashing game, naming the actions that reproduce it', () => {
    const r = cli('explore', fixture('boom'));
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('[ACTION1, ACTION1, ACTION2, ACTION2]');
    // Asked for JSON, a pipeline gets an object saying so (it got nothing on stdout), the line on stderr as ever.
    const json = cli('explore', fixture('boom'), '--json');
    expect([json.status, json.stderr]).toEqual([1, r.stderr]);
    expect(JSON.parse(json.stdout)).toEqual({ error: { command: 'explore', kind: 'game-fault', fault: 'crash', game: 'boom', level: 1, actions: ['ACTION1', 'ACTION1', 'ACTION2', 'ACTION2'], reason: expect.stringMatching(/^boom: /), message: r.stderr.trim().replace(/^arcgraph explore: /, '') } });
  });

  it('rejects bad input with one line and exit code 2, leaving no file', () => {
    const dir = tempDir();
    for (const args of [['--export', join(dir, 'g.png')], ['--level', '9'], ['--workers', 'x'], ['--policy', 'greedy'], ['--max-memory', '0'], ['--nonsense']]) {
      const r = cli('explore', fixture('ruin'), ...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(dir, 'g.png'))).toBe(false);
  });

  it('stops cleanly on Ctrl-C and still prints the partial result, marked, with exit code 130', async () => {
    const child = spawn(process.execPath, ['dist/src/cli/main.js', 'explore', 'bx19', '--level', '2', '--workers', '1', '--json'], { cwd: PACKAGE_ROOT });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    await new Promise((resolve) => setTimeout(resolve, 2500));
    child.kill('SIGINT');
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(130);
    const out = JSON.parse(stdout);
    expect(out).toMatchObject({ stopReason: 'interrupted', fullyExplored: false, interrupted: true });
    expect(out.nodes).toBeGreaterThan(1);
  });

  it('writes an exact probability below any double in exponent form from its integers (it read "= 1 in Infinity" or a 660-digit fraction)', () => {
    // A corridor of 2,200 cells: ACTION1 steps on, ACTION2 loses: P(win) = 2^-2200 exactly.
    const file = join(tempDir(), 'corridor.mjs');
    writeFileSync(
      file,
      `export default { id: 'crdr', title: 'long corridor', levels: 1, tutorialLevels: 0, actions: [1, 2],
        init: () => ({ x: 0 }), step: (s, a) => ({ x: a.id === 1 ? s.x + 1 : -1 }),
        status: (s) => (s.x < 0 ? 'lost' : s.x >= 2200 ? 'won' : 'playing'),
        render: () => [new Uint8Array(4096)], encode: (s) => new Uint8Array(Int16Array.of(s.x).buffer), decode: (b) => ({ x: new Int16Array(b.slice().buffer)[0] }) };`,
    );
    const r = cli('explore', file, '--workers', '1');
    expect(r.stderr).toBe('');
    // 2^-2200 = 5.42013e-663, 2^2200 = 1.84497e+662 (Python's Decimal(2) ** -2200)
    expect(r.stdout).toMatch(/^random-win probability \(available policy, exact\): 5\.42013e-663 = 1 in 1\.84497e\+662 \(the exact fraction, 663 digits below the line, in --json\)$/m);
  });

  it('says so when the level starts won, and when a complete graph has no win', () => {
    // A game module of plain JavaScript: level 1 starts won, level 2 never ends (one move, a self-loop).
    const file = join(tempDir(), 'start.mjs');
    writeFileSync(
      file,
      `export default { id: 'strt', title: 'starts won', levels: 2, tutorialLevels: 0, actions: [5],
        init: (l) => ({ l }), step: (s) => s, status: (s) => (s.l === 1 ? 'won' : 'playing'),
        render: () => [new Uint8Array(4096)], encode: (s) => Uint8Array.of(s.l), decode: (b) => ({ l: b[0] }) };`,
    );
    const won = cli('explore', file, '--level', '1', '--workers', '1');
    expect(won.stderr).toBe('');
    expect(won.stdout).toMatch(/^shortest win: 0 actions: \(the level starts won\)$/m);
    expect(won.stdout).toMatch(/exact\): 1\/1 = 1 in 1$/m);
    const never = cli('explore', file, '--level', '2', '--workers', '1');
    expect(never.stdout).toMatch(/^no win is reachable$/m);
    expect(never.stdout).toMatch(/exact\): 0\/1 = never$/m);
    // its start is the dead end (it said "reached by no action")
    expect(never.stdout).toMatch(/^dead ends: 1 \(the start is one\)$/m);
  });
});
