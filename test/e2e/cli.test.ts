/** The games, play and replay commands through the built CLI (`npm test` builds first). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SUITE } from '../../games/index.js';
import { ACTION_NAMES } from '../../src/engine/actions.js';
import { PACKAGE_ROOT, loadGame } from '../../src/suite/loader.js';
import { undocumented } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'arcgraph-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RUIN = 'dist/test/fixtures/ruin.js';
const LIGHTS = 'dist/test/fixtures/lights.js';

function cli(args: string[], input = '') {
  const r = spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: PACKAGE_ROOT, input, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Bad input: exit code 2 and exactly one line on stderr, no stack trace. */
function expectBadInput(r: ReturnType<typeof cli>, message: string | RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  // The command is named once, by main.
  expect(lines[0]).toMatch(/^arcgraph \w+: /);
  expect(lines[0]).not.toMatch(/^arcgraph (\w+): \1:/);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('arcgraph games', () => {
  it('--json lists the suite with the fixed keys', async () => {
    const r = cli(['games', '--json']);
    expect(r.status).toBe(0);
    const listed = JSON.parse(r.stdout);
    const expected = [];
    for (const id of Object.keys(SUITE).sort()) {
      const { game } = await loadGame(id);
      expected.push({ id: game.id, title: game.title, levels: game.levels, tutorialLevels: game.tutorialLevels, actions: game.actions.map((a) => ACTION_NAMES[a]) });
    }
    expect(listed).toEqual(expected);
    for (const entry of listed) expect(Object.keys(entry)).toEqual(['id', 'title', 'levels', 'tutorialLevels', 'actions']);
  });

  it('prints a table with one row per suite game (or says the suite is empty)', () => {
    const r = cli(['games']);
    expect(r.status).toBe(0);
    const ids = Object.keys(SUITE);
    if (ids.length === 0) expect(r.stdout).toContain('No games');
    else {
      expect(r.stdout.trimEnd().split('\n')).toHaveLength(ids.length + 1);
      for (const id of ids) expect(r.stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
    }
  });

  it('rejects arguments it does not take', () => {
    expectBadInput(cli(['games', 'ruin']), /takes no arguments/);
    expectBadInput(cli(['games', '--bogus']), /Unknown option '--bogus'/);
  });
});

describe('the --json outputs', () => {
  it('name only fields reports/JSON.md documents (explore, random, qualify, and their nested objects)', () => {
    const explore = JSON.parse(cli(['explore', RUIN, '--level', '2', '--within', '5', '--json']).stdout);
    const random = JSON.parse(cli(['random', RUIN, '--level', '2', '--steps', '2000', '--json']).stdout);
    const qualify = JSON.parse(cli(['qualify', RUIN, '--level', '2', '--steps-scale', '0.001', '--out', join(dir, 'qualify-ruin'), '--json']).stdout);
    const objects = [explore, explore.pWin, explore.withinK, explore.shortestWin, explore.cycles, explore.terminals, explore.schedule, random, qualify, qualify.levels[0], qualify.findings[0], qualify.speed];
    expect(objects.flatMap((o) => undocumented(o))).toEqual([]);
  });
});

describe('bad input to any command', () => {
  it('names the command once and says what was wrong', () => {
    expectBadInput(cli(['sweep', 'bx19']), /unexpected argument 'bx19' \(name games with --games a,b\)/);
    expectBadInput(cli(['history', 'bx19']), /unexpected argument 'bx19'/);
    expectBadInput(cli(['worker']), /^arcgraph worker: --queue redis:\/\/HOST:PORT is required/);
    // A negative value is read as the option's value (parseArgs called it ambiguous): its own check says what it must be.
    expectBadInput(cli(['explore', 'bx19', '--max-memory', '-1']), /^arcgraph explore: --max-memory must be a number of at least 0\.001, got '-1'$/);
    expectBadInput(cli(['explore', 'bx19', '--level', '-1']), /^arcgraph explore: --level must be an integer of at least 1, got '-1'$/);
    expectBadInput(cli(['random', 'bx19', '--steps', '-5']), /^arcgraph random: --steps must be an integer of at least 1, got '-5'$/);
    // an integer past 2^53 is not echoed rounded (it said 'level 100000000000000000000 does not exist')
    expectBadInput(cli(['explore', 'bx19', '--level', '99999999999999999999']), /^arcgraph explore: --level 99999999999999999999 is too large \(at most 9007199254740991\)$/);
  });

  it('refuses the options only a real ARC game takes on a JavaScript game, naming those given', () => {
    expectBadInput(cli(['explore', RUIN, '--clicks', 'all', '--unoffered', 'step']), /: --clicks, --unoffered are for real ARC games \(Python\); this game is a JavaScript module$/);
    expectBadInput(cli(['explore', RUIN, '--start-actions', 'ACTION1']), /: --start-actions is for real ARC games/);
    expectBadInput(cli(['random', RUIN, '--identity', 'frame']), /Unknown option '--identity'/);
    expectBadInput(cli(['random', RUIN, '--unoffered', 'stay', '--start-actions', 'ACTION1']), /: --start-actions, --unoffered are for real ARC games/);
    // a sweep steps unoffered actions for the policy that sends them alone, and leaves no folder for the refusal
    const out = join(dir, 'sweep-unoffered');
    expectBadInput(cli(['sweep', '--games', RUIN, '--unoffered', 'step', '--out', out, '--no-history']), /stepped \(--unoffered step\) for the reference policy alone/);
    expect(existsSync(out)).toBe(false);
    expectBadInput(cli(['sweep', '--games', RUIN, '--policy', 'greedy', '--out', out]), /--policy must be one of available, reference, got 'greedy'/);
  });

  it("sweep: bad input found while loading the games is that one line, not after the sweep's header lines", () => {
    const out = join(dir, 'sweep-bad-games');
    for (const args of [['--games', 'zz99'], ['--arc-games', join(dir, 'no-such-folder')]]) {
      const r = cli(['sweep', ...args, '--out', out, '--no-history']);
      expectBadInput(r, /unknown game 'zz99'|no ARC games in /);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(out)).toBe(false);
  });
});

describe('what the text output says', () => {
  it("random on a tutorial level says its failed verdict is exempt (exit 0); qualify says random2 did not run, not '0 steps/s'; --help lists exit 130", () => {
    const random = cli(['random', 'bx19', '--level', '1', '--steps', '2000']);
    expect(random.status).toBe(0);
    expect(random.stdout).toMatch(/^verdict against 0\.0001: fail \(tutorial level: exempt\)$/m);
    const qualify = cli(['qualify', 'bx19', '--level', '1', '--steps-scale', '0.001', '--out', join(dir, 'qualify-bx19')]);
    expect(qualify.stdout).toMatch(/^speed: random2 did not run, fuzz \d+k? steps\/s; /m);
    expect(cli(['--help']).stdout).toMatch(/Exit codes: 0 success or pass, 1 a verdict failed or a game crashed, 2 bad input, 130 interrupted/);
  });
});

describe('arcgraph play (script on stdin)', () => {
  it('plays the commands, prints a status line after each, stops at quit, and records the session', () => {
    const rec = join(dir, 'ruin.play.1.recording.jsonl');
    const r = cli(['play', RUIN, '--record', rec], '# win level 1\nACTION4\n\nACTION4\nACTION3\nquit\nACTION4\n');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^ruin \(Gambler's ruin corridor\) \| level 1\/6 \| NOT_FINISHED \| completed 0 \| actions 1 \| available ACTION3 ACTION4$/);
    expect(lines[2]).toMatch(/^ACTION4 -> .*level 2\/6 \| NOT_FINISHED \| completed 1 \| actions 3/);
    expect(lines[3]).toMatch(/^ACTION3 -> .*level 2\/6/);
    expect(readFileSync(rec, 'utf8').trimEnd().split('\n')).toHaveLength(4);
    const replay = cli(['replay', rec, '--game', RUIN, '--json']);
    expect(replay.status).toBe(0);
    expect(JSON.parse(replay.stdout)).toEqual({ file: rec, game: 'ruin', style: 'agents', steps: 4, outcome: { state: 'NOT_FINISHED', levels_completed: 1 }, reproduced: true, framesCompared: 4 });
    // the same recording without its frames reproduces, and says that it compared none (it said "every ... frame matches")
    const bare = join(dir, 'ruin.play.bare.recording.jsonl');
    const strip = (line: string): string => {
      const entry = JSON.parse(line) as { data: { frame?: unknown } };
      delete entry.data.frame;
      return JSON.stringify(entry);
    };
    writeFileSync(bare, readFileSync(rec, 'utf8').trimEnd().split('\n').map((l, i) => (i === 1 ? l : strip(l))).join('\n') + '\n');
    const some = cli(['replay', bare, '--game', RUIN]);
    expect([some.status, some.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'reproduced: every recorded state, level count, available actions list and frame matches (frames on 1 of 4 steps)']);
    writeFileSync(bare, readFileSync(rec, 'utf8').trimEnd().split('\n').map(strip).join('\n') + '\n');
    const none = cli(['replay', bare, '--game', RUIN]);
    expect([none.status, none.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'reproduced: every recorded state, level count and available actions list matches (the recording holds no frames: none compared)']);
    expect(JSON.parse(cli(['replay', bare, '--game', RUIN, '--json']).stdout).framesCompared).toBe(0);
  });

  it('starts at --level and its recording replays from there', () => {
    const rec = join(dir, 'ruin.level3.recording.jsonl');
    const r = cli(['play', RUIN, '--level', '3', '--record', rec], 'ACTION4\nRESET\nRESET\n' + 'ACTION4\n'.repeat(5));
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/level 4\/6 \| NOT_FINISHED \| completed 3/);
    const replay = JSON.parse(cli(['replay', rec, '--game', RUIN, '--json']).stdout);
    expect(replay).toMatchObject({ reproduced: true, outcome: { levels_completed: 3 } });
  });

  it('accepts clicks as ACTION6 x y and ACTION6(x,y)', () => {
    const r = cli(['play', LIGHTS], 'ACTION6 31 31\nACTION6(15,15)\n6 49 49\n');
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^ACTION6\(49,49\) -> .*\| WIN \| completed 2/);
  });

  it.each([
    ['a click outside 0..63', LIGHTS, 'ACTION6 64 3\n', /stdin line 1: click outside the grid: \(64, 3\)/, 1],
    ['a negative click', LIGHTS, '\nACTION6 3 -1\n', /stdin line 2: click outside the grid/, 1],
    ['a click without a cell', LIGHTS, 'ACTION6\n', /stdin line 1: ACTION6 needs a cell/, 1],
    ['a line that is no command', RUIN, 'JUMP\n', /stdin line 1: not an action: 'JUMP'/, 1],
    ['an action after GAME_OVER', RUIN, 'ACTION3\nACTION4\n', /stdin line 2: the game is over: only RESET continues/, 2],
  ])('rejects %s with exit 2 and keeps the recording of the steps before it (it left none: a session lost)', (what, game, script, message, steps) => {
    const rec = join(dir, `refused.${what.replace(/\W+/g, '-')}.recording.jsonl`);
    const r = cli(['play', game, '--record', rec], script);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toContain(`recorded ${steps} steps (up to the line refused) to ${rec}`);
    expect(readFileSync(rec, 'utf8').trimEnd().split('\n')).toHaveLength(steps);
    expect(JSON.parse(cli(['replay', rec, '--game', game, '--json']).stdout).reproduced).toBe(true);
  });

  it('plays an unavailable action as replay does (a step that changes nothing), says so, and keeps the recording (it was exit 2, the session lost)', () => {
    const rec = join(dir, 'ruin.unavailable.play.jsonl');
    const r = cli(['play', RUIN, '--record', rec], 'ACTION4\nACTION1\nACTION4\nquit\n');
    expect([r.status, r.stderr]).toEqual([0, `recorded 4 steps to ${rec}\n`]);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[2]).toMatch(/^ACTION1 \(not available in ruin: played as the engine plays it, the state unchanged\) -> ruin .* \| actions 3 \|/);
    expect(readFileSync(rec, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).data.action_input.id)).toEqual([0, 4, 1, 4]);
    const replayed = cli(['replay', rec, '--game', RUIN, '--json']);
    expect([replayed.status, JSON.parse(replayed.stdout).reproduced]).toEqual([0, true]);
  });

  it('keeps the recording of the steps before the game crashed (exit 1)', () => {
    const rec = join(dir, 'boom.recording.jsonl');
    const r = cli(['play', 'dist/test/fixtures/boom.js', '--record', rec], 'ACTION1\nACTION1\nACTION2\nACTION2\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('counter overflow');
    const steps = readFileSync(rec, 'utf8').trimEnd().split('\n').length;
    expect(r.stderr).toContain(`recorded ${steps} steps (up to the step that failed) to ${rec}`);
    expect(steps).toBeGreaterThan(1);
  });
});

