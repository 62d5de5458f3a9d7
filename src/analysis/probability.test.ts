import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import ruin, { RUIN_LEVELS } from '../../test/fixtures/ruin.js';
import { CELLS, GameAction, type Action, type PlayerAction } from '../engine/actions.js';
import { blankFrame, clickClasses, type Game } from '../engine/game.js';
import { analyze } from './analyze.js';
import { solveExact } from './exact.js';
import { solveInterval } from './interval.js';
import { transitionWeights, type Policy } from './policy.js';
import { ExactBudget } from './rational.js';
import { LOSS, reachProblem } from './win-problem.js';
import { reverseEdges } from './reachability.js';
import { bruteForceGraph } from '../../test/support/graphs.js';

const POLICIES: Policy[] = ['available', 'reference'];

function gcd(a: bigint, b: bigint): bigint {
  return b === 0n ? a : gcd(b, a % b);
}
/** p/q in lowest terms, as the analysis prints it. */
function lowest(p: bigint, q: bigint): { p: string; q: string } {
  const g = gcd(p, q);
  return { p: (p / g).toString(), q: (q / g).toString() };
}

/**
 * A walk on 0..n from `start`: each action steps right (+1), left (-1) or nowhere (0); n wins, 0
 * loses. `clicks` splits the click cells: rows y < clickRows step right, the others left.
 */
function walk(n: number, start: number, actions: PlayerAction[], stepOf: Partial<Record<number, number>>, clickRows = 0): Game<{ pos: number }> {
  return {
    id: 'walk',
    title: 'biased walk',
    levels: 1,
    tutorialLevels: 0,
    actions,
    init: () => ({ pos: start }),
    step(s, a: Action) {
      if (a.id === GameAction.ACTION6) return { pos: s.pos + ((a.y ?? 0) < clickRows ? 1 : -1) };
      return { pos: s.pos + (stepOf[a.id] ?? 0) };
    },
    status: (s) => (s.pos >= n ? 'won' : s.pos <= 0 ? 'lost' : 'playing'),
    render: () => [blankFrame()],
    encode: (s) => Uint8Array.of(s.pos),
    decode: (b) => ({ pos: b[0] }),
    ...(clickRows > 0 ? { clickTargets: () => [{ x: 0, y: 0, w: 64, h: clickRows }] } : {}),
  };
}

/** Gambler's ruin with right-step probability P/(P+Q): (1 - (Q/P)^i) / (1 - (Q/P)^N), exactly. */
function ruinProbability(P: bigint, Q: bigint, n: number, i: number): { p: string; q: string } {
  const N = BigInt(n);
  const I = BigInt(i);
  return lowest(P ** N - Q ** I * P ** (N - I), P ** N - Q ** N);
}

/**
 * Brute force over every action sequence of `depth` moves (no graph, no merging): the policy's
 * weight of the sequences that win, and of those that lose, both over denominator^depth.
 */
function enumerate(game: Game, level: number, policy: Policy, depth: number): { win: bigint; lose: bigint; scale: bigint } {
  const drawn: PlayerAction[] = policy === 'available' ? [...game.actions] : [1, 2, 3, 4, 5, 6, 7];
  const D = BigInt(drawn.length * CELLS);
  const visit = (state: unknown, d: number): [bigint, bigint] => {
    const status = game.status(state);
    if (status === 'won') return [D ** BigInt(d), 0n];
    if (status === 'lost') return [0n, D ** BigInt(d)];
    if (d === 0) return [0n, 0n];
    let win = 0n;
    let lose = 0n;
    const add = (next: unknown, weight: number): void => {
      const [w, l] = visit(next, d - 1);
      win += BigInt(weight) * w;
      lose += BigInt(weight) * l;
    };
    for (const id of drawn) {
      if (!game.actions.includes(id)) add(state, CELLS);
      else if (id === GameAction.ACTION6) for (const c of clickClasses(game, state)) add(game.step(state, { id, x: c.x, y: c.y }), c.cells);
      else add(game.step(state, { id }), CELLS);
    }
    return [win, lose];
  };
  const [win, lose] = visit(game.init(level), depth);
  return { win, lose, scale: D ** BigInt(depth) };
}

