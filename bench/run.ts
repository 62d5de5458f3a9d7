/**
 * arcgraph benchmarks: `npm run bench` (full) or `npm run bench -- --quick` (under a minute).
 * Every number is a median over repetitions after a warm-up, and every speed is also given as a
 * ratio to a baseline measured in the same run. Results go to bench/results/<date>.json.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem, platform, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { initIdentity } from '../src/engine/index.js';
import { loadGame, PACKAGE_ROOT } from '../src/suite/index.js';
import { COORDINATOR_CLAIMS, describeSchedule, exploreGraph } from '../src/explorer/index.js';
import { SUITE } from '../games/index.js';
import { benchEngine, type EngineResult } from './engine.js';
import { benchExplorer, type CpuSplit, type ExplorerBench } from './explorer.js';
import { benchCoordinator, type CoordinatorBench } from './coordinator.js';
import { benchWalks, type WalksBench } from './walks.js';
import { benchClasses, benchSolver, type ClassBench, type SolverBench, type SolverCase } from './solver.js';
import { benchQualify, type QualifyBench } from './qualify.js';
import { arcPaths, benchPython, type PythonBench } from './python.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    level: { type: 'string', default: 'bx19:2' },
    out: { type: 'string', default: join(PACKAGE_ROOT, 'bench', 'results') },
    huge: { type: 'string' },
    only: { type: 'string' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(`Usage: npm run bench -- [--quick] [--level GAME:LEVEL] [--huge N] [--out DIR]
  --quick   small budgets, 3 repetitions (a smoke test that runs in under a minute)
  --level   the level the explorer and walk benchmarks run on (default bx19:2)
  --huge N  also explore N states once with all workers, and print its peak memory
  --only python    only the Python bridge benchmark (real ARC games against the single-process loop)
  --only explorer  only the explorer against the raw loop and its parallel ceiling, and the coordinator alone`);
  process.exit(0);
}

const quick = values.quick === true;
const cfg = quick
  ? { reps: 3, pairs: 20_000, maxNodes: 50_000, naiveNodes: 10_000, walkSteps: 300_000 }
  : { reps: 5, pairs: 200_000, maxNodes: 1_000_000, naiveNodes: 100_000, walkSteps: 3_000_000 };
/** Complete graphs of about 10^4, 10^5 and 10^6 states (the last partial: bounds). */
const solverCases: SolverCase[] = quick
  ? [{ game: 'rt42', level: 2 }, { game: 'rt42', level: 6 }]
  : [{ game: 'rt42', level: 2 }, { game: 'rt42', level: 6 }, { game: 'cm16', level: 5 }, { game: 'bx19', level: 2, maxNodes: 1_000_000 }];
const all = availableParallelism();
/** 1, 2, 4, 8 and all workers: those this machine has cores for. */
const workerCounts = [...new Set([1, 2, 4, 8, all])].filter((k) => k <= all).sort((a, b) => a - b);
const missing = [4, 8].filter((k) => k > all);
const [benchGame, benchLevelText] = values.level!.split(':');
const benchLevel = Number(benchLevelText);

const log = (text: string): void => void process.stderr.write(`${text}\n`);
const fmt = (n: number): string => (n >= 1e6 ? `${(n / 1e6).toFixed(2)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)}k` : n.toFixed(n < 10 ? 2 : 0));

await initIdentity();
const started = new Date();
const fmtRange = (xs: number[]): string => `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}`;

/** The Python bridge benchmark on two real games (skipped without the ARC engine and games). */
async function pythonBenches(): Promise<PythonBench[]> {
  const arc = arcPaths();
  const out: PythonBench[] = [];
  if (!arc) {
    log('python bridge: skipped (no ARC engine and games at ../shared/arc or ARCGRAPH_ARC_ENGINE)');
    return out;
  }
  for (const id of ['tu93', 'wa30']) {
    log(`python bridge: ${id} level 1, workers ${workerCounts.join(', ')} against the single-process loop`);
    out.push(await benchPython(arc, id, quick ? 200 : 1500, workerCounts, quick ? 1 : 5));
  }
  return out;
}

