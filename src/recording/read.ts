/**
 * Reads the two recording styles of ARC-AGI-3 (JSON Lines of `{"timestamp", "data"}`):
 * - ARC-AGI-3-Agents: `data` is a full FrameData, `action_input.id` an integer; the last line may
 *   be a scorecard (a `data` without `action_input`);
 * - arc-agi toolkit: `action_input.id` is a name ("ACTION1"), `data` {x, y}, the frame optional.
 * Malformed or truncated input is an InputError naming the file and the line.
 */
import { readFileSync } from 'node:fs';
import { ACTION_NAMES, CELLS, GRID, GameAction, checkedClick, type Action } from '../engine/index.js';
import type { Frame } from '../engine/index.js';
import { InputError } from '../errors.js';
import type { SessionState } from '../engine/index.js';

export type RecordingStyle = 'agents' | 'toolkit';

/** One recorded step: the action sent and what the recording says came back. */
export interface RecordedStep {
  /** 1-based line number in the file. */
  line: number;
  action: Action;
  gameId?: string;
  state?: SessionState;
  levelsCompleted?: number;
  winLevels?: number;
  fullReset?: boolean;
  /** The action ids the recording says were available (names read as their ids). */
  availableActions?: number[];
  /** Frame layers, when the recording has them. */
  frame?: Frame[];
}

export interface Recording {
  file: string;
  /** The style of the first step (action id given as an integer or as a name). */
  style: RecordingStyle;
  /** The first `game_id` in the file, as written (e.g. `ls20-fa137e247ce6`). */
  gameId?: string;
  steps: RecordedStep[];
  /** The final scorecard line of an Agents recording, as written. */
  scorecard?: unknown;
  /** That line's timestamp, as written (`replay --out` writes the line back as it was). */
  scorecardTimestamp?: unknown;
}

