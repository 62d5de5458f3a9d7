import { InputError } from '../../errors.js';
import { collisionWarning } from '../../engine/index.js';
import { closeGame, describeSchedule, resolveGame } from '../../explorer/index.js';
import { exploreLevel, type ExploreReport } from '../../level.js';
import { exportGraph, fitsGraphology } from '../../graph/index.js';
import type { Command } from '../main.js';
import { isPythonGame, numberOption, onePositional, outputFileOption, parse, policyOption, PYTHON_OPTIONS, PYTHON_USAGE, pythonOptions, START_USAGE, startActionsOption, STEP_OPTION, STEP_USAGE, stepTimeoutOption, UNOFFERED_USAGE, unofferedOption, workersOption } from '../args.js';
import { INTERRUPTED, interruption } from '../interrupt.js';
import { progressLine } from '../progress.js';
import { scientific } from '../../report/index.js';

const USAGE = `Usage: arcgraph explore <game> --level N [options]

Builds the state graph of one level breadth-first over a worker pool, prints its measures and
analyses it: is a win reachable, the shortest solution, dead ends, and the probability that a
random policy wins (exact on a complete graph, bounds on a partial one) against the threshold.
<game> is a suite game id, a path to a JavaScript module whose default export is a game, or a
real ARC-AGI-3 game (see below).

Options:
  --level N          level to explore (default 1)
  --workers K        worker threads (default: all cores, from 16 up all but one)
  --max-nodes N      stop before the graph would exceed N states
  --max-edges N      stop before it would exceed N distinct edges
  --max-steps N      stop before N game steps (successor computations) are exceeded
  --max-seconds S    stop after about S seconds
  --max-memory GB    stop while the process, and the analysis of the graph after it, fit in GB
                     (default: 80% of the memory free when it starts); a probability solver whose
                     arrays would not fit gives up and says why instead
  --export FILE      write the graph: FILE.gexf (Gephi) or FILE.json (Graphology)
  --policy P         random policy: available (uniform over the game's actions, default) or
                     reference (the ARC-AGI-3-Agents random agent, uniform over ACTION1..7)
  --threshold P      random-win probability a level must not exceed (default 1e-4: 1 in 10,000 passes)
  --within K         also the probability of winning within K actions
${STEP_USAGE}
  --json             print one JSON object
${PYTHON_USAGE}
  --identity I       state (default: the frame and the game object's state, hidden state included)
                     or frame (the frame alone: shows what frame-only hashing would merge)
  --clicks C         classes (default: one click per class of cells that show the same sprites
                     and what the camera's interfaces draw, each class verified by stepping its
                     last cell, and its leftmost and rightmost when it is wider than a grid cell,
                     and the cells beside small classes (a player, a gem), split grid cell by grid
                     cell when they disagree; a probability over them is exact only if the
                     partition is) or all
                     (every one of the 4,096 cells: exact, slow)
${START_USAGE}
${UNOFFERED_USAGE}
Ctrl-C (or SIGTERM) stops cleanly and prints the partial result (JSON: "interrupted": true);
a second one quits at once.
Exit codes: 0 done (pass, inconclusive, or a tutorial level), 1 the verdict is fail or the game
crashed (the crash names the action sequence that reproduces it), 2 bad input, 130 interrupted.`;

/** How a real ARC game's level ran: its start, identity and clicks. */
function pythonLines(r: ExploreReport): string[] {
  const p = r.python;
  if (!p) return [];
  const clicks = p.clicks ? `clicks ${p.clicks.method} (partition ${p.clicks.partition}: ${p.clicks.classes} classes stepped, ${p.clicks.samples} samples, ${p.clicks.split} split by grid cell)` : 'no clicks';
  const fc = p.frameCollisions;
  const collisions = fc ? `; frame collisions: ${fc.collisions} successors showed an earlier frame with another state, ${fc.violations} of ${fc.checked} checked behave differently (Markov violations)` : '';
  // A later level entered by set_level, not played into: say where a played start may differ.
  const setLevel = p.levelStart === 'set-level' && r.level > 1 && !p.startNote ? ' (not played into: a game that carries anything from level to level, or whose winning action goes on after next_level, starts it elsewhere when played; --start-actions plays a path, sweep plays the earlier levels\' shortest wins)' : '';
  return [`python: level start ${p.levelStart}${setLevel}${p.startNote ? ` (${p.startNote})` : ''}; identity ${p.identity}; ${clicks}; snapshots ${p.snapshots}${p.graphBuilder ? '; GRAPH_BUILDER on' : ''}${p.unoffered === 'step' ? '; unoffered actions stepped' : ''}${collisions}`];
}

/** An exact P(win): its fraction and odds; past what a line holds or a double reaches, in exponent form from the integers (the fraction is in --json). */
function exactLine({ p, q, oneIn }: { p: string; q: string; oneIn: number }): string {
  if (p === '0') return '0/1 = never';
  const odds = Number.isFinite(oneIn) ? `1 in ${Number(oneIn.toPrecision(6))}` : `1 in ${scientific(q, p, 6)}`;
  return p.length + q.length <= 60 ? `${p}/${q} = ${odds}` : `${scientific(p, q, 6)} = ${odds} (the exact fraction, ${q.length} digits below the line, in --json)`;
}

