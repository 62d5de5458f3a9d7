/**
 * cm16, colour mosaic: click the cells of the board to cycle their colours until the board shows
 * the target picture, then submit with ACTION5. A wrong submit costs one of three lives; every
 * action spends one unit of the timer bar. Later levels add cells of different cycle lengths,
 * linked cells, locked cells and a mirror axis.
 */
import { GRID, GameAction, type Action } from '../../src/engine/index.js';
import type { ClickTarget, Game, Status } from '../../src/engine/index.js';
import { ByteReader, ByteWriter } from '../../src/toolkit/index.js';
import { layoutOf } from './layout.js';
import { MOSAIC_LEVELS, compileLevel } from './levels.js';
import { renderMosaic } from './render.js';

export interface MosaicState {
  readonly level: number;
  /** Each cell's colour as an index into its cycle. */
  readonly cells: Uint8Array;
  /** Actions taken on this level (the timer bar). */
  readonly spent: number;
  readonly lives: number;
  /** Set by a submit that matched the target. */
  readonly won: boolean;
}

export const LEVELS = MOSAIC_LEVELS.map(compileLevel);
const LAYOUTS = LEVELS.map(layoutOf);

function matches(level: number, cells: Uint8Array): boolean {
  const target = LEVELS[level - 1].target;
  for (let i = 0; i < cells.length; i++) if (cells[i] !== target[i]) return false;
  return true;
}

function status(s: MosaicState): Status {
  if (s.won) return 'won';
  return s.lives === 0 || s.spent >= LEVELS[s.level - 1].budget ? 'lost' : 'playing';
}

const game: Game<MosaicState> = {
  id: 'cm16',
  title: 'Colour mosaic',
  levels: LEVELS.length,
  tutorialLevels: 1,
  actions: [GameAction.ACTION5, GameAction.ACTION6],
  baselineActions: LEVELS.map((l) => l.baseline),
  init: (level) => ({ level, cells: LEVELS[level - 1].start.slice(), spent: 0, lives: LEVELS[level - 1].lives, won: false }),
  step(s, a: Action) {
    if (status(s) !== 'playing') return s;
    if (a.id === GameAction.ACTION5) {
      const won = matches(s.level, s.cells);
      return { level: s.level, cells: s.cells, spent: s.spent + 1, lives: won ? s.lives : s.lives - 1, won };
    }
    if (a.id !== GameAction.ACTION6) return s;
    const level = LEVELS[s.level - 1];
    const clicked = LAYOUTS[s.level - 1].hit[(a.y ?? 0) * GRID + (a.x ?? 0)];
    const effect = clicked >= 0 ? level.effects[clicked] : null;
    let cells = s.cells;
    if (effect) {
      cells = s.cells.slice();
      for (const j of effect) cells[j] = cells[j] + 1 === level.cycle[j] ? 0 : cells[j] + 1;
    }
    return { level: s.level, cells, spent: s.spent + 1, lives: s.lives, won: false };
  },
  status,
  render: (s) => [renderMosaic(LEVELS[s.level - 1], LAYOUTS[s.level - 1], s.cells, s.spent, s.lives)],
  encode: (s) => new ByteWriter(8 + s.cells.length).u8(s.level).uint(s.spent).u8(s.lives).bool(s.won).bytes(s.cells).finish(),
  decode(bytes) {
    const r = new ByteReader(bytes);
    return { level: r.u8(), spent: r.uint(), lives: r.u8(), won: r.bool(), cells: r.bytes() };
  },
  clickTargets(s): ClickTarget[] {
    const level = LEVELS[s.level - 1];
    return LAYOUTS[s.level - 1].rects.filter((_, i) => !level.locked[i]);
  },
};

export default game;