function pythonRows(benches: PythonBench[]): string[][] {
  const rows: string[][] = [];
  for (const p of benches) {
    rows.push([`python loop ${p.game}:${p.level}, ${fmt(p.states)} states (1 process: restore, step, identity)`, `${fmt(p.loop.median)} transitions/s`, `baseline (${fmt(p.loopPerCpuSecond.median)} per CPU second)`]);
    rows.push([`python ceiling ${p.game}: the loop in 2 processes at once`, `${fmt(p.ceiling.transitions.median)} transitions/s`, `${p.ceiling.vsLoop.median.toFixed(2)}x the loop (rounds ${fmtRange(p.ceiling.vsLoop.runs)})`]);
    for (const w of p.workers) rows.push([`python bridge ${p.game}, ${w.workers} worker(s)`, `${fmt(w.transitions.median)} transitions/s`, `${w.vsLoop.median.toFixed(2)}x the loop (rounds ${fmtRange(w.vsLoop.runs)})`]);
  }
  return rows;
}

/** The explorer's ratios are medians of ratios taken within a round (see ExplorerBench.paired). */
function explorerScaling(e: ExplorerBench, k: number): number | null {
  return e.paired.vsOneWorker.find((w) => w.workers === k)?.ratio.median ?? null;
}
/** What k threads of the raw loop gain over one on this machine: the most k workers could. */
function explorerCeilingGain(e: ExplorerBench, k: number): number | null {
  return e.ceiling.find((c) => c.threads === k)?.vsOneThread.median ?? null;
}
/** The explorer's gain from k workers as a share of the ceiling's gain from k threads. */
function explorerShareOfCeiling(e: ExplorerBench, k: number): number | null {
  const gain = explorerScaling(e, k);
  const ceiling = explorerCeilingGain(e, k);
  return gain !== null && ceiling !== null ? gain / ceiling : null;
}

function explorerRows(explorer: ExplorerBench): string[][] {
  const rows: string[][] = [];
  rows.push([`raw step loop ${explorer.game}:${explorer.level}, ${fmt(explorer.maxNodes)} states (1 thread of its own)`, `${fmt(explorer.raw.median)} transitions/s`, 'baseline']);
  for (const c of explorer.ceiling.slice(1)) {
    rows.push([`parallel ceiling: raw loop in ${c.threads} threads at once`, `${fmt(c.transitions.median)} transitions/s`, `${c.vsOneThread.median.toFixed(2)}x 1 thread`]);
  }
  if (missing.length > 0) rows.push([`(this machine has ${all} cores: no ${missing.join(' or ')}-worker rows)`, '', '']);
  rows.push([`naive Graphology-live explorer (${fmt(explorer.naiveMaxNodes)} states)`, `${fmt(explorer.naive.median)} transitions/s`, '']);
  for (const [i, w] of explorer.workers.entries()) {
    const vsOne = explorer.paired.vsOneWorker[i].ratio;
    const share = w.workers > 1 ? `, ${(100 * explorerShareOfCeiling(explorer, w.workers)!).toFixed(0)}% of the ceiling's ${explorerCeilingGain(explorer, w.workers)!.toFixed(2)}x` : '';
    rows.push([`explorer, ${w.workers} worker(s), ${fmt(explorer.maxNodes)} states`, `${fmt(w.transitions.median)} transitions/s, ${fmt(w.states.median)} states/s`, `${(w.transitions.median / explorer.raw.median).toFixed(2)}x raw, ${vsOne.median.toFixed(2)}x 1 worker${w.workers > 1 ? ` (rounds ${fmtRange(vsOne.runs)})` : ''}${share}, ${(w.transitions.median / explorer.naive.median).toFixed(1)}x naive; ${w.bytesPerState.toFixed(0)} B/state${cpuNote(w.cpu)}; ${describeSchedule(w.schedule)}`]);
  }
  const o = explorer.otherClaim;
  if (o) rows.push([`explorer, 2 workers, ${o.claimIn === 'workers' ? 'workers' : 'coordinator'} claiming (not the default here)`, `${fmt(o.transitions.median)} transitions/s`, `${o.vsDefault.median.toFixed(2)}x the default (rounds ${fmtRange(o.vsDefault.runs)})${cpuNote(o.cpu)}`]);
  // Past COORDINATOR_CLAIMS workers the workers claim: one coordinator's CPU a transition in that
  // mode caps every worker count. Taken at the most workers measured claiming.
  const claiming = [...explorer.workers.filter((w) => w.workers > COORDINATOR_CLAIMS), ...(o?.claimIn === 'workers' ? [o] : [])].filter((w) => w.cpu !== null);
  const widest = claiming.sort((a, b) => b.workers - a.workers)[0];
  if (widest?.cpu) {
    const ns = widest.cpu.searchNs;
    rows.push([`one coordinator's ceiling, workers claiming (from ${widest.workers} workers)`, `${fmt(1e9 / ns)} transitions/s`, `1e9 / its ${ns.toFixed(0)} ns of CPU a transition while searching (building the graph after it left out)`]);
  }
  return rows;
}

