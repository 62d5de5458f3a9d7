import { InputError } from '../../errors.js';
import { gameOf as theGame, resolveGame } from '../../explorer/index.js';
import { PythonGame, type PythonGameOptions } from '../../python/index.js';
import type { LoadedGame } from '../../suite/index.js';
import { readRecording, type Recording } from '../../recording/index.js';
import { replayRecording } from '../../recording/index.js';
import { writeRecordingLines } from '../../recording/index.js';
import { onePositional, outputFileOption, parse, PYTHON_OPTIONS, PYTHON_USAGE, pythonOptions, STEP_OPTION, STEP_USAGE, stepTimeoutOption } from '../args.js';
import { threadedGame } from '../../parallel/index.js';
import type { Command } from '../main.js';

const USAGE = `Usage: arcgraph replay <recording.jsonl> [--game <id-or-module>] [--out FILE] [--json]

Replays a recording (ARC-AGI-3-Agents or arc-agi toolkit style) step by step with the runtime,
checking state, levels_completed, available_actions and frames, and names the first step that
diverges.
  --game G    the game: a suite id or a module path (default: from the recording's game_id,
              the suite id being the part before '-')
  --out FILE  write the replay as an ARC-AGI-3-Agents style recording, the recording's final
              scorecard line kept (only when it reproduces: a replay that diverges writes nothing
              and says so on stderr)
  --json      print {file, game, steps, outcome: {state, levels_completed}, reproduced,
              framesCompared (steps whose line held a frame), divergence?}
A real ARC game is replayed with the engine's own perform_action (RESET rules, level progression).
An action after GAME_OVER or WIN is answered as the engine answers it: no frame, the state unchanged.
${STEP_USAGE}
${PYTHON_USAGE}
Exit codes: 0 reproduced, 1 diverged (a step that hangs is stopped at the limit and diverges), 2 bad input.`;

/** The suite id of a recorded game_id: `ls20-fa137e247ce6` -> `ls20`. */
export const suiteId = (gameId: string): string => gameId.split('-')[0];

/** The game to replay on: --game when given (it must agree with the recording), else the recording's game_id. */
async function gameOf(recording: Recording, ref: string | undefined, python: PythonGameOptions): Promise<LoadedGame | PythonGame> {
  const recorded = recording.gameId && suiteId(recording.gameId);
  if (ref === undefined) {
    if (!recorded) throw new InputError(`${recording.file} names no game_id: give --game <id-or-module>`);
    try {
      return await resolveGame(recorded, python);
    } catch (err) {
      // the recording's game is nothing known here: say where it came from, and that --game names it
      if (err instanceof InputError && err.message.startsWith('unknown game')) throw new InputError(`${recording.file} records game '${recording.gameId}', which is no game known here (give --game <its folder or module>): ${err.message}`);
      throw err;
    }
  }
  const loaded = await resolveGame(ref, python);
  if (recorded && recorded.toLowerCase() !== theGame(loaded).id.toLowerCase()) {
    throw new InputError(`${recording.file} records game '${recording.gameId}' but --game ${ref} is '${theGame(loaded).id}'`);
  }
  return loaded;
}

const command: Command = {
  summary: 'replay a recording (either style), verify it step by step, name the first divergence',
  async run(argv) {
    const p = parse(argv, { game: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' }, ...PYTHON_OPTIONS, ...STEP_OPTION }, 'replay');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    const file = onePositional(p, 'recording file', 'replay');
    const out = outputFileOption(p.values, 'out');
    const recording = readRecording(file);
    const stepSeconds = stepTimeoutOption(p.values);
    const resolved = await gameOf(recording, p.values.game as string | undefined, pythonOptions(p.values));
    // A JavaScript game runs on its own thread: a step that never returns is stopped at the limit.
    const game = resolved instanceof PythonGame ? resolved : threadedGame(resolved.module, stepSeconds);
    const result = replayRecording(game, recording);
    if (!(resolved instanceof PythonGame)) (game as ReturnType<typeof threadedGame>).close();
    // Only a reproduced recording is written: the lines of a diverging replay stop at the divergence
    // (or run on from a state the recording never had), a partial file that would replay as fine.
    // The recording's scorecard line (the session's score, not a step) is kept as it was.
    const scorecard = recording.scorecard !== undefined ? { timestamp: recording.scorecardTimestamp, data: recording.scorecard } : undefined;
    if (out !== undefined && result.reproduced) writeRecordingLines(out, result.lines, scorecard);
    if (p.values.json) {
      const { steps, outcome, reproduced, framesCompared, divergence } = result;
      console.log(JSON.stringify({ file, game: game.id, style: recording.style, steps, outcome, reproduced, framesCompared, ...(divergence && { divergence }) }));
    } else {
      const end = `${result.outcome.state}, ${result.outcome.levels_completed}/${game.levels} levels completed`;
      // a replay goes on past its first divergence (to the recording's end, or the step that threw)
      const first = result.reproduced ? '' : ` (diverging from step ${result.divergence!.step})`;
      console.log(`${file}: ${game.id}, ${recording.style} style, ${result.steps} steps replayed${first}, the replay ends ${end}`);
      console.log(result.reproduced ? `reproduced: ${reproducedLine(result.framesCompared, result.steps)}` : `DIVERGES at ${result.divergence!.message}`);
    }
    if (out !== undefined && !result.reproduced) console.error(`arcgraph replay: --out ${out} not written: the replay diverges at step ${result.divergence!.step} (only a recording that reproduces is written)`);
    return result.reproduced ? 0 : 1;
  },
};

export default command;

/** What a reproduced replay compared: a recording may hold no frames, or frames on some lines only. */
function reproducedLine(frames: number, steps: number): string {
  if (frames === 0) return 'every recorded state, level count and available actions list matches (the recording holds no frames: none compared)';
  return `every recorded state, level count, available actions list and frame matches${frames < steps ? ` (frames on ${frames} of ${steps} steps)` : ''}`;
}
