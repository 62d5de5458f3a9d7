import { InputError } from '../../errors.js';
import { qualify, REGIME_STEPS, type QualifyProgress, type QualifyResult, type RegimeOutcome } from '../../qualify/index.js';
import { numberOption, onePositional, outputDirOption, parse, policyOption, PYTHON_OPTIONS, PYTHON_USAGE, pythonOptions, STEP_OPTION, STEP_USAGE, stepTimeoutOption, workersOption } from '../args.js';
import { INTERRUPTED, interruption } from '../interrupt.js';
import { closeGame, resolveGame } from '../../explorer/index.js';
import type { Command } from '../main.js';

const USAGE = `Usage: arcgraph qualify <game> [options]

Runs the qualification regimes of the ARC-AGI-3 validation pipeline over a worker pool:
  random1   ${REGIME_STEPS.random1.toLocaleString('en')} random steps per level: no level may be won (a tutorial level only warns)
  random2   ${REGIME_STEPS.random2.toLocaleString('en')} random steps per non-tutorial level: zero wins
  fuzz      ${REGIME_STEPS.fuzz.toLocaleString('en')} steps across the levels, every transition checked: exceptions, invalid
            frames, malformed transitions, nondeterminism (also across threads), impure render,
            non-canonical identity bytes, click targets that do not act alike, slow steps (hangs)
  playback  every recording in the game's folder replays to its recorded outcome
Every finding comes with the shortest action sequence found from its level's reset state, saved
as a recording that \`arcgraph replay\` plays back to the fault. Seeded: failures reproduce exactly.

Options:
  --level N          only this level
  --steps-scale X    multiply every regime's steps by X (e.g. 0.01 for a quick check; default 1)
  --workers K        worker threads (default: all cores, from 16 up all but one)
  --seed S           seed (default 1)
  --out DIR          folder for the reproductions (default: a new folder under the OS temp dir)
  --policy P         random policy: available (default) or reference (uniform over ACTION1..7)
  --step-limit MS    a step slower than this is a finding (default 1000)
  --max-memory GB    memory for the worker threads together: a game that allocates past its
                     thread's share is a finding (default: 80% of what is free)
${STEP_USAGE}
  --json             print one JSON object
${PYTHON_USAGE}
Ctrl-C (or SIGTERM) stops cleanly: the regimes stop, findings so far are reported (JSON:
"interrupted": true and "passed": false; a regime cut short has status "interrupted", one not
started "skipped"; the text ends "PARTIAL: interrupted, not qualified"); a second one quits at once.
Exit codes: 0 passed (warnings allowed), 1 a regime failed, 2 bad input, 130 interrupted.`;

const fmt = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(n % 1e6 ? 2 : 0)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(0)}k` : String(Math.round(n)));

/** One regime's cell: status and steps, the wins of a random regime, the findings of the others. */
function cell(o: RegimeOutcome | null, random = false): string {
  if (!o) return '-';
  if (o.status === 'skipped') return 'skipped';
  const wins = random && o.wins ? ` ${o.wins} won` : '';
  const findings = o.status !== 'pass' && !wins ? ` ${o.findings} finding${o.findings === 1 ? '' : 's'}` : '';
  return `${o.status} ${fmt(o.steps)}${wins}${findings}`;
}

/** The table per level and regime, the findings with their reproductions, the verdict. */
export function describe(r: QualifyResult, title: string): string {
  const rows = [['level', 'random1', 'random2', 'fuzz', 'playback']];
  // Each cell: status, then steps played (playback: steps replayed).
  for (const l of r.levels) rows.push([`${l.level}${l.tutorial ? ' tutorial' : ''}`, cell(l.regimes.random1, true), cell(l.regimes.random2, true), cell(l.regimes.fuzz), cell(l.regimes.playback)]);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
  const lines = [`${r.game} (${title}): seed ${r.seed}, steps x${r.stepsScale}, policy ${r.policy}, ${r.workers} worker(s)`, ''];
  for (const row of rows) lines.push(row.map((text, c) => text.padEnd(widths[c])).join('  ').trimEnd());
  if (r.findings.length > 0) lines.push('', 'Findings:');
  for (const f of r.findings) {
    lines.push(`  ${f.severity === 'warn' ? 'WARN' : 'FAIL'} ${f.regime} level ${f.level} ${f.check}: ${f.message}`);
    lines.push(`       ${f.actions.length} action(s) from the level's reset: ${f.actions.length ? f.actions.join(' ') : '(the reset state itself)'}`);
    if (f.reproduction) lines.push(`       reproduction: ${f.reproduction}`);
  }
  // a regime that took no step (random2 skips tutorial levels) has no speed to give
  const speed = (n: number): string => (n > 0 ? `${fmt(n)} steps/s` : 'did not run');
  lines.push('', `speed: random2 ${speed(r.speed.random2)}, fuzz ${speed(r.speed.fuzz)}; ${r.seconds.toFixed(1)} s in all`);
  if (r.out) lines.push(`reproductions in ${r.out} (replay one with: arcgraph replay <file> --game <game>)`);
  const failing = r.findings.filter((f) => f.severity === 'fail').length;
  // Interrupted: the regimes marked `interrupted` or `skipped` did not play their steps, so the game is not qualified.
  if (r.interrupted) lines.push(`PARTIAL: interrupted, not qualified${failing ? ` (FAILED so far: ${failing} finding(s))` : ''}`);
  else lines.push(r.passed ? `PASSED${r.findings.length ? ' with warnings' : ''}` : `FAILED: ${failing} finding(s)`);
  return lines.join('\n');
}

