/** `arcgraph qualify` as built (`npm test` builds first): exit codes, the table, --json. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';

const dir = mkdtempSync(join(tmpdir(), 'arcgraph-qualify-cli-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A few seconds per game: 250 steps of random1, 5,000 of random2 and of fuzz. */
const SCALE = 0.005;

describe('arcgraph qualify', () => {
  const cli = (args: string[]) => spawnSync(process.execPath, ['dist/src/cli/main.js', 'qualify', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' });

  it('prints the table, exits 1 on a failure and 0 on a pass, --json with the result keys', () => {
    const failed = cli(['dist/test/fixtures/clicks.js', '--steps-scale', String(SCALE), '--out', join(dir, 'cli')]);
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/^level\s+random1\s+random2\s+fuzz\s+playback$/m);
    expect(failed.stdout).toMatch(/FAIL fuzz level 1 click-targets/);
    expect(failed.stdout).toMatch(/FAILED: 1 finding/);
    const passed = cli(['dist/test/fixtures/badframe.js', '--level', '1', '--steps-scale', String(SCALE), '--json']);
    expect(passed.status).toBe(0);
    const json = JSON.parse(passed.stdout);
    expect(Object.keys(json)).toEqual(expect.arrayContaining(['game', 'passed', 'seed', 'stepsScale', 'levels', 'findings', 'seconds']));
    expect(json).toMatchObject({ game: 'bfrm', passed: true, seed: 1, stepsScale: SCALE });
    expect(readFileSync(join(dir, 'cli', readdirSync(join(dir, 'cli'))[0]), 'utf8')).toContain('"game_id":"clik"');
  });

  it('rejects bad input with exit 2 and one line', () => {
    for (const args of [['nope'], ['dist/test/fixtures/clicks.js', '--level', '9'], ['dist/test/fixtures/clicks.js', '--steps-scale', '0']]) {
      const r = cli(args);
      expect(r.status).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
  });
});
