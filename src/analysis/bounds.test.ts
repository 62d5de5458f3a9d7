import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import maze from '../../test/fixtures/maze.js';
import ruin from '../../test/fixtures/ruin.js';
import { GameAction, parseAction, type Action } from '../engine/actions.js';
import { blankFrame, type Game } from '../engine/game.js';
import { NodeFlag, type StateGraph } from '../graph/graph.js';
import { analyze } from './analyze.js';
import { solveInterval } from './interval.js';
import { transitionWeights, type Policy } from './policy.js';
import { floatFraction } from './rational.js';
import { LOSS, WIN, reachProblem } from './win-problem.js';
import { reverseEdges } from './reachability.js';
import { bruteForceGraph } from '../../test/support/graphs.js';

/** x <= p/q, exactly (x a double, p/q decimal strings). */
function atMost(x: number, p: string, q: string): boolean {
  const f = floatFraction(x);
  return f.num * BigInt(q) <= BigInt(p) * f.den;
}
function atLeast(x: number, p: string, q: string): boolean {
  const f = floatFraction(x);
  return f.num * BigInt(q) >= BigInt(p) * f.den;
}

/** Whether a win is reachable from `state` in the game itself (breadth-first over its states). */
function canWinFrom(game: Game, state: unknown): boolean {
  const seen = new Set<string>();
  const queue = [state];
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head];
    const status = game.status(s);
    if (status === 'won') return true;
    if (status === 'lost') continue;
    for (const id of game.actions) {
      const next = game.step(s, { id });
      const key = game.encode(next).join(',');
      if (!seen.has(key)) seen.add(key), queue.push(next);
    }
  }
  return false;
}

const expandedCount = (g: StateGraph): number => g.flags.reduce((a, f) => a + (f & NodeFlag.EXPANDED ? 1 : 0), 0);

/** A corridor with a trap door: from cell 2, ACTION1 drops into a pit (cells 10.., walk left to lose). */
const pit: Game<{ pos: number }> = {
  id: 'pits',
  title: 'corridor with a pit',
  levels: 1,
  tutorialLevels: 0,
  actions: [GameAction.ACTION1, GameAction.ACTION3, GameAction.ACTION4],
  init: () => ({ pos: 2 }),
  step(s, a: Action) {
    if (s.pos >= 10) return { pos: a.id === GameAction.ACTION3 ? s.pos - 1 : a.id === GameAction.ACTION4 ? Math.min(s.pos + 1, 14) : s.pos };
    if (a.id === GameAction.ACTION1) return s.pos === 2 ? { pos: 12 } : s;
    return { pos: s.pos + (a.id === GameAction.ACTION3 ? -1 : 1) };
  },
  status: (s) => (s.pos === 5 ? 'won' : s.pos === 0 || s.pos === 9 ? 'lost' : 'playing'),
  render: () => [blankFrame()],
  encode: (s) => Uint8Array.of(s.pos),
  decode: (b) => ({ pos: b[0] }),
};

const LEVELS: [Game, number][] = [
  [ruin, 1],
  [ruin, 3],
  [ruin, 6],
  [maze, 1],
  [maze, 2],
  [lights, 1],
  [lights, 2],
  [pit, 1],
];

describe('partial graphs', () => {
  it('give bounds that always contain the complete graph exact value, at every node budget', () => {
    const checked = { optimal: 0, deadEnds: 0 };
    for (const [game, level] of LEVELS) {
      const full = bruteForceGraph(game, level);
      const total = expandedCount(full);
      const budgets = new Set<number>();
      for (let b = 0; b < Math.min(total, 40); b++) budgets.add(b);
      for (let b = 40; b < total; b += Math.ceil(total / 25)) budgets.add(b);
      const partials = [...budgets].map((budget) => bruteForceGraph(game, level, budget));
      for (const policy of ['available', 'reference'] as Policy[]) {
        const complete = analyze(full, { policy, withinK: 7 });
        const { p, q } = complete.pWin.exact!;
        const within = complete.withinK!.exact!;
        for (const partial of partials) {
          const a = analyze(partial, { policy, withinK: 7 });
          expect(a.fullyExplored).toBe(false);
          expect(a.pWin.method).toBe('bounds');
          expect(atMost(a.pWin.lower, p, q)).toBe(true);
          expect(atLeast(a.pWin.upper, p, q)).toBe(true);
          expect(atMost(a.withinK!.lower, within.p, within.q)).toBe(true);
          expect(atLeast(a.withinK!.upper, within.p, within.q)).toBe(true);

          // interval iteration on each bound's problem is sound as well
          const weights = transitionWeights(partial, policy);
          const rev = reverseEdges(partial);
          expect(atMost(solveInterval(reachProblem(partial, weights, rev, LOSS)).lower, p, q)).toBe(true);
          expect(atLeast(solveInterval(reachProblem(partial, weights, rev, WIN)).upper, p, q)).toBe(true);

          // a win found and marked optimal is as short as the complete graph's
          if (a.shortestWin?.optimal) {
            expect(a.shortestWin.length).toBe(complete.shortestWin!.length);
            checked.optimal++;
          }
          // only certain dead ends are counted, and the example really is one
          expect(a.deadEnds.count).toBeLessThanOrEqual(complete.deadEnds.count);
          if (a.deadEnds.example) {
            let state = game.init(level);
            for (const name of a.deadEnds.example.actions) state = game.step(state, parseAction(name));
            expect(game.status(state)).toBe('playing');
            if (game.actions.every((id) => id !== GameAction.ACTION6)) expect(canWinFrom(game, state)).toBe(false);
            checked.deadEnds++;
          }
        }
      }
    }
    // the conditional checks above did run
    expect(checked.optimal).toBeGreaterThan(20);
    expect(checked.deadEnds).toBeGreaterThan(20);
  });

  it('that are complete but for one unexplored state are not called complete', () => {
    const full = bruteForceGraph(ruin, 6);
    const partial = bruteForceGraph(ruin, 6, expandedCount(full) - 1);
    const a = analyze(partial);
    expect(a.frontier).toBe(1);
    expect(a.pWin.method).toBe('bounds');
    expect(a.pWin.lower).toBeLessThan(a.pWin.upper);
  });
});
