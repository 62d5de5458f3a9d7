import { ACTION_NAMES, GRID, GameAction, type Action } from './actions.js';
import { checkedStatus, type Frame, type Game } from './game.js';

export type SessionState = 'NOT_PLAYED' | 'NOT_FINISHED' | 'WIN' | 'GAME_OVER';

/** The ARC-AGI-3 step result, with frames kept as typed arrays (see `frameDataToJson`). */
export interface FrameData {
  game_id: string;
  frame: Frame[];
  state: SessionState;
  levels_completed: number;
  win_levels: number;
  action_input: { id: GameAction; data: { x?: number; y?: number } };
  full_reset: boolean;
  available_actions: number[];
}

/** A user error in a session (unavailable action, action after GAME_OVER...): one clear line. */
export class ActionError extends Error {}

/** What replay, play and reproductions need of a session: the TypeScript Session, or a game's own (Game.session). */
export interface GameSession<S = unknown> {
  readonly currentLevel: number;
  readonly gameState: S;
  readonly sessionState: SessionState;
  actionCount: number;
  act(action: Action): FrameData;
}

export interface SessionOptions {
  /**
   * Accept an action the game does not list (default false: refused with an ActionError). ARC
   * agents send them (the reference random agent draws from ACTION1..7) and the engine plays them
   * as actions that leave the state unchanged, so a replay of their recordings must too.
   */
  acceptUnavailable?: boolean;
  /**
   * Answer an action after GAME_OVER or WIN as the engine's perform_action does (default false:
   * refused with an ActionError): no frame, the state unchanged, not counted for RESET. Recordings
   * made against the ARC API hold such lines, so a replay of them must accept them.
   */
  acceptAfterEnd?: boolean;
}

/** Whether `action` reaches a session that has ended (GAME_OVER or WIN): only RESET continues one. */
export const afterEnd = (state: SessionState, action: Action): boolean => action.id !== GameAction.RESET && (state === 'GAME_OVER' || state === 'WIN');

/** A session of `game` begun at `startLevel`: the game's own sessions where it has them (a real ARC game's engine), else Session. */
export function openSession<S>(game: Game<S>, startLevel = 1, options: SessionOptions = {}): GameSession<S> {
  return game.session ? game.session(startLevel, options) : new Session(game, startLevel, options);
}

/** The checks a session makes before any action reaches the game: one ActionError line each. */
export function checkSessionAction(game: Game, state: SessionState, action: Action, options: SessionOptions = {}): void {
  if (action.id === GameAction.RESET) return;
  if (!options.acceptUnavailable && !game.actions.includes(action.id as never)) {
    throw new ActionError(`${ACTION_NAMES[action.id] ?? `action ${action.id}`} is not available in ${game.id} (available: ${game.actions.map((a) => ACTION_NAMES[a]).join(', ')})`);
  }
  if (action.id === GameAction.ACTION6) {
    const { x, y } = action;
    if (!Number.isInteger(x) || !Number.isInteger(y) || x! < 0 || x! >= GRID || y! < 0 || y! >= GRID) {
      throw new ActionError(`click outside the grid: (${x}, ${y}); x and y must be in 0..63`);
    }
  }
  if (state === 'NOT_PLAYED') throw new ActionError('the game has not started: send RESET first');
  if (options.acceptAfterEnd) return;
  if (state === 'GAME_OVER') throw new ActionError('the game is over: only RESET continues');
  if (state === 'WIN') throw new ActionError('the game is won: only RESET continues');
}

/**
 * Wraps a game into an ARC-AGI-3 session: RESET rules, level progression, WIN after the last
 * level, GAME_OVER. `startLevel` lets a developer begin at a later level; a full reset returns
 * there, with the earlier levels counted as completed.
 */
export class Session<S = unknown> implements GameSession<S> {
  private level: number;
  private current: S;
  private actionsThisLevel = 0;
  private state: SessionState = 'NOT_PLAYED';
  private completed: number;
  /** Actions taken since the session began (RESET included), for status lines. */
  actionCount = 0;

  constructor(
    readonly game: Game<S>,
    readonly startLevel = 1,
    private readonly options: SessionOptions = {},
  ) {
    if (!Number.isInteger(startLevel) || startLevel < 1 || startLevel > game.levels) {
      throw new ActionError(`level ${startLevel} does not exist: ${game.id} has levels 1..${game.levels}`);
    }
    this.level = startLevel;
    this.completed = startLevel - 1;
    this.current = game.init(startLevel);
  }

  get currentLevel(): number {
    return this.level;
  }

  get gameState(): S {
    return this.current;
  }

  get sessionState(): SessionState {
    return this.state;
  }

  /** Applies one action (RESET included) and returns the FrameData the ARC API would. */
  act(action: Action): FrameData {
    const { game } = this;
    if (action.id === GameAction.RESET) return this.reset(action);
    checkSessionAction(game, this.state, action, this.options);
    this.actionCount++;
    // An accepted action after the end: the engine's empty answer, not counted for RESET (its
    // perform_action returns before counting it).
    if (afterEnd(this.state, action)) return this.frameData(action, [], false);
    this.actionsThisLevel++;
    // An unavailable action is an action that leaves the state unchanged (a game's step is only
    // defined for its own actions); it still counts for RESET, as in the engine's perform_action.
    if (!game.actions.includes(action.id as never)) return this.frameData(action, game.render(this.current), false);
    const next = game.step(this.current, action);
    const status = checkedStatus(game.status(next));
    const layers = game.render(next);
    this.current = next;
    if (status === 'lost') {
      this.state = 'GAME_OVER';
    } else if (status === 'won') {
      this.completed++;
      if (this.level >= game.levels) {
        this.state = 'WIN';
      } else {
        this.level++;
        this.current = game.init(this.level);
        this.actionsThisLevel = 0;
        layers.push(...game.render(this.current));
      }
    }
    return this.frameData(action, layers, false);
  }

  /** RESET: the whole game when nothing was done since the level began or after WIN, else the level. */
  private reset(action: Action): FrameData {
    const full = this.state === 'NOT_PLAYED' || this.state === 'WIN' || this.actionsThisLevel === 0;
    this.actionCount++;
    if (full) {
      this.level = this.startLevel;
      this.completed = this.startLevel - 1;
    }
    this.current = this.game.init(this.level);
    this.actionsThisLevel = 0;
    this.state = 'NOT_FINISHED';
    return this.frameData(action, this.game.render(this.current), full);
  }

  private frameData(action: Action, frame: Frame[], fullReset: boolean): FrameData {
    const data: { x?: number; y?: number } = action.id === GameAction.ACTION6 ? { x: action.x, y: action.y } : {};
    return {
      game_id: this.game.id,
      frame,
      state: this.state,
      levels_completed: this.completed,
      win_levels: this.game.levels,
      action_input: { id: action.id, data },
      full_reset: fullReset,
      available_actions: [...this.game.actions],
    };
  }
}

/** A frame as the nested 64x64 number arrays of the JSON formats. */
export function frameToRows(frame: Frame): number[][] {
  const rows: number[][] = [];
  for (let y = 0; y < GRID; y++) rows.push(Array.from(frame.subarray(y * GRID, (y + 1) * GRID)));
  return rows;
}
