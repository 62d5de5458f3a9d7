/**
 * Games whose own files are broken (test/fixtures/python/broken: a SyntaxError, a missing import, no
 * metadata.json, metadata of wrong types; a JavaScript module that throws on import), through the
 * built CLI on the stand-in engine: one line and exit 2 for a command given such a game, that game's
 * error in a sweep (its report, its history row) while the good games are swept, exit 1. And the
 * replay command a sweep prints for an ARC game named by its id with --arc-games.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { start } from '../support/cli.js';
import { FIXTURE_ENGINE, fixtureGame } from '../support/python.js';
import { RedisServer } from '../support/redis.js';
import { tempFolders } from '../support/temp.js';

const cli = (args: string[]) =>
  spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8', env: { ...process.env, ARCGRAPH_ARC_ENGINE: FIXTURE_ENGINE, ARCGRAPH_ARC_GAMES: '' } });
const broken = (id: string): string => join(FIXTURE_ENGINE, 'broken', id);
const tempDir = tempFolders('arcgraph-broken-');
const BUDGET = ['--budget', 'nodes=200,seconds=3,steps-scale=0.001,random-steps=100', '--workers', '1', '--step-timeout', '3'];

/** An environment_files tree of gen1 (good) and the broken games named. */
function tree(...ids: string[]): string {
  const dir = tempDir();
  cpSync(fixtureGame('gen1'), join(dir, 'gen1'), { recursive: true });
  for (const id of ids) cpSync(broken(id), join(dir, id), { recursive: true });
  return dir;
}

interface Report {
  passed: boolean;
  games: { game: string; source: string; levelCount: number; levels: unknown[]; error: string | null; outcome: string }[];
}