/** The coordinator alone on recorded batches, each way of claiming (see bench/coordinator.ts). */
function coordinatorRows(c: CoordinatorBench): string[][] {
  return c.modes.map((m) => [
    `the coordinator alone, ${m.claimIn === 'coordinator' ? 'claiming successors itself' : "numbering the workers' claims"} (${m.batches} recorded batches replayed)`,
    `${m.ns.median.toFixed(0)} ns a transition`,
    `one coordinator merges at most ${fmt(1e9 / m.ns.median)} transitions/s (rounds ${m.ns.runs.map((x) => x.toFixed(0)).join(', ')} ns)`,
  ]);
}

/** CPU time a transition, by thread (Linux only; see CpuSplit). */
function cpuNote(cpu: CpuSplit | null): string {
  return cpu ? `; CPU a transition: coordinator ${cpu.coordinatorNs.toFixed(0)} ns (${cpu.searchNs.toFixed(0)} searching), workers ${cpu.workersNs.toFixed(0)} ns` : '';
}

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]): string => `| ${r.map((cell, c) => cell.padEnd(widths[c])).join(' | ')} |`;
  console.log([line(rows[0]), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)].join('\n'));
}

function writeResults(results: object, suffix: string): string {
  mkdirSync(values.out!, { recursive: true });
  const file = join(values.out!, `${started.toISOString().slice(0, 19).replace(/:/g, '-')}${suffix}.json`);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
  return file;
}

// The flags node ran with (npm run bench: --expose-gc --single-threaded-gc): they change the speeds measured.
const machine = { cpus: cpus().length, cpuModel: cpus()[0]?.model, availableParallelism: all, memoryGB: totalmem() / 2 ** 30, platform: platform(), release: release(), node: process.version, execArgv: process.execArgv };
if (values.only === 'python') {
  const python = await pythonBenches();
  const file = writeResults({ date: started.toISOString(), mode: quick ? 'quick' : 'full', machine, loadAverage: loadavg(), python }, `${quick ? '-quick' : ''}-python`);
  printTable([['benchmark', 'median', 'ratio'], ...pythonRows(python)]);
  console.log(`\nresults: ${file}`);
  process.exit(0);
} else if (values.only === 'explorer') {
  const loaded = await loadGame(benchGame);
  log(`explorer: ${benchGame} level ${benchLevel}, ${cfg.maxNodes} states, workers ${workerCounts.join(', ')}`);
  const explorer = await benchExplorer(loaded, benchLevel, cfg.maxNodes, cfg.naiveNodes, workerCounts, cfg.reps);
  log('the coordinator alone, on recorded batches');
  const coordinator = await benchCoordinator(loaded, benchLevel, cfg.maxNodes, cfg.reps);
  const file = writeResults({ date: started.toISOString(), mode: quick ? 'quick' : 'full', machine, loadAverage: loadavg(), explorer, coordinator }, `${quick ? '-quick' : ''}-explorer`);
  printTable([['benchmark', 'median', 'ratio'], ...explorerRows(explorer), ...coordinatorRows(coordinator)]);
  console.log(`\nresults: ${file}`);
  process.exit(0);
} else if (values.only !== undefined) {
  console.error(`bench: --only takes python or explorer, got '${values.only}'`);
  process.exit(2);
}

