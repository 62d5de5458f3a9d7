/**
 * Test support for the Python bridge: where the fixture engine and games are, and TypeScript twins of
 * the fixture games (a second implementation, so the bridge's graphs are checked against graphs
 * built another way by bruteForceGraph).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GameAction, type Action, type Game } from '../../src/engine/index.js';
import { HASH_SEED } from '../../src/python/discover.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FIXTURE_ENGINE = join(ROOT, 'test', 'fixtures', 'python');
export const fixtureGame = (id: string): string => join(FIXTURE_ENGINE, 'games', id);
/** slw1: a game whose steps past the start take two seconds (kept out of games/, which tests sweep whole). */
export const SLOW_GAME = join(FIXTURE_ENGINE, 'slow', 'slw1');
/** sls1: a game whose module takes two seconds to import (a Ctrl-C while its Python processes start). */
export const SLOW_START_GAME = join(FIXTURE_ENGINE, 'slow', 'sls1');

/** Games that fail beyond a step's exception (kept out of games/, which tests sweep whole): die1 ends its process or loses at once, bin1's constructor raises. */
export const faultGame = (id: string): string => join(FIXTURE_ENGINE, 'faults', id);

/** The real engine and games (../shared/arc, or ARCGRAPH_ARC_ENGINE / ARCGRAPH_ARC_GAMES when set). */
export const ARC_ENGINE = process.env.ARCGRAPH_ARC_ENGINE || resolve(ROOT, '..', 'shared', 'arc');
export const ARC_GAMES = process.env.ARCGRAPH_ARC_GAMES || join(ARC_ENGINE, 'environment_files');
export const hasArc = existsSync(join(ARC_ENGINE, 'arcengine', '__init__.py')) && existsSync(ARC_GAMES);

/**
 * Runs Python `lines` (a script) with arcgraph's Python package and the fixture engine importable,
 * `args` as sys.argv[1:]: a check of the host's modules from inside.
 */
export function runPython(lines: string[], ...args: string[]): { stdout: string; stderr: string } {
  const r = spawnSync('python3', ['-c', lines.join('\n'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: [join(ROOT, 'workers', 'python'), FIXTURE_ENGINE].join(':') },
  });
  return { stdout: r.stdout, stderr: r.stderr };
}

/** This process's children, by pid, with their state ('Z': exited and never reaped, a zombie). */
function children(): { pid: number; state: string }[] {
  const out: { pid: number; state: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === process.pid) out.push({ pid: Number(name), state });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** This process's children that exited and were never reaped (zombies). */
export const zombieChildren = (): number[] => children().flatMap((c) => (c.state === 'Z' ? [c.pid] : []));

/**
 * The Python host processes this Node process started for a game (its children running
 * arcgraph_host.py with `game` in their arguments, and each of `args` as an argument), alive
 * (zombies left out), by pid: those under the explorer's PYTHONHASHSEED (the game's one process
 * under another seed, which checks for hash order, left out).
 */
export function hostPids(game: string, ...args: string[]): number[] {
  const pids: number[] = [];
  for (const { pid, state } of children()) {
    if (state === 'Z') continue;
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (!argv.some((a) => a.endsWith('arcgraph_host.py')) || !argv.some((a) => a.includes(game)) || !args.every((a) => argv.includes(a))) continue;
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`PYTHONHASHSEED=${HASH_SEED}`)) pids.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return pids.sort((a, b) => a - b);
}

const blank = (): Uint8Array => new Uint8Array(4096);

/** hid1 (test/fixtures/python/games/hid1) in TypeScript: a track, a hidden charge, won at the end with the goal charge. */
export const hid1Twin: Game<{ x: number; c: number; level: number }> = {
  id: 'hid1',
  title: 'HID1 twin',
  levels: 2,
  tutorialLevels: 1,
  actions: [1, 2, 3],
  init: (level) => ({ x: 0, c: 0, level }),
  step(s, a: Action) {
    const x = a.id === GameAction.ACTION1 ? Math.max(0, s.x - 1) : a.id === GameAction.ACTION2 ? s.x + 1 : s.x;
    const c = a.id === GameAction.ACTION3 ? (s.c + 1) % 3 : s.c;
    return { x, c, level: s.level };
  },
  status(s) {
    const [n, goal] = s.level === 1 ? [5, 2] : [4, 1];
    return s.x < n - 1 ? 'playing' : s.c === goal ? 'won' : 'lost';
  },
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.x, s.c, s.level),
  decode: (b) => ({ x: b[0], c: b[1], level: b[2] }),
};

