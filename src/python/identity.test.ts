/**
 * The state identity of real ARC games (workers/python/arcgraph/identity.py) on games written to
 * hide state where the walk once did not look (test/fixtures/python/apart): each level's graph and
 * exact P(win) against an independent brute force (a deepcopy BFS over the game, Fractions), or the
 * warning that says why the graph cannot be trusted.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { explore } from '../level.js';
import { analyze } from '../analysis/index.js';
import { parseAction } from '../engine/index.js';
import { bruteForceGraph } from '../../test/support/graphs.js';
import { ARC_ENGINE, FIXTURE_ENGINE, cl01Twin, fl01Twin, gen1Twin, gn01Twin, gr01Twin, hasArc, hs01Twin, rs01Twin, runPython } from '../../test/support/python.js';
import type { Game } from '../engine/index.js';
import { NodeFlag } from '../graph/index.js';
import { openPythonGame, type PythonGame } from './index.js';

const opened: PythonGame[] = [];
const apart = (id: string, engine = FIXTURE_ENGINE): PythonGame => {
  const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', id), { engine });
  opened.push(game);
  return game;
};
afterAll(() => opened.forEach((g) => g.close()));

/** What the brute force gives too: states, terminals, exact P(win), and the identity warning. */
const level1 = async (game: PythonGame) => {
  const { snapshots: _, ...numbers } = await level1Snapshots(game);
  return numbers;
};

