/**
 * The Python bridge against the fixture games on the stand-in engine (test/fixtures/python): graphs
 * and exact probabilities against brute force over TypeScript twins, identity with hidden state,
 * click classes with weights, level starts, and faults (a crash, hangs, memory).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { analyze } from '../analysis/index.js';
import { GameAction, openSession, parseAction } from '../engine/index.js';
import { GameCrash, exploreGraph } from '../explorer/index.js';
import { explore } from '../level.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import { ARC_ENGINE, clk1Twin, faultGame, FIXTURE_ENGINE, fixtureGame, gen1Twin, hasArc, hid1Twin, hostPids, runPython, SLOW_GAME, zombieChildren } from '../../test/support/python.js';
import { engineNear, hostCommand } from './discover.js';
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
    // Charging shows the same frame: each position's charged states collide with its uncharged one
    // (they differ only two moves later, beyond the one-move check: no violation is seen).
    expect(report.python!.frameCollisions).toEqual({ collisions: 4, checked: 4, violations: 0 });
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

  it('splits click classes by what the camera interfaces draw: a toolbar button and a counter bar over the background, as all 4,096 cells', async () => {
    // tlb1's win is a button an interface draws in display coordinates (its label in the
    // background's colour), over cells whose sprites are the background's: classes by sprites alone
    // sample only background cells there and see no win.
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'tlb1'), { engine: FIXTURE_ENGINE, smallGrid: 0 });
    const all = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'tlb1'), { engine: FIXTURE_ENGINE, clicks: 'all' });
    opened.push(game, all);
    const classes = await explore(game, { level: 1, workers: 2 });
    const cells = await explore(all, { level: 1, workers: 2 });
    expect(shape(classes)).toEqual(shape(cells));
    // Per click 16 button cells win, 64 red cells lose, the other 4,016 miss, and the third miss loses.
    expect(shape(classes).p).toBe('192793/16777216');
    expect(classes.shortestWin!.actions).toEqual(['ACTION6(30,2)']);
    expect(classes.python!.clicks!.split).toBe(0);
  });

  it("steps the leftmost and rightmost cells of a class wider than a grid cell: a click-to-move game (cm01) gets all 4,096 cells' graph", async () => {
    // The background's first and last cells both move the player right into the pit; its cells down
    // the left side move it down. Sampled at its first and last cell alone, the class was one move: P(win) 1915594557908/43267571311053.
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'cm01'), { engine: FIXTURE_ENGINE });
    const all = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'cm01'), { engine: FIXTURE_ENGINE, clicks: 'all' });
    opened.push(game, all);
    const classes = await explore(game, { level: 1, workers: 2 });
    expect(shape(classes)).toEqual(shape(await explore(all, { level: 1, workers: 2 })));
    expect(classes.python!.clicks!.split).toBeGreaterThan(0);
  });

  it('reaps the processes of a game it closes: none is left a zombie (one a game, in a night of sweeping)', async () => {
    // The synchronous host's process was reaped by nobody: its thread ended before it exited.
    const before = zombieChildren();
    for (let k = 0; k < 3; k++) {
      const game = openPythonGame(fixtureGame('hid1'), { engine: FIXTURE_ENGINE });
      await explore(game, { level: 1, workers: 2 });
      game.close();
    }
    await new Promise((r) => setTimeout(r, 3000));
    expect(zombieChildren().filter((pid) => !before.includes(pid))).toEqual([]);
  });

  it('gives the same graph at 1 and 2 workers and across runs', async () => {
    const a = await explore(open('clk1'), { level: 1, workers: 1 });
    const b = await explore(open('clk1'), { level: 1, workers: 2 });
    const c = await explore(open('hid1'), { level: 1, workers: 1, batchSteps: 3 });
    const d = await explore(open('hid1'), { level: 1, workers: 2, batchSteps: 3 });
    expect(shape(a)).toEqual(shape(b));
    expect(shape(c)).toEqual(shape(d));
  });

  it('counts the click classes of the states it merged alone: the same numbers at a node limit whatever the batching', async () => {
    // Batches of one state at 1 worker against batches of several at 2 (more in flight): the limit
    // falls inside a batch, whose states past it were stepped but are not in the graph.
    const complete = await explore(open('clk1'), { level: 1, workers: 1 });
    const one = await explore(open('clk1'), { level: 1, workers: 1, batchSteps: 1, maxNodes: 12 });
    const many = await explore(open('clk1'), { level: 1, workers: 2, batchSteps: 200, maxNodes: 12 });
    expect(one.stopReason).toBe('max-nodes');
    expect(shape(many)).toEqual(shape(one));
    expect(many.python!.clicks).toEqual(one.python!.clicks);
    // Fewer states expanded than in the complete graph, so fewer classes.
    expect(one.python!.clicks!.classes).toBeGreaterThan(0);
    expect(one.python!.clicks!.classes).toBeLessThan(complete.python!.clicks!.classes);
  });

  it('stops at a state whose available actions are not those the game was loaded with, naming the path, instead of calling the level unwinnable', async () => {
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'act1'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const crash = (await exploreGraph(game, { level: 1, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(crash).toBeInstanceOf(GameCrash);
    expect(crash.actions).toEqual(['ACTION1']);
    expect(crash.reason).toMatch(/available actions became \[1, 2, 5\], not \[1, 2\] as when it was loaded/);
  });

  it("explores a level whose winning step's frame offers the next level's actions, and refuses that next level at its start, naming both lists (pl01)", async () => {
    // pl01's level 2 offers ACTION6 alone: level 1's winning step crashed the exploration of level 1.
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'pl01'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const r = await explore(game, { level: 1, workers: 1 });
    expect([r.nodes, r.fullyExplored, r.shortestWin?.actions, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`]).toEqual([4, true, ['ACTION2', 'ACTION2', 'ACTION5'], '1/1']);
    const crash = (await exploreGraph(game, { level: 2, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(crash).toBeInstanceOf(GameCrash);
    expect(crash.actions).toEqual([]);
    expect(crash.reason).toMatch(/level 2 offers \[6\] at its start, not \[1, 2, 5\] as the game did when loaded: arcgraph explores one set of actions for a game/);
  });

  it('says of a later level played from the earlier shortest wins that another win may start it elsewhere, when an earlier level ends in several won states (cn01: a coin kept)', async () => {
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'cn01'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const one = await explore(game, { level: 1, workers: 1 });
    expect([one.terminals.won, one.shortestWin?.actions]).toEqual([2, ['ACTION2', 'ACTION2', 'ACTION4']]);
    // From where the coinless shortest win leads, no win: right for that start, and it says so.
    const two = await explore(game, { level: 2, workers: 1 });
    expect([two.python?.levelStart, two.winReachable]).toEqual(['played', false]);
    expect(two.python?.startNote).toBe('level 1 ends in 2 different won states: this start is where its shortest win leads; another win may start this level elsewhere (a sweep explores it from up to 3 of the others: otherStarts; --start-actions plays one)');
    // where the other won state is: the path a sweep explores level 2 from too
    expect(one.python?.otherWins).toEqual([['ACTION2', 'ACTION5', 'ACTION2', 'ACTION4']]);
    // A start the user gives is theirs: no note.
    const coin = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'cn01'), { engine: FIXTURE_ENGINE });
    opened.push(coin);
    coin.setStart(2, ['ACTION2', 'ACTION5', 'ACTION2', 'ACTION4'].map(parseAction), true);
    const played = await explore(coin, { level: 2, workers: 1 });
    expect([played.winReachable, played.shortestWin?.actions, played.python?.startNote]).toEqual([true, ['ACTION2', 'ACTION4'], undefined]);
    // A level 1 explored partially may have other wins past its budget (it said nothing: probe ph06)
    const cut = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'cn01'), { engine: FIXTURE_ENGINE });
    opened.push(cut);
    const partial = await explore(cut, { level: 1, workers: 1, maxNodes: 6 });
    expect([partial.fullyExplored, partial.terminals.won]).toEqual([false, 1]);
    expect((await explore(cut, { level: 2, workers: 1 })).python?.startNote).toBe('level 1 was explored partially: this start is where its shortest win found leads; a win past its budget may start this level elsewhere');
  });

  it("steps the middle of a click class three grid cells across, where a target's bullseye is (bt01)", async () => {
    // Its first, last, leftmost and rightmost cells all missed the middle: no win, an exact 0.
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'bt01'), { engine: FIXTURE_ENGINE, smallGrid: 0 });
    opened.push(game);
    const r = await explore(game, { level: 1, workers: 1 });
    expect([r.nodes, r.shortestWin?.actions, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`]).toEqual([3, ['ACTION6(24,24)'], '1/56']);
    expect(r.python!.clicks).toMatchObject({ split: 1, splitCells: 576 });
  });

  it('steps a cell in each grid cell of a click class covering few grid cells, where a panel reacts at one (bt02), on both engines', async () => {
    // Its first, last, leftmost, rightmost and middle cells all missed grid cell (4, 4): no win, an exact 0.
    for (const engine of [FIXTURE_ENGINE, ...(hasArc ? [ARC_ENGINE] : [])]) {
      const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'bt02'), { engine, smallGrid: 0 });
      opened.push(game);
      const r = await explore(game, { level: 1, workers: 1 });
      expect([r.nodes, r.shortestWin?.actions, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`]).toEqual([3, ['ACTION6(32,32)'], '1/57']);
      expect(r.python!.clicks).toMatchObject({ split: 1, splitCells: 512 });
    }
  });

  it('steps the grid cells around a small class, where hit areas nothing draws are: click-to-step (rg01) and a forgiving hitbox (rg02), on both engines', async () => {
    // The floor's samples (first, last, edges, middle) fell where a click does nothing: rg02 gave
    // 1/9, rg01 51 edges and 690535/25641952.
    for (const engine of [FIXTURE_ENGINE, ...(hasArc ? [ARC_ENGINE] : [])]) {
      const hitbox = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'rg02'), { engine, smallGrid: 0 });
      opened.push(hitbox);
      const r = await explore(hitbox, { level: 1, workers: 1 });
      expect([r.nodes, r.shortestWin?.actions.length, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`]).toEqual([3, 1, '9/17']);
      expect(r.python!.clicks).toMatchObject({ split: 1 });
    }
    const step = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'rg01'), { engine: FIXTURE_ENGINE, smallGrid: 0 });
    const all = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'rg01'), { engine: FIXTURE_ENGINE, clicks: 'all' });
    opened.push(step, all);
    const classes = await explore(step, { level: 1, workers: 2 });
    const cells = await explore(all, { level: 1, workers: 2 });
    expect(shape(classes)).toEqual(shape(cells));
    expect(shape(classes).p).toBe('3945533/146045353');
    // A split floor is stepped once a grid cell (checked at its last display cell), not 256 times.
    expect(classes.transitions).toBeLessThan(cells.transitions / 100);
  });

  it('steps every grid cell of a board of at most 64 grid cells, where a hit cell hides inside one drawn class (tr01: treasure under uniform sand)', async () => {
    // By hand: 1 - (63/64)^3. Sampled (smallGrid 0), every sample misses: "no win is reachable", an exact 0 (probe L's pl01).
    for (const engine of [FIXTURE_ENGINE, ...(hasArc ? [ARC_ENGINE] : [])]) {
      const board = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'tr01'), { engine });
      const sampled = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'tr01'), { engine, smallGrid: 0 });
      opened.push(board, sampled);
      const r = await explore(board, { level: 1, workers: 1 });
      expect([r.nodes, r.shortestWin?.length, `${r.pWin.exact!.p}/${r.pWin.exact!.q}`]).toEqual([7, 1, '12097/262144']);
      expect(r.python!.clicks).toMatchObject({ samples: 0, split: 3 });
      expect((await explore(sampled, { level: 1, workers: 1 })).pWin.exact).toMatchObject({ p: '0' });
    }
  });

  it.runIf(hasArc)("gives each tile of the real engine's placeable areas its own click class, though nothing draws them (pa01)", async () => {
    // The stand-in engine has no placeable areas. Left out, the area's cells were one class with the
    // background, whose samples all fell outside it: 2 states, no win reachable, an exact 0.
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'pa01'), { engine: ARC_ENGINE, smallGrid: 0 });
    const all = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'pa01'), { engine: ARC_ENGINE, clicks: 'all' });
    opened.push(game, all);
    const r = await explore(game, { level: 1, workers: 2 });
    expect([r.nodes, r.shortestWin?.actions, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`]).toEqual([5, ['ACTION6(24,40)'], '1/17']);
    expect(shape(r)).toEqual(shape(await explore(all, { level: 1, workers: 2 })));
    // The tiles are classes of their own (background, marker, two tiles; then the piece's cell apart from the rest of tile A): none split.
    expect(r.python!.clicks).toMatchObject({ classes: 9, split: 0 });
  });

  it('makes a step the engine answers with no frame (the game already over) a fault of the game, not an error of the host', () => {
    // A state restored from its snapshot that behaves unlike the game can be over where the graph has it playing.
    const r = runPython(
      [
        'import sys',
        'from arcgraph.runtime import Runtime, GameError, settled',
        'rt = Runtime(sys.argv[1])',
        'live = rt.fresh()',
        'for code in (2, 2, 2):',
        '    fd = rt.step(live, code)',
        'print(fd.state.name)',
        'try:',
        '    settled(rt.step(live, 2))',
        'except GameError as err:',
        '    print(err.describe())',
      ],
      join(FIXTURE_ENGINE, 'games', 'gen1', 'v1', 'gen1.py'),
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['WIN', 'the step returned no frame: the engine says the game was over (WIN) before it, though this state was playing where it was found (a state restored from its snapshot behaves unlike the game?)']);
  });

  it('explores the actions a game does not offer as the engine steps them under --unoffered step (the reference policy), and names one that acts beyond the level start otherwise', async () => {
    // un01: four cells, four offered moves (ACTION1 right, ACTION2 left) to reach the last; ACTION7,
    // which it does not offer, takes the player back to the first cell (no change at the start).
    // Truth: P(x, m), the win from cell x after m moves; the reference agent draws ACTION1..7, and a
    // draw that leaves the state as it is draws again, so P is the mean over the draws that move.
    type Q = [bigint, bigint];
    const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
    const q = (n: bigint, d: bigint): Q => [n / gcd(n, d), d / gcd(n, d)];
    const mean = (...xs: Q[]): Q => xs.reduce((a, b) => q(a[0] * b[1] + b[0] * a[1], a[1] * b[1]), [0n, 1n] as Q).map((v, i) => (i === 1 ? v * BigInt(xs.length) : v)) as Q;
    const truth = (step: boolean, x = 0, m = 0): Q => {
      if (x === 3) return [1n, 1n];
      if (m === 4) return [0n, 1n];
      const moves = [truth(step, Math.min(3, x + 1), m + 1), truth(step, Math.max(0, x - 1), m + 1)];
      return step && x > 0 ? mean(...moves, truth(step, 0, m)) : mean(...moves);
    };
    const fraction = (v: Q): string => { const [n, d] = q(...v); return `${n}/${d}`; };
    const un01 = (options: PythonGameOptions = {}): PythonGame => {
      const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'un01'), { engine: FIXTURE_ENGINE, ...options });
      opened.push(game);
      return game;
    };
    const stay = await explore(un01(), { level: 1, workers: 2, policy: 'reference' });
    expect(`${stay.pWin.exact!.p}/${stay.pWin.exact!.q}`).toBe(fraction(truth(false)));
    // Found at a checked state (the level's start does not show it): the graph took it as staying put.
    expect(stay.python).toMatchObject({ unofferedActs: ['ACTION7'], unoffered: 'stay' });
    const game = un01({ unoffered: 'step' });
    expect([[...game.actions], [...game.offered]]).toEqual([[1, 2, 3, 4, 5, 6, 7], [1, 2]]);
    const step = await explore(game, { level: 1, workers: 2, policy: 'reference' });
    expect(`${step.pWin.exact!.p}/${step.pWin.exact!.q}`).toBe(fraction(truth(true)));
    expect(fraction(truth(true))).not.toBe(fraction(truth(false)));
    expect(step.python!.unoffered).toBe('step');
    // Random play steps them too: its bounds hold the exact value.
    const { randomPlay } = await import('../random/index.js');
    const played = await randomPlay(game, { level: 1, steps: 30_000, workers: 2, policy: 'reference' });
    const [n, d] = truth(true);
    expect(played.lower).toBeLessThanOrEqual(Number(n) / Number(d));
    expect(played.upper).toBeGreaterThanOrEqual(Number(n) / Number(d));
    expect(played.upper - played.lower).toBeLessThan(0.05);
    expect(played.unoffered).toBe('step');
    // The available policy draws from the offered actions alone: a graph over all seven is refused.
    await expect(explore(game, { level: 1, workers: 1 })).rejects.toThrow(/--unoffered step\) for the reference policy alone/);
  });

  it('warns when random play carries state from attempt to attempt in the module (mc01: a charge in a module global), and not otherwise', async () => {
    // Each attempt restores the level's snapshot, which does not hold the global: the charge carried over and
    // random play won almost every attempt, no warning, where the game's rate is 1/8 (mc01.py, by hand).
    const { randomPlay } = await import('../random/index.js');
    const carried = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'mc01'), { engine: FIXTURE_ENGINE });
    opened.push(carried);
    for (const workers of [1, 2]) {
      const r = await randomPlay(carried, { level: 1, steps: 2000, workers });
      expect(r.warning).toMatch(/^the attempts changed CHARGE in the game's module .*not independent plays of the game/);
    }
    const honest = await randomPlay(open('hid1'), { level: 1, steps: 2000, workers: 2 });
    expect(honest.losses).toBeGreaterThan(0);
    expect(honest.warning).toBeUndefined();
    // gen1 keeps nothing in its module, but its move clock on the game object, which the engine's RESET
    // after GAME_OVER leaves: the attempts warning alone (src/python/attempts.test.ts)
    const clocked = await randomPlay(open('gen1'), { level: 1, steps: 2000, workers: 2 });
    expect(clocked.warning).toMatch(/^a lost attempt's RESET .* self\.clock differs/);
  });

  it('warns when the same step taken again gives another state, and when a step changes the module (state the graph cannot see)', async () => {
    const apart = (id: string): PythonGame => {
      const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', id), { engine: FIXTURE_ENGINE });
      opened.push(game);
      return game;
    };
    // rnd1 draws from the operating system (os.urandom, which no seed reaches): the step's draw is watched (runtime.watch_entropy),
    // and named before the root's transitions, each taken again, find a successor apart.
    const noisy = await exploreGraph(apart('rnd1'), { level: 1, workers: 1 });
    expect(noisy.result.identityWarning).toEqual({ message: expect.stringMatching(/^the step drew from the operating system's entropy \(os\.urandom\) in the game's code/), actions: ['ACTION1'] });
    // glb1 counts in a module global: one state and no win, and a warning that says why.
    const global = await exploreGraph(apart('glb1'), { level: 1, workers: 1 });
    expect(global.result.nodes).toBe(1);
    expect(global.result.identityWarning).toEqual({ message: expect.stringMatching(/^the step changed COUNT in the game's module/), actions: ['ACTION1'] });
    // A deterministic game that keeps its state in the game object: no warning, at any worker count.
    for (const workers of [1, 2]) expect((await exploreGraph(open('hid1'), { level: 1, workers })).result.identityWarning).toBeNull();
  });

  it('finds a kept object id in a dict key, a slot and a tuple, and not in ints that are nobody\'s id; an object whose attributes raise is passed over', () => {
    const r = runPython([
      'from arcgraph.heldids import held_id',
      'class Node: pass',
      'class Slotted:',
      '    __slots__ = ("ref",)',
      'class Raises:',
      '    def __getattribute__(self, name): raise RuntimeError(name)',
      'root = Node(); root.child = Node(); root.plain = list(range(70000, 70010)); root.bad = Raises()',
      'print(held_id(root))',
      'root.reg = {id(root.child): "c"}',
      'print(held_id(root))',
      'del root.reg; root.s = Slotted(); root.s.ref = ("x", id(root))',
      'print(held_id(root))',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['None', "('game.reg key', 'game.child')", "('game.s.ref[1]', 'game')"]);
  });

  it('a snapshot carries the objects whose ids a state keeps, and loading rewrites them: in dict keys and values, sets, lists, tuples, named tuples, slots, deques, frozensets', () => {
    const r = runPython([
      'import pickle',
      'from collections import deque, namedtuple',
      'from arcgraph.heldids import kept_objects, remap_ids',
      'class Node: pass',
      'class Slotted:',
      '    __slots__ = ("ref",)',
      'class Frozen(tuple): pass',
      'P = namedtuple("P", "a b")',
      'root = Node(); a = Node(); b = Node(); root.nodes = [a, b]',
      'root.reg = {id(a): a, 7: "seven", id(b): b}',
      'root.seen = {id(a)}; root.q = deque([id(b)]); root.fs = frozenset({id(a)})',
      'root.undo = [(id(a), 3, (id(b),)), P(id(b), 1)]',
      'root.s = Slotted(); root.s.ref = id(root)',
      't = (id(a),); root.twice = [t, t]',
      'def copied(root):',
      '    copy, kept = pickle.loads(pickle.dumps((root, kept_objects(root))))',
      '    return copy, remap_ids(copy, {old: id(o) for old, o in kept.items()})',
      'copy, stuck = copied(root)',
      'A, B = copy.nodes',
      'print(stuck, sorted(kept_objects(root)) == sorted({id(a), id(b), id(root)}))',
      'print(list(copy.reg) == [id(A), 7, id(B)], copy.reg[id(A)] is A, copy.seen == {id(A)}, list(copy.q) == [id(B)], copy.fs == {id(A)})',
      'print(copy.undo[0] == (id(A), 3, (id(B),)), type(copy.undo[1]) is P and copy.undo[1] == (id(B), 1), copy.s.ref == id(copy))',
      'print(copy.twice[0] is copy.twice[1], copy.twice[0] == (id(A),))',
      'root.odd = Frozen((id(a),))',
      'print(copied(root)[1])',
    ]);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toEqual(['0 True', 'True True True True True', 'True True True', 'True True', '1']);
  });

  it('explores a game that keeps id() of its objects as the game plays (id01, id02), and warns naming the id where a copy cannot keep it (id03)', async () => {
    // id01's ACTION1 moves while id(player) is the id it noted: every restored copy lost there (an exact 0, no warning) until snapshots carried kept ids.
    const apart = (id: string, stepSeconds?: number): PythonGame => {
      const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', id), { engine: FIXTURE_ENGINE, ...(stepSeconds && { stepSeconds }) });
      opened.push(game);
      return game;
    };
    const game = apart('id01');
    for (const workers of [1, 2]) {
      const r = await explore(game, { level: 1, workers });
      expect(r.identityWarning).toBeNull();
      expect([r.nodes, r.shortestWin?.length, `${r.pWin.exact!.p}/${r.pWin.exact!.q}`]).toEqual([4, 3, '1/1']);
    }
    // id03 keeps it in a tuple of its own class, which a loaded snapshot cannot rebuild: the warning names it.
    const stuck = await exploreGraph(apart('id03'), { level: 1, workers: 1 });
    expect(stuck.result.identityWarning?.message).toMatch(/^the game keeps id\(\) of its own objects \(game\.seen\[0\] is the id of game\.player\)/);
    // id02's copy looped forever on ACTION1 (the real game does not): the fuzz now walks it without a hang.
    const { qualify } = await import('../qualify/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'arcgraph-pyq-'));
    try {
      const result = await qualify(apart('id02', 1), { level: 1, stepsScale: 0.0001, workers: 1, out: dir, hangSeconds: 1, search: { maxNodes: 100, maxSeconds: 5 } });
      expect(result.findings.filter((f) => f.check === 'slow-step' || f.severity === 'fail')).toEqual([]);
      expect(result.levels[0].regimes.fuzz).toMatchObject({ status: 'pass' });
      expect(result.levels[0].regimes.fuzz.steps).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
    expect(hang.kind).toBe('hang');
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

  it('stops the batches a stopped search left running: the next search does not wait behind them', async () => {
    const game = openPythonGame(SLOW_GAME, { engine: FIXTURE_ENGINE });
    opened.push(game);
    // Past the start a batch steps two states four times, two seconds a step: 16 s.
    const first = await explore(game, { level: 1, workers: 1, maxSeconds: 1 });
    expect(first.stopReason).toBe('max-seconds');
    const started = performance.now();
    const second = await explore(game, { level: 1, workers: 1, maxNodes: 2 });
    expect(second.stopReason).toBe('max-nodes');
    // Its one process: a second's grace, then killed and started again (behind the batch: ~15 s).
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('stops the walks a stopped random play left running: the next play does not wait behind them', async () => {
    const { randomPlay } = await import('../random/index.js');
    const game = openPythonGame(SLOW_GAME, { engine: FIXTURE_ENGINE });
    opened.push(game);
    await game.warm(1);
    // Two tasks of two episodes in flight on the one process, up to ten steps each, two seconds a
    // step once the walker has left the start: about 20-40 s of walks when Ctrl-C stops the play.
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 1000);
    await randomPlay(game, { level: 1, steps: 10_000, maxAttemptSteps: 10, workers: 1, signal: stop.signal });
    const started = performance.now();
    // One step from the start: instant, once the process is free.
    const second = await randomPlay(game, { level: 1, steps: 1, maxAttemptSteps: 1, workers: 1 });
    expect(second.steps).toBe(1);
    // A second's grace, then the process is killed and started again.
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('reports a game that eats memory as out of memory, with the actions', async () => {
    const err = (await exploreGraph(open('bad1', { memoryMb: 1024 }), { level: 4, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(err).toBeInstanceOf(GameCrash);
    expect(err.reason).toMatch(/^out of memory \(MemoryError\)/);
    expect(err.kind).toBe('out-of-memory');
    expect(err.actions).toEqual(['ACTION1', 'ACTION1', 'ACTION2']);
  });

  it('names a step still running when the time budget stops the search: a hang the budget would hide', async () => {
    // the alarm (30 s) and the watchdog are far off: only the 2 s budget stops the search, mid-step
    const game = open('bad1', { stepSeconds: 30 });
    const { result } = await exploreGraph(game, { level: 2, workers: 1, maxSeconds: 2, stepSeconds: 30 });
    expect(result.stopReason).toBe('max-seconds');
    expect(result.stuckStep).toMatchObject({ actions: ['ACTION1', 'ACTION1', 'ACTION2'] });
    expect(result.stuckStep!.seconds).toBeGreaterThanOrEqual(1);
    expect(result.stuckStep!.message).toMatch(/^a step was still running after [\d.]+ s when the search stopped \(max-seconds\): 3 actions from reset \[ACTION1, ACTION1, ACTION2\] \(a hang\?\)$/);
    // a search its budget stops between quick steps names none
    const quick = await exploreGraph(open('hid1'), { level: 1, workers: 1, maxNodes: 3 });
    expect(quick.result.stopReason).toBe('max-nodes');
    expect(quick.result.stuckStep).toBeUndefined();
  });

  it('never keeps a process a game ran out of memory: it ends, and the next work gets a fresh one', async () => {
    const game = open('bad1', { memoryMb: 1000 });
    // the synchronous host only (the pool starts its processes on first use)
    const before = hostPids('bad1', '1000');
    expect(before.length).toBeGreaterThan(0);
    const err = (await exploreGraph(game, { level: 4, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(err.kind).toBe('out-of-memory');
    // the pool's process that ran out of memory is gone (it used to stay, bloated, until the game closed)
    await vi.waitFor(() => expect(hostPids('bad1', '1000')).toEqual(before), { timeout: 5_000 });
    // and the game still works: level 1 in a new process
    const fresh = await exploreGraph(game, { level: 1, workers: 1 }).catch((e: unknown) => e);
    expect(fresh).toBeInstanceOf(GameCrash);
    expect((fresh as GameCrash).kind).toBe('crash');
  });

  it('names a step that ends its process as a crash with its actions: sys.exit and KeyboardInterrupt caught, os._exit by the heartbeat', async () => {
    const game = openPythonGame(faultGame('die1'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const reasons: string[] = [];
    for (const level of [1, 2, 3]) {
      const crash = (await exploreGraph(game, { level, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
      expect(crash).toBeInstanceOf(GameCrash);
      expect([crash.kind, crash.actions]).toEqual(['crash', ['ACTION1', 'ACTION1', 'ACTION2']]);
      reasons.push(crash.reason);
    }
    expect(reasons[0]).toMatch(/^SystemExit: the game tried to end its Python process \(exit code 3\) \(die1\.py:\d+ in step\)$/);
    expect(reasons[1]).toBe('the game ended its Python process (exit code 0)');
    expect(reasons[2]).toMatch(/^KeyboardInterrupt \(die1\.py:\d+ in step\)$/);
    // Random play: the episode and step the vanished process was on, drawn again.
    const { randomPlay } = await import('../random/index.js');
    const walk = (await randomPlay(game, { level: 2, steps: 2000, workers: 2, maxAttemptSteps: 10 }).catch((e: unknown) => e)) as GameCrash;
    expect(walk).toBeInstanceOf(GameCrash);
    expect([walk.kind, walk.actions.at(-1), walk.actions.filter((a) => a === 'ACTION1').length]).toEqual(['crash', 'ACTION2', 2]);
    expect(walk.reason).toMatch(/^the game ended its Python process \(exit code 0\) \(random episode \d+, seed 1\)$/);
  });

  it('a session whose process the game ended says so at its next action (it was a fresh process\'s KeyError, read as the game\'s exception)', () => {
    const game = openPythonGame(faultGame('die1'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const session = openSession(game, 2);
    session.act({ id: GameAction.RESET });
    session.act({ id: GameAction.ACTION1 });
    session.act({ id: GameAction.ACTION1 });
    expect(() => session.act({ id: GameAction.ACTION2 })).toThrow(/the game ended its Python process \(exit code 0\)/);
    let after: unknown;
    try {
      session.act({ id: GameAction.ACTION1 });
    } catch (err) {
      after = err;
    }
    expect(after).toMatchObject({ kind: 'died', message: expect.stringMatching(/^the Python process that held this session ended before this request: the game ended its Python process \(exit code 0\)/) });
    // the game's other requests go to a fresh process
    expect(game.root(1).status).toBe('playing');
  });

  it('reports a game whose constructor raises as a crash at every level’s reset, with no action', async () => {
    const game = openPythonGame(faultGame('bin1'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const crash = (await exploreGraph(game, { level: 1, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(crash).toBeInstanceOf(GameCrash);
    expect(crash.message).toMatch(/^bin1 level 1 crashed after 0 actions from reset \[\]: the reset state cannot be built: starting the game threw: RuntimeError: level data missing \(bin1\.py:\d+ in __init__\)$/);
    // Its reproduction is the RESET that shows it, unplayed: under the metadata's full id, as the game's own recordings.
    const { writeReproduction } = await import('../qualify/reproduce.js');
    const dir = mkdtempSync(join(tmpdir(), 'arcgraph-bin1-'));
    writeReproduction(join(dir, 'bin1.jsonl'), game, 1, [], 'exception');
    const lines = readFileSync(join(dir, 'bin1.jsonl'), 'utf8').trim().split('\n');
    rmSync(dir, { recursive: true });
    expect(lines.map((l) => JSON.parse(l).data)).toEqual([expect.objectContaining({ game_id: 'bin1-v1', action_input: { id: 0, data: {} }, full_reset: true })]);
  });

  it('explores a level lost at its start (the engine steps RESET too: level 1 alone) as one lost state, and qualify names the start', async () => {
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'st01'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const report = await explore(game, { level: 1, workers: 1 });
    expect([report.nodes, report.terminals.lost, report.fullyExplored, report.pWin.exact && `${report.pWin.exact.p}/${report.pWin.exact.q}`]).toEqual([1, 1, true, '0/1']);
    expect(game.status(game.init(1))).toBe('lost');
    const { pythonFuzz } = await import('./fuzz.js');
    const fuzz = await pythonFuzz(game, { level: 1, seed: 1, firstStream: 0, steps: 100, maxWalkSteps: 10, stepLimitMs: 1000, restepEvery: 10, crossEvery: 10, stepSeconds: 5 }, 1);
    // The engine ignores actions once the game is over: no walk, no "returned no frame" findings.
    expect([fuzz.steps, fuzz.faults, fuzz.resetFaults]).toEqual([0, [], [{ check: 'malformed-transition', message: 'the reset state of level 1 has status "lost", not playing' }]]);
    // A later level is entered by a win, with no RESET and no step: die1's level 4, whose step()
    // loses, starts playing, and its first action loses (it used to start lost, after a RESET).
    const die1 = openPythonGame(faultGame('die1'), { engine: FIXTURE_ENGINE });
    opened.push(die1);
    const four = await explore(die1, { level: 4, workers: 1 });
    expect([four.nodes, four.terminals.lost, four.pWin.exact && `${four.pWin.exact.p}/${four.pWin.exact.q}`, four.python!.levelStart]).toEqual([2, 1, '0/1', 'set-level']);
  });

  it('explores a level its RESET completes (the game already on the next) as one won state, and random play settles it before a step', async () => {
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'st02'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    const report = await explore(game, { level: 1, workers: 1 });
    expect([report.nodes, report.terminals.won, report.shortestWin?.length, report.pWin.exact && `${report.pWin.exact.p}/${report.pWin.exact.q}`]).toEqual([1, 1, 0, '1/1']);
    expect(game.status(game.init(1))).toBe('won');
    const { randomPlay } = await import('../random/index.js');
    const won = await randomPlay(game, { level: 1, steps: 100, workers: 1 });
    expect([won.starts, won.episodes, won.wins, won.steps, won.lower]).toEqual(['won', 1, 1, 0, 1]);
    const lostGame = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'st01'), { engine: FIXTURE_ENGINE });
    opened.push(lostGame);
    const lost = await randomPlay(lostGame, { level: 1, steps: 100, workers: 1 });
    expect([lost.starts, lost.losses, lost.steps, lost.upper]).toEqual(['lost', 1, 0, 0]);
  });

  it('says in one line what is missing: the interpreter or the engine, and how to install it', () => {
    expect(() => openPythonGame(fixtureGame('hid1'), { python: 'no-such-python-here' })).toThrow(/^no Python interpreter 'no-such-python-here' .*pip install arcengine/);
    expect(() => openPythonGame(fixtureGame('hid1'), { engine: '/nonexistent', python: 'python3' })).toThrow(/^cannot import the ARC engine 'arcengine' .*pip install arcengine/);
    // the fixture games sit below a folder holding arcengine/, as the public repository's do: the error names it
    expect(() => openPythonGame(fixtureGame('hid1'), { engine: '/nonexistent', python: 'python3' })).toThrow(`${join(FIXTURE_ENGINE, 'arcengine')} sits above the game: ARCGRAPH_ARC_ENGINE=${FIXTURE_ENGINE} uses it`);
    expect(engineNear('/nonexistent/games/x/v1/x.py')).toBeUndefined();
  });
});

describe('the Python side of the seeded player, sessions and random play', () => {
  it('draws the same moves as src/player for any seed, stream and policy', async () => {
    const { Rng, drawAction } = await import('../player/index.js');
    const game = open('clk1');
    for (const [seed, stream, choices, available] of [
      [1, 0, [1, 2, 3, 4], [1, 2, 3, 4]],
      [7, 2 ** 40 + 5, [6], [6]],
      [2 ** 32 + 3, 123456, [1, 2, 3, 4, 5, 6, 7], [1, 3, 6]],
    ] as [number, number, number[], number[]][]) {
      const codes = game.call({ op: 'draws', seed, stream, count: 500, choices, available }, [], 1).header.codes as number[];
      const rng = new Rng(seed, stream);
      const set = new Set(available);
      const expected = Array.from({ length: 500 }, () => {
        const a = drawAction(rng, choices, set);
        return a === undefined ? -1 : a.id === 6 ? 8 + a.y! * 64 + a.x! : a.id;
      });
      expect(codes).toEqual(expected);
    }
  });

  it('plays random attempts in Python with the same numbers at 1 and 2 workers, and the first win replays through the facade', async () => {
    const { randomPlay } = await import('../random/index.js');
    const { playEpisode } = await import('../player/index.js');
    const game = open('hid1');
    const one = await randomPlay(game, { level: 1, steps: 3000, workers: 1, seed: 3 });
    const two = await randomPlay(game, { level: 1, steps: 3000, workers: 2, seed: 3 });
    const pick = (r: typeof one) => [r.episodes, r.wins, r.losses, r.cutOff, r.steps, r.firstWin];
    expect(pick(two)).toEqual(pick(one));
    // P(win) is 3130/9583 (the exploration above): the estimate's bounds hold it.
    expect(one.lower).toBeLessThan(3130 / 9583);
    expect(one.upper).toBeGreaterThan(3130 / 9583);
    expect(one.timing!.steps).toBeGreaterThanOrEqual(3000);
    const episode = playEpisode(game, 1, 'available', 3, one.firstWin!, 3000);
    expect(episode.end).toBe('won');
  });

  it('stops random play at a crash or a hang with the episode and its actions from the level start', async () => {
    const { randomPlay } = await import('../random/index.js');
    const { playEpisode } = await import('../player/index.js');
    const game = open('bad1', { stepSeconds: 1 });
    // An attempt crashes if it draws ACTION2 while the walker is at x == 2 (half of them): 10 steps each.
    const crash = (await randomPlay(game, { level: 1, steps: 2000, workers: 2, maxAttemptSteps: 10 }).catch((e: unknown) => e)) as GameCrash;
    expect(crash).toBeInstanceOf(GameCrash);
    expect(crash.kind).toBe('crash');
    expect(crash.reason).toMatch(/ValueError: boom at x=2 .*\(random episode (\d+), seed 1\)$/);
    // bad1 raises at the first ACTION2 taken with the walker at x == 2 (two ACTION1 before it).
    const actions = crash.actions;
    expect(actions.at(-1)).toBe('ACTION2');
    expect(actions.filter((a) => a === 'ACTION1').length).toBe(2);
    // The seeded player draws the same moves: the episode named plays them and throws.
    const index = Number(/random episode (\d+)/.exec(crash.reason)![1]);
    const episode = playEpisode(game, 1, 'available', 1, index, 10);
    expect(episode.end).toBe('threw');
    expect(episode.actions.map((a) => `ACTION${a.id}`)).toEqual(actions);
    const hang = (await randomPlay(game, { level: 2, steps: 2000, workers: 1, maxAttemptSteps: 10 }).catch((e: unknown) => e)) as GameCrash;
    expect(hang).toBeInstanceOf(GameCrash);
    expect([hang.kind, hang.actions.at(-1), hang.actions.filter((a) => a === 'ACTION1').length]).toEqual(['hang', 'ACTION2', 2]);
    expect(hang.reason).toMatch(/did not return within 1 s \(stopped by its alarm\)/);
  });

  it('fails a level whose RESET after a loss (the agent\'s next attempt) crashes or hangs, naming the lost state\'s actions and RESET (rf01, rf02)', async () => {
    // Before: a warning beside an exact P(win) of 1/8 that passed, and a hang waited out at every lost state.
    const apart = (id: string): PythonGame => {
      const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', id), { engine: FIXTURE_ENGINE, stepSeconds: 1 });
      opened.push(game);
      return game;
    };
    const crash = (await exploreGraph(apart('rf01'), { level: 1, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect(crash).toBeInstanceOf(GameCrash);
    expect([crash.kind, crash.actions]).toEqual(['crash', ['ACTION2', 'RESET']]);
    expect(crash.reason).toMatch(/^ZeroDivisionError: .*\(rf01\.py:\d+ in on_set_level\)/);
    const started = performance.now();
    const hang = (await exploreGraph(apart('rf02'), { level: 1, workers: 1 }).catch((e: unknown) => e)) as GameCrash;
    expect([hang.kind, hang.actions]).toEqual(['hang', ['ACTION2', 'RESET']]);
    expect(performance.now() - started).toBeLessThan(15_000);
    // Random play steps the first lost episode's RESET too: the episode's fault, RESET last.
    const { randomPlay } = await import('../random/index.js');
    const played = (await randomPlay(apart('rf01'), { level: 1, steps: 2000, workers: 1, maxAttemptSteps: 10 }).catch((e: unknown) => e)) as GameCrash;
    expect(played).toBeInstanceOf(GameCrash);
    expect([played.kind, played.actions.at(-1), played.actions.at(-2)]).toEqual(['crash', 'RESET', 'ACTION2']);
  });

  it('records and replays a session with the engine’s RESET and level progression', async () => {
    const { readRecording, recordActions, replayRecording, writeRecordingLines } = await import('../recording/index.js');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const game = open('hid1');
    const actions = 'ACTION3 ACTION3 ACTION2 ACTION2 ACTION2 ACTION2 ACTION3 ACTION2 ACTION2 ACTION2'.split(' ').map(parseAction);
    const { lines, outcome } = recordActions(game, actions);
    expect(outcome).toEqual({ state: 'WIN', levels_completed: 2 });
    expect(lines[0].full_reset).toBe(true);
    expect(lines.map((l) => l.levels_completed)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2]);
    const dir = mkdtempSync(join(tmpdir(), 'arcgraph-py-'));
    try {
      const file = join(dir, 'hid1.test.1.recording.jsonl');
      writeRecordingLines(file, lines);
      const replay = replayRecording(game, readRecording(file));
      expect(replay.reproduced).toBe(true);
      expect(replay.outcome).toEqual(outcome);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A session begun at level 2 returns there on a full reset, as play --level does.
    const session = game.session(2);
    const first = session.act({ id: 0 });
    expect([first.levels_completed, first.full_reset, session.currentLevel]).toEqual([1, true, 2]);
  });

  it('replays an unavailable action through the engine’s perform_action, as the TypeScript runtime does', async () => {
    const { parseRecording, recordActions, recordingText, replayRecording } = await import('../recording/index.js');
    const game = open('hid1'); // actions ACTION1..3; its step ignores ACTION4 and counts it, as the engine does
    const [reset, right] = recordActions(game, [{ id: 2 }]).lines;
    const noop = { ...structuredClone(reset), action_input: { id: 4, data: {} }, full_reset: false };
    const levelReset = { ...structuredClone(reset), full_reset: false };
    const replay = replayRecording(game, parseRecording(recordingText([reset, noop, levelReset, right]), 'hid1.jsonl'));
    expect(replay.divergence).toBeUndefined();
    expect(replay.steps).toBe(4);
    // A session that does not accept them still refuses one.
    const strict = game.session(1);
    strict.act({ id: 0 });
    expect(() => strict.act({ id: 4 })).toThrow('ACTION4 is not available in hid1');
  });

  it('replays available_actions as the engine echoes them after each action, and diverges where a recording says otherwise (act1 changes its list)', async () => {
    const { parseRecording, recordingText, replayRecording, frameDataToJson } = await import('../recording/index.js');
    const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'act1'), { engine: FIXTURE_ENGINE });
    opened.push(game);
    // ACTION1 lights the lamp and offers ACTION5 (not in the list act1 was loaded with), which wins.
    const session = game.session(1, { acceptUnavailable: true });
    const lines = [{ id: 0 }, { id: 1 }, { id: 5 }].map((a) => frameDataToJson(session.act(a), 'g'));
    expect(lines.map((l) => [l.state, l.available_actions])).toEqual([
      ['NOT_FINISHED', [1, 2]],
      ['NOT_FINISHED', [1, 2, 5]],
      ['WIN', [1, 2, 5]],
    ]);
    expect(replayRecording(game, parseRecording(recordingText(lines), 'act1.jsonl')).divergence).toBeUndefined();
    const stale = structuredClone(lines);
    stale[1].available_actions = [1, 2];
    expect(replayRecording(game, parseRecording(recordingText(stale), 'act1.jsonl')).divergence).toMatchObject({
      step: 2,
      line: 2,
      action: 'ACTION1',
      field: 'available_actions',
      recorded: [1, 2],
      replayed: [1, 2, 5],
      message: 'step 2 (line 2, ACTION1): available_actions recorded [ACTION1, ACTION2], replayed [ACTION1, ACTION2, ACTION5]: ACTION5 available in the replay but not recorded',
    });
  });
});

describe('qualify on a Python game', () => {
  it('finds the crash by fuzzing, shrinks it, writes a reproduction replay crashes on, and profiles the level', async () => {
    const { qualify } = await import('../qualify/index.js');
    const { readRecording, replayRecording } = await import('../recording/index.js');
    const { mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'arcgraph-pyq-'));
    try {
      const game = open('bad1', { stepSeconds: 2 });
      const result = await qualify(game, { level: 1, stepsScale: 0.005, workers: 2, out: dir, search: { maxNodes: 1000, maxSeconds: 10 } });
      expect(result.passed).toBe(false);
      const crash = result.findings.find((f) => f.regime === 'fuzz' && f.check === 'exception')!;
      expect(crash.message).toMatch(/^step threw: ValueError: boom at x=2 \(bad1\.py:\d+ in fault\)$/);
      expect(crash.actions).toEqual(['ACTION1', 'ACTION1', 'ACTION2']);
      const replay = replayRecording(game, readRecording(crash.reproduction!));
      expect(replay.reproduced).toBe(false);
      expect(replay.divergence).toMatchObject({ field: 'crash', step: 4 });
      const profile = result.levels[0].regimes.fuzz.profile!;
      expect(profile.actionsPerSecond).toBeGreaterThan(0);
      expect(profile.framesPerAction).toBe(1);
      expect(profile.slowest.length).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("finds a step deep in the level that follows string hash order: fuzz samples are stepped again under another PYTHONHASHSEED (ho03)", async () => {
    // The explorer's check covers the start and its moves (ho03's jump is four moves in: no warning there);
    // the samples were stepped again in a process under the pool's own seed, so nothing differed.
    const { qualify } = await import('../qualify/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'arcgraph-pyho-'));
    try {
      const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'ho03'), { engine: FIXTURE_ENGINE });
      opened.push(game);
      expect((await explore(game, { level: 1, workers: 1 })).identityWarning).toBeNull();
      const result = await qualify(game, { level: 1, stepsScale: 0.005, workers: 2, out: dir, search: { maxNodes: 1000, maxSeconds: 10 } });
      const odd = result.findings.find((f) => f.regime === 'fuzz' && f.check === 'nondeterminism')!;
      expect(odd.message).toMatch(/^stepping the same state and action in another Python process \(under another PYTHONHASHSEED\) gave another successor/);
      // the sampled step is ACTION5 where it jumps: the path before it, played from x=1 (a jump lands on 'fern', x=5), ends at x=4
      const before = odd.actions.slice(0, -1).reduce((x, a) => (a === 'ACTION2' ? x + 1 : a === 'ACTION1' ? x - 1 : x === 4 ? 5 : x), 1);
      expect([odd.actions.at(-1), before]).toEqual(['ACTION5', 4]);
      // ho07's step fills a dict in hash order that nothing iterates: not nondeterminism (it was: ACTION3 ACTION2 ACTION3)
      const filled = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'ho07'), { engine: FIXTURE_ENGINE });
      opened.push(filled);
      const clean = await qualify(filled, { level: 1, stepsScale: 0.005, workers: 2, out: dir, search: { maxNodes: 1000, maxSeconds: 10 } });
      expect(clean.findings.filter((f) => f.regime === 'fuzz')).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a reproduction on a later level of a Python game', () => {
  it("starts at the game's RESET and plays the earlier levels' wins, as the engine does, where the level's start was played", async () => {
    const { qualify } = await import('../qualify/index.js');
    const { readRecording, replayRecording } = await import('../recording/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'arcgraph-pyrp-'));
    try {
      const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', 'rp01'), { engine: FIXTURE_ENGINE });
      opened.push(game);
      game.recordWin(1, [1]);
      const result = await qualify(game, { level: 2, stepsScale: 0.002, workers: 1, out: dir, search: { maxNodes: 1000, maxSeconds: 10 } });
      const crash = result.findings.find((f) => f.check === 'exception')!;
      expect(crash.actions).toEqual(['ACTION1', 'ACTION2']);
      const recording = readRecording(crash.reproduction!);
      const lines = readFileSync(crash.reproduction!, 'utf8').trim().split('\n').map((l) => JSON.parse(l).data);
      // from the game's start: RESET (nothing completed), level 1's win, then the fault's actions
      expect(lines.map((d) => [d.action_input.id, d.levels_completed])).toEqual([[0, 0], [1, 1], [1, 1], [2, 1]]);
      expect(replayRecording(game, recording).divergence).toMatchObject({ field: 'crash', step: 4 });
      // and on the engine itself, from a fresh game, with nothing of arcgraph's: the same fault
      const script = `import sys; sys.path[:0] = [${JSON.stringify(FIXTURE_ENGINE)}, ${JSON.stringify(join(FIXTURE_ENGINE, 'apart', 'rp01', 'v1'))}]
from arcengine import ActionInput, GameAction
from rp01 import Rp01
g = Rp01()
try:
    for a in ${JSON.stringify(lines.map((d) => d.action_input.id))}:
        g.perform_action(ActionInput(id=GameAction.from_id(a)))
except ValueError as e:
    print(e)`;
      expect(spawnSync('python3', ['-c', script], { encoding: 'utf8' }).stdout.trim()).toBe('rp01 fault at x=1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a sweep of an ARC games folder', () => {
  it('sweeps its games with the Python options, each later level started where the last one’s shortest win leads', async () => {
    const { sweep } = await import('../sweep/index.js');
    const { validateReport } = await import('../report/index.js');
    const { mkdtempSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-pysweep-'));
    try {
      const report = await sweep({ arcGames: join(FIXTURE_ENGINE, 'games'), games: ['hid1', 'clk1'], python: { engine: FIXTURE_ENGINE }, out, workers: 2, budget: { nodes: 1000, seconds: 20, stepsScale: 0.002, randomSteps: 0 } });
      expect(validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')))).toEqual([]);
      expect(report.games.map((g) => g.game)).toEqual(['hid1', 'clk1']);
      const hid1 = report.games[0].levels;
      expect(hid1.map((l) => l.explore!.python!.levelStart)).toEqual(['played', 'played']);
      expect(hid1.map((l) => l.explore!.nodes)).toEqual([15, 12]);
      expect(report.games[1].levels[0].explore!.python!.clicks).toMatchObject({ method: 'classes', partition: 'sampled' });
      expect(report.games[0].qualification!.levels[0].regimes.fuzz.profile!.actionsPerSecond).toBeGreaterThan(0);
      const md = readFileSync(join(out, 'report.md'), 'utf8');
      expect(md).toContain('exact over sampled click classes');
      expect(md).toContain('started where the shortest wins of the earlier levels lead');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('a sweep under the reference policy', () => {
  it("warns of a level whose unoffered actions act, taken as staying put, and steps them with unoffered 'step' (un01: 3/16, then 5/54)", async () => {
    const { sweep } = await import('../sweep/index.js');
    const { validateReport, renderMarkdown } = await import('../report/index.js');
    const run = async (unoffered: 'stay' | 'step', policy: 'available' | 'reference' = 'reference') => {
      const out = mkdtempSync(join(tmpdir(), 'arcgraph-pysweep-'));
      try {
        const report = await sweep({ games: [join(FIXTURE_ENGINE, 'apart', 'un01')], policy, python: { engine: FIXTURE_ENGINE, unoffered }, out, workers: 2, budget: { nodes: 1000, seconds: 20, stepsScale: 0.001, randomSteps: 0 } });
        expect(validateReport(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')))).toEqual([]);
        return report;
      } finally {
        rmSync(out, { recursive: true, force: true });
      }
    };
    const stay = await run('stay');
    const level = stay.games[0].levels[0];
    expect(level.analysis!.pWin).toMatchObject({ policy: 'reference', exact: { p: '3', q: '16' } });
    expect(level.explore!.python).toMatchObject({ unoffered: 'stay', unofferedActs: ['ACTION7'] });
    expect(stay.settings).toMatchObject({ policy: 'reference', unoffered: 'stay' });
    expect(stay.games[0].warnings).toEqual([expect.stringMatching(/^level 1: ACTION7, which the game does not offer, changes its state when sent; .*--unoffered step/)]);
    const step = await run('step');
    expect(step.games[0].levels[0].analysis!.pWin.exact).toMatchObject({ p: '5', q: '54' });
    expect(step.games[0].warnings).toEqual([]);
    expect(renderMarkdown(step)).toContain('policy reference (unoffered actions stepped)');
    // stepping unoffered actions is for the policy that sends them
    await expect(run('step', 'available')).rejects.toThrow(/for the reference policy alone/);
  });
});

describe('a game that cannot be pickled', () => {
  it('travels as action paths from its level start, and explores to the brute-force graph', async () => {
    const game = open('gen1');
    expect(game.info.snapshots).toMatch(/^path \(the game cannot be pickled: TypeError: cannot pickle 'generator' object\)$/);
    const report = await explore(game, { level: 1, workers: 2 });
    const truth = analyze(bruteForceGraph(gen1Twin, 1));
    expect(report.fullyExplored).toBe(true);
    expect(report.nodes).toBe(bruteForceGraph(gen1Twin, 1).nodeCount);
    expect(`${report.pWin.exact!.p}/${report.pWin.exact!.q}`).toBe(`${truth.pWin.exact!.p}/${truth.pWin.exact!.q}`);
    expect(report.python!.snapshots).toMatch(/^path/);
  });
});

describe("the identity walk's test for masked values in JSON text", () => {
  it('answers as the one pattern does, on random text of digits, hex, uuids and other digits', () => {
    // masked_in_json splits the pattern (10+ digits, or a uuid's start) for speed on ASCII text.
    const script = `
import random, sys
sys.path.insert(0, sys.argv[1])
from arcgraph.identity import masked_in_json, _MASKED_IN_JSON
rng = random.Random(7)
cases = ['1234567890', '123456789', '[-4,0]', 'abcdef01-2345-', 'abcdef01-234', '\\u0661' * 10, '{"a":"0123abcd-ffff-0000"}', 'ABCDEF01-2345-']
for alphabet in ['0123456789', '0123456789,', '0123456789abcdef-', '0123456789abcdefg-,:"[]', '012345678\\u0662x-']:
    cases += [''.join(rng.choice(alphabet) for _ in range(rng.randint(0, 60))) for _ in range(5000)]
differ = [c for c in cases if masked_in_json(c) != (_MASKED_IN_JSON.search(c) is not None)]
masked = sum(masked_in_json(c) for c in cases)
print(len(cases), masked, sum(not c.isascii() for c in cases), len(differ), repr(differ[:3]))`;
    const host = hostCommand(fixtureGame('hid1'), { engine: FIXTURE_ENGINE }, []);
    const r = spawnSync(host.python, ['-c', script, join(__dirname, '../../workers/python')], { env: host.env, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const [cases, masked, other, differ] = r.stdout.trim().split(' ').map(Number);
    expect([cases, differ]).toEqual([25_008, 0]);
    // Text with other digits than ASCII's takes the one pattern.
    expect(other).toBeGreaterThan(1000);
    // Both answers occur often.
    expect(masked).toBeGreaterThan(2000);
    expect(cases - masked).toBeGreaterThan(2000);
  });
});