/**
 * rs01 (test/fixtures/python/apart/rs01) in TypeScript: cells 0..3, the goal drawn on the first ACTION5
 * from numpy's global RNG as the level seeded it (numpy: seed 101 gives randint(0, 4) = 3, seed 102 gives 0).
 */
export const RS01_GOALS = [3, 0];
export const rs01Twin: Game<{ x: number; goal: number; level: number; end: number }> = {
  id: 'rs01',
  title: 'RS01 twin',
  levels: 2,
  tutorialLevels: 1,
  actions: [3, 4, 5],
  init: (level) => ({ x: 0, goal: -1, level, end: 0 }),
  step(s, a: Action) {
    if (a.id === GameAction.ACTION3) return { ...s, x: Math.max(0, s.x - 1) };
    if (a.id === GameAction.ACTION4) return { ...s, x: Math.min(3, s.x + 1) };
    if (s.goal < 0) return { ...s, goal: RS01_GOALS[s.level - 1] };
    return { ...s, end: s.x === s.goal ? 1 : 2 };
  },
  status: (s) => (s.end === 1 ? 'won' : s.end === 2 ? 'lost' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.x, s.goal + 1, s.level, s.end),
  decode: (b) => ({ x: b[0], goal: b[1] - 1, level: b[2], end: b[3] }),
};

/**
 * gr01 (test/fixtures/python/apart/gr01) in TypeScript: cells 0..4, a pit left of 0, and a die on cell 4
 * rolled from Python's global Random as the constructor seeded it (random.seed(5): randint(1, 6) gives
 * 5, 3, 6, ...): a 6 wins, a 1 loses, another roll goes on (`rolls` so far: the die shows them).
 */
export const GR01_ROLLS = [5, 3, 6];
export const gr01Twin: Game<{ x: number; rolls: number; end: number }> = {
  id: 'gr01',
  title: 'GR01 twin',
  levels: 1,
  tutorialLevels: 1,
  actions: [3, 4, 5],
  init: () => ({ x: 0, rolls: 0, end: 0 }),
  step(s, a: Action) {
    if (a.id === GameAction.ACTION3) return s.x === 0 ? { ...s, end: 2 } : { ...s, x: s.x - 1 };
    if (a.id === GameAction.ACTION4) return { ...s, x: Math.min(4, s.x + 1) };
    if (s.x !== 4) return s;
    const roll = GR01_ROLLS[s.rolls];
    return { ...s, rolls: s.rolls + 1, end: roll === 6 ? 1 : roll === 1 ? 2 : 0 };
  },
  status: (s) => (s.end === 1 ? 'won' : s.end === 2 ? 'lost' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.x, s.rolls, s.end),
  decode: (b) => ({ x: b[0], rolls: b[1], end: b[2] }),
};

/**
 * gn01 (test/fixtures/python/apart/gn01) in TypeScript: a move, then the wind's drift 0, 0, -1 by phase;
 * left of 0 loses, 4 wins. `started`: a generator not yet started and one about to start the pattern
 * again drift alike but are two states of the game (the walk sees where each is suspended).
 */
export const gn01Twin: Game<{ x: number; phase: number; started: boolean }> = {
  id: 'gn01',
  title: 'GN01 twin',
  levels: 2,
  tutorialLevels: 1,
  actions: [3, 4],
  init: () => ({ x: 1, phase: 0, started: false }),
  step: (s, a: Action) => ({ x: s.x + (a.id === GameAction.ACTION4 ? 1 : -1) + [0, 0, -1][s.phase], phase: (s.phase + 1) % 3, started: true }),
  status: (s) => (s.x < 0 ? 'lost' : s.x >= 4 ? 'won' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.x + 8, s.phase, s.started ? 1 : 0),
  decode: (b) => ({ x: b[0] - 8, phase: b[1], started: b[2] === 1 }),
};

