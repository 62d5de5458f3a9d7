/**
 * The frames along an action path: the level's start, then the settled frame after each action,
 * played through the Game interface alone (init, step, status, render), so any game that
 * implements it (the suite, game modules, a bridged Python game) gets filmstrips the same way.
 */
import { actionName, type Action } from './actions.js';
import type { Frame, Game, Status } from './game.js';

export interface PathFrame {
  /** The settled frame (the last layer render gives). */
  frame: Frame;
  /** The action that led here; null for the start. */
  action: string | null;
  status: Status;
}

/** Thrown when the game throws along the path: which step, and why. */
export class PathError extends Error {
  constructor(readonly step: number, readonly reason: string) {
    super(step === 0 ? `the start of the level cannot be built or drawn: ${reason}` : `action ${step} of the path failed: ${reason}`);
  }
}

/**
 * Plays `actions` from the reset state of `level` and returns actions.length + 1 frames (the start
 * first). Runs game code: a throw becomes a PathError naming the step; a path that goes on after
 * the level ended is refused the same way (the game would be stepped past a terminal state).
 */
export function framesAlong(game: Game, level: number, actions: readonly Action[]): PathFrame[] {
  const settled = (state: unknown, step: number): Frame => {
    const layers = game.render(state);
    const frame = layers[layers.length - 1];
    if (!frame) throw new PathError(step, 'render gave no layer');
    return frame;
  };
  const frames: PathFrame[] = [];
  let state: unknown;
  try {
    state = game.init(level);
    frames.push({ frame: settled(state, 0), action: null, status: game.status(state) });
  } catch (err) {
    throw err instanceof PathError ? err : new PathError(0, (err as Error)?.message ?? String(err));
  }
  actions.forEach((action, i) => {
    if (frames[i].status !== 'playing') throw new PathError(i + 1, `the level already ended (${frames[i].status}) before ${actionName(action)}`);
    try {
      state = game.step(state, action);
      frames.push({ frame: settled(state, i + 1), action: actionName(action), status: game.status(state) });
    } catch (err) {
      throw err instanceof PathError ? err : new PathError(i + 1, (err as Error)?.message ?? String(err));
    }
  });
  return frames;
}
