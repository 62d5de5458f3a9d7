/**
 * gv08, gravity drop: balls rest on trapdoors; clicking a lever flips every trapdoor of its colour
 * and the balls fall, roll off slopes and stack on each other. The level is won when every cup
 * holds a ball of its colour. Every click spends one unit of the timer bar. A trapdoor cannot close
 * on a ball (the lever is jammed).
 */
import { CELLS, GRID, GameAction, type Action } from '../../src/engine/index.js';
import type { ClickTarget, Game, Status } from '../../src/engine/index.js';
import { ByteReader, ByteWriter } from '../../src/toolkit/index.js';
import { DROP_LEVELS, compileLevel } from './levels.js';
import { cupsFilled, jammed, settle } from './physics.js';
import { TILE, cameraFor, renderDrop } from './render.js';

export interface DropState {
  readonly level: number;
  /** Clicks spent on this level (the timer bar). */
  readonly spent: number;
  /** Bit g set when lever g has been flipped an odd number of times. */
  readonly flipped: number;
  /** Each ball's cell, in the level's ball order (sorted within a colour). */
  readonly balls: Uint8Array;
}

export const LEVELS = DROP_LEVELS.map(compileLevel);
const CAMERAS = LEVELS.map(cameraFor);
const LEVER_RECTS = LEVELS.map((level, i): ClickTarget[] =>
  level.levers.map(({ cell }) => {
    const r = CAMERAS[i].cellRect((cell % level.w) * TILE, Math.floor(cell / level.w) * TILE);
    return { x: r.x, y: r.y, w: r.w * TILE, h: r.h * TILE };
  }),
);
/** Per level and frame cell: the group of the lever a click there flips, or -1. */
const LEVER_AT = LEVELS.map((level, i) => {
  const at = new Int8Array(CELLS).fill(-1);
  LEVER_RECTS[i].forEach((r, k) => {
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) at[y * GRID + x] = level.levers[k].group;
  });
  return at;
});

function status(s: DropState): Status {
  const level = LEVELS[s.level - 1];
  if (cupsFilled(level, s.balls)) return 'won';
  return s.spent >= level.budget ? 'lost' : 'playing';
}

const game: Game<DropState> = {
  id: 'gv08',
  title: 'Gravity drop',
  levels: LEVELS.length,
  tutorialLevels: 1,
  actions: [GameAction.ACTION6],
  baselineActions: LEVELS.map((l) => l.baseline),
  init(level) {
    const l = LEVELS[level - 1];
    return { level, spent: 0, flipped: 0, balls: settle(l, 0, l.ballStart.slice()) };
  },
  step(s, a: Action) {
    if (a.id !== GameAction.ACTION6 || status(s) !== 'playing') return s;
    const level = LEVELS[s.level - 1];
    const group = LEVER_AT[s.level - 1][(a.y ?? 0) * GRID + (a.x ?? 0)];
    if (group < 0 || jammed(level, s.flipped, group, s.balls)) return { level: s.level, spent: s.spent + 1, flipped: s.flipped, balls: s.balls };
    const flipped = s.flipped ^ (1 << group);
    return { level: s.level, spent: s.spent + 1, flipped, balls: settle(level, flipped, s.balls.slice()) };
  },
  status,
  render: (s) => [renderDrop(LEVELS[s.level - 1], CAMERAS[s.level - 1], s.flipped, s.balls, s.spent)],
  encode: (s) => new ByteWriter(8 + s.balls.length).u8(s.level).uint(s.spent).u8(s.flipped).bytes(s.balls).finish(),
  decode(bytes) {
    const r = new ByteReader(bytes);
    return { level: r.u8(), spent: r.uint(), flipped: r.u8(), balls: r.bytes() };
  },
  clickTargets: (s) => LEVER_RECTS[s.level - 1],
};

export default game;
