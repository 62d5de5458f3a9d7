import { describe, expect, it } from 'vitest';
import lights from '../../test/fixtures/lights.js';
import maze from '../../test/fixtures/maze.js';
import ruin, { RUIN_LEVELS } from '../../test/fixtures/ruin.js';
import { GRID, GameAction, type Action } from './actions.js';
import { ActionError, Session, frameToRows } from './runtime.js';

const RESET: Action = { id: GameAction.RESET };
const LEFT: Action = { id: GameAction.ACTION3 };
const RIGHT: Action = { id: GameAction.ACTION4 };
const click = (x: number, y: number): Action => ({ id: GameAction.ACTION6, x, y });
const times = (n: number, a: Action): Action[] => Array.from({ length: n }, () => a);
/** Moves right until level `level` of the ruin corridor is won (n - start steps). */
const winRuin = (level: number): Action[] => times(RUIN_LEVELS[level - 1].n - RUIN_LEVELS[level - 1].start, RIGHT);
const playAll = (s: Session, actions: Action[]) => actions.map((a) => s.act(a)).at(-1)!;

describe('Session before the first RESET', () => {
  it('is NOT_PLAYED and refuses actions', () => {
    const s = new Session(ruin);
    expect(s.sessionState).toBe('NOT_PLAYED');
    expect(() => s.act(RIGHT)).toThrow(ActionError);
    expect(() => s.act(RIGHT)).toThrow('send RESET first');
  });

  it('the first RESET is a full reset to the start level', () => {
    const fd = new Session(ruin).act(RESET);
    expect(fd).toMatchObject({ game_id: 'ruin', state: 'NOT_FINISHED', levels_completed: 0, win_levels: 6, full_reset: true, available_actions: [3, 4] });
    expect(fd.action_input).toEqual({ id: 0, data: {} });
    expect(fd.frame).toEqual(ruin.render(ruin.init(1)));
  });

  it('rejects a start level outside 1..levels', () => {
    expect(() => new Session(ruin, 0)).toThrow(ActionError);
    expect(() => new Session(ruin, 7)).toThrow('levels 1..6');
  });
});

describe('RESET rules', () => {
  it('resets only the level when an action was taken since it began', () => {
    const s = new Session(ruin);
    playAll(s, [RESET, ...winRuin(1), RIGHT]);
    expect(s.currentLevel).toBe(2);
    const fd = s.act(RESET);
    expect(fd.full_reset).toBe(false);
    expect(fd.levels_completed).toBe(1);
    expect(s.currentLevel).toBe(2);
    expect(s.gameState).toEqual(ruin.init(2));
  });

  it('resets the whole game when nothing was done since the level began', () => {
    const s = new Session(ruin);
    playAll(s, [RESET, ...winRuin(1), RIGHT, RESET]);
    const fd = s.act(RESET);
    expect(fd.full_reset).toBe(true);
    expect(fd.levels_completed).toBe(0);
    expect(s.currentLevel).toBe(1);
    expect(s.gameState).toEqual(ruin.init(1));
  });

  it('counts reaching a new level as its beginning: RESET right after a level is won is full', () => {
    const s = new Session(ruin);
    playAll(s, [RESET, ...winRuin(1)]);
    expect(s.currentLevel).toBe(2);
    expect(s.act(RESET)).toMatchObject({ full_reset: true, levels_completed: 0 });
    expect(s.currentLevel).toBe(1);
  });

  it('counts a blocked action as an action (the next RESET is a level reset)', () => {
    const s = new Session(maze);
    s.act(RESET);
    const before = maze.encode(s.gameState);
    s.act({ id: GameAction.ACTION1 }); // up from the top row: blocked
    expect(maze.encode(s.gameState)).toEqual(before);
    expect(s.act(RESET).full_reset).toBe(false);
  });

  it('returns a full reset to the start level, with the earlier levels counted as completed', () => {
    const s = new Session(ruin, 3);
    expect(s.act(RESET)).toMatchObject({ full_reset: true, levels_completed: 2 });
    playAll(s, [...winRuin(3), LEFT, RESET]);
    expect(s.currentLevel).toBe(4);
    expect(s.act(RESET)).toMatchObject({ full_reset: true, levels_completed: 2 });
    expect(s.currentLevel).toBe(3);
  });
});