log(`engine: ${Object.keys(SUITE).join(', ')}`);
const engine: EngineResult[] = [];
for (const id of Object.keys(SUITE)) engine.push(await benchEngine((await loadGame(id)).game, cfg.reps, cfg.pairs));

const loaded = await loadGame(benchGame);
log(`explorer: ${benchGame} level ${benchLevel}, ${cfg.maxNodes} states, workers ${workerCounts.join(', ')}`);
const explorer: ExplorerBench = await benchExplorer(loaded, benchLevel, cfg.maxNodes, cfg.naiveNodes, workerCounts, cfg.reps);
log('the coordinator alone, on recorded batches');
const coordinator: CoordinatorBench = await benchCoordinator(loaded, benchLevel, cfg.maxNodes, cfg.reps);
log('random walks');
const walks: WalksBench = await benchWalks(loaded, benchLevel, cfg.walkSteps, [...new Set([1, all])], cfg.reps);
log('qualification regimes');
const qualifyBench: QualifyBench = await benchQualify(loaded, quick ? 0.01 : 0.5, all, 1);
const pythonBench = await pythonBenches();
log('solver');
const solver: SolverBench = await benchSolver(solverCases, all, quick ? 1 : 3);
const classSizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000, 1_000_000];
log(`solver against class size: ${classSizes.join(', ')} states in one class`);
const classes: ClassBench = benchClasses(classSizes, quick ? 1 : 3, 1_000);
let huge: { states: number; edges: number; seconds: number; bytesPerState: number; peakMB: number; rssBeforeMB: number; transitionsPerSecond: number } | undefined;
if (values.huge) {
  log(`huge: ${values.huge} states`);
  // Peak resident memory over the run, sampled (the process's own high-water mark covers everything before it too).
  const rssBefore = process.memoryUsage.rss();
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 200);
  const { result: r } = await exploreGraph(loaded, { level: benchLevel, workers: all, maxNodes: Number(values.huge) });
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  huge = { states: r.nodes, edges: r.edges, seconds: r.seconds, bytesPerState: r.bytesPerState, peakMB: peak / 2 ** 20, rssBeforeMB: rssBefore / 2 ** 20, transitionsPerSecond: r.transitionsPerSecond };
}

