/**
 * The bridge on the real ARC-AGI-3 games (../shared/arc, or ARCGRAPH_ARC_ENGINE / ARCGRAPH_ARC_GAMES):
 * explore, random, qualify, replay and sweep, small budgets. Run whenever the games are present;
 * CI requires them (.ci/run fails without them).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAction } from '../../src/engine/index.js';
import { explore } from '../../src/level.js';
import { playEpisode } from '../../src/player/index.js';
import { hostCommand, openPythonGame, PythonGame } from '../../src/python/index.js';
import { PythonProcess } from '../../src/python/process.js';
import { randomPlay } from '../../src/random/index.js';
import { qualify } from '../../src/qualify/index.js';
import { readRecording, recordActions, replayRecording, writeRecordingLines } from '../../src/recording/index.js';
import { PACKAGE_ROOT } from '../../src/suite/index.js';
import { ARC_ENGINE, ARC_GAMES, hasArc } from '../support/python.js';

const opened: PythonGame[] = [];
const game = (id: string, options = {}): PythonGame => {
  const g = openPythonGame(join(ARC_GAMES, id), { engine: ARC_ENGINE, graphBuilder: true, ...options });
  opened.push(g);
  return g;
};
const dir = mkdtempSync(join(tmpdir(), 'arcgraph-arc-'));
afterAll(() => {
  opened.forEach((g) => g.close());
  rmSync(dir, { recursive: true, force: true });
});
const cli = (...args: string[]) => spawnSync(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8', env: { ...process.env, ARCGRAPH_ARC_ENGINE: ARC_ENGINE } });

describe.runIf(hasArc)('real ARC-AGI-3 games', () => {
  it('explores lp85 level 1 completely (81 states): its exact P(win) and shortest win against the baseline', async () => {
    const r = await explore(game('lp85'), { level: 1, workers: 2 });
    expect(r).toMatchObject({ nodes: 81, fullyExplored: true, winReachable: true });
    expect(r.shortestWin!.length).toBe(5);
    expect(r.baseline).toEqual({ declared: 33, shortest: 5, difference: -28 });
    expect(r.pWin.method).toBe('exact');
    expect(r.python).toMatchObject({ levelStart: 'played', identity: 'state', clicks: { method: 'classes', partition: 'sampled' } });
  });

  it('says which actions a game does not offer change its state when sent, and warns under the reference policy (cd82 counts them against its move budget)', () => {
    const cd82 = cli('explore', join(ARC_GAMES, 'cd82'), '--max-nodes', '10', '--policy', 'reference');
    expect(cd82.stdout).toMatch(/^REFERENCE POLICY WARNING: ACTION7, which the game does not offer, changes its state when sent/m);
    const tu93 = JSON.parse(cli('explore', join(ARC_GAMES, 'tu93'), '--max-nodes', '10', '--policy', 'reference', '--json').stdout);
    expect(tu93.python.unofferedActs).toBeUndefined();
    // Stepped as the engine steps them: no warning, and the graph has ACTION7's moves.
    const stepped = cli('explore', join(ARC_GAMES, 'cd82'), '--max-nodes', '10', '--policy', 'reference', '--unoffered', 'step');
    expect(stepped.stdout).not.toMatch(/REFERENCE POLICY WARNING/);
    expect(stepped.stdout).toMatch(/; unoffered actions stepped/);
  });

  it('gives the same counts at 1 and 2 workers and across runs (tu93, a node budget)', async () => {
    const g = game('tu93');
    const counts = async (workers: number) => {
      const r = await explore(g, { level: 1, workers, maxNodes: 400 });
      return [r.nodes, r.edges, r.transitions, r.frontier, [...r.depthHistogram].join(',')];
    };
    const one = await counts(1);
    expect(await counts(2)).toEqual(one);
    expect(await counts(2)).toEqual(one);
    expect(one[0]).toBe(400);
  });

  it('gives equal states equal identities in two processes under different PYTHONHASHSEEDs, on every shared game', async () => {
    const ids = readdirSync(ARC_GAMES).sort();
    expect(ids.length).toBeGreaterThanOrEqual(14);
    for (const id of ids) {
      const g = game(id);
      const other = new PythonProcess({ ...hostCommand(g.file, { engine: ARC_ENGINE }, ['--graph-builder']), env: { ...hostCommand(g.file, { engine: ARC_ENGINE }, []).env, PYTHONHASHSEED: '4242' } });
      await other.hello;
      let state = g.init(1);
      for (let i = 0; i < 12 && state.status === 'playing'; i++) {
        const a = g.actions[(i * 7 + 3) % g.actions.length];
        const next = g.step(state, a === 6 ? { id: 6, x: (i * 13) % 64, y: (i * 29) % 64 } : { id: a });
        // The other process restores the snapshot and steps the same action: the same identities.
        const there = await other.request({ op: 'step', level: 1, action: a === 6 ? 8 + ((i * 29) % 64) * 64 + ((i * 13) % 64) : a, stepSeconds: 60 }, [state.snapshot]);
        expect(Buffer.from(there.blobs[1]).equals(Buffer.from(next.digest)), `${id} step ${i}`).toBe(true);
        const again = await other.request({ op: 'digest' }, [next.snapshot, next.frames[next.frames.length - 1]]);
        expect(Buffer.from(again.blobs[0]).equals(Buffer.from(next.digest)), `${id} restored ${i}`).toBe(true);
        state = next;
      }
      other.close();
      g.close();
    }
  });

  it('plays random attempts in Python with the same numbers at 1 and 2 workers; an episode replays through the facade alike', async () => {
    const g = game('tu93');
    const one = await randomPlay(g, { level: 1, steps: 1500, workers: 1, seed: 5 });
    const two = await randomPlay(g, { level: 1, steps: 1500, workers: 2, seed: 5 });
    expect([two.episodes, two.wins, two.losses, two.cutOff, two.steps]).toEqual([one.episodes, one.wins, one.losses, one.cutOff, one.steps]);
    // tu93's level 1 allows 50 actions: every attempt ends in a game over at step 50.
    expect(one.losses).toBe(one.episodes);
    expect(one.episodes).toBe(30);
    const episode = playEpisode(g, 1, 'available', 5, 7, 1500);
    expect([episode.end, episode.steps]).toEqual(['lost', 50]);
    expect(one.timing!.frames).toBeGreaterThan(one.timing!.steps);
  });

  it('qualifies a level at a small scale, with its performance profile', async () => {
    const g = game('tu93');
    const r = await qualify(g, { level: 1, stepsScale: 0.002, workers: 2, out: join(dir, 'q') });
    const fuzz = r.levels[0].regimes.fuzz;
    expect(fuzz.steps).toBe(2000);
    expect(r.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect(fuzz.profile!.actionsPerSecond).toBeGreaterThan(0);
    expect(fuzz.profile!.framesPerAction).toBeGreaterThanOrEqual(1);
    // The slowest step's actions replay from the level's start.
    const session = g.session(1);
    session.act({ id: 0 });
    for (const a of fuzz.profile!.slowest[0].actions) session.act(parseAction(a));
  });

  it('records the shortest win of tu93 level 1 in a session and replays it with the engine', async () => {
    const g = game('tu93');
    const r = await explore(g, { level: 1, workers: 2 });
    expect(r).toMatchObject({ nodes: 2609, fullyExplored: true });
    expect(r.shortestWin!.length).toBe(18);
    const { lines, outcome } = recordActions(g, r.shortestWin!.actions.map(parseAction));
    expect(outcome.levels_completed).toBe(1);
    const file = join(dir, 'tu93.win.1.recording.jsonl');
    writeRecordingLines(file, lines);
    const replay = replayRecording(g, readRecording(file));
    expect(replay.reproduced).toBe(true);
    // Level 2 starts where that win leads.
    const level2 = await explore(g, { level: 2, workers: 2, maxNodes: 50 });
    expect(level2.python!.levelStart).toBe('played');
  });

  it('replays a recording past a level change whose animation reaches a state shown again by a later no-op step (lp85)', () => {
    // Click (2, 29) five times wins lp85 level 1 (two layers: the change animates); the sixth click
    // does nothing on level 2, so its successor has the level start's identity, with one layer. The
    // checks must not take the animation of the step that first reached a state for the state's own.
    const g = game('lp85', { graphBuilder: false });
    const click = parseAction('ACTION6(2,29)');
    const { lines, outcome } = recordActions(g, Array.from({ length: 6 }, () => click));
    expect(outcome.levels_completed).toBe(1);
    expect(lines.map((l) => l.frame.length)).toEqual([1, 1, 1, 1, 1, 2, 1]);
    const file = join(dir, 'lp85.level2.recording.jsonl');
    writeRecordingLines(file, lines);
    const replay = replayRecording(g, readRecording(file));
    expect(replay.divergence).toBeUndefined();
    expect(replay.reproduced).toBe(true);
  });

  it("replays a recording made with the engine's own perform_action through a GAME_OVER and the actions sent after it (tu93)", () => {
    // The recording as the ARC API makes it: each FrameData the engine returns, dumped as JSON. tu93
    // level 1 allows 50 actions; the engine answers ACTION2 and ACTION5 (unavailable) after the
    // GAME_OVER with no frame and levels_completed and win_levels 0; RESET then resets the level.
    const g = game('tu93');
    const codes = [0, ...Array.from({ length: 50 }, () => 1), 2, 5, 0, 4];
    const script = `
import importlib.util, json, sys
from arcengine import ARCBaseGame, ActionInput, GameAction
spec = importlib.util.spec_from_file_location('tu93_api', sys.argv[1])
module = importlib.util.module_from_spec(spec)
sys.modules['tu93_api'] = module
spec.loader.exec_module(module)
game = next(c for c in vars(module).values() if isinstance(c, type) and issubclass(c, ARCBaseGame) and c is not ARCBaseGame)()
for code in json.loads(sys.argv[2]):
    fd = game.perform_action(ActionInput(id=GameAction.from_id(code)))
    print(json.dumps({'timestamp': '2026-03-30T12:00:00+00:00', 'data': fd.model_dump(mode='json')}))`;
    const host = hostCommand(join(ARC_GAMES, 'tu93'), { engine: ARC_ENGINE }, []);
    const api = spawnSync(host.python, ['-c', script, g.info.file, JSON.stringify(codes)], { env: host.env, encoding: 'utf8' });
    expect(api.status, api.stderr).toBe(0);
    const data = api.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).data);
    expect(data.slice(50, 54).map((d) => [d.state, d.frame.length, d.levels_completed, d.win_levels, d.full_reset])).toEqual([
      ['GAME_OVER', 1, 0, 9, false],
      ['GAME_OVER', 0, 0, 0, false],
      ['GAME_OVER', 0, 0, 0, false],
      ['NOT_FINISHED', 1, 0, 9, false],
    ]);
    const file = join(dir, 'tu93.api.over.recording.jsonl');
    writeFileSync(file, api.stdout);
    const replay = replayRecording(g, readRecording(file));
    expect(replay.divergence).toBeUndefined();
    expect(replay).toMatchObject({ reproduced: true, steps: codes.length, outcome: { state: 'NOT_FINISHED', levels_completed: 0 } });
    expect(replay.lines[51]).toMatchObject({ state: 'GAME_OVER', frame: [], full_reset: false });
  });

  it('compares available_actions with the list the engine echoes (tu93 offers ACTION1..4)', () => {
    const g = game('tu93');
    const { lines } = recordActions(g, ['ACTION1', 'ACTION4'].map(parseAction));
    expect(lines.map((l) => l.available_actions)).toEqual([[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]);
    lines[2].available_actions = [1, 2, 3, 4, 6];
    const file = join(dir, 'tu93.available.recording.jsonl');
    writeRecordingLines(file, lines);
    expect(replayRecording(g, readRecording(file)).divergence).toMatchObject({ step: 3, field: 'available_actions', recorded: [1, 2, 3, 4, 6], replayed: [1, 2, 3, 4] });
  });

  it('runs explore, random, qualify and replay from the command line', () => {
    const folder = join(ARC_GAMES, 'tu93');
    const ex = cli('explore', folder, '--level', '1', '--max-nodes', '60', '--json', '--graph-builder');
    expect(ex.status).toBe(0);
    const explored = JSON.parse(ex.stdout);
    expect(explored).toMatchObject({ game: 'tu93', level: 1, fullyExplored: false, stopReason: 'max-nodes', python: { levelStart: 'played' } });
    expect(explored.nodes).toBeLessThanOrEqual(60);
    const rnd = cli('random', folder, '--level', '1', '--steps', '200', '--json');
    expect(rnd.status).toBe(0);
    expect(JSON.parse(rnd.stdout)).toMatchObject({ game: 'tu93', steps: 200 });
    const q = cli('qualify', folder, '--level', '1', '--steps-scale', '0.0005', '--out', join(dir, 'cli-q'), '--json');
    expect(q.status).toBe(0);
    expect(JSON.parse(q.stdout)).toMatchObject({ game: 'tu93', passed: true });
    const file = join(dir, 'tu93.cli.1.recording.jsonl');
    writeRecordingLines(file, recordActions(game('tu93'), ['ACTION1', 'ACTION4', 'ACTION2'].map(parseAction)).lines);
    const rp = cli('replay', file, '--game', folder, '--json');
    expect(rp.status).toBe(0);
    expect(JSON.parse(rp.stdout)).toMatchObject({ game: 'tu93', reproduced: true });
    const missing = spawnSync(process.execPath, ['dist/src/cli/main.js', 'explore', folder], { cwd: PACKAGE_ROOT, encoding: 'utf8', env: { ...process.env, ARCGRAPH_ARC_ENGINE: '/nonexistent', PYTHONPATH: '' } });
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(/pip install arcengine/);
  });

  it("plays tu93 from stdin commands with --record under the metadata's full game_id, and the recording replays", () => {
    const folder = join(ARC_GAMES, 'tu93');
    const [version] = readdirSync(folder);
    const { game_id: fullId } = JSON.parse(readFileSync(join(folder, version, 'metadata.json'), 'utf8')) as { game_id: string };
    expect(fullId).toBe(`tu93-${version}`);
    const file = join(dir, 'tu93.play.1.recording.jsonl');
    const env = { ...process.env, ARCGRAPH_ARC_ENGINE: ARC_ENGINE };
    const play = spawnSync(process.execPath, ['dist/src/cli/main.js', 'play', folder, '--record', file], { cwd: PACKAGE_ROOT, encoding: 'utf8', env, input: 'ACTION1\nACTION4\nACTION2\nRESET\nACTION3\nquit\n' });
    expect(play.status, play.stderr).toBe(0);
    const recorded = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).data);
    expect(recorded).toHaveLength(6);
    // Every line carries the versioned id, as recordings made against the ARC API do.
    expect(new Set(recorded.map((d) => d.game_id))).toEqual(new Set([fullId]));
    // Replayed with --game, and from its game_id alone through the games folder; --out keeps the id.
    const out = join(dir, 'tu93.play.replayed.recording.jsonl');
    const withGame = cli('replay', file, '--game', folder, '--out', out, '--json');
    expect(withGame.status, withGame.stderr).toBe(0);
    expect(JSON.parse(withGame.stdout)).toMatchObject({ game: 'tu93', reproduced: true, steps: 6 });
    expect(readRecording(out).gameId).toBe(fullId);
    const byId = cli('replay', file, '--arc-games', ARC_GAMES, '--json');
    expect(byId.status, byId.stderr).toBe(0);
    expect(JSON.parse(byId.stdout)).toMatchObject({ game: 'tu93', reproduced: true, steps: 6 });
  });

  it('sweeps a game of the ARC games folder to a small budget: every level in the report, with its profile', () => {
    const out = join(dir, 'sweep');
    const r = cli('sweep', '--arc-games', ARC_GAMES, '--games', 'tu93', '--budget', 'nodes=30,seconds=3,steps-scale=0.0002,random-steps=0', '--workers', '2', '--out', out, '--json');
    expect([0, 1]).toContain(r.status);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.games.map((g: { game: string }) => g.game)).toEqual(['tu93']);
    const levels = report.games[0].levels;
    expect(levels).toHaveLength(9);
    for (const l of levels) expect(l.explore.python.levelStart).toMatch(/^(played|set-level)$/);
    expect(report.games[0].qualification.levels[0].regimes.fuzz.profile.framesPerSecond).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toContain('Performance under random play');
    // the level page shows how the level ran and its speed, as report.md does
    const page = readFileSync(join(out, 'games', 'tu93', 'level-1.html'), 'utf8');
    expect(page).toMatch(/<th>Python level<\/th><td>(started where the shortest wins|started at the game&#39;s RESET|started at the engine&#39;s set_level)[^<]*identity state/);
    expect(page).toMatch(/<th>Performance<\/th><td>[\d,]+ actions\/s, [\d,]+ frames\/s/);
  });

  it("asks pydantic once per default factory, not on every engine step (the host's speed-up), with pydantic's own answers", () => {
    // takes_validated_data_argument, counted: the engine builds a FrameDataRaw (a private attribute
    // with default_factory=list) on every step; unremembered, each build asked inspect.signature.
    const script = `
import functools, json, sys
sys.path.insert(0, ${JSON.stringify(join(PACKAGE_ROOT, 'workers', 'python'))})
from pydantic._internal import _fields
from arcgraph.speedups import remember_factory_checks
own = _fields.takes_validated_data_argument
asked = []
_fields.takes_validated_data_argument = lambda default_factory: asked.append(default_factory) or own(default_factory)
remember_factory_checks()
remember_factory_checks()
from arcengine.enums import FrameDataRaw
for _ in range(300):
    FrameDataRaw()
factories = [list, dict, lambda: 1, lambda data: data, functools.partial(dict, a=1)]
print(json.dumps({'asked': len(asked), 'same': [_fields.takes_validated_data_argument(f) == own(f) for f in factories]}))`;
    const host = hostCommand(join(ARC_GAMES, 'tu93'), { engine: ARC_ENGINE }, []);
    const r = spawnSync(host.python, ['-c', script], { env: host.env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { asked: number; same: boolean[] };
    expect(out.asked).toBeLessThan(10);
    expect(out.same).toEqual([true, true, true, true, true]);
  });
});
