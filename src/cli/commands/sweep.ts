import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../../errors.js';
import { removeEmptyDir } from '../../files.js';
import { headline, holdsReport, levelLine, readBaseline, REPORT_FILES } from '../../report/index.js';
import { DEFAULT_ARC_BUDGET, DEFAULT_BUDGET, formatBudget, parseBudget, sweepBudget } from '../../sweep/index.js';
import { sweep, type SweepEvent } from '../../sweep/index.js';
import { parseRedisUrl, PASSWORD_ENV, queueSweep, type QueueSweepEvent } from '../../queue/index.js';
import { defaultWorkers } from '../../parallel/index.js';
import { defaultHistoryPath } from '../../history/index.js';
import type { Command } from '../main.js';
import { numberOption, outputDirOption, parse, policyOption, PYTHON_OPTIONS, pythonOptions, STEP_OPTION, stepTimeoutOption, unofferedOption, workersOption } from '../args.js';
import { INTERRUPTED, interruption } from '../interrupt.js';

const USAGE = `Usage: arcgraph sweep [options]

Explores every level of every game within a budget, analyses it (shortest solution, dead ends,
random-win probability, verdict), qualifies every game, and writes report.json, report.md and
the report site (index.html, a page per game and per level), rewritten after each finished game.
Every sweep is recorded in a history file; levels are compared with the previous night in it
(or with --baseline), and each level's page charts its trends over nights.

Options:
  --games a,b          suite game ids, game module paths or ARC game folders (default: the whole
                       suite, or every game of --arc-games)
  --arc-games DIR      sweep the real ARC-AGI-3 games of an environment_files tree (<id>/<version>/
                       <id>.py beside metadata.json; --games may then name them by id); the
                       budget then defaults to ${formatBudget(DEFAULT_ARC_BUDGET)}
                       (Python steps: about a millisecond each), whatever --games names
  --python PATH        the Python interpreter of ARC games (default python3; the engine from its
                       packages or ARCGRAPH_ARC_ENGINE)
  --graph-builder      set ARC games' GRAPH_BUILDER flag (undo history and animations off)
  --budget SPEC        nodes=N,seconds=S,steps-scale=X,random-steps=N (any subset): states and
                       seconds of exploration per level, fraction of the qualification regimes'
                       step counts, random steps that settle a level the graph leaves
                       inconclusive (default ${formatBudget(DEFAULT_BUDGET)};
                       with --arc-games the ARC default above)
  --policy P           random policy of every level's P(win), random play and qualification:
                       available (uniform over the game's actions, default) or reference (the
                       ARC-AGI-3-Agents random agent, uniform over ACTION1..7)
  --unoffered U        with --policy reference, what a real ARC game's action it does not offer
                       does: stay (ARC's convention: nothing, default) or step (as its engine
                       steps it); a level where such an action acts under stay is warned about
  --workers K          worker threads (default: all cores, from 16 up all but one; with --queue each worker's own)
  --max-memory GB      memory budget of each level's exploration; worker threads get an equal share
                       of it as heap, and a game that allocates past it is "out of memory" (default:
                       80% of what is free; with --queue each worker's own)
  --step-timeout S     a game step or render that does not return within S seconds is a hang:
                       the level is reported as "hang" with the actions that reproduce it, and
                       the sweep goes on with the next level and game (default 10; with --queue
                       each worker's own)
  --out DIR            report folder (default: reports/<start time>); an earlier report
                       there is replaced (its pages and reproductions removed)
  --queue URL          redis://HOST:PORT[/DB]: run the jobs on \`arcgraph worker\` processes through
                       this Redis (BullMQ) instead of here; this process plans, collects and
                       writes the same reports and history; the password from ${PASSWORD_ENV}
                       when the URL has none (a password in the URL wins; it shows in ps and the
                       shell's history, the variable does not)
  --shared DIR         with --queue: the folder the workers write level artefacts and
                       reproductions under (a folder per job), shared with them (default: jobs/
                       beside the report folder)
  --baseline FILE      an earlier report.json: regressions against it are flagged (instead
                       of against the previous night in the history)
  --history FILE       the sweep history, SQLite (default: history.sqlite beside the report
                       folder, e.g. reports/history.sqlite); created when missing
  --no-history         keep no history
  --json               print the report as one JSON object
A game whose own files are broken (its module fails on import, its metadata.json is missing or
malformed) is that game's error in the reports and the history, and the other games are swept.
Exit codes: 0 all levels pass (or are inconclusive), 1 a level or game fails (a broken game
included), 2 bad input (an unknown game, no Python or engine),
130 interrupted (Ctrl-C or SIGTERM: the reports hold the games finished before it and say
"interrupted"; a second signal quits at once).`;

const dated = (d: Date): string => d.toISOString().replace(/\.\d+Z$/, '').replace(/:/g, '-');

