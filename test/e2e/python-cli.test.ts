/** The command line on the Python fixture games (the stand-in engine): games, play, explore's Python options. */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { undocumented } from '../support/cli.js';
import { FIXTURE_ENGINE, faultGame, fixtureGame, SLOW_GAME, SLOW_START_GAME } from '../support/python.js';

const cli = (args: string[], input?: string) =>
  spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8', input, env: { ...process.env, ARCGRAPH_ARC_ENGINE: FIXTURE_ENGINE, ARCGRAPH_ARC_GAMES: '' } });

describe('the command line on Python games', () => {
  it('lists the games of an ARC games folder', () => {
    const r = cli(['games', '--arc-games', join(FIXTURE_ENGINE, 'games'), '--json']);
    expect(r.status).toBe(0);
    const games = JSON.parse(r.stdout) as { id: string; levels: number; actions: string[]; baselineActions?: number[] }[];
    expect(games.map((g) => g.id)).toEqual(['bad1', 'clk1', 'gen1', 'hid1']);
    expect(games.find((g) => g.id === 'hid1')).toMatchObject({ levels: 2, tutorialLevels: 1, actions: ['ACTION1', 'ACTION2', 'ACTION3'], baselineActions: [6, 4] });
  });

  it('plays a script with the engine’s level progression and RESET rules', () => {
    const r = cli(['play', fixtureGame('hid1')], 'ACTION3\nACTION3\nACTION2\nACTION2\nACTION2\nACTION2\nRESET\nquit\n');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^hid1 \(HID1\) \| level 1\/2 \| NOT_FINISHED \| completed 0/);
    expect(lines[6]).toMatch(/^ACTION2 -> .*level 2\/2 \| NOT_FINISHED \| completed 1/);
    // RESET with no action on the new level: the engine's full reset, back to level 1.
    expect(lines[7]).toMatch(/^RESET -> .*level 1\/2 \| NOT_FINISHED \| completed 0/);
  });

  it('plays an action the game does not offer as the engine steps it, and keeps the recording (it was exit 2, the session lost)', () => {
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pyplay-'));
    try {
      const rec = join(out, 'hid1.jsonl');
      const r = cli(['play', fixtureGame('hid1'), '--record', rec], 'ACTION2\nACTION7\nACTION2\nquit\n');
      expect([r.status, r.stderr]).toEqual([0, `recorded 4 steps to ${rec}\n`]);
      expect(r.stdout.trim().split('\n')[2]).toMatch(/^ACTION7 \(not available in hid1: played as the engine plays it, its perform_action decides\) -> hid1 /);
      const replayed = cli(['replay', rec, '--game', fixtureGame('hid1'), '--json']);
      expect([replayed.status, JSON.parse(replayed.stdout).reproduced]).toEqual([0, true]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('names the versions of a game folder holding two, and a game folder holding none, instead of picking one or skipping it', () => {
    const tree = mkdtempSync(join(tmpdir(), 'arcgraph-pytree-'));
    try {
      // hid1 twice (v1, v2), gen1 once, and an empty folder: ARC's version folders carry no order
      for (const v of ['v1', 'v2']) cpSync(join(fixtureGame('hid1'), 'v1'), join(tree, 'hid1', v), { recursive: true });
      cpSync(fixtureGame('gen1'), join(tree, 'gen1'), { recursive: true });
      mkdirSync(join(tree, 'emp1'));
      const games = cli(['games', '--arc-games', tree, '--json']);
      expect(games.status).toBe(1);
      expect(JSON.parse(games.stdout).map((g: { id: string }) => g.id)).toEqual(['gen1']);
      expect(games.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(/^arcgraph games: emp1 \(.*emp1\) cannot be loaded: .*emp1 holds no ARC game: /),
        expect.stringMatching(/^arcgraph games: hid1 \(.*hid1\) cannot be loaded: hid1 holds 2 versions \(v1, v2\): name one, e\.g\. .*hid1\/v2 /),
      ]);
      // the id folder, or the id in --arc-games: one line naming them (it was Node's 'Directory import ... is not supported')
      for (const args of [[join(tree, 'hid1')], ['hid1', '--arc-games', tree]]) {
        const r = cli(['explore', ...args]);
        expect([r.status, r.stdout, r.stderr]).toEqual([2, '', expect.stringMatching(/^arcgraph explore: hid1 holds 2 versions \(v1, v2\): name one[^\n]*\n$/)]);
      }
      const empty = cli(['explore', join(tree, 'emp1')]);
      expect([empty.status, empty.stderr]).toEqual([2, expect.stringMatching(/^arcgraph explore: .*emp1 holds no ARC game: [^\n]*\n$/)]);
      const json = cli(['explore', join(tree, 'gen1', 'v1', 'metadata.json')]);
      expect([json.status, json.stderr]).toEqual([2, expect.stringMatching(/^arcgraph explore: .*metadata\.json is not a game: [^\n]*\n$/)]);
      // a sweep reports each as that game's error, as it does other broken games, and sweeps the rest
      const out = `${tree}-out`;
      const sweep = cli(['sweep', '--arc-games', tree, '--out', out, '--no-history', '--budget', 'nodes=200,seconds=2,steps-scale=0.001,random-steps=0', '--json']);
      expect(sweep.status).toBe(1);
      const report = JSON.parse(sweep.stdout) as { games: { game: string; error: string | null }[] };
      expect(report.games.map((g) => [g.game, g.error?.replace(/:.*/, '') ?? null])).toEqual([['emp1', expect.stringMatching(/emp1 holds no ARC game$/)], ['gen1', null], ['hid1', 'hid1 holds 2 versions (v1, v2)']]);
    } finally {
      rmSync(tree, { recursive: true, force: true });
      rmSync(`${tree}-out`, { recursive: true, force: true });
    }
  });

  it('names the ARC games of --arc-games in an unknown game\'s error, or says how to point at them (it listed the suite alone)', () => {
    const games = join(FIXTURE_ENGINE, 'games');
    const given = cli(['explore', 'zz99', '--arc-games', games]);
    expect([given.status, given.stderr]).toEqual([2, expect.stringMatching(new RegExp(`^arcgraph explore: unknown game 'zz99': suite games are [^;]+; the ARC games of ${games}: bad1, clk1, gen1, hid1; `))]);
    const sweep = cli(['sweep', '--arc-games', games, '--games', 'zz99', '--no-history', '--out', join(tmpdir(), 'arcgraph-never-swept')]);
    expect([sweep.status, sweep.stdout, sweep.stderr]).toEqual([2, '', expect.stringMatching(/^arcgraph sweep: unknown game 'zz99': .*the ARC games of .*: bad1, clk1, gen1, hid1; [^\n]*\n$/)]);
    const none = cli(['explore', 'zz99']);
    expect(none.stderr).toMatch(/^arcgraph explore: unknown game 'zz99': suite games are [^;]+; a real ARC game by its folder \(<id>\/<version>\/\) or <id>\.py, or by its id with --arc-games DIR \(or ARCGRAPH_ARC_GAMES\);/);
    // a recording of an ARC game replayed without --game: where to point
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pyrec-'));
    try {
      const rec = join(out, 'hid1.jsonl');
      expect(cli(['play', fixtureGame('hid1'), '--record', rec], 'ACTION2\nquit\n').status).toBe(0);
      const replay = cli(['replay', rec]);
      expect([replay.status, replay.stderr]).toEqual([2, expect.stringMatching(/^arcgraph replay: .*hid1\.jsonl records game 'hid1-v1', which is no game known here \(give --game <its folder or module>\): unknown game 'hid1': .*--arc-games DIR/)]);
      expect(cli(['replay', rec, '--arc-games', games]).status).toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('explores with all cells, from a given start, and says which', () => {
    const all = JSON.parse(cli(['explore', fixtureGame('clk1'), '--clicks', 'all', '--workers', '1', '--json']).stdout);
    // a real ARC game's block names only fields reports/JSON.md documents
    expect([...undocumented(all), ...undocumented(all.python), ...undocumented(all.python.clicks)]).toEqual([]);
    expect(all.python.clicks).toMatchObject({ method: 'all-cells', partition: 'exact' });
    const start = cli(['explore', fixtureGame('hid1'), '--level', '2', '--start-actions', 'ACTION3 ACTION3 ACTION2 ACTION2 ACTION2 ACTION2', '--json']);
    expect(start.status).toBe(1); // level 2 is no tutorial, and random play wins it often: a failed verdict
    expect(JSON.parse(start.stdout).python).toMatchObject({ levelStart: 'played' });
    // Without a path, level 2 is entered by set_level, and the text says where a played start may differ.
    const set = cli(['explore', fixtureGame('hid1'), '--level', '2', '--workers', '1']);
    expect(set.stdout).toMatch(/^python: level start set-level \(not played into: a game that carries anything from level to level, or whose winning action goes on after next_level, starts it elsewhere when played; --start-actions plays a path, sweep plays the earlier levels' shortest wins\); identity state/m);
    // A given path that misses the level's start is bad input (it was a silent fall back to set-level, another start).
    const bad = cli(['explore', fixtureGame('hid1'), '--level', '2', '--start-actions', 'ACTION2', '--json']);
    const refusal = 'the start actions given for level 2 do not lead to its start: the path to level 2 ends with 0 levels completed, on level 1, not at the start of level 2';
    expect([bad.status, JSON.parse(bad.stdout), bad.stderr]).toEqual([2, { error: { command: 'explore', kind: 'bad-input', message: refusal } }, `arcgraph explore: ${refusal}\n`]);
    // A game whose step completes two levels (next_level twice) while playing one: the refusal says so (it said
    // "reaches it after 1 of its 2 actions", which it did not).
    const apart = join(FIXTURE_ENGINE, 'apart', 'dl01');
    const double = cli(['explore', apart, '--level', '3', '--start-actions', 'ACTION1 ACTION1']);
    expect([double.status, double.stderr]).toEqual([2, 'arcgraph explore: the start actions given for level 3 do not lead to its start: the path to level 3 has 2 levels completed after its action 1, on level 2: the game completes levels it does not play (or plays levels it does not complete), so no path starts level 3 as both count it\n']);
    // random play says which start it played from, and takes the same path
    const fromSet = JSON.parse(cli(['random', fixtureGame('hid1'), '--level', '2', '--steps', '50', '--json']).stdout);
    const fromPath = JSON.parse(cli(['random', fixtureGame('hid1'), '--level', '2', '--steps', '50', '--start-actions', 'ACTION3 ACTION3 ACTION2 ACTION2 ACTION2 ACTION2', '--json']).stdout);
    expect([fromSet.levelStart, fromPath.levelStart]).toEqual(['set-level', 'played']);
    const wrong = cli(['explore', fixtureGame('hid1'), '--identity', 'hidden']);
    expect([wrong.status, wrong.stderr.trim().split('\n').length]).toEqual([2, 1]);
  });

  it('judges a chained level from the start each other win of the level before leads to (ws01: it passed from the first win\'s start alone)', () => {
    // ws01's level 1 is won by ACTION1 (first in BFS order) or by ACTION2, which arms a shortcut level 2 keeps:
    // level 2 is 1/19683 from the first start (a pass), 1/1 from the other (by hand in ws01.py).
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pystarts-'));
    try {
      const r = cli(['sweep', '--arc-games', join(FIXTURE_ENGINE, 'apart'), '--games', 'ws01', '--out', out, '--no-history', '--json']);
      expect(r.status).toBe(1);
      const [level1, level2] = (JSON.parse(r.stdout) as { games: { levels: { outcome: string; reasons: string[]; analysis: { pWin: { exact: { p: string; q: string } } }; explore: { python: { otherWins?: string[][]; otherStarts?: unknown[] } } }[] }[] }).games[0].levels;
      expect([level1.outcome, level1.explore.python.otherWins]).toEqual(['pass', [['ACTION2']]]);
      expect([level2.outcome, level2.analysis.pWin.exact]).toMatchObject(['fail', { p: '1', q: '19683' }]);
      expect(level2.reasons).toEqual(['from the start another win of the previous level leads to (ACTION2), a random policy wins with probability 1/1 (1), above 0.0001']);
      expect(level2.explore.python.otherStarts).toEqual([{ startActions: ['ACTION2'], nodes: 2, fullyExplored: true, winReachable: true, shortestWin: 1, pWin: { lower: 1, upper: 1, exact: { p: '1', q: '1' } }, verdict: 'fail', problem: null }]);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('also explored from the starts other wins of the previous level lead to: (ACTION2): 2 states, shortest 1, p 1/1, fail');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('judges a level by where its later attempts start when the game keeps state across attempts (dt03: it passed with a warning), once per start (dt04)', () => {
    // dt03 level 2 (by hand in dt03.py): 1/16384 from a fresh attempt and from attempt 2's start (one death), 1/2 from attempt 3's (two).
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pyattempts-'));
    try {
      const r = cli(['sweep', '--arc-games', join(FIXTURE_ENGINE, 'apart'), '--games', 'dt03,dt04,dt05', '--out', out, '--no-history', '--json']);
      expect(r.status).toBe(1);
      type Level = { outcome: string; reasons: string[]; analysis: { pWin: { exact: { p: string; q: string } } }; explore: { python: { attemptsActions?: string[]; otherStarts?: { startActions: string[]; attempt?: number; nodes: number; pWin: { exact: { p: string; q: string } | null }; verdict: string }[] } } };
      const [dt03, dt04, dt05] = (JSON.parse(r.stdout) as { games: { game: string; levels: Level[] }[] }).games.sort((a, b) => a.game.localeCompare(b.game)).map((g) => g.levels);
      // the tutorial is exempt: no other start explored
      expect([dt03[0].outcome, dt03[0].explore.python.attemptsActions, dt03[0].explore.python.otherStarts]).toEqual(['pass', ['ACTION2', 'RESET'], undefined]);
      expect([dt03[1].outcome, dt03[1].analysis.pWin.exact, dt03[1].explore.python.attemptsActions]).toMatchObject(['fail', { p: '1', q: '16384' }, ['ACTION2', 'RESET']]);
      expect(dt03[1].reasons).toEqual(["from where attempt 3 starts (the attempt before lost, then RESET; from the game's RESET: ACTION1 ACTION2 RESET ACTION2 RESET), a random policy wins with probability 1/2 (0.500), above 0.0001"]);
      // attempt 3 fails the level: attempt 4 is not explored
      const brief = (l: Level) => l.explore.python.otherStarts!.map((o) => [o.attempt, o.startActions.join(' '), o.nodes, o.pWin.exact && `${o.pWin.exact.p}/${o.pWin.exact.q}`, o.verdict]);
      expect(brief(dt03[1])).toEqual([
        [2, 'ACTION1 ACTION2 RESET', 29, '1/16384', 'pass'],
        [3, 'ACTION1 ACTION2 RESET ACTION2 RESET', 3, '1/2', 'fail'],
      ]);
      // dt04's flag comes back at attempt 3: that start is the level's own, explored once
      expect([dt04[1].outcome, brief(dt04[1])]).toEqual(['pass', [[2, 'ACTION1 ACTION2 RESET', 29, '1/16384', 'pass']]]);
      // dt05 keeps nothing, but the engine's RESET runs its step(), which moves the runner: every attempt after the first starts
      // a cell on (1/8192, by hand in dt05.py), where the first, entered by winning level 1, is 1/16384 (it passed, with no warning)
      expect([dt05[1].outcome, dt05[1].analysis.pWin.exact, brief(dt05[1])]).toMatchObject(['fail', { p: '1', q: '16384' }, [[2, 'ACTION1 ACTION2 RESET', 27, '1/8192', 'fail']]]);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('also explored from where later attempts start (a loss, then RESET): attempt 2 (ACTION1 ACTION2 RESET): 29 states, shortest 14, p 1/16384, pass; attempt 3 (ACTION1 ACTION2 RESET ACTION2 RESET): 3 states, shortest 1, p 1/2, fail');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    // --start-actions plays a later attempt: at level 2 after the level 1 win, and at level 1 itself (ending with the RESET)
    const dt03 = join(FIXTURE_ENGINE, 'apart', 'dt03');
    const third = JSON.parse(cli(['explore', dt03, '--level', '2', '--start-actions', 'ACTION1 ACTION2 RESET ACTION2 RESET', '--json']).stdout) as { nodes: number; pWin: { exact: { p: string; q: string } } };
    expect([third.nodes, third.pWin.exact]).toMatchObject([3, { p: '1', q: '2' }]);
    // the text names the attribute and the actions that start the next attempt
    const text = cli(['explore', dt03, '--level', '2', '--start-actions', 'ACTION1']).stdout;
    expect(text).toMatch(/\nATTEMPTS WARNING: after GAME_OVER .* self\.deaths differs .* \(from the level's start: ACTION2 RESET; --start-actions with the path to this level's start followed by these explores the next attempt\)\n/);
    const first = JSON.parse(cli(['explore', dt03, '--level', '1', '--start-actions', 'ACTION2 RESET ACTION2 RESET', '--json']).stdout) as { nodes: number; pWin: { exact: { p: string; q: string } }; python: { levelStart: string } };
    expect([first.nodes, first.pWin.exact, first.python.levelStart]).toMatchObject([3, { p: '1', q: '2' }, 'played']);
    // a path to level 1 that is no later attempt's, and one that loses without the RESET, are the user's mistakes
    const notStart = cli(['explore', dt03, '--level', '1', '--start-actions', 'ACTION1']);
    expect([notStart.status, notStart.stderr]).toEqual([2, "arcgraph explore: the start actions given for level 1 do not lead to its start: level 1 starts at the game's RESET: a path to it is a later attempt's, ending with the RESET an agent sends after a loss\n"]);
    const noReset = cli(['explore', dt03, '--level', '2', '--start-actions', 'ACTION1 ACTION2']);
    expect([noReset.status, noReset.stderr]).toEqual([2, 'arcgraph explore: the start actions given for level 2 do not lead to its start: the path to level 2 reaches it after 1 of its 2 actions (a path that plays on in the level starts a later attempt: it ends with the RESET an agent sends after a loss)\n']);
  });

  it('reports faults beyond a step’s exception as crashes with their actions: exit 1, and a sweep counts them', () => {
    const init = cli(['explore', faultGame('bin1')]);
    expect([init.status, init.stderr]).toEqual([1, expect.stringMatching(/^arcgraph explore: bin1 level 1 crashed after 0 actions from reset \[\]: the reset state cannot be built: starting the game threw: RuntimeError: level data missing/)]);
    const exit = cli(['explore', faultGame('die1'), '--level', '2']);
    expect([exit.status, exit.stderr.trim()]).toEqual([1, 'arcgraph explore: die1 level 2 crashed after 3 actions from reset [ACTION1, ACTION1, ACTION2]: the game ended its Python process (exit code 0)']);
    // --max-memory bounds each Python process (a share of 1 GB): 2 GB of allocations are out of memory there, not a hang.
    const hog = cli(['explore', faultGame('die1'), '--level', '5', '--max-memory', '1', '--step-timeout', '3']);
    expect([hog.status, hog.stderr]).toEqual([1, expect.stringMatching(/^arcgraph explore: die1 level 5 ran out of memory after 3 actions from reset \[ACTION1, ACTION1, ACTION2\]: out of memory \(MemoryError\)/)]);
    // qualify's fuzz names it as the random regimes do: out of memory, not an exception
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pyfaults-'));
    try {
      const fuzzed = JSON.parse(cli(['qualify', faultGame('die1'), '--level', '5', '--max-memory', '1', '--steps-scale', '0.01', '--step-timeout', '3', '--out', join(out, 'qualify'), '--json']).stdout) as { findings: { regime: string; check: string }[] };
      expect(fuzzed.findings.map((f) => `${f.regime} ${f.check}`).sort()).toEqual(['fuzz out-of-memory', 'random2 out-of-memory']);
      const sweep = cli(['sweep', '--arc-games', join(FIXTURE_ENGINE, 'faults'), '--out', out, '--no-history', '--budget', 'nodes=200,seconds=3,steps-scale=0.001,random-steps=200', '--max-memory', '1', '--step-timeout', '3', '--json']);
      expect(sweep.status).toBe(1);
      const report = JSON.parse(sweep.stdout) as { games: { game: string; levels: { level: number; crash: { actions: string[]; kind: string } | null }[] }[] };
      const crashes = report.games.flatMap((g) => g.levels.filter((l) => l.crash).map((l) => `${g.game}:${l.level} ${l.crash!.kind} after ${l.crash!.actions.length}`));
      expect(crashes).toEqual(['bin1:1 crash after 0', 'die1:1 crash after 3', 'die1:2 crash after 3', 'die1:3 crash after 3', 'die1:5 out-of-memory after 3']);
      expect(sweep.stderr).toMatch(/5 crashed/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('says when its time budget stopped the search with a step still running (a hang it would hide), and a sweep carries it to the level', () => {
    // bad1 level 2 loops at its third action; the 2 s budget stops the search long before the step limit
    const r = cli(['explore', fixtureGame('bad1'), '--level', '2', '--max-seconds', '2', '--step-timeout', '30', '--workers', '1']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/stopped by max-seconds/);
    expect(r.stdout).toMatch(/^STUCK STEP WARNING: a step was still running after [\d.]+ s when the search stopped \(max-seconds\): 3 actions from reset \[ACTION1, ACTION1, ACTION2\] \(a hang\?\)/m);
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pystuck-'));
    try {
      const sweep = cli(['sweep', '--arc-games', join(FIXTURE_ENGINE, 'games'), '--games', 'bad1', '--out', out, '--no-history', '--budget', 'nodes=200,seconds=2,steps-scale=0.001,random-steps=200', '--max-memory', '1', '--step-timeout', '4', '--json']);
      const report = JSON.parse(sweep.stdout) as { games: { levels: { level: number; outcome: string; reasons: string[]; explore: { stopReason: string | null; stuckStep?: { actions: string[] } } | null }[] }[] };
      const two = report.games[0].levels.find((l) => l.level === 2)!;
      expect(two.explore).toMatchObject({ stopReason: 'max-seconds', stuckStep: { actions: ['ACTION1', 'ACTION1', 'ACTION2'] } });
      expect(two.outcome).not.toBe('pass');
      expect(two.reasons).toContainEqual(expect.stringMatching(/^a step was still running after [\d.]+ s when the search stopped \(max-seconds\)/));
      expect(sweep.stderr).toMatch(/0 hung \(2 stopped with a step still running: a hang\?\)/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('ends once its result is out, though the game still runs a batch the search left (16 s of steps)', () => {
    const started = performance.now();
    const r = cli(['explore', SLOW_GAME, '--max-seconds', '1', '--workers', '1', '--json']);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ stopReason: 'max-seconds', nodes: 3 });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

/**
 * Runs the CLI in a process group of its own and sends `signal` to the whole group after `afterMs`,
 * as a terminal's Ctrl-C (or `timeout`'s SIGTERM) reaches Node and its Python processes alike.
 */
function signalled(args: string[], signal: NodeJS.Signals, afterMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: PACKAGE_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ARCGRAPH_ARC_ENGINE: FIXTURE_ENGINE, ARCGRAPH_ARC_GAMES: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => process.kill(-child.pid!, signal), afterMs);
    child.on('error', reject);
    child.on('close', (code, sig) => (clearTimeout(timer), resolve({ code, signal: sig, stdout, stderr })));
  });
}

describe('a Ctrl-C while a game\'s Python processes start', () => {
  // sls1 takes 2 s to import: the group's signal lands while the first process loads the game, or while the workers start
  it.each([
    ['SIGINT', 1200],
    ['SIGINT', 3500],
    ['SIGTERM', 3500],
  ] as const)('explore: %s after %i ms is an interruption (exit 130), not the game\'s crash', async (signal, afterMs) => {
    const r = await signalled(['explore', SLOW_START_GAME, '--workers', '2', '--json'], signal, afterMs);
    expect([r.code, r.stderr]).toEqual([130, expect.stringMatching(new RegExp(`^arcgraph explore: interrupted before there was a result to give \\((by ${signal}|a Python process of the game was stopped by ${signal})\\)\n$|^$`))]);
    expect(r.stderr).not.toMatch(/crashed|did not start/);
    // interrupted once the level's start was built: the partial result, marked; before: the --json error object
    if (r.stdout !== '') {
      const out = JSON.parse(r.stdout) as { error?: unknown; interrupted?: boolean };
      expect(out.error === undefined ? out : out.error).toMatchObject(out.error === undefined ? { interrupted: true } : { command: 'explore', kind: 'interrupted' });
    }
  });

  it('replay: a SIGINT mid-replay is an interruption (exit 130), not a divergence (it was "the game threw: KeyError" from a fresh process, exit 1)', async () => {
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pyreplay-'));
    try {
      const rec = join(out, 'slw1.jsonl');
      // slw1's steps past the start take 2 s each: the replay is on its second step at 3 s
      expect(cli(['play', SLOW_GAME, '--record', rec], 'ACTION4\nACTION4\nACTION4\nquit\n').status).toBe(0);
      const r = await signalled(['replay', rec, '--game', SLOW_GAME], 'SIGINT', 3000);
      expect([r.code, r.signal, r.stderr]).toEqual([130, null, expect.stringMatching(/^arcgraph replay: interrupted before there was a result to give \((by SIGINT|a Python process of the game was stopped by SIGINT)\)\n$/)]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("sweep: a SIGINT while the games load is an interruption (exit 130) before the night begins: the folder's earlier report stays, not bad input", async () => {
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pystart-'));
    try {
      const earlier = JSON.stringify({ tool: { name: 'arcgraph' }, startedAt: 'last night', games: [] });
      writeFileSync(join(out, 'report.json'), earlier);
      const r = await signalled(['sweep', '--arc-games', join(FIXTURE_ENGINE, 'slow'), '--games', 'sls1', '--out', out, '--no-history'], 'SIGINT', 1200);
      expect([r.code, r.stdout, r.stderr]).toEqual([130, '', expect.stringMatching(/^arcgraph sweep: interrupted before there was a result to give \((by SIGINT|a Python process of the game was stopped by SIGINT)\)\n$/)]);
      expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(earlier);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