const prob = (x: number): string => (x === 0 ? '0' : x === 1 ? '1' : x.toExponential(3));

/** Depths and actions a line shows at most: a corridor level's histogram and solution are as long as the level is deep (--json has them all). */
const SHOWN_DEPTHS = 40;
const SHOWN_ACTIONS = 100;

/** The first `keep` of `total` items, space-separated, and how many are left out ("unit" names them). */
function firstOf(items: readonly (string | number)[], keep: number, unit: string, total = items.length): string {
  if (total <= keep) return items.join(' ');
  return `${items.slice(0, keep).join(' ')} ... (the first ${keep} of ${total} ${unit}; --json for more)`;
}

function describe(r: ExploreReport): string {
  const collision = collisionWarning(r.collisionProbability);
  const lines = [
    `${r.game} level ${r.level}: ${r.nodes} states, ${r.edges} edges, ${r.transitions} transitions (merge density ${r.mergeDensity.toFixed(3)})`,
    r.fullyExplored ? 'fully explored' : `not fully explored: ${r.stopReason === 'interrupted' ? 'interrupted' : `stopped by ${r.stopReason}`}, ${r.frontier} states on the frontier`,
    `depth: max ${r.maxDepth}; states per depth ${firstOf(r.depthHistogram, SHOWN_DEPTHS, 'depths', r.maxDepth + 1)}`,
    `cycles: ${r.cycles.nonTrivial} strongly connected components of 2+ states (largest ${r.cycles.largest}), ${r.cycles.selfLoops} self-loops`,
    `terminals: ${r.terminals.won} won (${r.terminals.complete} completing the game), ${r.terminals.lost} game over`,
    `fingerprint collision probability: ${r.collisionProbability.toExponential(2)}${collision ? ` (HIGH: ${collision})` : ''}`,
    `speed: ${Math.round(r.transitionsPerSecond)} transitions/s on ${r.workers} worker(s) in ${r.seconds.toFixed(2)} s; store ${Math.round(r.bytesPerState)} bytes/state`,
    ...(r.schedule.busy !== null ? [`schedule: ${describeSchedule(r.schedule)}`] : []),
    r.shortestWin
      ? `shortest win: ${r.shortestWin.length} actions${r.shortestWin.optimal ? '' : ' (a shorter one may hide beyond the frontier)'}${r.baseline ? ` vs baseline ${r.baseline.declared}` : ''}: ${firstOf(r.shortestWin.actions, SHOWN_ACTIONS, 'actions') || '(the level starts won)'}`
      : `no win ${r.fullyExplored ? `is reachable${r.python?.clicks?.partition === 'sampled' ? ' over the sampled click classes (a click area nothing draws can hide one: --clicks all steps every cell)' : ''}` : 'found yet'}`,
    `dead ends: ${r.deadEnds.count}${r.deadEnds.example ? ` (${r.deadEnds.example.actions.length === 0 ? 'the start is one' : `reached by ${firstOf(r.deadEnds.example.actions, SHOWN_ACTIONS, 'actions')}`})` : ''}`,
    `random-win probability (${r.pWin.policy} policy, ${r.pWin.method}${r.pWin.method === 'exact' && r.python?.clicks?.partition === 'sampled' ? ' over the sampled click classes' : ''}): ${
      r.pWin.exact ? exactLine(r.pWin.exact) : `in [${prob(r.pWin.lower)}, ${prob(r.pWin.upper)}]`
    }`,
  ];
  lines.push(...pythonLines(r));
  const acts = r.python?.unofferedActs;
  if (acts && r.pWin.policy === 'reference' && r.python?.unoffered !== 'step') {
    lines.push(`REFERENCE POLICY WARNING: ${acts.join(', ')}, which the game does not offer, ${acts.length === 1 ? 'changes' : 'change'} its state when sent (the engine steps the game with any action, the reference agent sends all seven); this probability takes ${acts.length === 1 ? 'it' : 'them'} as staying put (--unoffered step explores ${acts.length === 1 ? 'it' : 'them'} as the engine steps ${acts.length === 1 ? 'it' : 'them'})`);
  }
  if (r.python?.listsReset) lines.push(`AVAILABLE ACTIONS WARNING: ${r.python.listsReset}`);
  if (r.python?.attemptsWarning) {
    const lost = r.python.attemptsActions ?? [];
    lines.push(`ATTEMPTS WARNING: ${r.python.attemptsWarning} (from the level's start: ${lost.join(' ')}; --start-actions with the path to this level's start followed by these explores the next attempt)`);
  }
  if (r.stuckStep) lines.push(`STUCK STEP WARNING: ${r.stuckStep.message}; replay the actions with a longer --step-timeout to tell a slow step from a hang`);
  if (r.identityWarning) lines.push(`IDENTITY WARNING: ${r.identityWarning.message}; the graph's numbers cannot be trusted (reproduce from reset: ${r.identityWarning.actions.join(' ') || 'no actions, the level start'})`);
  if (!r.pWin.exact && r.pWin.method === 'interval') {
    const stopped = r.pWin.intervalGaveUp ? `, not iterated: ${r.pWin.intervalGaveUp}` : r.pWin.converged ? '' : r.pWin.interrupted ? ', stopped: interrupted' : ', stopped on its work budget';
    lines.push(`  interval width ${prob(r.pWin.width)} (relative ${prob(r.pWin.relativeWidth)})${stopped}${r.pWin.exactGaveUp ? `; not exact: ${r.pWin.exactGaveUp}` : ''}`);
  }
  if (r.pWin.method === 'bounds' && r.pWin.intervalGaveUp) lines.push(`  bounds not iterated: ${r.pWin.intervalGaveUp}`);
  if (r.withinK) lines.push(`within ${r.withinK.k} actions: in [${prob(r.withinK.lower)}, ${prob(r.withinK.upper)}]${r.withinK.interrupted ? ' (interrupted before its last step: wider bounds)' : ''}`);
  lines.push(`verdict against ${r.threshold}: ${r.verdict}${r.exempt ? ' (tutorial level: exempt)' : ''}${r.hint ? `; ${r.hint}` : ''}`);
  return lines.join('\n');
}