const command: Command = {
  summary: 'explore, analyse and qualify every game; write JSON, Markdown and a report site; record the history',
  async run(argv) {
    const p = parse(argv, {
      games: { type: 'string' },
      budget: { type: 'string' },
      policy: { type: 'string' },
      unoffered: { type: 'string' },
      workers: { type: 'string' },
      out: { type: 'string' },
      queue: { type: 'string' },
      shared: { type: 'string' },
      baseline: { type: 'string' },
      history: { type: 'string' },
      'no-history': { type: 'boolean' },
      json: { type: 'boolean' },
      ...PYTHON_OPTIONS,
      ...STEP_OPTION,
      'max-memory': { type: 'string' },
    }, 'sweep');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    if (p.positionals.length > 0) throw new InputError(`unexpected argument '${p.positionals[0]}' (name games with --games a,b)`);
    const v = p.values;
    const json = v.json === true;
    const games = typeof v.games === 'string' ? v.games.split(',').map((g) => g.trim()).filter((g) => g !== '') : undefined;
    if (games?.length === 0) throw new InputError('--games needs at least one game');
    const policy = policyOption(v);
    const unoffered = unofferedOption(v);
    const python = { ...pythonOptions(v), ...(unoffered && { unoffered }) };
    const stepSeconds = stepTimeoutOption(v);
    const maxMemory = numberOption(v, 'max-memory', { min: 0.001, real: true });
    const arcGames = python.arcGames;
    const base = sweepBudget({ arcGames });
    const budget = typeof v.budget === 'string' ? parseBudget(v.budget, base) : { ...base };
    const target = typeof v.queue === 'string' ? parseRedisUrl(v.queue, process.env) : undefined;
    // the workers run the games: these are each worker's own (arcgraph worker takes them), not the night's
    for (const option of ['workers', 'step-timeout', 'max-memory'] as const) {
      if (target && v[option] !== undefined) throw new InputError(`--${option} does not apply with --queue: each arcgraph worker takes its own --${option}`);
    }
    if (!target && v.shared !== undefined) throw new InputError('--shared needs --queue');
    const workers = workersOption(v, 'sweep') ?? defaultWorkers();
    if (v['no-history'] && typeof v.history === 'string') throw new InputError('--history and --no-history: give one of them');
    let baseline;
    if (typeof v.baseline === 'string') {
      try {
        baseline = { path: v.baseline, report: await readBaseline(v.baseline) };
      } catch (err) {
        throw new InputError((err as Error).message);
      }
    }
    // Created and checked for writing now: a bad --out costs no game's work.
    const asked = typeof v.out === 'string' ? v.out : join('reports', dated(new Date()));
    const outExisted = existsSync(asked);
    const out = outputDirOption({ out: asked }, 'out')!;
    const history = v['no-history'] ? undefined : resolve(typeof v.history === 'string' ? v.history : defaultHistoryPath(out));
    const askedShared = typeof v.shared === 'string' ? v.shared : join(dirname(out), 'jobs');
    const sharedExisted = existsSync(askedShared);
    const shared = target ? outputDirOption({ shared: askedShared }, 'shared')! : undefined;

    // human output goes to stdout, or to stderr under --json so stdout stays one JSON object
    const say = json ? (line: string) => console.error(line) : (line: string) => console.log(line);
    const where = target ? `jobs through ${target.display} (shared folder ${shared})` : `${workers} workers`;
    const onEvent = (event: SweepEvent | QueueSweepEvent): void => {
      // said once the games load: bad input found while loading them is one line on stderr alone
      if (event.kind === 'start') {
        say(`sweep: ${games ? games.join(', ') : arcGames !== undefined ? `the ARC games of ${arcGames}` : 'the whole suite'}; budget ${formatBudget(budget)} (per level: states, seconds; qualification steps scale); policy ${policy}${unoffered === 'step' ? ' (unoffered actions stepped)' : ''}; ${where}`);
        const replacing = holdsReport(out) ? ' (the earlier report there is replaced: its pages and reproductions are removed)' : '';
        say(`reports: ${out}${replacing}${history ? `; history: ${history}` : ''}`);
      }
      if (event.kind === 'qualifying') say(`${event.game}: levels explored, qualifying...`);
      if (event.kind === 'queued') say(`queued ${event.jobs} jobs (${event.reused} done before, reused); waiting for workers`);
      if (event.kind === 'job') say(`  ${event.job.game} ${event.job.level === null ? '' : `level ${event.job.level} `}${event.job.stage}: ${event.state} ${event.detail}`.trimEnd());
      // a history problem is one warning on stderr, whatever the output mode
      if (event.kind === 'warning') console.error(`arcgraph sweep: warning: ${event.message}`);
      if (event.kind !== 'game') return;
      const g = event.game;
      for (const level of g.levels) say(`  ${levelLine(g.game, level)}`);
      if (g.qualification) say(`  ${g.game} qualification: ${g.qualification.passed ? 'passed' : 'FAILED'} (${g.qualification.findings.length} findings, ${g.qualification.seconds.toFixed(1)} s)`);
      if (g.error) say(`  ${g.game} ERROR: ${g.error}`);
      say(`${g.game}: ${g.outcome.toUpperCase()} in ${g.seconds.toFixed(1)} s (reports updated)`);
    };

    const stop = interruption((signal) => say(`${signal}: finishing the reports of the games already done (again to quit at once)`));
    try {
      let report;
      try {
        report = target
          ? await queueSweep({ games, budget, policy, target, shared: shared!, out, baseline, history, signal: stop.signal, onEvent, ...(arcGames !== undefined && { arcGames }), python })
          : await sweep({ games, budget, policy, workers, out, baseline, history, signal: stop.signal, onEvent, stepSeconds, maxMemory, ...(arcGames !== undefined && { arcGames }), python });
      } catch (err) {
        // Bad input found while loading the games: no report folder is left behind for it.
        if (!outExisted) removeEmptyDir(out);
        if (shared && !sharedExisted) removeEmptyDir(shared);
        throw err;
      }
      for (const r of report.regressions) say(`REGRESSION ${r.kind}: ${r.message}`);
      say(headline(report));
      if (json) console.log(JSON.stringify(report));
      say(`report: ${join(out, REPORT_FILES.site)} (also ${REPORT_FILES.markdown}, ${REPORT_FILES.json}) after ${report.seconds.toFixed(1)} s`);
      if (report.status === 'interrupted') return INTERRUPTED;
      return report.passed ? 0 : 1;
    } finally {
      stop.dispose();
    }
  },
};

export default command;