const STATES: readonly string[] = ['NOT_PLAYED', 'NOT_FINISHED', 'WIN', 'GAME_OVER'];

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Reads and validates a recording file. */
export function readRecording(path: string): Recording {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new InputError(`cannot read recording ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseRecording(text, path);
}

/** Parses recording text; `file` names it in errors. */
export function parseRecording(text: string, file: string): Recording {
  const lines = text.split('\n');
  const steps: RecordedStep[] = [];
  let style: RecordingStyle | undefined;
  let gameId: string | undefined;
  let gameIdLine = 0;
  let scorecard: unknown;
  let scorecardTimestamp: unknown;
  let scorecardLine = 0;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    const fail = (why: string): never => {
      throw new InputError(`${file}:${line}: ${why}`);
    };
    if (scorecardLine) fail(`a step follows the scorecard of line ${scorecardLine}`);
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch {
      fail(`not valid JSON (malformed or truncated line)`);
    }
    if (!isObject(record) || !isObject(record.data)) return fail(`expected an object {"timestamp", "data": {...}}`);
    const data = record.data;
    if (data.action_input === undefined) {
      scorecard = data;
      scorecardTimestamp = record.timestamp;
      scorecardLine = line;
      return;
    }
    const step = parseStep(data, line, fail);
    style ??= typeof (data.action_input as Json).id === 'number' ? 'agents' : 'toolkit';
    // One recording is one session of one game: another game_id is a spliced or corrupt file.
    if (step.gameId !== undefined && gameId !== undefined && step.gameId !== gameId) fail(`game_id ${JSON.stringify(step.gameId)} differs from ${JSON.stringify(gameId)} of line ${gameIdLine}`);
    if (gameId === undefined && step.gameId !== undefined) [gameId, gameIdLine] = [step.gameId, line];
    steps.push(step);
  });
  if (steps.length === 0) throw new InputError(`${file}: the recording has no steps`);
  return { file, style: style!, gameId, steps, scorecard, scorecardTimestamp };
}

function parseStep(data: Json, line: number, fail: (why: string) => never): RecordedStep {
  const input = data.action_input;
  if (!isObject(input)) return fail(`action_input must be an object`);
  const id = actionId(input.id, fail);
  let action: Action = { id };
  if (id === GameAction.ACTION6) {
    const args = isObject(input.data) ? input.data : {};
    if (args.x === undefined || args.y === undefined) fail(`ACTION6 needs action_input.data.x and .y`);
    // A wrong type is not a cell outside the grid: "2" would otherwise read as (2, ...) out of range.
    if (!Number.isInteger(args.x) || !Number.isInteger(args.y)) fail(`ACTION6 x and y must be integers, got x ${JSON.stringify(args.x)}, y ${JSON.stringify(args.y)}`);
    try {
      action = checkedClick(args.x as number, args.y as number);
    } catch (err) {
      fail((err as Error).message);
    }
  }
  const step: RecordedStep = { line, action };
  if (data.game_id !== undefined) {
    if (typeof data.game_id !== 'string') fail(`game_id must be a string`);
    step.gameId = data.game_id as string;
  }
  if (data.state !== undefined) {
    if (!STATES.includes(data.state as string)) fail(`state must be one of ${STATES.join(', ')}, got ${JSON.stringify(data.state)}`);
    step.state = data.state as SessionState;
  }
  if (data.levels_completed !== undefined) step.levelsCompleted = count(data.levels_completed, 'levels_completed', fail);
  if (data.win_levels !== undefined) step.winLevels = count(data.win_levels, 'win_levels', fail);
  if (data.full_reset !== undefined) {
    if (typeof data.full_reset !== 'boolean') fail(`full_reset must be true or false`);
    step.fullReset = data.full_reset as boolean;
  }
  if (data.available_actions !== undefined) {
    if (!Array.isArray(data.available_actions)) fail(`available_actions must be a list of action ids`);
    step.availableActions = (data.available_actions as unknown[]).map((a, k) => actionId(a, fail, `available_actions[${k}]`));
  }
  if (data.frame !== undefined && data.frame !== null) step.frame = frameLayers(data.frame, fail);
  return step;
}

/** An action id as an integer 0..7 (Agents style) or a name such as "ACTION1" (toolkit style); `what` names the field in errors. */
function actionId(raw: unknown, fail: (why: string) => never, what = 'action_input.id'): GameAction {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 && raw < ACTION_NAMES.length) return raw as GameAction;
  if (typeof raw === 'string') {
    const index = ACTION_NAMES.indexOf(raw.toUpperCase() as (typeof ACTION_NAMES)[number]);
    if (index >= 0) return index as GameAction;
  }
  return fail(`${what} must be 0..7 or one of ${ACTION_NAMES.join(', ')}, got ${JSON.stringify(raw)}`);
}

function count(raw: unknown, name: string, fail: (why: string) => never): number {
  if (!Number.isInteger(raw) || (raw as number) < 0) fail(`${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return raw as number;
}

/** A list of 64x64 layers of colours 0..15, as typed-array frames. */
function frameLayers(raw: unknown, fail: (why: string) => never): Frame[] {
  if (!Array.isArray(raw)) return fail(`frame must be a list of 64x64 layers`);
  return raw.map((layer: unknown, k) => {
    if (!Array.isArray(layer) || layer.length !== GRID) fail(`frame layer ${k} must have 64 rows`);
    const frame = new Uint8Array(CELLS);
    (layer as unknown[]).forEach((row, y) => {
      if (!Array.isArray(row) || row.length !== GRID) fail(`frame layer ${k} row ${y} must have 64 cells`);
      (row as unknown[]).forEach((c, x) => {
        if (!Number.isInteger(c) || (c as number) < 0 || (c as number) > 15) fail(`frame layer ${k} cell (${x}, ${y}) must be a colour 0..15, got ${JSON.stringify(c)}`);
        frame[y * GRID + x] = c as number;
      });
    });
    return frame;
  });
}
