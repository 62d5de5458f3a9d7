/**
 * Replays a recording with the runtime, step by step, checking what the recording says came back
 * (state, levels_completed, win_levels, full_reset, available_actions and frames where present)
 * and that every step is a sound transition (the qualification checks: valid frames, determinism,
 * pure render, canonical identity, click classes, no slow step), and naming the first step that
 * diverges.
 */
import { createHash, randomUUID } from 'node:crypto';
import { ACTION_NAMES, GRID, GameAction, actionCode, actionName, type Action } from '../engine/index.js';
import type { Frame, Game } from '../engine/index.js';
import { InputError, rethrowInterruption } from '../errors.js';
import { ActionError, afterEnd, openSession, type FrameData, type GameSession } from '../engine/index.js';
import { IdentityFrames, frameProblem, inspectStep, type Check } from '../engine/index.js';
import type { RecordedStep, Recording } from './read.js';
import { frameDataToJson, type RecordedFrameData, type RecordingOutcome } from './write.js';

/** The first step whose replay differs from the recording. */
export interface Divergence {
  /** 1-based index of the step among the recording's steps. */
  step: number;
  /** Line of the file that holds it. */
  line: number;
  action: string;
  /** A recorded field that differs, `crash` when the game threw, or the transition check that failed. */
  field: 'state' | 'levels_completed' | 'win_levels' | 'full_reset' | 'available_actions' | 'frame' | 'crash' | Exclude<Check, 'exception' | 'random-win' | 'playback'>;
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
  /** Replayed steps whose recorded line held a frame to compare (a recording may hold none). */
  framesCompared: number;
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

export interface ReplayOptions {
  /** A step slower than this many milliseconds is a divergence (default 1,000). */
  stepLimitMs?: number;
}

type Where = { step: number; line: number; action: string };

const latin1 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
const framesDigest = (layers: Frame[]): string => {
  const h = createHash('sha1');
  for (const layer of layers) h.update(layer);
  return h.digest('hex');
};

/**
 * The transition checks of one step, before the session plays it: the first fault as a
 * divergence. `successors` remembers every (state, action) stepped so far in this replay, so a
 * transition that repeats with another successor is caught too. An exception is left to the
 * session's own step (reported as a crash).
 */
function checkTransition(game: Game, session: GameSession, action: Action, where: Where, successors: Map<string, string>, identity: IdentityFrames<unknown>, stepLimitMs: number): Divergence | undefined {
  const inGrid = action.id !== GameAction.ACTION6 || (Number.isInteger(action.x) && Number.isInteger(action.y) && action.x! >= 0 && action.x! < GRID && action.y! >= 0 && action.y! < GRID);
  if (action.id === GameAction.RESET || session.sessionState !== 'NOT_FINISHED' || !game.actions.includes(action.id as never) || !inGrid) return undefined;
  const pre = session.gameState;
  let preBytes: Uint8Array;
  try {
    preBytes = game.encode(pre);
  } catch (err) {
    rethrowInterruption(err);
    return undefined;
  }
  // Re-step a few times: a flaky step differs only sometimes, and it should be named as the
  // cause before its different outcome shows up as a state or frame divergence.
  const r = inspectStep(game, pre, preBytes, action, { stepLimitMs, identity, restep: 16 });
  let fault = r.faults.find((f) => f.check !== 'exception');
  if (!fault && r.nextBytes) {
    const key = `${latin1(preBytes)}|${actionCode(action)}`;
    const before = successors.get(key);
    const now = latin1(r.nextBytes);
    if (before !== undefined && before !== now) fault = { check: 'nondeterminism', message: 'this state and action were stepped earlier in the replay to another successor' };
    else successors.set(key, now);
  }
  if (!fault) return undefined;
  return { ...where, field: fault.check as Divergence['field'], recorded: null, replayed: fault.message, message: `step ${where.step} (line ${where.line}, ${where.action}): ${fault.message}` };
}

/**
 * Replays `recording` on `game`. An unavailable action is played as the engine plays it (an action
 * that leaves the state unchanged; a real ARC game's perform_action decides), as agents send them.
 * An action after GAME_OVER or WIN is answered as the engine answers it (no frame, the state
 * unchanged), as recordings made against the ARC API hold them. An action the session refuses
 * before any divergence is bad input: an InputError naming the line. A recording that does not
 * begin with RESET starts from the reset state of the game.
 */
export function replayRecording(game: Game, recording: Recording, options: ReplayOptions = {}): ReplayResult {
  const session = openSession(game, startLevel(game, recording.steps[0]), { acceptUnavailable: true, acceptAfterEnd: true });
  if (recording.steps[0].action.id !== GameAction.RESET) session.act({ id: GameAction.RESET });
  const guid = randomUUID();
  const lines: RecordedFrameData[] = [];
  const successors = new Map<string, string>();
  // A game whose earlier layers belong to the step (stepLayers) shows a state's identity by its settled frame.
  const identity = new IdentityFrames<unknown>(latin1, game.stepLayers ? (layers) => framesDigest(layers.slice(-1)) : framesDigest);
  const stepLimitMs = options.stepLimitMs ?? 1000;
  let divergence: Divergence | undefined;
  let steps = 0;
  let framesCompared = 0;
  for (const [index, step] of recording.steps.entries()) {
    const where = { step: index + 1, line: step.line, action: actionName(step.action) };
    if (!divergence) divergence = checkTransition(game, session, step.action, where, successors, identity, stepLimitMs);
    const ended = afterEnd(session.sessionState, step.action);
    let result: FrameData;
    try {
      result = session.act(step.action);
    } catch (err) {
      rethrowInterruption(err);
      if (err instanceof ActionError) {
        if (divergence) break;
        throw new InputError(`${recording.file}:${step.line}: ${err.message}`);
      }
      const message = (err as Error)?.message ?? String(err);
      divergence ??= { ...where, field: 'crash', recorded: step.state ?? null, replayed: message, message: `step ${index + 1} (line ${step.line}, ${where.action}): the game threw: ${message}` };
      break;
    }
    steps++;
    if (step.frame !== undefined) framesCompared++;
    // The engine answers an action after the end with no frame at all: no frame to check.
    const bad = ended ? undefined : frameProblem(result.frame);
    if (bad) divergence ??= { ...where, field: 'invalid-frame', recorded: null, replayed: bad, message: `step ${where.step} (line ${where.line}, ${where.action}): invalid frame: ${bad}` };
    // An invalid frame has no JSON form: its line is kept without layers.
    lines.push(frameDataToJson(bad ? { ...result, frame: [] } : result, guid));
    divergence ??= compare(step, result, where, ended);
  }
  return {
    steps,
    outcome: { state: session.sessionState, levels_completed: lines.at(-1)?.levels_completed ?? 0 },
    reproduced: divergence === undefined,
    framesCompared,
    divergence,
    lines,
  };
}

/**
 * The first recorded field that differs from the replay. After the end (`ended`), the engine's own
 * answer carries levels_completed and win_levels 0 (its perform_action passes them to FrameData
 * under names FrameData ignores), so a recording made against it holds 0 and 0 there: accepted as
 * well as the session's counts.
 */
function compare(step: RecordedStep, result: FrameData, where: { step: number; line: number; action: string }, ended = false): Divergence | undefined {
  const differ = (field: Divergence['field'], recorded: unknown, replayed: unknown, detail?: string): Divergence => ({
    ...where,
    field,
    recorded,
    replayed,
    message: `step ${where.step} (line ${where.line}, ${where.action}): ${detail ?? `${field} recorded ${JSON.stringify(recorded)}, replayed ${JSON.stringify(replayed)}`}`,
  });
  if (step.state !== undefined && step.state !== result.state) return differ('state', step.state, result.state);
  const engineCounts = ended && (step.levelsCompleted ?? 0) === 0 && (step.winLevels ?? 0) === 0;
  if (!engineCounts && step.levelsCompleted !== undefined && step.levelsCompleted !== result.levels_completed) return differ('levels_completed', step.levelsCompleted, result.levels_completed);
  if (!engineCounts && step.winLevels !== undefined && step.winLevels !== result.win_levels) return differ('win_levels', step.winLevels, result.win_levels);
  if (step.fullReset !== undefined && step.fullReset !== result.full_reset) return differ('full_reset', step.fullReset, result.full_reset);
  if (step.availableActions !== undefined) {
    const detail = availableDifference(step.availableActions, result.available_actions);
    if (detail) return differ('available_actions', step.availableActions, result.available_actions, detail);
  }
  if (step.frame !== undefined) {
    const detail = frameDifference(step.frame, result.frame);
    if (detail) return differ('frame', step.frame.length, result.frame.length, detail);
  }
  return undefined;
}

/**
 * How two lists of available actions differ, or undefined when they hold the same actions: a set
 * (the engine echoes the game's own order, which another tool need not keep).
 */
function availableDifference(recorded: readonly number[], replayed: readonly number[]): string | undefined {
  const names = (ids: readonly number[]): string => (ids.length ? ids.map((a) => ACTION_NAMES[a] ?? `action ${a}`).join(', ') : 'none');
  const missing = replayed.filter((a) => !recorded.includes(a));
  const extra = recorded.filter((a) => !replayed.includes(a));
  if (missing.length === 0 && extra.length === 0) return undefined;
  const why = [extra.length ? `${names(extra)} recorded but not available in the replay` : '', missing.length ? `${names(missing)} available in the replay but not recorded` : ''].filter(Boolean).join('; ');
  return `available_actions recorded [${names(recorded)}], replayed [${names(replayed)}]: ${why}`;
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
