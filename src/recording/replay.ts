/**
 * Replays a recording with the runtime, step by step, checking what the recording says came back
 * (state, levels_completed, win_levels, full_reset, frames where present) and naming the first
 * step that diverges.
 */
import { randomUUID } from 'node:crypto';
import { GRID, GameAction, actionName } from '../engine/actions.js';
import type { Frame, Game } from '../engine/game.js';
import { InputError } from '../engine/loader.js';
import { ActionError, Session, type FrameData } from '../engine/runtime.js';
import type { RecordedStep, Recording } from './read.js';
import { frameDataToJson, type RecordedFrameData, type RecordingOutcome } from './write.js';

/** The first step whose replay differs from the recording. */
export interface Divergence {
  /** 1-based index of the step among the recording's steps. */
  step: number;
  /** Line of the file that holds it. */
  line: number;
  action: string;
  field: 'state' | 'levels_completed' | 'win_levels' | 'full_reset' | 'frame' | 'crash';
  recorded: unknown;
  replayed: unknown;
  /** One line for people. */
  message: string;
}

export interface ReplayResult {
  /** Steps replayed (all of them unless the game crashed or an action was refused after a divergence). */
  steps: number;
  outcome: RecordingOutcome;
  reproduced: boolean;
  divergence?: Divergence;
  /** The replay in the Agents style, ready for `writeRecordingLines`. */
  lines: RecordedFrameData[];
}

/**
 * The level a recording started at: a first RESET reporting k completed levels was a full reset
 * of a session begun at level k + 1 (as `arcgraph play --level` records).
 */
function startLevel(game: Game, first: RecordedStep): number {
  const done = first.action.id === GameAction.RESET ? first.levelsCompleted ?? 0 : 0;
  return done > 0 && done < game.levels && first.state === 'NOT_FINISHED' ? done + 1 : 1;
}

/**
 * Replays `recording` on `game`. An action the session refuses before any divergence (unavailable,
 * after GAME_OVER...) is bad input: an InputError naming the line. A recording that does not
 * begin with RESET starts from the reset state of the game.
 */
export function replayRecording(game: Game, recording: Recording): ReplayResult {
  const session = new Session(game, startLevel(game, recording.steps[0]));
  if (recording.steps[0].action.id !== GameAction.RESET) session.act({ id: GameAction.RESET });
  const guid = randomUUID();
  const lines: RecordedFrameData[] = [];
  let divergence: Divergence | undefined;
  let steps = 0;
  for (const [index, step] of recording.steps.entries()) {
    const where = { step: index + 1, line: step.line, action: actionName(step.action) };
    let result: FrameData;
    try {
      result = session.act(step.action);
    } catch (err) {
      if (err instanceof ActionError) {
        if (divergence) break;
        throw new InputError(`${recording.file}:${step.line}: ${err.message}`);
      }
      const message = (err as Error)?.message ?? String(err);
      divergence ??= { ...where, field: 'crash', recorded: step.state ?? null, replayed: message, message: `step ${index + 1} (line ${step.line}, ${where.action}): the game threw: ${message}` };
      break;
    }
    steps++;
    lines.push(frameDataToJson(result, guid));
    divergence ??= compare(step, result, where);
  }
  return {
    steps,
    outcome: { state: session.sessionState, levels_completed: lines.at(-1)?.levels_completed ?? 0 },
    reproduced: divergence === undefined,
    divergence,
    lines,
  };
}

function compare(step: RecordedStep, result: FrameData, where: { step: number; line: number; action: string }): Divergence | undefined {
  const differ = (field: Divergence['field'], recorded: unknown, replayed: unknown, detail?: string): Divergence => ({
    ...where,
    field,
    recorded,
    replayed,
    message: `step ${where.step} (line ${where.line}, ${where.action}): ${detail ?? `${field} recorded ${JSON.stringify(recorded)}, replayed ${JSON.stringify(replayed)}`}`,
  });
  if (step.state !== undefined && step.state !== result.state) return differ('state', step.state, result.state);
  if (step.levelsCompleted !== undefined && step.levelsCompleted !== result.levels_completed) return differ('levels_completed', step.levelsCompleted, result.levels_completed);
  if (step.winLevels !== undefined && step.winLevels !== result.win_levels) return differ('win_levels', step.winLevels, result.win_levels);
  if (step.fullReset !== undefined && step.fullReset !== result.full_reset) return differ('full_reset', step.fullReset, result.full_reset);
  if (step.frame !== undefined) {
    const detail = frameDifference(step.frame, result.frame);
    if (detail) return differ('frame', step.frame.length, result.frame.length, detail);
  }
  return undefined;
}

/** Where two layer lists first differ, or undefined when they are identical. */
function frameDifference(recorded: Frame[], replayed: Frame[]): string | undefined {
  if (recorded.length !== replayed.length) return `frame has ${recorded.length} layer(s) recorded, ${replayed.length} replayed`;
  for (let k = 0; k < recorded.length; k++) {
    for (let c = 0; c < recorded[k].length; c++) {
      if (recorded[k][c] !== replayed[k][c]) {
        return `frame layer ${k} differs at (${c % GRID}, ${Math.floor(c / GRID)}): recorded colour ${recorded[k][c]}, replayed ${replayed[k][c]}`;
      }
    }
  }
  return undefined;
}
