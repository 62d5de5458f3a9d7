import { closeGame, resolveGame } from '../../explorer/index.js';
import { randomPlay, type RandomResult } from '../../random/index.js';
import type { Command } from '../main.js';
import { isPythonGame, numberOption, onePositional, parse, policyOption, PYTHON_OPTIONS, PYTHON_USAGE, pythonOptions, START_USAGE, startActionsOption, STEP_OPTION, stepTimeoutOption, UNOFFERED_USAGE, unofferedOption, workersOption } from '../args.js';
import { INTERRUPTED, interruption } from '../interrupt.js';

const USAGE = `Usage: arcgraph random <game> --level N --steps N [options]

Plays seeded random attempts from the level's reset state over a worker pool until the step
budget is spent, and bounds the random-win probability (one-sided 95% Clopper-Pearson).
The numbers are the same whatever the worker count.

Options:
  --level N              level (default 1)
  --steps N              total step budget (default 50000)
  --workers K            worker threads (default: all cores, from 16 up all but one)
  --seed S               seed (default 1)
  --policy P             available (uniform over the game's actions, default) or reference
                         (the ARC-AGI-3-Agents random agent: uniform over ACTION1..ACTION7)
  --max-attempt-steps N  cut an attempt off after N steps (counted as a win for the upper bound)
  --threshold P          verdict threshold (default 1e-4)
  --max-memory GB        memory for the worker threads together: a game that allocates past its
                         thread's share is stopped as out of memory (default: 80% of what is free)
  --step-timeout S       a game step that does not return within S seconds is a hang: the play
                         stops with the actions that reproduce it (default 10)
  --json                 print one JSON object
${PYTHON_USAGE}
${START_USAGE}
${UNOFFERED_USAGE}
Ctrl-C (or SIGTERM) stops cleanly: the attempts finished so far are counted and the result says
it is partial (JSON: "interrupted": true); a second one quits at once.
Exit codes: 0 done, 1 the verdict is fail on a non-tutorial level or the game crashed or hung,
2 bad input, 130 interrupted.`;

function describe(r: RandomResult, interrupted: boolean): string {
  const rows = [
    ...(interrupted ? [`PARTIAL: interrupted after ${r.steps} steps of the budget`] : []),
    `${r.game} level ${r.level}${r.tutorial ? ' (tutorial: exempt)' : ''}, policy ${r.policy}, seed ${r.seed}`,
    ...(r.starts
      ? [`the level starts ${r.starts === 'won' ? 'won' : 'lost (game over)'}: every attempt ends at its reset state, before a step; win rate ${r.winRate} exactly`]
      : [
          `${r.episodes} attempts in ${r.steps} steps: ${r.wins} won, ${r.losses} game over, ${r.cutOff} cut off${r.unfinished ? ' (and one unfinished when the budget ran out)' : ''}`,
          `win rate ${r.winRate.toExponential(3)}; 95% bounds [${r.lower.toExponential(3)}, ${r.upper.toExponential(3)}]`,
        ]),
    `verdict against ${r.threshold}: ${r.verdict}${r.tutorial && r.verdict === 'fail' ? ' (tutorial level: exempt)' : ''}${r.hint ? ` (${r.hint})` : ''}`,
    `speed: ${Math.round(r.stepsPerSecond)} steps/s on ${r.workers} worker(s) in ${r.seconds.toFixed(2)} s`,
  ];
  // A real ARC game's steps, timed in its Python processes.
  if (r.levelStart) rows.push(`python: level start ${r.levelStart}${r.startNote ? ` (${r.startNote})` : ''}${r.unoffered === 'step' ? '; unoffered actions stepped' : ''}`);
  if (r.warning) rows.push(`WARNING: ${r.warning}`);
  const t = r.timing;
  if (t && t.seconds > 0) rows.push(`game steps: ${Math.round(t.steps / t.seconds)} actions/s and ${Math.round(t.frames / t.seconds)} frames/s a process; slowest ${((t.slowest[0]?.seconds ?? 0) * 1000).toFixed(1)} ms`);
  return rows.join('\n');
}

const command: Command = {
  summary: 'Monte Carlo random play with confidence bounds',
  async run(argv) {
    const p = parse(argv, {
      level: { type: 'string' },
      steps: { type: 'string' },
      workers: { type: 'string' },
      seed: { type: 'string' },
      policy: { type: 'string' },
      'max-attempt-steps': { type: 'string' },
      threshold: { type: 'string' },
      json: { type: 'boolean' },
      ...PYTHON_OPTIONS,
      ...STEP_OPTION,
      'max-memory': { type: 'string' },
      'start-actions': { type: 'string' },
      unoffered: { type: 'string' },
    }, 'random');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    const v = p.values;
    const policy = policyOption(v);
    const level = numberOption(v, 'level', { min: 1 }) ?? 1;
    const unoffered = unofferedOption(v);
    // before the game opens: a Ctrl-C while a real ARC game's Python processes start is the user's stop (exit 130), not the game's crash
    const stop = interruption();
    const loaded = await resolveGame(onePositional(p, 'game', 'random'), { ...pythonOptions(v), ...(unoffered && { unoffered }) });
    if (isPythonGame(v, loaded, ['start-actions', 'unoffered'])) startActionsOption(v, loaded, level);
    const workers = workersOption(v, 'random');
    try {
      const r = await randomPlay(loaded, {
        level,
        steps: numberOption(v, 'steps', { min: 1 }) ?? 50_000,
        workers,
        seed: numberOption(v, 'seed', { min: 0, max: Number.MAX_SAFE_INTEGER }),
        policy,
        maxAttemptSteps: numberOption(v, 'max-attempt-steps', { min: 1 }),
        threshold: numberOption(v, 'threshold', { min: 0, max: 1, real: true }),
        stepSeconds: stepTimeoutOption(v),
        maxMemory: numberOption(v, 'max-memory', { min: 0.001, real: true }),
        signal: stop.signal,
      });
      const interrupted = stop.interrupted;
      console.log(v.json ? JSON.stringify(interrupted ? { ...r, interrupted } : r) : describe(r, interrupted));
      if (interrupted) return INTERRUPTED;
      return r.verdict === 'fail' && !r.tutorial ? 1 : 0;
    } finally {
      stop.dispose();
      closeGame(loaded);
    }
  },
};

export default command;