/** level1's numbers, and how the states travelled. */
const level1Snapshots = async (game: PythonGame) => {
  const r = await explore(game, { level: 1, workers: 1 });
  return { nodes: r.nodes, lost: r.terminals.lost, p: r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`, warning: r.identityWarning?.message ?? null, snapshots: r.python?.snapshots };
};

/** What level1 must give on a game whose TypeScript twin is `twin`: its brute-force graph's numbers, no warning. */
const truth1 = (twin: Game) => {
  const graph = bruteForceGraph(twin, 1);
  const truth = analyze(graph);
  const lost = [...graph.flags].filter((f) => f & NodeFlag.LOST).length;
  return { nodes: graph.nodeCount, lost, p: `${truth.pWin.exact!.p}/${truth.pWin.exact!.q}`, warning: null };
};

/** The engines a fixture is checked on: the stand-in, and the real one where it is there. */
const ENGINES = hasArc ? [FIXTURE_ENGINE, ARC_ENGINE] : [FIXTURE_ENGINE];

describe('the identity walk on pairs of values', () => {
  it('tells apart what a step could tell apart (tuple or list, int or string key, aliased rows, dtypes, named tuple classes), and not equal content built another way', () => {
    const r = spawnSync('python3', [join(FIXTURE_ENGINE, 'walks', 'pairs.py')], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: join(FIXTURE_ENGINE, '..', '..', '..', 'workers', 'python') } });
    expect(r.stderr).toBe('');
    const pairs = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { name: string; equal: boolean; want: boolean });
    expect(pairs.length).toBe(29);
    expect(pairs.filter((p) => p.equal !== p.want).map((p) => p.name)).toEqual([]);
  });
});

describe('the state identity sees hidden state wherever the game keeps it', () => {
  it('walks the contents of objects without __dict__ or __slots__ (dq01: a combination kept in a collections.deque)', async () => {
    // Without them every deque walked alike: 2 states, no win reachable.
    expect(await level1(apart('dq01'))).toEqual({ nodes: 30, lost: 14, p: '1/27', warning: null });
  });

  it("includes the engine's action counter when the game's code reads it (ac01: a hidden move budget)", async () => {
    // Left out: 6 states and P(win) 1 (the budget never ran out).
    expect(await level1(apart('ac01'))).toEqual({ nodes: 33, lost: 5, p: '11/128', warning: null });
  });

  it("includes _clean_levels when the game's code names it (cp01: a checkpoint level_reset goes back to)", async () => {
    // Left out: 17 states, 177/7921.
    expect(await level1(apart('cp01'))).toEqual({ nodes: 34, lost: 10, p: '8507/340603', warning: null });
  });

  it('does not take a bitboard for object addresses (bb01: 1 << (42 + cell), multiples of 16 below 2^48)', async () => {
    // Gambler's ruin from cell 1 of 0..5: 1/5. Masked as addresses, every state was its start: 2 states, P(win) 0.
    expect(await level1(apart('bb01'))).toEqual({ nodes: 6, lost: 1, p: '1/5', warning: null });
  });

  it("carries numpy's global RNG as the game seeds it (rs01: seeded per level in on_set_level, a hidden goal drawn later)", async () => {
    // The reseed went unseen (seed is not a draw) and every state ran on seed 0's stream: 199/441, won by ACTION5 ACTION5.
    for (const level of [1, 2]) {
      const game = apart('rs01');
      if (level === 2) game.setStart(2, ['ACTION5', 'ACTION4', 'ACTION4', 'ACTION4', 'ACTION5'].map(parseAction), true);
      const r = await explore(game, { level, workers: 2 });
      const graph = bruteForceGraph(rs01Twin, level);
      const truth = analyze(graph);
      expect([r.nodes, `${r.pWin.exact!.p}/${r.pWin.exact!.q}`, r.shortestWin!.actions]).toEqual([graph.nodeCount, `${truth.pWin.exact!.p}/${truth.pWin.exact!.q}`, truth.shortestWin!.actions]);
      expect(r.python!.levelStart).toBe('played');
    }
  });

  it("carries Python's global Random as numpy's: seeded with --seed at load, its state in the snapshots and the identity once drawn (gr01: random.seed(5) in the constructor, rolled four moves deep)", async () => {
    // Not carried, a restored state rolled from wherever the process's Random was: an exact number that
    // changed with the process's history (and the worker count), and no warning (the draws are past the checked first states).
    const graph = bruteForceGraph(gr01Twin, 1);
    const truth = analyze(graph);
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const r = await explore(apart('gr01', engine), { level: 1, workers });
        expect([r.nodes, `${r.pWin.exact!.p}/${r.pWin.exact!.q}`, r.shortestWin!.actions, r.identityWarning]).toEqual([graph.nodeCount, `${truth.pWin.exact!.p}/${truth.pWin.exact!.q}`, truth.shortestWin!.actions, null]);
      }
    }
    expect(truth.shortestWin!.actions).toEqual(['ACTION4', 'ACTION4', 'ACTION4', 'ACTION4', 'ACTION5', 'ACTION5', 'ACTION5']);
  });

  it("walks a generator by where it is suspended and its local variables, and warns when a loop's iterator on its stack is out of sight (gn01)", async () => {
    // Walked by its repr, every position of the wind was one: 4 states and P(win) 0.
    const graph = bruteForceGraph(gn01Twin, 1);
    const truth = analyze(graph);
    const lost = [...graph.flags].filter((f) => f & NodeFlag.LOST).length;
    expect(await level1(apart('gn01'))).toEqual({ nodes: graph.nodeCount, lost, p: `${truth.pWin.exact!.p}/${truth.pWin.exact!.q}`, warning: null });
    const looped = await explore(apart('gn01'), { level: 2, workers: 1 });
    expect(looped.identityWarning?.message).toMatch(/^the state holds a generator \(looped\) suspended with values on its stack \(inside a for loop/);
  });

  it('counts what a suspended generator holds on its stack, its yielded value left out (held_on_stack)', () => {
    // Each generator is advanced to its first and second yield; the walk subtracts a `yield from`'s iterator (gi_yieldfrom, walked).
    const r = runPython([
      'from arcgraph.identity import held_on_stack',
      'def plain():\n    a = yield 1\n    b = yield 2',
      'def pending():\n    s = (yield 1) + (yield 2)',
      'def looped():\n    for x in range(3):\n        yield x',
      'def inner():\n    yield from plain()',
      'def call():\n    print((yield 1), (yield 2))',
      'def handled():\n    try:\n        raise ValueError\n    except ValueError:\n        yield 1\n        yield 2',
      'out = []',
      'for f in (plain, pending, looped, inner, call, handled):',
      '    g = f(); next(g); first = held_on_stack(g.gi_code, g.gi_frame.f_lasti); g.send(0)',
      '    out.append(f"{f.__name__} {first} {held_on_stack(g.gi_code, g.gi_frame.f_lasti)}")',
      'print("; ".join(out))',
    ]);
    expect(r.stdout.trim()).toBe('plain 0 0; pending 0 1; looped 1 1; inner 1 1; call 2 3; handled 1 1');
  });

  it('warns of a generator suspended with a value on its stack in the middle of an expression (gn02: `(yield r) + (yield None)`)', async () => {
    // The first value sent waits on the stack, in no variable: "1 sent" and "0 sent" were one state, an exact 1/2 with
    // no warning where the game gives 1/4 (5 states: gn02.py by hand; the probe's pg22, a PASS in a sweep).
    for (const engine of ENGINES) {
      const r = await explore(apart('gn02', engine), { level: 1, workers: 1 });
      expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^the state holds a generator \(judge\) suspended with values on its stack/), actions: ['ACTION1'] });
    }
  });

  it("walks a dict in its insertion order, which the game may act on (do01: a queue of two tokens, its order the whole state)", async () => {
    // Walked in key order, the two orders were one state: 2 states, P(win) 1 (the hand solve in do01.py gives 2/3).
    expect(await level1(apart('do01'))).toEqual({ nodes: 4, lost: 1, p: '2/3', warning: null });
  });

  it('tells apart what Python tells apart: one list or two, a dict key 0 or "0", a tuple or a list, an int8 or an int, a weakref by what it refers to; and walks a cycle of dicts', async () => {
    // Truth: a BFS over copy.deepcopy of the game on the real engine, states by a walk of its own
    // (containers by identity, types exact); wr01 and cy01 also by hand in their files. Before, in
    // brackets: al01 [3 states, 0/1]: an alias and a copy were one state; js01 [11, 7/30] and js02
    // [7, 3/8]: JSON text of big tables, int keys as strings, tuples as lists; np01 [2, 0/1]:
    // numpy values walked as Python ints and int arrays as int8; wr01 [2, 0/1]: by its repr; cy01:
    // RecursionError.
    const truth: Record<string, { nodes: number; p: string; shortest: number }> = {
      al01: { nodes: 12, p: '1/1', shortest: 3 },
      cy01: { nodes: 4, p: '1/1', shortest: 2 },
      js01: { nodes: 32, p: '111/350', shortest: 3 },
      js02: { nodes: 387, p: '8/25', shortest: 2 },
      np01: { nodes: 8, p: '2/15', shortest: 3 },
      wr01: { nodes: 4, p: '1/3', shortest: 2 },
    };
    for (const engine of [FIXTURE_ENGINE, ...(hasArc ? [ARC_ENGINE] : [])]) {
      for (const [id, want] of Object.entries(truth)) {
        const r = await explore(apart(id, engine), { level: 1, workers: 2 });
        expect({ id, nodes: r.nodes, p: `${r.pWin.exact!.p}/${r.pWin.exact!.q}`, shortest: r.shortestWin!.length, warning: r.identityWarning?.message ?? null }).toEqual({ id, ...want, warning: null });
      }
    }
  });

  it('starts a later level without --start-actions where winning the last one enters it: no RESET, whose step() a game may count (mv01)', async () => {
    // Level 2's budget of 2 moves counts every step() call: entered by a win, ACTION1 ACTION1 wins (1/4);
    // started with a RESET (as set-level starts were), one move was gone and no win was reachable.
    for (const engine of [FIXTURE_ENGINE, ...(hasArc ? [ARC_ENGINE] : [])]) {
      const byLevel = await explore(apart('mv01', engine), { level: 2, workers: 1 });
      const played = apart('mv01', engine);
      played.setStart(2, [parseAction('ACTION1')], true);
      const byPath = await explore(played, { level: 2, workers: 1 });
      expect([byLevel.python!.levelStart, byPath.python!.levelStart]).toEqual(['set-level', 'played']);
      for (const r of [byLevel, byPath]) expect([r.nodes, `${r.pWin.exact!.p}/${r.pWin.exact!.q}`, r.shortestWin!.actions]).toEqual([6, '1/4', ['ACTION1', 'ACTION1']]);
    }
  });

  it('hands the game a new ActionInput every step (ad01 turns the click into its half of the board in place)', async () => {
    // A shared one carried the rewritten x into the next step of that cell: 4 states, P(win) 0, and a warning blaming the game.
    expect(await level1(apart('ad01'))).toEqual({ nodes: 5, lost: 2, p: '1/4', warning: null });
  });

  it("warns of a class attribute changed by no step of the root (cr01: a bell's ring count on the class, rung at x=2), naming the step", async () => {
    // The module was walked around the root's steps and the 1-in-256 sample alone: 3 states, no win and no warning.
    // Level 2's bell is past the level's first 4 states (their steps are all checked): the walk around the batch finds it.
    for (const engine of ENGINES) {
      for (const [level, workers] of [[1, 1], [2, 1], [2, 2]]) {
        const r = await explore(apart('cr01', engine), { level, workers });
        const bell = level === 1 ? 2 : 7;
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^the step changed Cr01\.rings in the game's module/), actions: [...Array(bell).fill('ACTION2'), 'ACTION5'] });
      }
    }
  });

  it('walks a callable class attribute by what it is bound to (ct01: ticket = itertools.count().__next__, taken four moves deep), naming the step', async () => {
    // Callable class attributes were skipped: no warning, and an answer that depended on the worker count.
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const r = await explore(apart('ct01', engine), { level: 1, workers });
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^the step changed Ct01\.ticket in the game's module/), actions: ['ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION5'] });
      }
    }
  });

  it('warns when a step changes state kept outside the game object where the module checks did not look (ms01..ms07: a function default, a method default, a closure, a function attribute, a nested class, the engine class, os.environ), naming the step', async () => {
    // A charger four moves deep switches a charge kept there (the probe's pg01..pg07): the module checks skipped
    // functions, nested classes, the engine's classes and the environment: no warning, a graph of one process's history.
    const where: Record<string, RegExp> = {
      ms01: /^the step changed charge in the game's module/,
      ms02: /^the step changed Ms02\.tally in the game's module/,
      ms03: /^the step changed counter in the game's module/,
      ms04: /^the step changed charge in the game's module/,
      ms05: /^the step changed Ms05\.Tally\.n in the game's module/,
      ms06: /^the step changed arcengine(\.sprites)?\.Sprite\.ms06_charge, an attribute of the engine's class/,
      ms07: /^the step changed os\.environ, the process's environment variables/,
    };
    for (const engine of ENGINES) {
      for (const [id, message] of Object.entries(where)) {
        const r = await explore(apart(id, engine), { level: 1, workers: id === 'ms01' ? 2 : 1 });
        expect([id, r.identityWarning]).toEqual([id, { message: expect.stringMatching(message), actions: ['ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION5'] }]);
      }
    }
  });

  it('warns of a method cached by functools (lc02: door_open keyed by the game object, which restored states rebuild), and of a level start two constructions give apart (ur01: an unseeded random.Random())', async () => {
    // Both explored exactly and with no warning: lc02 as the game without its cache, ur01 as whichever layout the run drew.
    for (const engine of ENGINES) {
      const cached = await explore(apart('lc02', engine), { level: 1, workers: 2 });
      expect(cached.identityWarning).toEqual({ message: expect.stringMatching(/^Lc02\.door_open is a method cached by functools\.lru_cache .*restored states never hit it/), actions: [] });
      for (const workers of [1, 2]) {
        const drawn = await explore(apart('ur01', engine), { level: 1, workers });
        expect(drawn.identityWarning).toEqual({ message: expect.stringMatching(/^two constructions of the game, .*gave two level starts: the level start is not deterministic/), actions: [] });
      }
    }
    // A game with neither (gr01 seeds the global random in its constructor): no warning (above).
  });

  it('finds no difference between two constructions whose levels, built in the constructor, share a list through Level.clone (sh01)', async () => {
    // The check once put the first construction's pristine levels into the second: a false "not deterministic" (probe L's pl15, a failed sweep).
    for (const engine of ENGINES) expect(await level1(apart('sh01', engine))).toEqual({ nodes: 6, lost: 2, p: '1/4', warning: null });
  });

  it('warns when the game follows string hash order, which ARC randomises per process (ho01 at its construction, ho02 in a move from the start, ho04 in a checked step past it)', async () => {
    // Pinned PYTHONHASHSEED=0 in every host, both gave one "exact" answer and no warning (the probe's pf12).
    // The truth under each seed, from Python itself: ho01's door is the first name of a frozenset (P(win) 2/door
    // by gambler's ruin from x=2), ho02's ACTION5 jumps to the first of a set (5 wins: 47/55 by hand in ho02.py).
    const first = (seed: number): number => Number(spawnSync('python3', ['-c', "N = ['amber', 'blue', 'coral', 'denim', 'ebony', 'fern']; print(N.index(next(iter(frozenset(N)))))"], { encoding: 'utf8', env: { ...process.env, PYTHONHASHSEED: String(seed) } }).stdout);
    expect(first(0)).toBe(5);
    expect(first(1)).not.toBe(5);
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const built = await explore(apart('ho01', engine), { level: 1, workers });
        expect([built.nodes, built.pWin.exact && `${built.pWin.exact.p}/${built.pWin.exact.q}`]).toEqual([6, '2/5']);
        expect(built.identityWarning).toEqual({ message: expect.stringMatching(/^the level start differs in a process under another PYTHONHASHSEED \(1; .*follows the hash order of strings/), actions: [] });
        const moved = await explore(apart('ho02', engine), { level: 1, workers });
        expect([moved.nodes, moved.pWin.exact && `${moved.pWin.exact.p}/${moved.pWin.exact.q}`]).toEqual([6, '47/55']);
        expect(moved.identityWarning).toEqual({ message: expect.stringMatching(/^this move from the level start gives another successor in a process under another PYTHONHASHSEED/), actions: ['ACTION5'] });
        // ho04: the same jump, armed first (ACTION3): the start's moves agree under both seeds, the armed state's
        // ACTION5 (among the first states, whose transitions are all checked) does not. It was 12 states, exact 439/605, no warning.
        const deeper = await explore(apart('ho04', engine), { level: 1, workers });
        expect([deeper.nodes, deeper.identityWarning]).toEqual([12, { message: expect.stringMatching(/^this step gives another successor in a process under another PYTHONHASHSEED \(1; .*follows the hash order of strings/), actions: ['ACTION3', 'ACTION5'] }]);
      }
    }
    // Games that follow no hash order: no warning (the fixtures above and below, the 14 shared games in arc-games.test.ts).
  });

  it("does not warn of a start or a step that fills a dict in hash order only looked up (ho05, as dc22's levels 3 to 6; ho07), and warns of a move that iterates it (ho06)", async () => {
    // The start differs between the seeds in its dict's order alone: ho05 was warned ("the level start differs").
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const looked = await explore(apart('ho05', engine), { level: 1, workers });
        expect([looked.nodes, looked.pWin.exact && `${looked.pWin.exact.p}/${looked.pWin.exact.q}`, looked.identityWarning]).toEqual([6, '47/55', null]);
        const iterated = await explore(apart('ho06', engine), { level: 1, workers });
        expect([iterated.nodes, iterated.identityWarning]).toEqual([6, { message: expect.stringMatching(/^this move from the level start gives another successor in a process under another PYTHONHASHSEED \(1; .*\), where the start holds a dict's entries in another order: the game follows the hash order/), actions: ['ACTION5'] }]);
        // ho07 fills it in a checked step past the start (ACTION2 ACTION3): it was warned there
        const deeper = await explore(apart('ho07', engine), { level: 1, workers });
        expect([deeper.nodes, deeper.pWin.exact && `${deeper.pWin.exact.p}/${deeper.pWin.exact.q}`, deeper.identityWarning]).toEqual([12, '318/605', null]);
      }
    }
  });

  it('warns when a step deep in the level edits a level the game is not playing (sl01: a stash in level 2 filled at x=5 of level 1), naming the step, and blames no step of the next exploration', async () => {
    // The shared levels were walked around the first states' steps and the 1-in-256 sample alone: 7 states, no win
    // and no warning (the probe's pg19; by hand in sl01.py: 11 states, 1/4). Level 2, explored next by the same
    // processes, was then warned of a change level 1's exploration had made, blaming its own first step.
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const game = apart('sl01', engine);
        const r = await explore(game, { level: 1, workers });
        // The stand-in's Level.clone copies its data dict shallowly, so the stash is the clean level's list too.
        const where = engine === FIXTURE_ENGINE ? '_clean_levels\\[1\\] in place' : 'level 2 \\(self\\._levels\\[1\\]\\) while not playing it';
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(new RegExp(`^the step changed ${where}: arcgraph shares`)), actions: ['ACTION4', 'ACTION4', 'ACTION4', 'ACTION4', 'ACTION4', 'ACTION1'] });
        const next = await explore(game, { level: 2, workers });
        expect(next.identityWarning).toBeNull();
      }
    }
  });

  it("warns when a step changes one of the engine's mutable defaults (tg01 lights a marker made without tags: Sprite's tags=[] list)", async () => {
    // Snapshots gave each restored marker a list of its own: 26 states, a shortest win of 5 where the engine wins in 4, no warning.
    for (const engine of ENGINES) {
      const r = await explore(apart('tg01', engine), { level: 1, workers: 2 });
      expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^the step changed the engine's default value arcengine(\.sprites)?\.Sprite\.__init__\(tags=\)/), actions: ['ACTION1', 'ACTION5'] });
    }
  });

  it("warns when a dict key's hash changed after it went in (hk01: a dial hashed by its value, turned while it is a key)", async () => {
    // Snapshots rebuild the dict and find the key again where the game never does: no warning, and every mark won
    // (by hand in hk01.py, replayed on the engine: 13 states, P(win) 1/7; a restore cannot keep a stale key).
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const r = await explore(apart('hk01', engine), { level: 1, workers });
        // turned after it went in at 0: the first successor whose walk finds the key stale
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^a dict key's hash changed after it was inserted \(a Dial, .*snapshots rebuild the dict/), actions: ['ACTION5', 'ACTION1'] });
      }
    }
  });

  it("walks a subclass of a builtin as its class, its value and its attributes (bi01: Deck(list) with a cursor, Left/Right(str), Charge(int) with armed)", async () => {
    // Taken by its items, its text, its number: every switch out of sight, 2 states and P(win) 0, no warning (probe pg11, pg15, pg16).
    // By hand in bi01.py: 10 states (8 settings, won, lost), P(win) 2/35.
    for (const engine of ENGINES) expect(await level1(apart('bi01', engine))).toEqual({ nodes: 10, lost: 1, p: '2/35', warning: null });
  });

  it('warns of a dict key that is not equal to itself (nn01: a door under a NaN key, which only the same float object finds)', async () => {
    // pickle writes floats by value: every restored state held two NaNs and no lookup found the door, so P(win) 0
    // with no warning where the engine gives 1/3 (by hand in nn01.py; the probe's pg24).
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const r = await explore(apart('nn01', engine), { level: 1, workers });
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^a dict key \(or set member\) that equals nothing, not even itself \(a float NaN\): only the same object finds it, which no snapshot keeps/), actions: ['ACTION1'] });
      }
    }
  });

  it("walks what pickle refuses by what it holds (mw01: a byte behind a memoryview, a gem behind a dict's keys view)", async () => {
    // Both were their repr, addresses masked: 2 states and P(win) 0, no warning (the probe's pg29). By hand in mw01.py: 6 states, 2/15.
    for (const engine of ENGINES) {
      const r = await level1Snapshots(apart('mw01', engine));
      expect(r).toEqual({ nodes: 6, lost: 1, p: '2/15', warning: null, snapshots: expect.stringMatching(/^path \(the game cannot be pickled: TypeError: cannot pickle memoryview objects\)/) });
    }
  });

  it("warns when a step reads the clock in the game's code (tm01: a door opened by time.time_ns four moves deep), naming the step", async () => {
    // Nothing watched the clock, and the re-step check takes the first states and a sample: an "exact" P(win) 1 or 0
    // from run to run (whichever the switch's one step drew), no warning (the probe's pf07).
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const game = apart('tm01', engine);
        // The game keeps time.time_ns in an attribute: the wrapper pickles by that name, and states travel as snapshots.
        expect(game.info.snapshots).toBe('pickle');
        const r = await explore(game, { level: 1, workers });
        expect(r.python?.snapshots).toBe('pickle');
        // Its every step formats a given time (time.strftime with time.gmtime(0)), and the engine and arcgraph time
        // themselves: none of those is the game reading the clock. The switch's ACTION5 is.
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^the step read the clock \(time\.time_ns\) in the game's code: its successors depend on when it runs/), actions: ['ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION5'] });
      }
    }
  });

  it("warns when a step draws from the operating system's entropy in the game's code (en01: an unseeded random.Random() flipping a coin four moves deep), naming the step", async () => {
    // Only the start check (a construction) and the sampled re-step check saw such draws: an "exact" P(win) from
    // whichever side the one coin step drew, no warning (the probe's pg20). Its every step also rolls a seeded
    // Random and makes a sprite the engine names with uuid4: neither is the game drawing from the entropy.
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const r = await explore(apart('en01', engine), { level: 1, workers });
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^the step drew from the operating system's entropy \(random\.Random\(\) with no seed\) in the game's code/), actions: ['ACTION2', 'ACTION2', 'ACTION2', 'ACTION2', 'ACTION5'] });
      }
    }
  });

  it('warns when constructing the game changes the module (cc01: a count of the games built, on the class, read by a step)', async () => {
    // The start check's second construction changed the count unseen: every step lost, an exact P(win) 0 and no
    // warning, where a process that builds the game once wins with ACTION1 (the probe's pg28).
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const r = await explore(apart('cc01', engine), { level: 1, workers });
        expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^constructing the game \(and its RESET\) changed Cc01\.built outside the game object/), actions: [] });
      }
    }
  });

  it("warns when a step moves one of the module's own sprites (mgs1: a step counter in a module-level Sprite)", async () => {
    const r = await level1(apart('mgs1'));
    expect(r.warning).toMatch(/^the step changed SPRITES in the game's module/);
  });
});

describe('snapshots hold what a game keeps', () => {
  it('walks a level the game played and left by its content (hs01: a side room switched to with set_level keeps its lever)', async () => {
    // Only the level being played was walked: the hub looked the same wherever the lever stood, 4 states and no win.
    expect(truth1(hs01Twin)).toMatchObject({ nodes: 7, lost: 0 });
    for (const engine of ENGINES) expect(await level1(apart('hs01', engine))).toEqual(truth1(hs01Twin));
  });

  it('restores an enum.Flag combination, which has no member of its own (fl01: RED|BLUE in a hidden switch)', async () => {
    // Rebuilt by name, RED|BLUE was no attribute of the class: the restore raised AttributeError.
    expect(truth1(fl01Twin)).toEqual({ nodes: 7, lost: 2, p: '1/2', warning: null });
    for (const engine of ENGINES) expect(await level1(apart('fl01', engine))).toEqual(truth1(fl01Twin));
  });

  it('keeps one closure cell for the two functions that share it (cl01: move and read over one hidden counter, move recursive)', async () => {
    // Each function was rebuilt with cells of its own: after a restore move changed a cell read never read (3 states, P(win) 0).
    expect(truth1(cl01Twin)).toEqual({ nodes: 5, lost: 1, p: '1/3', warning: null });
    for (const engine of ENGINES) {
      const r = await explore(apart('cl01', engine), { level: 1, workers: 2 });
      expect({ nodes: r.nodes, lost: r.terminals.lost, p: r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`, warning: r.identityWarning?.message ?? null, shortest: r.shortestWin?.actions }).toEqual({ ...truth1(cl01Twin), shortest: ['ACTION1', 'ACTION1', 'ACTION5'] });
    }
  });
});