describe('games whose own files are broken', () => {
  it('a sweep reports a game that fails on import (SyntaxError, missing import) as its error and sweeps the others: exit 1, report and history row', () => {
    const games = tree('syn1', 'imp1');
    const out = join(tempDir(), 'night');
    const history = join(tempDir(), 'h.sqlite');
    const r = cli(['sweep', '--arc-games', games, '--out', out, '--history', history, ...BUDGET, '--json']);
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.games.map((g) => [g.game, g.outcome])).toEqual([
      ['gen1', expect.any(String)],
      ['imp1', 'fail'],
      ['syn1', 'fail'],
    ]);
    expect(report.games[0].levels.length).toBe(1);
    expect(report.games[0].error).toBeNull();
    expect(report.games[1]).toMatchObject({ levelCount: 0, levels: [], error: expect.stringMatching(/imp1\.py fails on import: ModuleNotFoundError: No module named 'arcgraph_no_such_module'/) });
    expect(report.games[2].error).toMatch(/syn1\.py fails on import: SyntaxError/);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).games).toHaveLength(3);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(/\*\*Error:\*\* .*syn1\.py fails on import: SyntaxError/);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toMatch(/imp1\.py fails on import/);
    const { rows } = JSON.parse(cli(['history', '--history', history, '--game', 'syn1', '--json']).stdout) as { rows: { level: number | null; verdict: string; outcome: string; error: string }[] };
    expect(rows).toEqual([expect.objectContaining({ level: null, verdict: 'error', outcome: 'fail', error: expect.stringMatching(/SyntaxError/) })]);
    // `games` lists the good one and names each broken one on a line of its own
    const listed = cli(['games', '--arc-games', games]);
    expect(listed.status).toBe(1);
    expect(listed.stdout).toMatch(/^ID .*\ngen1 /);
    expect(listed.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^arcgraph games: imp1 .*ModuleNotFoundError/), expect.stringMatching(/^arcgraph games: syn1 .*SyntaxError/)]);
  });

  it('a sweep reports a JavaScript module that throws on import as its error and sweeps the others', () => {
    const out = tempDir();
    const r = cli(['sweep', '--games', `${join(PACKAGE_ROOT, 'dist/test/fixtures/corridor.js')},${join(PACKAGE_ROOT, 'dist/test/fixtures/faults/importthrows.js')}`, '--out', out, '--no-history', ...BUDGET, '--json']);
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.games.map((g) => g.game)).toEqual(['crdr', 'importthrows']);
    expect(report.games[0].levels.length).toBeGreaterThan(0);
    expect(report.games[1]).toMatchObject({ levels: [], outcome: 'fail', error: expect.stringMatching(/cannot load game module .*importthrows\.js: this game module throws on import/) });
  });

  it('a queued sweep plans a module that throws on import as that game’s error, and its workers sweep the others', async () => {
    const redis = await RedisServer.start(tempDir());
    const env = { ARCGRAPH_ARC_ENGINE: FIXTURE_ENGINE, ARCGRAPH_ARC_GAMES: '' };
    const worker = start(['worker', '--queue', `${redis.url}/1`, '--workers', '1', '--step-timeout', '3'], env);
    try {
      await worker.waitFor(/waiting for jobs/);
      const base = tempDir();
      const games = `${join(PACKAGE_ROOT, 'dist/test/fixtures/corridor.js')},${join(PACKAGE_ROOT, 'dist/test/fixtures/faults/importthrows.js')}`;
      const night = start(['sweep', '--queue', `${redis.url}/1`, '--games', games, '--budget', 'nodes=200,seconds=3,steps-scale=0.001,random-steps=100', '--no-history', '--out', join(base, 'night'), '--shared', join(base, 'jobs'), '--json'], env);
      const r = await night.finished;
      expect(r.code, r.stderr).toBe(1);
      const report = JSON.parse(r.stdout) as Report;
      expect(report.games.map((g) => [g.game, g.levels.length > 0, g.error])).toEqual([
        ['crdr', true, null],
        ['importthrows', false, expect.stringMatching(/cannot load game module .*importthrows\.js: this game module throws on import/)],
      ]);
    } finally {
      worker.child.kill('SIGKILL');
      await redis.stop();
    }
  });

  it('says in one line that metadata.json is missing beside <id>.py (exit 2), and a sweep reports it as that game’s error', () => {
    for (const ref of [broken('nom1'), join(broken('nom1'), 'v1'), join(broken('nom1'), 'v1', 'nom1.py')]) {
      const r = cli(['explore', ref]);
      expect([r.status, r.stderr]).toEqual([2, `arcgraph explore: ${join(broken('nom1'), 'v1', 'metadata.json')} is missing beside nom1.py: an ARC game is its <id>.py beside its metadata.json (game_id, title, baseline_actions...)\n`]);
    }
    const games = tree('nom1');
    const byId = cli(['explore', 'nom1', '--arc-games', games]);
    expect([byId.status, byId.stderr]).toEqual([2, expect.stringMatching(/^arcgraph explore: .*metadata\.json is missing beside nom1\.py[^\n]*\n$/)]);
    const r = cli(['sweep', '--arc-games', games, '--out', tempDir(), '--no-history', ...BUDGET, '--json']);
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.games.map((g) => [g.game, g.error === null ? null : g.error.replace(/^.*(metadata\.json is missing beside nom1\.py).*$/, '$1')])).toEqual([
      ['gen1', null],
      ['nom1', 'metadata.json is missing beside nom1.py'],
    ]);
  });

  it('refuses metadata.json fields of the wrong type, naming the field (exit 2; a sweep: that game’s error)', () => {
    const r = cli(['explore', broken('wty1')]);
    expect([r.status, r.stderr]).toEqual([2, `arcgraph explore: ${join(broken('wty1'), 'v1', 'metadata.json')}: "game_id" is 42, not a string\n`]);
    // each field on its own
    const fields: [string, unknown, string][] = [
      ['title', ['x'], 'a string'],
      ['baseline_actions', 'five', 'a list of non-negative integers'],
      ['baseline_actions', [3, -1], 'a list of non-negative integers'],
      ['baseline_actions', [true], 'a list of non-negative integers'],
      ['tags', 'keyboard', 'a list of strings'],
      ['default_fps', 'fast', 'a positive number'],
      ['game_id', '', 'a string'],
    ];
    for (const [field, value, want] of fields) {
      const dir = tempDir();
      cpSync(fixtureGame('gen1'), join(dir, 'gen1'), { recursive: true });
      const meta = join(dir, 'gen1', 'v1', 'metadata.json');
      const good = JSON.parse(readFileSync(meta, 'utf8'));
      writeFileSync(meta, JSON.stringify({ ...good, [field]: value }));
      const e = cli(['explore', join(dir, 'gen1')]);
      expect([e.status, e.stderr]).toEqual([2, `arcgraph explore: ${meta}: "${field}" is ${JSON.stringify(value)}, not ${want}\n`]);
    }
    const sweep = cli(['sweep', '--arc-games', tree('wty1'), '--out', tempDir(), '--no-history', ...BUDGET, '--json']);
    expect(sweep.status).toBe(1);
    expect((JSON.parse(sweep.stdout) as Report).games.map((g) => [g.game, g.error])).toEqual([
      ['gen1', null],
      ['wty1', expect.stringMatching(/metadata\.json: "game_id" is 42, not a string$/)],
    ]);
  });

  it('prints a replay command that finds an ARC game the sweep named by its id (--games gen1 --arc-games DIR): its folder as --game', () => {
    const games = tree();
    const out = tempDir();
    const r = cli(['sweep', '--games', 'gen1', '--arc-games', games, '--out', out, '--no-history', ...BUDGET, '--json']);
    const report = JSON.parse(r.stdout) as Report;
    const folder = join(games, 'gen1', 'v1');
    expect(report.games[0].source).toBe(folder);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    const commands = [...md.matchAll(/reproduce: `(arcgraph replay [^`]+)`/g)].map((m) => m[1]);
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) expect(command).toMatch(new RegExp(` --game ${folder}$`));
    expect(readFileSync(join(out, 'games', 'gen1', 'index.html'), 'utf8')).toContain(`--game ${folder}</code>`);
    // the command as printed replays (no "unknown game 'gen1'")
    const replay = cli(commands[0].split(' ').slice(1));
    expect([replay.status, replay.stderr]).toEqual([0, '']);
  });
});
