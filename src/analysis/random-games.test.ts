/**
 * Property test of the whole path, explorer to exact P(win), on random games: small random
 * transition tables (self-loops, cycles, dead ends, wins and losses anywhere), against a second
 * implementation: the reachable states found by a plain search of the table, and the absorption
 * probabilities of the Markov chain solved densely by Gauss-Jordan elimination over rationals.
 */
import { describe, expect, it } from 'vitest';
import { GameAction, type PlayerAction } from '../engine/actions.js';
import { blankFrame, type Game, type Status } from '../engine/game.js';
import { explore } from '../level.js';
import { Rng } from '../player/rng.js';
import type { Policy } from './policy.js';

interface Table {
  actions: PlayerAction[];
  /** next[s][i]: the successor of state s under actions[i] (for ACTION6, under a click outside the targets). */
  next: number[][];
  status: Status[];
  /** With ACTION6: disjoint click targets, one band of rows each, and where a click in each leads from each state. */
  targets: { x: number; y: number; w: number; h: number }[];
  clickNext: number[][];
}

const KEYS: PlayerAction[] = [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4, GameAction.ACTION5, GameAction.ACTION7];

function randomTable(seed: number): Table {
  const rng = new Rng(seed, 7);
  const n = 2 + rng.below(13);
  const actions = [...KEYS, GameAction.ACTION6].filter(() => rng.below(2) === 0).sort((a, b) => a - b);
  if (actions.length === 0) actions.push(KEYS[rng.below(KEYS.length)]);
  const targets = actions.includes(GameAction.ACTION6) ? Array.from({ length: rng.below(4) }, (_, i) => ({ x: rng.below(64), y: 16 * i + rng.below(8), w: 1 + rng.below(64), h: 1 + rng.below(8) })) : [];
  const status: Status[] = Array.from({ length: n }, (_, s) => {
    if (s === 0) return 'playing';
    const r = rng.below(100);
    return r < 15 ? 'won' : r < 30 ? 'lost' : 'playing';
  });
  // Half the moves stay near (long chains and cycles), the rest go anywhere, some nowhere (a self-loop).
  const move = (s: number): number => {
    const r = rng.below(10);
    return r < 2 ? s : r < 6 ? (s + 1 + rng.below(2)) % n : rng.below(n);
  };
  const next = Array.from({ length: n }, (_, s) => actions.map(() => move(s)));
  const clickNext = Array.from({ length: n }, (_, s) => targets.map(() => move(s)));
  return { actions, next, status, targets, clickNext };
}

function gameOf(t: Table): Game<number> {
  return {
    id: 'rand',
    title: 'Random table',
    levels: 1,
    tutorialLevels: 0,
    actions: t.actions,
    init: () => 0,
    step(s, a) {
      const i = t.actions.indexOf(a.id as PlayerAction);
      if (a.id !== GameAction.ACTION6) return t.next[s][i];
      const c = t.targets.findIndex((r) => a.x! >= r.x && a.x! < r.x + r.w && a.y! >= r.y && a.y! < r.y + r.h);
      return c < 0 ? t.next[s][i] : t.clickNext[s][c];
    },
    ...(t.actions.includes(GameAction.ACTION6) && { clickTargets: () => t.targets }),
    status: (s) => t.status[s],
    render: () => [blankFrame()],
    encode: (s) => Uint8Array.of(s),
    decode: (b) => b[0],
  };
}

type Q = { num: bigint; den: bigint };
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
function q(num: bigint, den: bigint): Q {
  if (den < 0n) [num, den] = [-num, -den];
  const g = gcd(num, den) || 1n;
  return { num: num / g, den: den / g };
}
const sub = (a: Q, b: Q): Q => q(a.num * b.den - b.num * a.den, a.den * b.den);
const mul = (a: Q, b: Q): Q => q(a.num * b.num, a.den * b.den);
const div = (a: Q, b: Q): Q => q(a.num * b.den, a.den * b.num);