describe('game references', () => {
  const notAGame = file('notgame.mjs', "export default { id: 'abcd', title: 't', levels: 1, tutorialLevels: 0, actions: [1], init() {}, status() {}, render() {}, encode() {}, decode() {} };\n");
  const badActions = file('badactions.mjs', "export default { id: 'abcd', title: 't', levels: 1, tutorialLevels: 0, actions: [0] };\n");
  const noDefault = file('nodefault.mjs', 'export const game = 1;\n');
  const broken = file('broken.mjs', 'export default {\n');

  it.each([
    ['an unknown game id', 'zzzz', /unknown game 'zzzz': suite games are/],
    ['a missing module', './no/such/game.js', /no such game module: \.\/no\/such\/game\.js/],
    ['a module that is not a valid game', notAGame, /member 'step' is missing or not a function/],
    ['a module with an invalid member', badActions, /member 'actions' has 0: action ids are 1\.\.7/],
    ['a module without a default export', noDefault, /has no default export/],
    ['a module that does not load', broken, /cannot load game module .*broken\.mjs/],
  ])('play rejects %s', (_what, ref, message) => {
    expectBadInput(cli(['play', ref], 'quit\n'), message);
  });

  it('play rejects a level that does not exist and a record folder that does not exist', () => {
    expectBadInput(cli(['play', RUIN, '--level', '7'], ''), /--level must be an integer in 1\.\.6, got '7'/);
    expectBadInput(cli(['play', RUIN, '--record', join(dir, 'missing', 'x.jsonl')], ''), /--record .*x\.jsonl: no such folder/);
  });
});

