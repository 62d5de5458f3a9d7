/**
 * Writes ARC-AGI-3-Agents style recordings: JSON Lines of `{"timestamp": ISO, "data": FrameData}`
 * with frames as nested 64x64 arrays and `action_input.id` as an integer.
 */
import { randomUUID } from 'node:crypto';
import { writeFileAtomic } from '../files.js';
import { GameAction, type Action } from '../engine/index.js';
import type { Game } from '../engine/index.js';
import { openSession, frameToRows, type FrameData, type SessionState } from '../engine/index.js';

/** The JSON form of FrameData as the Agents recordings hold it. */
export interface RecordedFrameData {
  game_id: string;
  frame: number[][][];
  state: SessionState;
  levels_completed: number;
  win_levels: number;
  action_input: { id: number; data: { x?: number; y?: number } };
  guid: string;
  full_reset: boolean;
  available_actions: number[];
}

/** How a played sequence ended. */
export interface RecordingOutcome {
  state: SessionState;
  levels_completed: number;
}

/** FrameData in its JSON form, tagged with the session's guid. */
export function frameDataToJson(frameData: FrameData, guid: string): RecordedFrameData {
  const { x, y } = frameData.action_input.data;
  return {
    game_id: frameData.game_id,
    frame: frameData.frame.map(frameToRows),
    state: frameData.state,
    levels_completed: frameData.levels_completed,
    win_levels: frameData.win_levels,
    action_input: { id: frameData.action_input.id, data: frameData.action_input.id === GameAction.ACTION6 ? { x, y } : {} },
    guid,
    full_reset: frameData.full_reset,
    available_actions: [...frameData.available_actions],
  };
}

export interface RecordOptions {
  /** The level the session starts at (a full reset returns there). */
  startLevel?: number;
  /** The session guid written on every line; a fresh UUID by default. */
  guid?: string;
}

/**
 * Plays RESET then `actions` (which may contain further RESETs) in a fresh session and returns the
 * FrameData of every step. Unavailable actions throw the session's ActionError.
 */
export function recordActions(game: Game, actions: readonly Action[], opts: RecordOptions = {}): { lines: RecordedFrameData[]; outcome: RecordingOutcome } {
  const session = openSession(game, opts.startLevel ?? 1);
  const guid = opts.guid ?? randomUUID();
  const lines: RecordedFrameData[] = [];
  let last: FrameData | undefined;
  for (const action of [{ id: GameAction.RESET } as Action, ...actions]) {
    last = session.act(action);
    lines.push(frameDataToJson(last, guid));
  }
  return { lines, outcome: { state: last!.state, levels_completed: last!.levels_completed } };
}

/** A recording's final scorecard line (an Agents recording may end with one), written back as it was read. */
export interface ScorecardLine {
  timestamp?: unknown;
  data: unknown;
}

/** The file text: one compact `{"timestamp", "data"}` object per line, then the scorecard line if given. */
export function recordingText(lines: readonly RecordedFrameData[], now: () => Date = () => new Date(), scorecard?: ScorecardLine): string {
  const text = lines.map((data) => JSON.stringify({ timestamp: now().toISOString(), data }) + '\n').join('');
  return scorecard ? text + JSON.stringify({ timestamp: scorecard.timestamp, data: scorecard.data }) + '\n' : text;
}

/** Writes recorded lines (and a final scorecard line) to `path` atomically. */
export function writeRecordingLines(path: string, lines: readonly RecordedFrameData[], scorecard?: ScorecardLine): void {
  writeFileAtomic(path, recordingText(lines, undefined, scorecard));
}

/**
 * Plays RESET then `actions` and writes the recording to `path` (by convention
 * `<game_id>.<agent>.<n>.<uuid>.recording.jsonl`). Nothing is written when a step fails.
 */
export function writeRecording(path: string, game: Game, actions: readonly Action[], opts: RecordOptions = {}): RecordingOutcome {
  const { lines, outcome } = recordActions(game, actions, opts);
  writeRecordingLines(path, lines);
  return outcome;
}
