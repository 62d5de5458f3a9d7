/**
 * Test support: an independent win-probability solver for small graphs (dense Gauss-Jordan over
 * plain BigInt fractions, no shared code with src/analysis), and seeded random graphs to feed it.
 */
import { GameAction } from '../../src/engine/index.js';
import { NodeFlag, type StateGraph } from '../../src/graph/index.js';
import { graphOf, type NodeSpec } from './graphs.js';

type Q = [bigint, bigint];
const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const gcd = (a: bigint, b: bigint): bigint => {
  a = abs(a);
  b = abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
};
const norm = ([n, d]: Q): Q => {
  if (d < 0n) (n = -n), (d = -d);
  const g = gcd(n, d) || 1n;
  return [n / g, d / g];
};
const sub = (a: Q, b: Q): Q => norm([a[0] * b[1] - b[0] * a[1], a[1] * b[1]]);
const mul = (a: Q, b: Q): Q => norm([a[0] * b[0], a[1] * b[1]]);
const div = (a: Q, b: Q): Q => norm([a[0] * b[1], a[1] * b[0]]);

/**
 * The root's win probability under the uniform policy over the graph's actions (keyboard actions
 * only), as p/q in lowest terms: states that cannot reach a win are 0, the rest solve
 * x_u = sum over actions of x_(target) / |actions| densely.
 */
export function denseWinProbability(graph: StateGraph): { num: bigint; den: bigint } {
  const n = graph.nodeCount;
  const A = graph.actions.length;
  const playing = (u: number): boolean => (graph.flags[u] & (NodeFlag.WON | NodeFlag.LOST)) === 0;
  // states that reach a win, by a plain fixed point
  const reaches = Array.from({ length: n }, (_, u) => (graph.flags[u] & NodeFlag.WON) !== 0);
  for (let changed = true; changed; ) {
    changed = false;
    for (let u = 0; u < n; u++) {
      if (reaches[u] || !playing(u)) continue;
      for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
        if (reaches[graph.edgeTarget[e]]) (reaches[u] = true), (changed = true);
      }
    }
  }
  if (!reaches[0]) return { num: 0n, den: 1n };
  if (!playing(0)) return { num: 1n, den: 1n };
  const vars = [...Array(n).keys()].filter((u) => reaches[u] && playing(u));
  const index = new Map(vars.map((u, i) => [u, i]));
  const m = vars.length;
  // rows: A x = b with A = I - P over the unknowns
  const rows: Q[][] = vars.map((u, i) => {
    const row: Q[] = Array.from({ length: m + 1 }, () => [0n, 1n] as Q);
    row[i] = [1n, 1n];
    for (let e = graph.edgeStart[u]; e < graph.edgeStart[u + 1]; e++) {
      let count = 0;
      for (let k = 0; k < 8; k++) if ((graph.edgeKeys[e] >> k) & 1) count++;
      const p: Q = [BigInt(count), BigInt(A)];
      const v = graph.edgeTarget[e];
      if (graph.flags[v] & NodeFlag.WON) row[m] = norm([row[m][0] * p[1] + p[0] * row[m][1], row[m][1] * p[1]]);
      else if (index.has(v)) row[index.get(v)!] = sub(row[index.get(v)!], p);
    }
    return row;
  });
  for (let k = 0; k < m; k++) {
    const pivot = rows.findIndex((r, i) => i >= k && r[k][0] !== 0n);
    [rows[k], rows[pivot]] = [rows[pivot], rows[k]];
    const p = rows[k][k];
    rows[k] = rows[k].map((x) => div(x, p));
    for (let i = 0; i < m; i++) {
      if (i === k || rows[i][k][0] === 0n) continue;
      const f = rows[i][k];
      rows[i] = rows[i].map((x, j) => sub(x, mul(f, rows[k][j])));
    }
  }
  const [num, den] = rows[index.get(0)!][m];
  return { num, den };
}

/**
 * A seeded random graph: `n` states, state 0 the root; each state is won, lost or playing, and a
 * playing state sends each of `actions` keyboard actions to a random state (itself included), so
 * merged edges, self-loops, dead ends and cycle classes of every size come up.
 */
export function randomGraph(seed: number, n: number, actions = 3, terminalShare = 0.15): StateGraph {
  let s = seed >>> 0 || 1;
  const random = (): number => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
  const ids = [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4, GameAction.ACTION5].slice(0, actions);
  const specs: NodeSpec[] = [];
  for (let u = 0; u < n; u++) {
    const r = u === 0 ? 1 : random();
    if (r < terminalShare) {
      specs.push({ flags: r < terminalShare / 2 ? NodeFlag.WON : NodeFlag.LOST, edges: [] });
      continue;
    }
    const keys = new Map<number, number>();
    // mostly near neighbours (long cycle classes), sometimes anywhere
    for (const a of ids) {
      const to = random() < 0.7 ? Math.min(n - 1, Math.max(0, u + Math.floor(random() * 7) - 3)) : Math.floor(random() * n);
      keys.set(to, (keys.get(to) ?? 0) | (1 << a));
    }
    specs.push({ flags: NodeFlag.EXPANDED, edges: [...keys].map(([to, k]) => ({ to, keys: k })) });
  }
  return graphOf(ids, specs);
}