/** The states reachable from 0 (terminal states have no moves), and P(win) from 0 by dense elimination. */
function truth(t: Table, policy: Policy): { reachable: number; edges: number; p: Q } {
  const seen = new Set([0]);
  const order = [0];
  let edges = 0;
  for (let i = 0; i < order.length; i++) {
    const s = order[i];
    if (t.status[s] !== 'playing') continue;
    const targets = [...t.next[s], ...t.clickNext[s]];
    edges += new Set(targets).size;
    for (const v of targets) if (!seen.has(v)) (seen.add(v), order.push(v));
  }
  // Moves of a playing state with their probabilities: the reference agent draws ACTION1..ACTION7
  // uniformly, an unavailable one leaves the state as it is; a click falls on a uniform cell of
  // the 4,096, in a target's rectangle or outside them all.
  const clipped = t.targets.map((r) => Math.min(r.w, 64 - r.x) * r.h);
  const outside = 4096 - clipped.reduce((a, b) => a + b, 0);
  const moves = (s: number): [number, Q][] => {
    const k = BigInt(policy === 'available' ? t.actions.length : 7);
    const out: [number, Q][] = [];
    t.actions.forEach((a, i) => {
      if (a !== GameAction.ACTION6) return out.push([t.next[s][i], q(1n, k)]);
      if (outside > 0) out.push([t.next[s][i], q(BigInt(outside), 4096n * k)]);
      t.clickNext[s].forEach((v, c) => out.push([v, q(BigInt(clipped[c]), 4096n * k)]));
    });
    if (policy === 'reference') out.push([s, q(BigInt(7 - t.actions.length), 7n)]);
    return out;
  };
  // x = P x + b over the playing states that can reach a win (the others win with probability 0).
  const canWin = new Set(order.filter((s) => t.status[s] === 'won'));
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of order) if (t.status[s] === 'playing' && !canWin.has(s) && moves(s).some(([v]) => canWin.has(v))) (canWin.add(s), (grew = true));
  }
  const unknowns = order.filter((s) => t.status[s] === 'playing' && canWin.has(s));
  if (t.status[0] === 'won') return { reachable: order.length, edges, p: q(1n, 1n) };
  if (!unknowns.includes(0)) return { reachable: order.length, edges, p: q(0n, 1n) };
  const col = new Map(unknowns.map((s, i) => [s, i]));
  const m = unknowns.length;
  const rows: Q[][] = unknowns.map((s) => {
    const row = Array.from({ length: m + 1 }, () => q(0n, 1n));
    row[col.get(s)!] = q(1n, 1n);
    for (const [v, w] of moves(s)) {
      if (t.status[v] === 'won') row[m] = sub(row[m], q(-w.num, w.den));
      else if (col.has(v)) row[col.get(v)!] = sub(row[col.get(v)!], w);
    }
    return row;
  });
  for (let c = 0; c < m; c++) {
    const pivot = rows.findIndex((r, i) => i >= c && r[c].num !== 0n);
    [rows[c], rows[pivot]] = [rows[pivot], rows[c]];
    const lead = rows[c][c];
    rows[c] = rows[c].map((x) => div(x, lead));
    for (let i = 0; i < m; i++) {
      const f = rows[i][c];
      if (i !== c && f.num !== 0n) rows[i] = rows[i].map((x, j) => sub(x, mul(f, rows[c][j])));
    }
  }
  return { reachable: order.length, edges, p: rows[col.get(0)!][m] };
}

describe('explorer and exact analysis on random games', () => {
  it('match a plain search and a dense rational solve of the chain, under both policies', async () => {
    let nontrivial = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const table = randomTable(seed);
      for (const policy of ['available', 'reference'] as Policy[]) {
        const expected = truth(table, policy);
        const r = await explore(gameOf(table), { level: 1, policy });
        const where = `seed ${seed}, ${policy}: ${JSON.stringify(table)}`;
        expect(r.fullyExplored, where).toBe(true);
        expect([r.nodes, r.edges], where).toEqual([expected.reachable, expected.edges]);
        expect(r.pWin.method, where).toBe('exact');
        expect(r.pWin.exact, where).toMatchObject({ p: expected.p.num.toString(), q: expected.p.den.toString() });
        if (expected.p.num !== 0n && expected.p.num !== expected.p.den) nontrivial++;
      }
    }
    // The tables are not all trivially won or lost.
    expect(nontrivial).toBeGreaterThan(100);
  });

  it('bound the exact value on every partial graph of them', async () => {
    let partial = 0;
    /** Partial graphs whose bounds are narrower than a half. */
    let tight = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const table = randomTable(seed);
      for (const policy of ['available', 'reference'] as Policy[]) {
        const expected = truth(table, policy);
        if (expected.reachable < 3) continue;
        const value = Number(expected.p.num) / Number(expected.p.den);
        const maxNodes = 1 + ((seed * 7) % (expected.reachable - 1));
        const r = await explore(gameOf(table), { level: 1, policy, maxNodes });
        if (r.fullyExplored) continue;
        partial++;
        if (r.pWin.upper - r.pWin.lower < 0.5) tight++;
        const where = `seed ${seed}, ${policy}, ${maxNodes} states: ${value} in [${r.pWin.lower}, ${r.pWin.upper}]`;
        expect(r.pWin.method, where).not.toBe('exact');
        expect(r.pWin.lower, where).toBeLessThanOrEqual(value * (1 + 1e-12));
        expect(r.pWin.upper, where).toBeGreaterThanOrEqual(value * (1 - 1e-12));
      }
    }
    expect(partial).toBeGreaterThan(200);
    // Not all [0, 1]: some partial graphs already pin the value down.
    expect(tight).toBeGreaterThan(20);
  });
});
