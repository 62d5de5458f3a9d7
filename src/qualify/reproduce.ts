/**
 * Writes a finding's reproduction as an ARC-AGI-3-Agents recording that `arcgraph replay` plays
 * back to the fault. A real ARC game's later level whose start was played (the earlier levels'
 * wins) is recorded from the game's RESET through those wins, as the engine plays it: a recording
 * any ARC tool replays. Otherwise the session starts at the finding's level (its first RESET
 * reports the earlier levels as completed, which is how arcgraph's replay infers the start level;
 * the engine itself would start at level 1). The faulty step is
 * written as the session saw it, without the frame when it has no valid JSON form (an invalid
 * frame) or when the step cannot be played here (it threw, or may never return).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { actionFromCode, actionName, GameAction, type Action } from '../engine/index.js';
import { repeatFlaky, RESET } from './flaky.js';
import type { RawFault } from './regimes/context.js';
import { shrink } from './shrink.js';
import type { Finding, QualifyOptions } from './types.js';
import type { Game } from '../engine/index.js';
import { openSession, type FrameData } from '../engine/index.js';
import { frameDataToJson, recordingText, type RecordedFrameData } from '../recording/index.js';
import { isInterrupted, rethrowInterruption } from '../errors.js';
import { makeDir, writeFileAtomic } from '../files.js';
import { PythonGame } from '../python/index.js';
import { cutCycles, frameProblem, unplayable, type Check } from '../engine/index.js';

type Line = Omit<RecordedFrameData, 'frame'> & { frame?: number[][][] };

const actionInput = (action: Action): Line['action_input'] => ({ id: action.id, data: action.id === GameAction.ACTION6 ? { x: action.x, y: action.y } : {} });

export function writeReproduction(path: string, game: Game, level: number, actions: readonly Action[], check: Check): void {
  const from = playedFrom(game, level, actions);
  let session: ReturnType<typeof openSession> | undefined;
  try {
    // A reset state that was never built (init hung, or ate its thread's memory) is not built again here.
    if (!(unplayable(check) && actions.length === 0)) session = openSession(game, from ? 1 : level);
  } catch (err) {
    rethrowInterruption(err);
    // init threw: the recording is the RESET that shows it, unplayed.
  }
  const guid = randomUUID();
  const lines: Line[] = [];
  const frameless = (data: FrameData): Line => {
    const { frame: _layers, ...rest } = frameDataToJson({ ...data, frame: [] }, guid);
    return rest;
  };
  /** A step not played here: what the session showed before it, under this action. */
  const unplayed = (action: Action): Line => {
    const before = lines[lines.length - 1];
    // A real ARC game's recordings carry its metadata's full id and the actions it offers, as its sessions' lines do.
    const [gameId, offered] = game instanceof PythonGame ? [game.info.gameId, game.offered] : [game.id, game.actions];
    const base = before ?? { game_id: gameId, state: 'NOT_FINISHED', levels_completed: from ? 0 : level - 1, win_levels: game.levels, guid, available_actions: [...offered] };
    const { frame: _layers, ...rest } = { ...base, frame: undefined };
    return { ...rest, action_input: actionInput(action), full_reset: action.id === GameAction.RESET && !before };
  };
  const played = from ?? [{ id: GameAction.RESET } as Action, ...actions];
  for (const [i, action] of played.entries()) {
    if (!session || (i === played.length - 1 && unplayable(check))) {
      lines.push(unplayed(action));
      break;
    }
    let result: FrameData;
    try {
      result = session.act(action);
    } catch (err) {
      rethrowInterruption(err);
      lines.push(unplayed(action));
      // A flaky fault's sequence is repeated after a RESET: the repeats go on from there.
      if (played[i + 1]?.id === GameAction.RESET) continue;
      break;
    }
    lines.push(frameProblem(result.frame) ? frameless(result) : frameDataToJson(result, guid));
  }
  writeFileAtomic(path, recordingText(lines as RecordedFrameData[]));
}

