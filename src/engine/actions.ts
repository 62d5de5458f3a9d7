/** ARC-AGI-3 `GameAction` numbering. RESET is never an available action. */
export const GameAction = {
  RESET: 0,
  ACTION1: 1,
  ACTION2: 2,
  ACTION3: 3,
  ACTION4: 4,
  ACTION5: 5,
  ACTION6: 6,
  ACTION7: 7,
} as const;
export type GameAction = (typeof GameAction)[keyof typeof GameAction];
export type PlayerAction = Exclude<GameAction, 0>;

export const ACTION_NAMES = ['RESET', 'ACTION1', 'ACTION2', 'ACTION3', 'ACTION4', 'ACTION5', 'ACTION6', 'ACTION7'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];

export const GRID = 64;
export const CELLS = GRID * GRID;

/** One player move. `x`, `y` (0..63) only for ACTION6, the click. */
export interface Action {
  readonly id: GameAction;
  readonly x?: number;
  readonly y?: number;
}

/**
 * Actions packed in one small integer for the compact store:
 * 0..7 are the action ids without coordinates, a click on (x, y) is 8 + y*64 + x.
 */
export type ActionCode = number;
export const CLICK_BASE = 8;
export const MAX_ACTION_CODE = CLICK_BASE + CELLS - 1;

export function actionCode(action: Action): ActionCode {
  if (action.id === GameAction.ACTION6) return CLICK_BASE + (action.y ?? 0) * GRID + (action.x ?? 0);
  return action.id;
}

/** The key actions by id (RESET..ACTION7): one table, shared so hot loops do not allocate an action per step. */
export const KEY_ACTIONS: readonly Action[] = [0, 1, 2, 3, 4, 5, 6, 7].map((id) => ({ id: id as GameAction }));

export function actionFromCode(code: ActionCode): Action {
  if (code < CLICK_BASE) return { id: code as GameAction };
  const cell = code - CLICK_BASE;
  return { id: GameAction.ACTION6, x: cell % GRID, y: Math.floor(cell / GRID) };
}

export function actionName(action: Action): string {
  const name = ACTION_NAMES[action.id] ?? `ACTION?${action.id}`;
  return action.id === GameAction.ACTION6 ? `${name}(${action.x},${action.y})` : name;
}

export const codeName = (code: ActionCode): string => actionName(actionFromCode(code));

/** Parses `ACTION3`, `3`, `ACTION6(10,20)` or `6@10,20` as printed by `actionName`. */
export function parseAction(text: string): Action {
  const m = /^\s*(?:ACTION)?([0-7])\s*(?:[(@]\s*(\d+)\s*,\s*(\d+)\s*\)?)?\s*$/i.exec(text);
  if (!m) {
    if (/^\s*RESET\s*$/i.test(text)) return { id: GameAction.RESET };
    throw new Error(`not an action: '${text}'`);
  }
  const id = Number(m[1]) as GameAction;
  if (id === GameAction.ACTION6) {
    if (m[2] === undefined) throw new Error(`ACTION6 needs a cell: '${text}'`);
    return checkedClick(Number(m[2]), Number(m[3]));
  }
  return { id };
}

export function checkedClick(x: number, y: number): Action {
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || x >= GRID || y < 0 || y >= GRID) {
    throw new Error(`click outside the grid: (${x}, ${y}); x and y must be in 0..63`);
  }
  return { id: GameAction.ACTION6, x, y };
}