const one = explorer.workers.find((w) => w.workers === 1)!;
const ratios = {
  explorer1VsRaw: explorer.paired.oneVsRaw.median,
  explorer2Vs1: explorerScaling(explorer, 2),
  explorerAllVs1: explorerScaling(explorer, all)!,
  explorer1VsNaive: explorer.paired.oneVsNaive.median,
  ceiling2Vs1: explorerCeilingGain(explorer, 2),
  explorer2OfCeiling: explorerShareOfCeiling(explorer, 2),
  shareOfCeiling: Object.fromEntries(workerCounts.map((k) => [k, explorerShareOfCeiling(explorer, k)])),
  walksAllVs1: walks.workers[walks.workers.length - 1].vsOneWorker.median,
  walksAllVsRaw: walks.workers[walks.workers.length - 1].stepsPerSecond.median / walks.raw.median,
  random2VsRaw: qualifyBench.random2 / walks.raw.median,
  fuzzVsRaw: qualifyBench.fuzz / walks.raw.median,
};
const results = {
  date: started.toISOString(),
  mode: quick ? 'quick' : 'full',
  machine,
  config: { ...cfg, solverCases },
  engine,
  explorer,
  coordinator,
  walks,
  qualify: qualifyBench,
  solver,
  python: pythonBench,
  classes,
  huge,
  ratios,
  targets: {
    explorer1AtLeast80PercentOfRaw: ratios.explorer1VsRaw >= 0.8,
    explorer2AtLeast90PercentOfCeiling: ratios.explorer2OfCeiling === null ? null : ratios.explorer2OfCeiling >= 0.9,
    atLeast10xNaive: ratios.explorer1VsNaive >= 10,
    storeAtMost50BytesPerState: one.bytesPerState <= 50,
  },
};

const file = writeResults(results, quick ? '-quick' : '');

const rows: string[][] = [['benchmark', 'median', 'ratio']];
for (const e of engine) {
  rows.push([`engine ${e.game}: step`, `${fmt(e.step.median)}/s`, '']);
  rows.push([`engine ${e.game}: step+encode+hash`, `${fmt(e.stepEncodeHash.median)}/s`, '']);
  rows.push([`engine ${e.game}: step+render`, `${fmt(e.stepRender.median)}/s`, `${fmt(e.floorRatio)}x the 1,000 fps floor`]);
}
rows.push(...explorerRows(explorer), ...coordinatorRows(coordinator));
rows.push([`random walks, raw loop ${walks.game}:${walks.level} (1 thread, no pool)`, `${fmt(walks.raw.median)} steps/s`, 'baseline']);
for (const w of walks.workers) rows.push([`random walks, ${w.workers} worker(s)`, `${fmt(w.stepsPerSecond.median)} steps/s`, `${(w.stepsPerSecond.median / walks.raw.median).toFixed(2)}x raw, ${w.vsOneWorker.median.toFixed(2)}x 1 worker`]);
rows.push([`qualify ${qualifyBench.game}: million-step random regime (${all} workers)`, `${fmt(qualifyBench.random2)} steps/s`, `${(qualifyBench.random2 / walks.raw.median).toFixed(2)}x the raw random loop`]);
rows.push([`qualify ${qualifyBench.game}: fuzz regime (${all} workers)`, `${fmt(qualifyBench.fuzz)} steps/s`, `${(qualifyBench.fuzz / walks.raw.median).toFixed(3)}x the raw random loop`]);
rows.push(...pythonRows(pythonBench));
for (const s of solver.sizes) rows.push([`solver ${s.game}:${s.level}, ${fmt(s.states)} states, ${fmt(s.edges)} edges (${s.method})`, `${s.seconds.toFixed(3)} s`, '']);
for (const c of classes.sizes) {
  const how = c.method === 'exact' ? 'exact' : `${c.method}, relative width ${c.relativeWidth.toExponential(1)}${c.converged ? '' : ', budget spent'}`;
  rows.push([`solver, one class of ${fmt(c.classSize)} states (${c.family}, ${c.exactGaveUp ? 'exact gave up: ' : ''}${how})`, `${c.seconds.toFixed(3)} s`, '']);
}
if (huge) rows.push([`huge run: ${fmt(huge.states)} states, ${fmt(huge.edges)} edges (${all} workers)`, `${huge.seconds.toFixed(0)} s, ${fmt(huge.transitionsPerSecond)} transitions/s`, `${huge.bytesPerState.toFixed(0)} B/state; peak memory ${huge.peakMB.toFixed(0)} MB (${huge.rssBeforeMB.toFixed(0)} MB before)`]);
printTable(rows);
console.log(`\nresults: ${file}`);