describe('arcgraph replay', () => {
  const good = join(dir, 'ruin.good.recording.jsonl');
  const rec = cli(['play', RUIN, '--record', good], 'ACTION4\nACTION4\nACTION4\nACTION3\n');
  const text = (): string => readFileSync(good, 'utf8');

  it('reproduces a recording (exit 0) and writes its replay with --out', () => {
    expect(rec.status).toBe(0);
    const out = join(dir, 'ruin.replayed.recording.jsonl');
    const r = cli(['replay', good, '--game', RUIN, '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('reproduced');
    expect(cli(['replay', out, '--game', RUIN]).status).toBe(0);
  });

  it('keeps the final scorecard line in the file --out writes, as it was', () => {
    const card = JSON.stringify({ timestamp: '2026-03-30T12:00:00.000Z', data: { card_id: 'c-1', score: 1, games: [{ game_id: 'ruin', levels_completed: 1 }] } });
    const path = file('ruin.scorecard.recording.jsonl', text() + card + '\n');
    const out = join(dir, 'ruin.scorecard.replayed.recording.jsonl');
    const r = cli(['replay', path, '--game', RUIN, '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const written = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(written).toHaveLength(text().trimEnd().split('\n').length + 1);
    expect(written.at(-1)).toBe(card);
    // The rewritten file is itself a recording that replays.
    expect(cli(['replay', out, '--game', RUIN]).status).toBe(0);
  });

  it('reads the toolkit style and writes the Agents style', () => {
    const toolkit = text()
      .trimEnd()
      .split('\n')
      .map((line) => {
        const { timestamp, data } = JSON.parse(line);
        return JSON.stringify({ timestamp, data: { ...data, frame: undefined, action_input: { id: ACTION_NAMES[data.action_input.id], data: {} } } });
      })
      .join('\n');
    const path = file('ruin.toolkit.jsonl', toolkit + '\n');
    const out = join(dir, 'ruin.from-toolkit.recording.jsonl');
    const r = cli(['replay', path, '--game', RUIN, '--out', out, '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ style: 'toolkit', reproduced: true, steps: 5 });
    const written = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).data);
    expect(written.map((d) => d.action_input.id)).toEqual([0, 4, 4, 4, 3]);
    expect(written[0].frame[0]).toHaveLength(64);
  });

  it('names the first diverging step and exits 1', () => {
    const lines = text().trimEnd().split('\n');
    lines[3] = lines[3].replace('"levels_completed":1', '"levels_completed":0');
    const path = file('ruin.diverging.jsonl', lines.join('\n') + '\n');
    const r = cli(['replay', path, '--game', RUIN, '--json']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ reproduced: false, divergence: { step: 4, line: 4, action: 'ACTION4', field: 'levels_completed', recorded: 0, replayed: 1 } });
    const plain = cli(['replay', path, '--game', RUIN]);
    expect(plain.stdout).toContain('DIVERGES at step 4 (line 4, ACTION4)');
    // the replay went on to the recording's end: the count says so, and where it first diverged
    expect(plain.stdout).toContain(`, 5 steps replayed (diverging from step 4), the replay ends `);
  });

  it('writes no --out file for a replay that diverges, and says why on stderr', () => {
    const lines = text().trimEnd().split('\n');
    lines[3] = lines[3].replace('"levels_completed":1', '"levels_completed":0');
    const path = file('ruin.diverging-out.jsonl', lines.join('\n') + '\n');
    const out = join(dir, 'ruin.diverging.replayed.jsonl');
    const r = cli(['replay', path, '--game', RUIN, '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('DIVERGES at step 4');
    expect(r.stderr.trimEnd().split('\n')).toEqual([`arcgraph replay: --out ${out} not written: the replay diverges at step 4 (only a recording that reproduces is written)`]);
    expect(existsSync(out)).toBe(false);
  });

  it('replays an unavailable action as a step that leaves the state unchanged (exit 0), as the reference agent sends them', () => {
    const lines = text().trimEnd().split('\n');
    lines.splice(2, 0, lines[1].replace('"action_input":{"id":4', '"action_input":{"id":1'));
    const r = cli(['replay', file('ruin.unavailable.jsonl', lines.join('\n') + '\n'), '--game', RUIN, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ reproduced: true, steps: 6 });
  });

  it.each([
    ['a truncated recording', () => text().slice(0, -500), /:5: not valid JSON \(malformed or truncated line\)/],
    ['a malformed line', () => text().replace('\n', '\n{nope\n'), /:2: not valid JSON/],
    ['a click outside 0..63', () => text().replace('"action_input":{"id":3,"data":{}}', '"action_input":{"id":6,"data":{"x":3,"y":99}}'), /:5: click outside the grid: \(3, 99\)/],
  ])('rejects %s with exit 2, naming the line, and writes no --out file', (_what, make, message) => {
    const path = file('bad.jsonl', make());
    const out = join(dir, 'bad-out.jsonl');
    expectBadInput(cli(['replay', path, '--game', RUIN, '--out', out]), message);
    expect(existsSync(out)).toBe(false);
  });

  it('resolves the game from game_id, and rejects an unknown one or a mismatching --game', () => {
    const path = file('zzzz.jsonl', text().replaceAll('"game_id":"ruin"', '"game_id":"zzzz-0123abcd"'));
    expectBadInput(cli(['replay', path]), /unknown game 'zzzz'/);
    expectBadInput(cli(['replay', good, '--game', LIGHTS]), /records game 'ruin' but --game .* is 'lite'/);
    const noId = file('noid.jsonl', text().replaceAll('"game_id":"ruin",', ''));
    expectBadInput(cli(['replay', noId]), /names no game_id: give --game/);
  });

  it('rejects a missing file or argument', () => {
    expectBadInput(cli(['replay', join(dir, 'absent.jsonl'), '--game', RUIN]), /cannot read recording .*absent\.jsonl: ENOENT/);
    expectBadInput(cli(['replay']), /expected one recording file, got none/);
  });

  it('leaves no temporary files behind', () => {
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
