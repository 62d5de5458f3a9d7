import { describe, expect, it } from 'vitest';
import { CELLS, GameAction } from '../engine/actions.js';
import { NodeFlag, type StateGraph } from '../graph/graph.js';
import { analyze } from './analyze.js';
import { floatFraction, gcd } from './rational.js';
import { corridor as ruinCorridor, walkGraph } from '../../test/fixtures/walks.js';

/** Compact arrays for a graph of `n` nodes whose edges `fill` writes (it returns the edge count). */
function compact(n: number, maxEdges: number, actions: StateGraph['actions'], fill: (g: StateGraph) => number): StateGraph {
  const g: StateGraph = {
    nodeCount: n,
    edgeCount: 0,
    edgeStart: new Uint32Array(n + 1),
    edgeTarget: new Int32Array(maxEdges),
    edgeKeys: new Uint8Array(maxEdges),
    edgeCells: new Uint16Array(maxEdges),
    edgeAction: new Uint16Array(maxEdges),
    flags: new Uint8Array(n),
    actions,
  };
  return { ...g, edgeCount: fill(g) };
}

/**
 * A lattice walk: from (i, j) ACTION4 goes to (i+1, j) and ACTION2 to (i, j+1); i reaching a wins,
 * j reaching b loses. a*b + 2 nodes, all singleton components.
 */
function lattice(a: number, b: number): StateGraph {
  const WON = a * b;
  const LOST = WON + 1;
  return compact(a * b + 2, 2 * a * b, [GameAction.ACTION2, GameAction.ACTION4], (g) => {
    let e = 0;
    for (let i = 0; i < a; i++) {
      for (let j = 0; j < b; j++) {
        const u = i * b + j;
        g.edgeStart[u] = e;
        g.flags[u] = NodeFlag.EXPANDED;
        g.edgeTarget[e] = i + 1 === a ? WON : u + b;
        g.edgeKeys[e] = 1 << GameAction.ACTION4;
        g.edgeAction[e++] = GameAction.ACTION4;
        g.edgeTarget[e] = j + 1 === b ? LOST : u + 1;
        g.edgeKeys[e] = 1 << GameAction.ACTION2;
        g.edgeAction[e++] = GameAction.ACTION2;
      }
    }
    g.flags[WON] = NodeFlag.WON;
    g.flags[LOST] = NodeFlag.LOST;
    g.edgeStart[WON] = g.edgeStart[LOST] = g.edgeStart[LOST + 1] = e;
    return e;
  });
}

/** P(a successes come before b failures) with fair coins = P(Binomial(a+b-1, 1/2) >= a), exactly. */
function latticeWin(a: number, b: number): { num: bigint; den: bigint } {
  const n = a + b - 1;
  let c = 1n; // C(n, k)
  let sum = 0n;
  for (let k = 0; k <= n; k++) {
    if (k >= a) sum += c;
    c = (c * BigInt(n - k)) / BigInt(k + 1);
  }
  return { num: sum, den: 1n << BigInt(n) };
}

/**
 * A corridor of n cells: a click moves on with 4,095 cells of 4,096 and falls into the loss with one;
 * ACTION1 is blocked (a self-loop). Win probability (4095/4096)^n.
 */
function corridor(n: number): StateGraph {
  return compact(n + 2, 3 * n, [GameAction.ACTION1, GameAction.ACTION6], (g) => {
    let e = 0;
    for (let u = 0; u < n; u++) {
      g.edgeStart[u] = e;
      g.flags[u] = NodeFlag.EXPANDED;
      g.edgeTarget[e] = u;
      g.edgeKeys[e++] = 1 << GameAction.ACTION1;
      g.edgeTarget[e] = u + 1 === n ? n : u + 1;
      g.edgeCells[e++] = CELLS - 1;
      g.edgeTarget[e] = n + 1;
      g.edgeCells[e++] = 1;
    }
    g.flags[n] = NodeFlag.WON;
    g.flags[n + 1] = NodeFlag.LOST;
    g.edgeStart[n] = g.edgeStart[n + 1] = g.edgeStart[n + 2] = e;
    return e;
  });
}

const atMost = (x: number, f: { num: bigint; den: bigint }): boolean => {
  const g = floatFraction(x);
  return g.num * f.den <= f.num * g.den;
};

describe('a million states', () => {
  it("the 250,001-cell gambler's-ruin corridor (one class) is exactly 2/5, well within a minute", () => {
    const graph = walkGraph(ruinCorridor(250_000, 100_000));
    const started = performance.now();
    const { pWin } = analyze(graph);
    const seconds = (performance.now() - started) / 1000;
    expect(pWin.method).toBe('exact');
    expect(pWin.exact).toMatchObject({ p: '2', q: '5' });
    expect(seconds).toBeLessThan(60);
  });


  it('a 980 x 1021 lattice walk (1,000,582 nodes) gets its binomial value exactly', () => {
    const graph = lattice(980, 1021);
    expect(graph.nodeCount).toBeGreaterThan(1_000_000);
    const truth = latticeWin(980, 1021);
    const { pWin, shortestWin, deadEnds, verdict } = analyze(graph);
    expect(pWin.method).toBe('exact');
    const g = gcd(truth.num, truth.den);
    expect({ p: pWin.exact!.p, q: pWin.exact!.q }).toEqual({ p: String(truth.num / g), q: String(truth.den / g) });
    expect(atMost(pWin.lower, truth)).toBe(true);
    expect(atMost(pWin.upper, truth)).toBe(false);
    expect(shortestWin!.length).toBe(980);
    expect(deadEnds.count).toBe(0);
    expect(verdict).toBe('fail');
    // with the exact solve off, interval iteration brackets it to 1e-9
    const interval = analyze(graph, { exact: false }).pWin;
    expect(interval.method).toBe('interval');
    expect(atMost(interval.lower, truth)).toBe(true);
    expect(atMost(interval.upper, truth)).toBe(false);
    expect(interval.relativeWidth).toBeLessThan(1e-9);
  });

  it('a 1,000,000-cell corridor with self-loops matches (4095/4096)^n', () => {
    const n = 1_000_000;
    const { pWin } = analyze(corridor(n), { policy: 'reference' });
    // ln p = n ln(1 - 1/4096), to about 1e-13 relative
    const value = Math.exp(n * Math.log1p(-1 / CELLS));
    expect(pWin.lower).toBeLessThanOrEqual(value * (1 + 1e-10));
    expect(pWin.upper).toBeGreaterThanOrEqual(value * (1 - 1e-10));
    expect((pWin.upper - pWin.lower) / value).toBeLessThan(1e-6);
    expect(pWin.upper).toBeLessThan(1e-100);
  });
});
