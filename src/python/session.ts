/** A session of a Python game: the engine's own perform_action (RESET rules, level progression), played in the game's own process. */
import { ActionError, actionCode, checkSessionAction, GameAction, type Action, type FrameData, type GameSession, type SessionOptions, type SessionState } from '../engine/index.js';
import type { Frame } from '../engine/index.js';
import type { PythonGame, PyState } from './game.js';

let sessions = 0;

export class PySession implements GameSession<PyState> {
  private readonly sid = ++sessions;
  private state: SessionState = 'NOT_PLAYED';
  private level: number;
  private lastFrame: Frame;
  actionCount = 0;
  /** How the session's start level was reached ('played' through earlier wins, or 'set-level'). */
  readonly levelStart: string;

  constructor(
    private readonly game: PythonGame,
    readonly startLevel = 1,
    private readonly options: SessionOptions = {},
  ) {
    if (!Number.isInteger(startLevel) || startLevel < 1 || startLevel > game.levels) {
      throw new ActionError(`level ${startLevel} does not exist: ${game.id} has levels 1..${game.levels}`);
    }
    this.level = startLevel;
    const root = game.root(startLevel);
    this.lastFrame = root.frame;
    this.levelStart = root.levelStart;
    const path = game.startPath(startLevel);
    game.call({ op: 'session', sid: this.sid, what: 'open', level: startLevel, ...(path && path.length > 0 && { path }) }, [], path?.length ?? 1);
  }

  get currentLevel(): number {
    return this.level;
  }

  get sessionState(): SessionState {
    return this.state;
  }

  /** The live state as the game contract's state (a snapshot taken now). */
  get gameState(): PyState {
    const m = this.game.call({ op: 'session', sid: this.sid, what: 'state' }, [], 1);
    return { snapshot: m.blobs[0], digest: m.blobs[1], status: 'playing', frames: [this.lastFrame], level: this.level };
  }

  act(action: Action): FrameData {
    // An accepted unavailable action, or one after the end, goes to the engine: its perform_action decides what it does.
    checkSessionAction(this.game, this.state, action, this.options);
    this.actionCount++;
    const m = this.game.call({ op: 'session', sid: this.sid, what: 'act', action: actionCode(action) }, [], 1);
    const h = m.header as { state: SessionState; levelsCompleted: number; winLevels: number; fullReset: boolean; level: number; layers: number; availableActions: number[] };
    const frame: Frame[] = [];
    for (let k = 0; k < h.layers; k++) frame.push(m.blobs[0].slice(k * 4096, (k + 1) * 4096));
    if (frame.length > 0) this.lastFrame = frame[frame.length - 1];
    this.state = h.state;
    this.level = h.level;
    return {
      // The full versioned id, as recordings made against the ARC API carry it (replay reads the part before '-').
      game_id: this.game.info.gameId,
      frame,
      state: h.state,
      levels_completed: h.levelsCompleted,
      win_levels: h.winLevels,
      action_input: { id: action.id, data: action.id === GameAction.ACTION6 ? { x: action.x, y: action.y } : {} },
      full_reset: h.fullReset,
      // The engine's list after this action, not the one the game gave when loaded: replay compares it.
      available_actions: h.availableActions,
    };
  }
}