describe('uuid strings', () => {
  it('are numbered in the order the walk meets them, so a game holding a sprite\'s name holds which sprite (uu01: a selection kept by uuid name)', async () => {
    // Masked alike, "A selected" and "B selected" were one state: 5 states, no win.
    for (const engine of ENGINES) {
      const r = await explore(apart('uu01', engine), { level: 1, workers: 2 });
      expect([r.nodes, r.terminals.won, r.shortestWin?.actions, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`, r.identityWarning]).toEqual([25, 5, ['ACTION5', 'ACTION4', 'ACTION4'], '1/1', null]);
    }
  });
});

describe('the game class', () => {
  it('is the one named after the game id when the module holds a base game class too (bc01: TrackGame and Bc01)', async () => {
    // The loader refused a module with two ARCBaseGame subclasses.
    for (const engine of ENGINES) expect(await level1(apart('bc01', engine))).toEqual(truth1(gen1Twin));
  });
});

describe('a state that will not pickle, of a game that does', () => {
  it('travels as the path from the snapshot it was restored from (wr02: a weakref kept from the first move on)', async () => {
    // Snapshots were chosen once, at load: the first successor's raised TypeError (cannot pickle 'weakref.ReferenceType').
    for (const engine of ENGINES) {
      const game = apart('wr02', engine);
      expect(game.info.snapshots).toBe('pickle');
      expect(await level1Snapshots(game)).toEqual({ ...truth1(gen1Twin), snapshots: "pickle; some states travel as action paths (TypeError: cannot pickle 'weakref.ReferenceType' object)" });
    }
  });

  it("travels as a path when it pickles but will not load (rb01: the game's own __reduce__ names a rebuilder that refuses counts of 2 and more)", async () => {
    // Its snapshots were sent as they were: expanding the first one raised ValueError and ended the exploration.
    for (const engine of ENGINES) {
      const game = apart('rb01', engine);
      expect(game.info.snapshots).toBe('pickle');
      expect(await level1Snapshots(game)).toEqual({ ...truth1(gen1Twin), snapshots: 'pickle; some states travel as action paths (its pickle would not load: ValueError: no rebuilding a count of 2)' });
    }
  });

  it("travels as a path when its pickle loads as another state (gs01: a helper's own __getstate__ leaves out a field the game reads)", async () => {
    // The snapshot was loaded to see that it loads, never walked: the armed vault came back disarmed, 3 states and
    // an exact P(win) 0 with no warning (the probe's pg18). By hand in gs01.py: 4 states, 1/3.
    for (const engine of ENGINES) {
      const game = apart('gs01', engine);
      expect(game.info.snapshots).toBe('pickle');
      expect(await level1Snapshots(game)).toEqual({
        nodes: 4,
        lost: 1,
        p: '1/3',
        warning: null,
        snapshots: "pickle; some states travel as action paths (its pickle loads as another state: Vault's own pickling (__getstate__, __reduce__) leaves part of it out)",
      });
    }
  });

  it('is a fault of that state, not an uncaught error, when a snapshot will not load all the same', () => {
    // The load check runs for snapshots holding a type whose pickling hooks are the game's code: here it is
    // turned off, as for hooks from elsewhere.
    const r = runPython(
      [
        'import sys',
        'from arcgraph.runtime import Runtime, GameError',
        'import arcgraph.snapshot as snapshot',
        'rt = Runtime(sys.argv[1])',
        'rt.snapshots.game_file = None',
        'snapshot._HOW.clear()',
        'live = rt.fresh()',
        'rt.step(live, 2); rt.step(live, 1)',
        'snap = rt.pack(live)',
        'try:',
        '    rt.restore(snap)',
        'except GameError as err:',
        '    print(err.describe())',
      ],
      join(FIXTURE_ENGINE, 'apart', 'rb01', 'v1', 'rb01.py'),
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('arcgraph could not restore the state before the last action from its snapshot (pickle): ValueError: no rebuilding a count of 2 (rb01.py:11 in _moves)');
  });
});

describe.runIf(hasArc)('the state identity on the real engine', () => {
  it("includes a level's sort cache when get_sprite_at would use it (lc01: set_layer leaves the cache in use)", async () => {
    // Left out: 4 states, 1/3.
    expect(await level1(apart('lc01', ARC_ENGINE))).toEqual({ nodes: 10, lost: 2, p: '1/4', warning: null });
  });

  it("warns when a step sets a layer where the game's source never names it (ly01: getattr(sprite, 'set_' + name)), naming the step", async () => {
    // The sort cache is walked when valid only in games whose source names set_layer or _layer: 4 states and an exact
    // 1/3 with no warning (the probe's pg25; by hand in ly01.py: 10 states, 1/4).
    for (const workers of [1, 2]) {
      const r = await explore(apart('ly01', ARC_ENGINE), { level: 1, workers });
      expect(r.identityWarning).toEqual({ message: expect.stringMatching(/^the step changed a sprite's layer \(Sprite\.set_layer\) where the game's code names neither/), actions: ['ACTION1'] });
    }
  });

  it('warns when a step edits a level the game is not playing (nl01 prepares level 2 from level 1), naming it', async () => {
    const r = await level1(apart('nl01', ARC_ENGINE));
    expect(r.warning).toMatch(/^the step changed level 2 \(self\._levels\[1\]\) while not playing it: arcgraph shares/);
  });

  it('keeps a numpy view a view of its array across a snapshot (nv01: a strip over the board; nv02: a sprite over a canvas slice)', async () => {
    // pickle copies each array alone: a restored state wrote through the view into a copy, exact 0 (truth in nv01.py, nv02.py)
    for (const [id, p] of [['nv01', '7348962287/8269226667935'], ['nv02', '3140891/1448412070']]) {
      const r = await explore(apart(id, ARC_ENGINE), { level: 1, workers: 2 });
      expect([r.fullyExplored, r.shortestWin?.length, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`, r.identityWarning]).toEqual([true, 7, p, null]);
    }
  });

  it('gives dq01, ac01, cp01, bb01, ad01, do01 and rs01 the same graphs on the real engine as on the stand-in', async () => {
    expect(await level1(apart('dq01', ARC_ENGINE))).toEqual({ nodes: 30, lost: 14, p: '1/27', warning: null });
    expect(await level1(apart('ac01', ARC_ENGINE))).toEqual({ nodes: 33, lost: 5, p: '11/128', warning: null });
    expect(await level1(apart('cp01', ARC_ENGINE))).toEqual({ nodes: 34, lost: 10, p: '8507/340603', warning: null });
    expect(await level1(apart('bb01', ARC_ENGINE))).toEqual({ nodes: 6, lost: 1, p: '1/5', warning: null });
    expect(await level1(apart('ad01', ARC_ENGINE))).toEqual({ nodes: 5, lost: 2, p: '1/4', warning: null });
    expect(await level1(apart('do01', ARC_ENGINE))).toEqual({ nodes: 4, lost: 1, p: '2/3', warning: null });
    expect(await level1(apart('rs01', ARC_ENGINE))).toMatchObject({ p: '46/441' });
  });
});
