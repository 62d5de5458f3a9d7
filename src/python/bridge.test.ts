/**
 * The Python bridge against the fixture games on the stand-in engine (test/fixtures/python): graphs
 * and exact probabilities against brute force over TypeScript twins, identity with hidden state,
 * click classes with weights, level starts, and faults (a crash, hangs, memory).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from '../analysis/index.js';
import { GameCrash, exploreGraph } from '../explorer/index.js';
import { explore } from '../level.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import { clk1Twin, FIXTURE_ENGINE, fixtureGame, hid1Twin } from '../../test/support/python.js';
import { openPythonGame, type PythonGame, type PythonGameOptions } from './index.js';

const opened: PythonGame[] = [];
const open = (id: string, options: PythonGameOptions = {}): PythonGame => {
  const game = openPythonGame(fixtureGame(id), { engine: FIXTURE_ENGINE, ...options });
  opened.push(game);
  return game;
};
afterAll(() => opened.forEach((g) => g.close()));

/** The numbers two explorations of one level must share. */
const shape = (r: { nodes: number; edges: number; depthHistogram: readonly number[]; terminals: unknown; pWin: { exact: { p: string; q: string } | null } }) => ({
  nodes: r.nodes,
  edges: r.edges,
  depths: [...r.depthHistogram],
  terminals: r.terminals,
  p: r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`,
});

describe('the Python bridge on the fixture games', () => {
  it('reads the game: levels, actions, baseline and title from the game and its metadata', () => {
    const game = open('hid1');
    expect([game.id, game.title, game.levels, game.tutorialLevels, [...game.actions], game.baselineActions]).toEqual(['hid1', 'HID1', 2, 1, [1, 2, 3], [6, 4]]);
    expect(game.info.snapshots).toBe('pickle');
  });

  it('explores a level with hidden state to the graph and exact P(win) a brute force over its twin gives', async () => {
    const game = open('hid1');
    const report = await explore(game, { level: 1, workers: 2 });
    const truth = bruteForceGraph(hid1Twin, 1);
    const expected = analyze(truth);
    expect(report.fullyExplored).toBe(true);
    expect(report.nodes).toBe(truth.nodeCount);
    expect(report.edges).toBe(truth.edgeCount);
    expect(report.pWin.method).toBe('exact');
    expect(`${report.pWin.exact!.p}/${report.pWin.exact!.q}`).toBe(`${expected.pWin.exact!.p}/${expected.pWin.exact!.q}`);
    expect(report.shortestWin!.length).toBe(expected.shortestWin!.length);
    expect(report.python).toMatchObject({ levelStart: 'played', identity: 'state', clicks: null });
  });

  it('merges states by their frame alone under --identity frame, and then misses the win the hidden charge gives', async () => {
    const report = await explore(open('hid1', { identity: 'frame' }), { level: 1, workers: 1 });
    // Five positions show five frames; the charge never shows, so charging looks like a no-op.
    expect(report.nodes).toBe(5);
    expect(report.winReachable).toBe(false);
    expect(report.python!.identity).toBe('frame');
  });

  it('starts a later level where the shortest win of the level before leads, else at set_level, and says which', async () => {
    const chained = open('hid1');
    await explore(chained, { level: 1, workers: 1 });
    const played = await explore(chained, { level: 2, workers: 1 });
    const fresh = await explore(open('hid1'), { level: 2, workers: 1 });
    expect(played.python!.levelStart).toBe('played');
    expect(fresh.python!.levelStart).toBe('set-level');
    // The played start carries the hidden trophy won on level 1: another root, the same graph shape.
    expect(Buffer.from(chained.root(2).digest).equals(Buffer.from(open('hid1').root(2).digest))).toBe(false);
    expect(shape(played)).toEqual(shape(fresh));
    const truth = analyze(bruteForceGraph(hid1Twin, 2));
    expect(`${played.pWin.exact!.p}/${played.pWin.exact!.q}`).toBe(`${truth.pWin.exact!.p}/${truth.pWin.exact!.q}`);
  });

  it('expands clicks over verified classes weighted by their cells: the same graph and P(win) as all 4,096 cells and as brute force', async () => {
    const classes = await explore(open('clk1'), { level: 1, workers: 2 });
    const cells = await explore(open('clk1', { clicks: 'all' }), { level: 1, workers: 2 });
    const truth = bruteForceGraph(clk1Twin, 1);
    const expected = analyze(truth);
    expect(shape(classes)).toEqual(shape(cells));
    expect(classes.nodes).toBe(truth.nodeCount);
    expect(classes.edges).toBe(truth.edgeCount);
    expect(`${classes.pWin.exact!.p}/${classes.pWin.exact!.q}`).toBe(`${expected.pWin.exact!.p}/${expected.pWin.exact!.q}`);
    // The bar's effect depends on the column clicked: its class was split cell by cell.
    expect(classes.python!.clicks).toMatchObject({ method: 'classes', partition: 'sampled' });
    expect(classes.python!.clicks!.split).toBeGreaterThan(0);
    expect(cells.python!.clicks).toMatchObject({ method: 'all-cells', partition: 'exact' });
    expect(classes.transitions).toBeLessThan(cells.transitions / 10);
  });

  it('gives the same graph at 1 and 2 workers and across runs', async () => {
    const a = await explore(open('clk1'), { level: 1, workers: 1 });
    const b = await explore(open('clk1'), { level: 1, workers: 2 });
    const c = await explore(open('hid1'), { level: 1, workers: 1, batchSteps: 3 });
    const d = await explore(open('hid1'), { level: 1, workers: 2, batchSteps: 3 });
    expect(shape(a)).toEqual(shape(b));
    expect(shape(c)).toEqual(shape(d));
  });

  it('names a crash: game, level, the actions from the level start and the traceback frame in the game', async () => {
    const err = await exploreGraph(open('bad1'), { level: 1, workers: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GameCrash);
    const crash = err as GameCrash;
    expect(crash.actions).toEqual(['ACTION1', 'ACTION1', 'ACTION2']);
    expect(crash.message).toMatch(/^bad1 level 1 crashed after 3 actions .*ValueError: boom at x=2 \(bad1\.py:\d+ in fault\)/);
  });

  it('stops a step that hangs in Python by its alarm, and one that blocks the alarm by killing its process, which is replaced', async () => {
    const game = open('bad1', { stepSeconds: 1 });
    const hang = (await exploreGraph(game, { level: 2, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(hang).toBeInstanceOf(GameCrash);
    expect(hang.reason).toMatch(/did not return within 1 s \(stopped by its alarm\)/);
    expect(hang.actions).toEqual(['ACTION1', 'ACTION1', 'ACTION2']);
    const started = performance.now();
    const stuck = (await exploreGraph(game, { level: 3, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(stuck).toBeInstanceOf(GameCrash);
    expect(stuck.reason).toMatch(/did not return within 4 s: its Python process was stopped/);
    expect(stuck.actions).toEqual(['ACTION1', 'ACTION1', 'ACTION2']);
    expect(performance.now() - started).toBeLessThan(30_000);
    // The killed process was replaced: the game still explores.
    const again = await exploreGraph(game, { level: 1, workers: 1, maxNodes: 2 });
    expect(again.result.nodes).toBe(2);
  });

  it('reports a game that eats memory as out of memory, with the actions', async () => {
    const err = (await exploreGraph(open('bad1', { memoryMb: 1024 }), { level: 4, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(err).toBeInstanceOf(GameCrash);
    expect(err.reason).toMatch(/^out of memory \(MemoryError\)/);
    expect(err.actions).toEqual(['ACTION1', 'ACTION1', 'ACTION2']);
  });

  it('says in one line what is missing: the interpreter or the engine, and how to install it', () => {
    expect(() => openPythonGame(fixtureGame('hid1'), { python: 'no-such-python-here' })).toThrow(/^no Python interpreter 'no-such-python-here' .*pip install arcengine/);
    expect(() => openPythonGame(fixtureGame('hid1'), { engine: '/nonexistent', python: 'python3' })).toThrow(/^cannot import the ARC engine 'arcengine' .*pip install arcengine/);
  });
});