/** One status line on stderr, redrawn in place, only on a terminal. */
function progress(enabled: boolean): { update(p: QualifyProgress): void; done(): void } {
  const stream = process.stderr;
  const on = enabled && stream.isTTY === true;
  let last = 0;
  return {
    update(p) {
      const now = performance.now();
      if (!on || now - last < 200) return;
      last = now;
      stream.write(`\r\x1b[K${p.regime} level ${p.level}: ${fmt(p.steps)}/${fmt(p.total)} steps, ${p.seconds.toFixed(1)} s`);
    },
    done() {
      if (on && last > 0) stream.write('\r\x1b[K');
    },
  };
}

const command: Command = {
  summary: 'qualification regimes: random play, million-step fuzzing, recording playback',
  async run(argv) {
    const p = parse(argv, {
      level: { type: 'string' },
      'steps-scale': { type: 'string' },
      workers: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      policy: { type: 'string' },
      'step-limit': { type: 'string' },
      json: { type: 'boolean' },
      ...PYTHON_OPTIONS,
      ...STEP_OPTION,
      'max-memory': { type: 'string' },
    }, 'qualify');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    const v = p.values;
    const policy = policyOption(v);
    const scale = numberOption(v, 'steps-scale', { min: 0, real: true });
    if (scale === 0) throw new InputError(`--steps-scale must be positive, got '${String(v['steps-scale'])}'`);
    const ref = onePositional(p, 'game', 'qualify');
    const workers = workersOption(v, 'qualify');
    const out = outputDirOption(v, 'out');
    const shown = progress(!v.json);
    // before the game opens: a Ctrl-C while a real ARC game's Python processes start is the user's stop (exit 130), not the game's crash
    const stop = interruption();
    const loaded = await resolveGame(ref, pythonOptions(v));
    try {
      const r = await qualify(loaded, {
        level: numberOption(v, 'level', { min: 1 }),
        stepsScale: scale,
        workers,
        seed: numberOption(v, 'seed', { min: 0, max: 2 ** 32 - 1 }),
        out,
        policy,
        stepLimitMs: numberOption(v, 'step-limit', { min: 1 }),
        hangSeconds: stepTimeoutOption(v),
        maxMemory: numberOption(v, 'max-memory', { min: 0.001, real: true }),
        signal: stop.signal,
        onProgress: shown.update,
      });
      shown.done();
      const interrupted = stop.interrupted;
      // An interruption between the last regime and the result: still not a qualification.
      const printed: QualifyResult = interrupted ? { ...r, passed: false, interrupted: true } : r;
      console.log(v.json ? JSON.stringify(printed) : `${interrupted ? 'PARTIAL: interrupted\n' : ''}${describe(printed, ref)}`);
      if (interrupted) return INTERRUPTED;
      return r.passed ? 0 : 1;
    } finally {
      shown.done();
      stop.dispose();
      closeGame(loaded);
    }
  },
};

export default command;
