import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import maze, { MAZE_LEVELS } from '../../test/fixtures/maze.js';
import ruin from '../../test/fixtures/ruin.js';
import { GameAction, parseAction } from '../engine/actions.js';
import { playerMoves, type Game } from '../engine/game.js';
import { NodeFlag } from '../graph/graph.js';
import { analyze } from './analyze.js';
import { bruteForceGraph, graphOf } from '../../test/support/graphs.js';

/** Every move of a state, clicks by class (all cells of a class act alike). */
/** Breadth-first over the game's states: each state's distance, and which can reach a win. */
function survey(game: Game, level: number) {
  const key = (s: unknown): string => game.encode(s).join(',');
  const states = new Map<string, { state: unknown; dist: number; next: string[] }>();
  const root = game.init(level);
  states.set(key(root), { state: root, dist: 0, next: [] });
  const queue = [key(root)];
  for (let head = 0; head < queue.length; head++) {
    const node = states.get(queue[head])!;
    if (game.status(node.state) !== 'playing') continue;
    for (const a of playerMoves(game, node.state)) {
      const next = game.step(node.state, a);
      const k = key(next);
      node.next.push(k);
      if (!states.has(k)) states.set(k, { state: next, dist: node.dist + 1, next: [] }), queue.push(k);
    }
  }
  // a win is reachable from s: fixed point of "won, or some successor can win"
  const winning = new Set([...states].filter(([, s]) => game.status(s.state) === 'won').map(([k]) => k));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [k, s] of states) if (!winning.has(k) && s.next.some((n) => winning.has(n))) winning.add(k), (changed = true);
  }
  const dead = [...states].filter(([k, s]) => game.status(s.state) === 'playing' && !winning.has(k)).map(([, s]) => s);
  const wins = [...states.values()].filter((s) => game.status(s.state) === 'won');
  const canWin = [...winning].filter((k) => game.status(states.get(k)!.state) === 'playing').length;
  return { key, dead, canWin, shortestWin: wins.length ? Math.min(...wins.map((s) => s.dist)) : null, nearestDead: dead.length ? Math.min(...dead.map((s) => s.dist)) : null };
}

function replay(game: Game, level: number, actions: string[]): unknown {
  let state = game.init(level);
  for (const name of actions) {
    expect(game.status(state)).toBe('playing');
    state = game.step(state, parseAction(name));
  }
  return state;
}

const LEVELS: [Game, number][] = [
  ...[1, 2, 3, 4, 5, 6].map((l): [Game, number] => [ruin, l]),
  [maze, 1],
  [maze, 2],
  [lights, 1],
  [lights, 2],
];

describe('reachability', () => {
  it('finds the shortest win, dead ends and a shortest way into one, as brute force does', () => {
    for (const [game, level] of LEVELS) {
      const truth = survey(game, level);
      const a = analyze(bruteForceGraph(game, level), { baseline: game.baselineActions?.[level - 1] });
      expect(a.winReachable).toBe(truth.shortestWin !== null);
      expect(a.shortestWin?.length ?? null).toBe(truth.shortestWin);
      if (a.shortestWin) {
        expect(a.shortestWin.optimal).toBe(true);
        expect(game.status(replay(game, level, a.shortestWin.actions))).toBe('won');
      }
      expect(a.deadEnds.count).toBe(truth.dead.length);
      expect(a.canWin).toBe(truth.canWin);
      if (truth.dead.length) {
        const state = replay(game, level, a.deadEnds.example!.actions);
        expect(truth.dead.map((s) => truth.key(s.state))).toContain(truth.key(state));
        expect(a.deadEnds.example!.length).toBe(truth.nearestDead);
      } else {
        expect(a.deadEnds.example).toBeUndefined();
      }
      if (game.baselineActions) expect(a.baseline).toEqual({ declared: game.baselineActions[level - 1], shortest: truth.shortestWin, difference: truth.shortestWin! - game.baselineActions[level - 1] });
    }
  });

  it('shows the pit pockets of the maze: three cells under the pit, reached by dropping through it', () => {
    MAZE_LEVELS.forEach((rows, index) => {
      const pitY = rows.findIndex((r) => r.includes('P'));
      const pitX = rows[pitY].indexOf('P');
      const a = analyze(bruteForceGraph(maze, index + 1));
      expect(a.deadEnds.count).toBe(3);
      const end = replay(maze, index + 1, a.deadEnds.example!.actions) as { x: number; y: number };
      expect([end.x, end.y]).toEqual([pitX, pitY + 1]);
      expect(a.deadEnds.example!.actions.at(-1)).toBe('ACTION2');
    });
  });

  it('on a level without a win: probability 0, every playing state a dead end, the reset state first', () => {
    const keys = 1 << GameAction.ACTION1;
    // 0 <-> 1 -> 2 (game over)
    const graph = graphOf(
      [GameAction.ACTION1, GameAction.ACTION2],
      [
        { flags: NodeFlag.EXPANDED, edges: [{ to: 0, keys }, { to: 1, keys: 1 << GameAction.ACTION2 }] },
        { flags: NodeFlag.EXPANDED, edges: [{ to: 0, keys }, { to: 2, keys: 1 << GameAction.ACTION2 }] },
        { flags: NodeFlag.LOST, edges: [] },
      ],
    );
    const a = analyze(graph, { tutorial: true });
    expect(a.winReachable).toBe(false);
    expect(a.shortestWin).toBeNull();
    expect(a.deadEnds).toEqual({ count: 2, example: { length: 0, actions: [] } });
    expect(a.pWin.exact).toEqual({ p: '0', q: '1', oneIn: Infinity });
    expect([a.verdict, a.exempt]).toEqual(['pass', true]);
  });
});