const command: Command = {
  summary: 'build the state graph of a level and measure it',
  async run(argv) {
    const p = parse(argv, {
      level: { type: 'string' },
      workers: { type: 'string' },
      'max-nodes': { type: 'string' },
      'max-edges': { type: 'string' },
      'max-steps': { type: 'string' },
      'max-seconds': { type: 'string' },
      'max-memory': { type: 'string' },
      export: { type: 'string' },
      policy: { type: 'string' },
      threshold: { type: 'string' },
      within: { type: 'string' },
      json: { type: 'boolean' },
      ...PYTHON_OPTIONS,
      ...STEP_OPTION,
      identity: { type: 'string' },
      clicks: { type: 'string' },
      'start-actions': { type: 'string' },
      unoffered: { type: 'string' },
    }, 'explore');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    const v = p.values;
    const identity = (v.identity ?? 'state') as 'state' | 'frame';
    if (identity !== 'state' && identity !== 'frame') throw new InputError(`--identity must be state or frame, got '${String(v.identity)}'`);
    const clicks = (v.clicks ?? 'classes') as 'classes' | 'all';
    if (clicks !== 'classes' && clicks !== 'all') throw new InputError(`--clicks must be classes or all, got '${String(v.clicks)}'`);
    const level = numberOption(v, 'level', { min: 1 }) ?? 1;
    const unoffered = unofferedOption(v);
    // before the game opens: a Ctrl-C while a real ARC game's Python processes start is the user's stop (exit 130), not the game's crash
    const stop = interruption();
    const loaded = await resolveGame(onePositional(p, 'game', 'explore'), { ...pythonOptions(v), identity, clicks, ...(unoffered && { unoffered }) });
    if (isPythonGame(v, loaded, ['identity', 'clicks', 'start-actions', 'unoffered'])) startActionsOption(v, loaded, level);
    const file = v.export as string | undefined;
    if (file !== undefined && !/\.(gexf|json)$/.test(file)) throw new InputError(`--export ${file}: the file must end in .gexf (Gephi) or .json (Graphology)`);
    outputFileOption(v, 'export');
    const json = v.json === true;
    const policy = policyOption(v);
    const workers = workersOption(v, 'explore');
    const bar = progressLine(!json);
    try {
      const { report, graph } = await exploreLevel(loaded, {
        level,
        workers,
        maxNodes: numberOption(v, 'max-nodes', { min: 1 }),
        maxEdges: numberOption(v, 'max-edges', { min: 0 }),
        maxSteps: numberOption(v, 'max-steps', { min: 0 }),
        maxSeconds: numberOption(v, 'max-seconds', { min: 0, real: true }),
        maxMemory: numberOption(v, 'max-memory', { min: 0.001, real: true }),
        policy,
        threshold: numberOption(v, 'threshold', { min: Number.MIN_VALUE, max: 1, real: true }),
        withinK: numberOption(v, 'within', { min: 0 }),
        stepSeconds: stepTimeoutOption(v),
        signal: stop.signal,
        onProgress: bar.update,
      });
      bar.done();
      if (file !== undefined) {
        if (fitsGraphology(graph)) await exportGraph(graph, file);
        else console.error(`arcgraph explore: not exporting ${file}: ${graph.nodeCount} states is above Graphology's practical limits; the measures below come from the compact graph`);
      }
      const interrupted = stop.interrupted;
      console.log(json ? JSON.stringify(interrupted ? { ...report, interrupted } : report) : describe(report));
      if (interrupted) return INTERRUPTED;
      return report.verdict === 'fail' && !report.exempt ? 1 : 0;
    } finally {
      bar.done();
      stop.dispose();
      closeGame(loaded);
    }
  },
};

export default command;
