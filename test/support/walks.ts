/**
 * Test support: state graphs of random walks with known values, built straight into typed arrays
 * (corridors of a million cells and lattices of a million states in about a second), numbered in
 * breadth-first order from the start as the explorer numbers them.
 */
import { GameAction, type PlayerAction } from '../../src/engine/index.js';
import { NodeFlag, type StateGraph } from '../../src/graph/index.js';

/** A walk: cells 0..cells-1, the moves of a playing cell as (target, action bits), and a status. */
export interface Walk {
  cells: number;
  start: number;
  actions: readonly PlayerAction[];
  status(cell: number): 'won' | 'lost' | 'playing';
  /** Calls `move(target, keys)` once per distinct target (keys: bit k for ACTIONk). */
  moves(cell: number, move: (target: number, keys: number) => void): void;
}

/** The complete state graph of a walk: every cell reachable from the start, breadth-first. */
export function walkGraph(walk: Walk): StateGraph {
  const id = new Int32Array(walk.cells).fill(-1);
  const cellOf = new Int32Array(walk.cells);
  let count = 0;
  id[walk.start] = count;
  cellOf[count++] = walk.start;
  let edges = 0;
  for (let head = 0; head < count; head++) {
    const cell = cellOf[head];
    if (walk.status(cell) !== 'playing') continue;
    walk.moves(cell, (to) => {
      edges++;
      if (id[to] < 0) {
        id[to] = count;
        cellOf[count++] = to;
      }
    });
  }
  const edgeStart = new Int32Array(count + 1);
  const edgeTarget = new Int32Array(edges);
  const edgeKeys = new Uint8Array(edges);
  const edgeAction = new Uint16Array(edges);
  const flags = new Uint8Array(count);
  let e = 0;
  for (let u = 0; u < count; u++) {
    edgeStart[u] = e;
    const status = walk.status(cellOf[u]);
    if (status !== 'playing') {
      flags[u] = status === 'won' ? NodeFlag.WON : NodeFlag.LOST;
      continue;
    }
    flags[u] = NodeFlag.EXPANDED;
    walk.moves(cellOf[u], (to, keys) => {
      edgeTarget[e] = id[to];
      edgeKeys[e] = keys;
      edgeAction[e++] = 31 - Math.clz32(keys & -keys);
    });
  }
  edgeStart[count] = e;
  return {
    nodeCount: count,
    edgeCount: e,
    edgeStart,
    edgeTarget,
    edgeKeys,
    edgeCells: new Uint16Array(e),
    edgeAction,
    flags,
    depth: new Uint32Array(count),
    parent: new Int32Array(count).fill(-1),
    parentAction: new Uint16Array(count),
    actions: walk.actions,
  };
}

const bit = (a: number): number => 1 << a;

/**
 * Gambler's ruin on cells 0..n from `start`: `right` keyboard actions step right, `left` step left
 * and `idle` stay; n wins, 0 loses. Win probability (1 - r^i) / (1 - r^n), r = left/right (i/n when fair).
 */
export function corridor(n: number, start: number, right = 1, left = 1, idle = 0): Walk {
  const actions = [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4, GameAction.ACTION5, GameAction.ACTION7];
  const used = actions.slice(0, right + left + idle);
  let rightKeys = 0;
  let leftKeys = 0;
  let idleKeys = 0;
  used.forEach((a, i) => (i < right ? (rightKeys |= bit(a)) : i < right + left ? (leftKeys |= bit(a)) : (idleKeys |= bit(a))));
  return {
    cells: n + 1,
    start,
    actions: used,
    status: (c) => (c >= n ? 'won' : c <= 0 ? 'lost' : 'playing'),
    moves(c, move) {
      move(c + 1, rightKeys);
      move(c - 1, leftKeys);
      if (idleKeys) move(c, idleKeys);
    },
  };
}

/**
 * A walk on the lattice x in 0..n, y in 0..h: ACTION1..4 step up, down, left, right. When `absorbing`,
 * x = n wins and every other side of the rectangle loses (the discrete harmonic measure of a side,
 * `rectangleWin`); otherwise y is walled (a blocked step stays put), x = 0 loses and x = n wins, and
 * the x coordinate alone is a lazy fair walk: the value is x / n whatever y.
 */
export function lattice(n: number, h: number, start: [number, number], absorbing: boolean): Walk {
  const w = n + 1;
  return {
    cells: w * (h + 1),
    start: start[0] + w * start[1],
    actions: [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4],
    status(c) {
      const x = c % w;
      const y = (c - x) / w;
      if (x >= n) return absorbing && (y === 0 || y === h) ? 'lost' : 'won';
      if (x <= 0) return 'lost';
      if (absorbing && (y === 0 || y === h)) return 'lost';
      return 'playing';
    },
    moves(c, move) {
      const x = c % w;
      const y = (c - x) / w;
      let stay = 0;
      if (y > 0) move(c - w, bit(GameAction.ACTION1));
      else stay |= bit(GameAction.ACTION1);
      if (y < h) move(c + w, bit(GameAction.ACTION2));
      else stay |= bit(GameAction.ACTION2);
      move(c - 1, bit(GameAction.ACTION3));
      move(c + 1, bit(GameAction.ACTION4));
      if (stay) move(c, stay);
    },
  };
}

/**
 * The value of the absorbing lattice walk at (x, y): the probability that the symmetric walk on the
 * rectangle 0..n x 0..h leaves it through the side x = n. By separation of variables,
 *   h(x, y) = (2/h) sum_{k odd} cot(pi k / 2h) sin(pi k y / h) sinh(b_k x) / sinh(b_k n),
 * cosh b_k = 2 - cos(pi k / h): a closed form in doubles (error near 1e-15 relative).
 */
export function rectangleWin(n: number, h: number, x: number, y: number): number {
  let sum = 0;
  for (let k = 1; k < h; k += 2) {
    const b = Math.acosh(2 - Math.cos((Math.PI * k) / h));
    // sinh(b x) / sinh(b n) without overflow
    const ratio = Math.exp(b * (x - n)) * (-Math.expm1(-2 * b * x) / -Math.expm1(-2 * b * n));
    sum += (Math.sin((Math.PI * k * y) / h) / Math.tan((Math.PI * k) / (2 * h))) * ratio;
  }
  return (2 / h) * sum;
}

/**
 * A race against a timer: position 0..p, time 0..t; ACTION1 steps forward, ACTION2 back (not past
 * 0), ACTION3 waits, ACTION4 leaps two (not past p); every move spends a tick. Reaching p wins,
 * time t loses. Acyclic: one class a state, answers with hundreds of digits.
 */
export function race(p: number, t: number): Walk {
  const w = p + 1;
  return {
    cells: w * (t + 1),
    start: 0,
    actions: [GameAction.ACTION1, GameAction.ACTION2, GameAction.ACTION3, GameAction.ACTION4],
    status: (c) => (c % w >= p ? 'won' : Math.floor(c / w) >= t ? 'lost' : 'playing'),
    moves(c, move) {
      const x = c % w;
      const next = c - x + w;
      const targets = new Map<number, number>();
      const add = (to: number, action: number): void => void targets.set(next + to, (targets.get(next + to) ?? 0) | bit(action));
      add(Math.min(p, x + 1), GameAction.ACTION1);
      add(Math.max(0, x - 1), GameAction.ACTION2);
      add(x, GameAction.ACTION3);
      add(Math.min(p, x + 2), GameAction.ACTION4);
      for (const [to, keys] of targets) move(to, keys);
    },
  };
}