describe('random-win probability', () => {
  it("is exactly i/N on every gambler's-ruin level, under both policies", () => {
    RUIN_LEVELS.forEach(({ n, start }, index) => {
      const graph = bruteForceGraph(ruin, index + 1);
      for (const policy of POLICIES) {
        const { pWin } = analyze(graph, { policy });
        expect(pWin.method).toBe('exact');
        expect({ p: pWin.exact!.p, q: pWin.exact!.q }).toEqual(lowest(BigInt(start), BigInt(n)));
        expect(pWin.lower).toBeLessThanOrEqual(start / n);
        expect(pWin.upper).toBeGreaterThanOrEqual(start / n);
        expect(pWin.exact!.oneIn).toBeCloseTo(n / start, 12);
      }
    });
  });

  it('keeps multiplicity: biased walks match (1-(q/p)^i)/(1-(q/p)^N)', () => {
    for (const [n, start] of [
      [4, 1],
      [7, 3],
      [12, 5],
      [25, 2],
    ]) {
      // two keys step right, one left: p = 2/3 (one merged edge carries both keys)
      const keys = walk(n, start, [1, 2, 3], { 1: 1, 2: 1, 3: -1 });
      // 47 rows of 64 cells step right, 17 rows left: p = 47/64
      const clicks = walk(n, start, [6], {}, 47);
      for (const policy of POLICIES) {
        const byKeys = analyze(bruteForceGraph(keys, 1), { policy }).pWin;
        expect({ p: byKeys.exact!.p, q: byKeys.exact!.q }).toEqual(ruinProbability(2n, 1n, n, start));
        const byClicks = analyze(bruteForceGraph(clicks, 1), { policy }).pWin;
        expect({ p: byClicks.exact!.p, q: byClicks.exact!.q }).toEqual(ruinProbability(47n, 17n, n, start));
      }
    }
  });

  it('interval iteration brackets the exact value tightly on one large strongly connected component', () => {
    const cases: [Game, number, bigint, bigint][] = [
      [ruin, 6, 13n, 40n],
      [ruin, 4, 7n, 10n],
      [walk(30, 11, [6], {}, 47), 1, 0n, 0n],
    ];
    for (const [game, level, p, q] of cases) {
      const graph = bruteForceGraph(game, level);
      for (const policy of POLICIES) {
        const problem = reachProblem(graph, transitionWeights(graph, policy), reverseEdges(graph), LOSS);
        expect(problem.components.count).toBe(1);
        const exact = solveExact(problem)!;
        const truth = q > 0n ? { num: p, den: q } : exact;
        if (q > 0n) expect(exact).toEqual(truth);
        const value = Number(truth.num) / Number(truth.den);
        const interval = solveInterval(problem);
        expect(interval.converged).toBe(true);
        expect(interval.lower).toBeLessThanOrEqual(value);
        expect(interval.upper).toBeGreaterThanOrEqual(value);
        expect(interval.upper - interval.lower).toBeLessThan(1e-9);
        // with too small a budget the exact solver gives up instead of answering wrong
        expect(solveExact(problem, new ExactBudget(20, 64))).toBeNull();
      }
    }
  });

  it('equals the sum over all action sequences on a level that absorbs within its move budget', () => {
    // lights level 1 ends after at most 4 clicks: every sequence of 4 moves is won or lost
    const graph = bruteForceGraph(lights, 1);
    const { win, lose, scale } = enumerate(lights, 1, 'available', 4);
    expect(win + lose).toBe(scale);
    const { pWin } = analyze(graph);
    expect({ p: pWin.exact!.p, q: pWin.exact!.q }).toEqual(lowest(win, scale));
  });

  it('within K actions equals the sum over all sequences of K actions (self-loops use up actions)', () => {
    const cases: [Game, number, Policy, number][] = [
      [lights, 1, 'reference', 3],
      [lights, 2, 'available', 3],
      [ruin, 3, 'reference', 6],
      [ruin, 2, 'available', 12],
      [walk(5, 3, [6], {}, 47), 1, 'reference', 4],
      [walk(6, 2, [1, 2, 3], { 1: 1, 2: 1, 3: -1 }), 1, 'available', 9],
    ];
    for (const [game, level, policy, k] of cases) {
      const { win, scale } = enumerate(game, level, policy, k);
      const { withinK } = analyze(bruteForceGraph(game, level), { policy, withinK: k });
      expect(withinK!.k).toBe(k);
      expect({ p: withinK!.exact!.p, q: withinK!.exact!.q }).toEqual(lowest(win, scale));
      expect(withinK!.lower).toBeLessThanOrEqual(withinK!.upper);
    }
  });
});