/**
 * The actions from the game's RESET for a fault on a real ARC game's later level started by its
 * played path: the path, the fault's actions, and the path again after each RESET the engine takes
 * as a full reset (one at the level's start, where the action count is 0: back to level 1, where
 * arcgraph's sessions of a later level go back to that level). Undefined for level 1, a JavaScript
 * game, or a level started by set_level (no path from the game's start leads there).
 */
function playedFrom(game: Game, level: number, actions: readonly Action[]): Action[] | undefined {
  if (!(game instanceof PythonGame) || level === 1) return undefined;
  const path = game.startPath(level);
  try {
    if (!path || game.root(level).levelStart !== 'played') return undefined;
  } catch (err) {
    rethrowInterruption(err);
    return undefined; // the start cannot be built: the recording starts at the level, unplayed
  }
  const toLevel = path.map(actionFromCode);
  const out: Action[] = [{ id: GameAction.RESET }, ...toLevel];
  let atStart = true;
  for (const action of actions) {
    out.push(action);
    if (action.id !== GameAction.RESET) atStart = false;
    else {
      if (atStart) out.push(...toLevel);
      atStart = true;
    }
  }
  return out;
}

/** Shrinks every fault and writes its reproduction (played on `recorder`: the game, or the same game off this thread); playback findings point at their recording. */
export async function reproduce(game: Game, raw: RawFault[], options: QualifyOptions, recorder: Game = game): Promise<{ findings: Finding[]; out?: string; interrupted?: true }> {
  let out: string | undefined;
  const folder = (): string => {
    if (!out) {
      out = options.out ?? mkdtempSync(join(tmpdir(), `arcgraph-qualify-${game.id}-`));
      makeDir(out);
    }
    return out;
  };
  const limits = options.search ?? { maxNodes: 200_000, maxSeconds: 20 };
  const findings: Finding[] = [];
  // A Ctrl-C that ended the game's Python processes mid-shrink (the main thread blocked in a step, its
  // handler not run yet): the findings from there on are kept as found, with no reproduction.
  let stopped = false;
  for (const [n, fault] of raw.entries()) {
    const finding: Finding = { regime: fault.regime, check: fault.check, level: fault.level, severity: fault.severity, message: fault.message, actions: fault.actions.map(actionName) };
    if (fault.file || stopped) {
      if (fault.file) finding.reproduction = fault.file;
      findings.push(finding);
      continue;
    }
    try {
      finding.reproduction = await reproduceOne(game, fault, finding, n, folder, limits, options, recorder);
    } catch (err) {
      if (!isInterrupted(err)) throw err;
      stopped = true;
      finding.actions = fault.actions.map(actionName);
    }
    findings.push(finding);
  }
  return { findings, out, ...(stopped && { interrupted: true as const }) };
}

/** Shrinks one fault (its actions set on `finding`) and writes its reproduction: the file's path. */
async function reproduceOne(game: Game, fault: RawFault, finding: Finding, n: number, folder: () => string, limits: NonNullable<QualifyOptions['search']>, options: QualifyOptions, recorder: Game): Promise<string> {
  let recorded: Action[];
  if (fault.earlier) {
    // Two states with equal bytes: both sequences, the second after a full reset to the level.
    recorded = [...cutCycles(game, fault.level, fault.earlier), RESET, RESET, ...cutCycles(game, fault.level, fault.actions)];
    finding.actions = recorded.map(actionName);
  } else {
    const pinned = fault.check === 'exception' ? fault.message : undefined;
    // Interrupted: the sequence as found (cycles cut), without the searches of a full shrink.
    const actions = options.signal?.aborted ? cutCycles(game, fault.level, fault.actions) : await shrink(game, fault.level, fault.check, fault.actions, limits, pinned);
    finding.actions = actions.map(actionName);
    // A fault that comes and goes (a step, a render, an exception) is repeated until replay is all but sure to see it.
    recorded = repeatFlaky(game, fault.level, actions, fault.check, pinned);
  }
  const path = join(folder(), `${game.id}.qualify-${fault.check}.${n + 1}.${randomUUID()}.recording.jsonl`);
  writeReproduction(path, recorder, fault.level, recorded, fault.check);
  return path;
}