/** clk1 in TypeScript: the display-to-grid mapping of a 10x8 camera at scale 6, button, bar, trap. */
export const clk1Twin: Game<{ count: number; mark: number; lost: boolean }> = {
  id: 'clk1',
  title: 'CLK1 twin',
  levels: 1,
  tutorialLevels: 1,
  actions: [6],
  init: () => ({ count: 0, mark: -1, lost: false }),
  step(s, a: Action) {
    const scale = 6;
    const [xo, yo] = [2, 8];
    const next = { ...s };
    const gx = Math.floor((a.x! - xo) / scale);
    const gy = Math.floor((a.y! - yo) / scale);
    if (a.x! >= xo && a.y! >= yo && gx < 10 && gy < 8) {
      if (gx >= 1 && gx <= 2 && gy >= 1 && gy <= 2) next.count = (s.count + 1) % 3;
      else if (gx >= 5 && gx <= 7 && gy === 5) next.mark = gx - 5;
      else if (gx === 9 && gy === 0) next.lost = true;
    }
    return next;
  },
  status: (s) => (s.lost ? 'lost' : s.count === 2 && s.mark === 2 ? 'won' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.count, s.mark + 1, s.lost ? 1 : 0),
  decode: (b) => ({ count: b[0], mark: b[1] - 1, lost: b[2] === 1 }),
};

/** gen1 in TypeScript: a walker on a track of 4 that counts its moves; the end wins before the seventh move. */
export const gen1Twin: Game<{ x: number; moves: number }> = {
  id: 'gen1',
  title: 'GEN1 twin',
  levels: 1,
  tutorialLevels: 1,
  actions: [1, 2],
  init: () => ({ x: 0, moves: 0 }),
  step: (s, a: Action) => ({ x: Math.max(0, Math.min(3, s.x + (a.id === GameAction.ACTION2 ? 1 : -1))), moves: s.moves + 1 }),
  status: (s) => (s.moves >= 7 ? 'lost' : s.x === 3 ? 'won' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.x, s.moves),
  decode: (b) => ({ x: b[0], moves: b[1] }),
};

/** fl01 in TypeScript: two hidden switches (bit 1 RED, bit 2 BLUE); ACTION5 wins with both on, loses with one. */
export const fl01Twin: Game<{ on: number; end: number }> = {
  id: 'fl01',
  title: 'FL01 twin',
  levels: 1,
  tutorialLevels: 1,
  actions: [1, 2, 5],
  init: () => ({ on: 0, end: 0 }),
  step(s, a: Action) {
    if (a.id === GameAction.ACTION1) return { ...s, on: s.on | 1 };
    if (a.id === GameAction.ACTION2) return { ...s, on: s.on | 2 };
    if (s.on === 0) return s;
    return { ...s, end: s.on === 3 ? 1 : 2 };
  },
  status: (s) => (s.end === 1 ? 'won' : s.end === 2 ? 'lost' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.on, s.end),
  decode: (b) => ({ on: b[0], end: b[1] }),
};

/** cl01 in TypeScript: a hidden counter 0..2; ACTION1 up, ACTION2 down, ACTION5 wins at 2, loses at 1. */
export const cl01Twin: Game<{ n: number; end: number }> = {
  id: 'cl01',
  title: 'CL01 twin',
  levels: 1,
  tutorialLevels: 1,
  actions: [1, 2, 5],
  init: () => ({ n: 0, end: 0 }),
  step(s, a: Action) {
    if (a.id === GameAction.ACTION1) return { ...s, n: Math.min(s.n + 1, 2) };
    if (a.id === GameAction.ACTION2) return { ...s, n: Math.max(s.n - 1, 0) };
    if (s.n === 0) return s;
    return { ...s, end: s.n === 2 ? 1 : 2 };
  },
  status: (s) => (s.end === 1 ? 'won' : s.end === 2 ? 'lost' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.n, s.end),
  decode: (b) => ({ n: b[0], end: b[1] }),
};

/** hs01 in TypeScript: a hub and a side room (set_level between them); the side room's lever stays where it was left. */
export const hs01Twin: Game<{ room: number; lever: number; won: boolean }> = {
  id: 'hs01',
  title: 'HS01 twin',
  levels: 1,
  tutorialLevels: 1,
  actions: [1, 2, 4, 5],
  init: () => ({ room: 0, lever: 0, won: false }),
  step(s, a: Action) {
    if (a.id === GameAction.ACTION5) return { ...s, room: 1 - s.room };
    if (s.room === 1 && (a.id === GameAction.ACTION1 || a.id === GameAction.ACTION2)) return { ...s, lever: Math.max(0, Math.min(2, s.lever + (a.id === GameAction.ACTION2 ? 1 : -1))) };
    if (s.room === 0 && a.id === GameAction.ACTION4 && s.lever === 2) return { ...s, won: true };
    return s;
  },
  status: (s) => (s.won ? 'won' : 'playing'),
  render: () => [blank()],
  encode: (s) => Uint8Array.of(s.room, s.lever, s.won ? 1 : 0),
  decode: (b) => ({ room: b[0], lever: b[1], won: b[2] === 1 }),
};