describe('level progression and WIN', () => {
  it('advances a level when one is won, returning the won frame and the next level frame', () => {
    const s = new Session(ruin);
    s.act(RESET);
    const fd = playAll(s, winRuin(1));
    expect(fd.state).toBe('NOT_FINISHED');
    expect(fd.levels_completed).toBe(1);
    expect(fd.frame).toHaveLength(2);
    expect(fd.frame[0]).toEqual(ruin.render({ level: 1, pos: RUIN_LEVELS[0].n })[0]);
    expect(fd.frame[1]).toEqual(ruin.render(ruin.init(2))[0]);
    expect(s.gameState).toEqual(ruin.init(2));
  });

  it('reaches WIN after the last level, then accepts only RESET, which is a full reset', () => {
    const s = new Session(ruin);
    s.act(RESET);
    let fd;
    for (let level = 1; level <= ruin.levels; level++) {
      fd = playAll(s, winRuin(level));
      expect(fd.levels_completed).toBe(level);
    }
    expect(fd!.state).toBe('WIN');
    expect(fd!.frame).toHaveLength(1);
    expect(() => s.act(RIGHT)).toThrow('only RESET continues');
    expect(s.act(RESET)).toMatchObject({ full_reset: true, levels_completed: 0, state: 'NOT_FINISHED' });
    expect(s.currentLevel).toBe(1);
  });

  it('wins the click game with the clicks the fixture documents (centre, then two corners)', () => {
    const s = new Session(lights);
    s.act(RESET);
    // the 5x5 board is scaled by 12 with a 2-cell letterbox: level cell (c, r) spans 2 + 12c ..
    expect(s.act(click(2 + 12 * 2 + 5, 2 + 12 * 2 + 5)).levels_completed).toBe(1);
    s.act(click(2 + 12 + 1, 2 + 12 + 1));
    const fd = s.act(click(2 + 36 + 11, 2 + 36 + 11));
    expect(fd).toMatchObject({ state: 'WIN', levels_completed: 2, action_input: { id: 6, data: { x: 49, y: 49 } } });
  });
});

describe('GAME_OVER', () => {
  it('ends the attempt: only RESET continues, and it resets the level', () => {
    const s = new Session(ruin);
    playAll(s, [RESET, ...winRuin(1)]);
    const fd = playAll(s, times(RUIN_LEVELS[1].start, LEFT));
    expect(fd).toMatchObject({ state: 'GAME_OVER', levels_completed: 1 });
    expect(() => s.act(RIGHT)).toThrow('the game is over: only RESET continues');
    expect(s.act(RESET)).toMatchObject({ state: 'NOT_FINISHED', full_reset: false, levels_completed: 1 });
    expect(s.currentLevel).toBe(2);
  });

  it('is reached on the click game when the move budget runs out', () => {
    const s = new Session(lights);
    s.act(RESET);
    const fd = playAll(s, times(4, click(0, 0)));
    expect(fd.state).toBe('GAME_OVER');
  });
});

describe('refused actions', () => {
  it('rejects an unavailable action with a clear error, leaving the session as it was', () => {
    const s = new Session(ruin);
    s.act(RESET);
    const count = s.actionCount;
    expect(() => s.act({ id: GameAction.ACTION1 })).toThrow('ACTION1 is not available in ruin (available: ACTION3, ACTION4)');
    expect(s.actionCount).toBe(count);
    expect(s.act(RESET).full_reset).toBe(true); // still nothing done in the level
  });

  it('plays an unavailable action as an action that leaves the state unchanged when the session accepts them', () => {
    const s = new Session(ruin, 1, { acceptUnavailable: true });
    const start = s.act(RESET);
    const state = s.gameState;
    const fd = s.act({ id: GameAction.ACTION1 });
    expect(s.gameState).toBe(state);
    expect([fd.state, fd.levels_completed, fd.full_reset, fd.action_input.id]).toEqual(['NOT_FINISHED', 0, false, GameAction.ACTION1]);
    expect(fd.frame).toEqual(start.frame);
    expect(s.act(RESET).full_reset).toBe(false); // it was an action: the level resets, not the game
    expect(() => s.act({ id: GameAction.ACTION6, x: 64, y: 0 })).toThrow('click outside the grid');
  });

  it.each([
    [64, 0],
    [0, -1],
    [1.5, 2],
  ])('rejects a click outside the grid (%d, %d)', (x, y) => {
    const s = new Session(lights);
    s.act(RESET);
    expect(() => s.act(click(x, y))).toThrow('click outside the grid');
  });
});

it('frameToRows gives 64 rows of 64 colours in row-major order', () => {
  const frame = lights.render(lights.init(1))[0];
  const rows = frameToRows(frame);
  expect(rows).toHaveLength(GRID);
  rows.forEach((row, y) => {
    expect(row).toHaveLength(GRID);
    row.forEach((c, x) => expect(c).toBe(frame[y * GRID + x]));
  });
});
