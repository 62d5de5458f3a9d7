/**
 * What the engine does between attempts, on the fixture engine and on the real one where it is there:
 * a game that lists RESET in its available actions (rl01) is explored and fuzzed over the others and
 * says so once; a game that keeps state across the engine's RESET after GAME_OVER (dt01: deaths on the
 * game object) is warned about, and its control (dt02: deaths per attempt, a step() that runs for RESET
 * too) is not, at level 1 and at level 2 started by set_level or played into.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAction } from '../engine/index.js';
import { explore } from '../level.js';
import { ARC_ENGINE, FIXTURE_ENGINE, hasArc } from '../../test/support/python.js';
import { openPythonGame, type PythonGame } from './index.js';

const opened: PythonGame[] = [];
const apart = (id: string, engine: string): PythonGame => {
  const game = openPythonGame(join(FIXTURE_ENGINE, 'apart', id), { engine });
  opened.push(game);
  return game;
};
afterAll(() => opened.forEach((g) => g.close()));

/** The engines a fixture is checked on: the stand-in, and the real one where it is there. */
const ENGINES = hasArc ? [FIXTURE_ENGINE, ARC_ENGINE] : [FIXTURE_ENGINE];

describe('a game that lists RESET (0) in its available actions (rl01)', () => {
  it('is explored over the other actions, with a note that ARC games never list RESET, and qualify names it in one finding', async () => {
    // It was stepped as one of the level's moves: "node 0: its moves weigh 12288, not 2 actions of 4096", and
    // qualify's fuzz drew it: "full_reset set after an action that was not RESET ... 1 action(s): RESET".
    const { qualify } = await import('../qualify/index.js');
    for (const engine of ENGINES) {
      const game = apart('rl01', engine);
      expect([...game.actions]).toEqual([1, 2]);
      for (const workers of [1, 2]) {
        const r = await explore(game, { level: 1, workers });
        expect([r.nodes, r.fullyExplored, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`, r.shortestWin?.actions, r.identityWarning]).toEqual([5, true, '1/2', ['ACTION2', 'ACTION2'], null]);
        expect(r.python!.listsReset).toMatch(/^the game lists RESET \(0\) in available_actions, which an ARC game never does/);
      }
      const dir = mkdtempSync(join(tmpdir(), 'arcgraph-rl01-'));
      try {
        const q = await qualify(game, { level: 1, stepsScale: 0.002, workers: 1, out: dir, search: { maxNodes: 100, maxSeconds: 10 } });
        const fuzz = q.findings.filter((f) => f.regime === 'fuzz');
        expect(fuzz.map((f) => [f.check, f.actions])).toEqual([['malformed-transition', []]]);
        expect(fuzz[0].message).toMatch(/^the game lists RESET \(0\) in available_actions/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });
});

describe("the engine's RESET after GAME_OVER", () => {
  const ACTIONS = ['ACTION1', 'ACTION1', 'ACTION1'];

  it('warns of a game that keeps state across attempts (dt01: deaths on the game object), at level 1 and at level 2 set-level or played, at any worker count', async () => {
    // Every attempt was taken to start at the level's snapshot: P 1/8 with no word, while the ARC agent's third attempt wins at once.
    for (const engine of ENGINES) {
      const game = apart('dt01', engine);
      // level 2 first: once level 1 is explored, its win starts level 2 (played)
      for (const [level, played, workers] of [[2, false, 1], [1, false, 1], [1, false, 2], [2, true, 1], [2, true, 2]] as const) {
        if (played) game.setStart(2, ACTIONS.map(parseAction), true);
        const r = await explore(game, { level, workers });
        expect([r.nodes, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`, r.python!.levelStart]).toEqual([7, '1/8', played || level === 1 ? 'played' : 'set-level']);
        // the graph is a fresh attempt's, right as such: its own warning, not the identity's
        expect(r.identityWarning).toBeNull();
        expect(r.python!.attemptsWarning).toMatch(/^after GAME_OVER the engine's RESET \(a level reset, as the ARC agent sends it to go on\) does not return to the level's start: self\.deaths differs/);
        // the first lost state in BFS order, and the RESET: the level's start path followed by them starts attempt 2
        expect(r.python!.attemptsActions).toEqual(['ACTION2', 'RESET']);
      }
    }
  });

  it('names the actions that reproduce it: played in a session, they lose at their last action before the RESET, at any depth and through clicks', async () => {
    // bc01 (a move counter, lost seven moves deep), tlb1 and clk1 (click games): the path is the lost state's in the graph, BFS order
    const cases = [['apart', 'bc01', 8], ['apart', 'tlb1', 3], ['games', 'clk1', 3]] as const;
    for (const [folder, id, length] of cases) {
      const game = openPythonGame(join(FIXTURE_ENGINE, folder, id), { engine: FIXTURE_ENGINE });
      opened.push(game);
      const r = await explore(game, { level: 1, workers: 2, maxNodes: 2000 });
      const actions = r.python!.attemptsActions!;
      expect([actions.length, actions.at(-1)]).toEqual([length, 'RESET']);
      const session = game.session(1);
      session.act({ id: 0 });
      const states = actions.slice(0, -1).map((a) => session.act(parseAction(a)).state);
      expect(states.at(-1)).toBe('GAME_OVER');
      expect(states.slice(0, -1)).not.toContain('GAME_OVER');
    }
  });

  it("does not say the game keeps state where RESET leads where a fresh attempt starts (dt02); says where that is not the explored start (step() ran for RESET)", async () => {
    for (const engine of ENGINES) {
      const game = apart('dt02', engine);
      for (const [level, played] of [[2, false], [1, false], [2, true]] as const) {
        if (played) game.setStart(2, ACTIONS.map(parseAction), true);
        const r = await explore(game, { level, workers: 1 });
        expect(r.python!.levelStart).toBe(played || level === 1 ? 'played' : 'set-level');
        expect([r.nodes, r.terminals.lost, r.pWin.exact && `${r.pWin.exact.p}/${r.pWin.exact.q}`, r.identityWarning]).toEqual([7, 3, '1/8', null]);
        // level 1 starts at the game's RESET, whose step() set `woken` as every later RESET does; level 2's start,
        // entered by winning level 1 or set by the engine, never had that step: its later attempts start apart
        // (harmless here, nothing reads it: a sweep explores attempt 2 and finds 1/8 again; dt05's runner is moved)
        if (level === 1) expect(r.python!.attemptsWarning).toBeUndefined();
        else expect([r.python!.attemptsWarning, r.python!.attemptsActions]).toEqual([expect.stringMatching(/^after GAME_OVER the engine's RESET \(a level reset, as the ARC agent sends it to go on\) leads where a fresh attempt starts, but not to this start: self\.woken differs/), ['ACTION2', 'RESET']]);
      }
    }
  });
  it("is stepped on random play's lost attempts too: dt01's rate is that of fresh attempts, and says so; dt02's is not warned", async () => {
    // Random play restarted every attempt from the level's snapshot with no word: a rate of about 1/8, where the ARC agent wins every session.
    const { randomPlay } = await import('../random/index.js');
    for (const engine of ENGINES) {
      for (const workers of [1, 2]) {
        const r = await randomPlay(apart('dt01', engine), { level: 1, steps: 1000, workers });
        expect(r.warning).toMatch(/^a lost attempt's RESET \(stepped as the ARC agent sends it after GAME_OVER: a level reset\) does not return to the level's start: self\.deaths differs/);
      }
      const control = await randomPlay(apart('dt02', engine), { level: 1, steps: 1000, workers: 2 });
      expect(control.episodes).toBeGreaterThan(100);
      expect(control.warning).toBeUndefined();
    }
  });
});
