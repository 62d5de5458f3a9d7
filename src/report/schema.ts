/**
 * report.json: the sweep's machine-readable result, version 3 (reads versions 1 and 2 too). The TypeScript types and the
 * checker schema below describe the same document (reports/README.md documents it for people);
 * the tests hold them together by validating real reports against the closed schema. Over 300
 * lines on purpose: one contract, every field with its meaning, read and changed as a whole.
 */
import type { Policy } from '../analysis/index.js';
import type { RegimeStatus } from '../qualify/index.js';
import { arr, bool, check, int, nullable, num, obj, oneOf, str, type Schema } from './check.js';

export const SCHEMA_VERSION = 3;
/** Versions parseReport reads: older ones lack the fields later versions added, read as null (see upgrade). */
export const READABLE_VERSIONS: readonly number[] = [1, 2, 3];

/**
 * pass: nothing wrong; fail: a crash, a verdict failed or qualification failed; inconclusive:
 * bounds straddle the threshold; hang: a game step did not return within the step limit.
 */
export type Outcome = 'pass' | 'fail' | 'inconclusive' | 'hang';

/** How a level's game code failed: a step threw, never returned, or ran its worker out of memory. */
export type CrashKind = 'crash' | 'hang' | 'out-of-memory';

export interface Budget {
  /** Most states explored per level. */
  nodes: number;
  /** Most seconds of exploration per level. */
  seconds: number;
  /** Qualification regimes run this fraction of their step counts (1 = the paper's 50,000 / 1,000,000). */
  stepsScale: number;
  /** Random steps played to settle a non-tutorial level the graph leaves inconclusive (0: never). */
  randomSteps: number;
}

/** Monte Carlo attempts that settle a level the graph's bounds leave inconclusive (see `arcgraph random`). */
export interface MonteCarloNumbers {
  policy: Policy;
  seed: number;
  steps: number;
  /** Finished attempts: won, lost, or cut off by the per-attempt limit. */
  episodes: number;
  wins: number;
  cutOff: number;
  /** One-sided 95% Clopper-Pearson bounds; cut-off attempts count as wins for the upper one. */
  lower: number;
  upper: number;
  verdict: 'pass' | 'fail' | 'inconclusive';
  seconds: number;
}

/** What `arcgraph explore --json` prints about the graph (the explorer's ExploreResult). */
export interface ExploreNumbers {
  nodes: number;
  edges: number;
  transitions: number;
  mergeDensity: number;
  maxDepth: number;
  depthHistogram: number[];
  cycles: { nonTrivial: number; largest: number; selfLoops: number };
  terminals: { won: number; lost: number; complete: number };
  frontier: number;
  fullyExplored: boolean;
  stopReason: 'max-nodes' | 'max-edges' | 'max-steps' | 'max-seconds' | 'max-memory' | 'interrupted' | null;
  collisionProbability: number;
  workers: number;
  seconds: number;
  transitionsPerSecond: number;
  storeBytes: number;
  bytesPerState: number;
  /** A sampled transition's identity did not hold (encode not canonical, or step not deterministic): the graph's numbers cannot be trusted. */
  identityWarning: { message: string; actions: string[] } | null;
  /** The search stopped while a game step had been running a while (a hang its budget hid): its actions from reset and seconds. Absent when none. */
  stuckStep?: { actions: string[]; seconds: number; message: string };
  /** A real ARC game (Python): how the level started, its identity, how clicks were expanded (absent for TypeScript games). */
  python?: PythonLevelReport | null;
}

/** How a real ARC game's level was explored (a probability is exact only when its click partition is). */
export interface PythonLevelReport {
  levelStart: 'played' | 'set-level';
  startNote: string | null;
  identity: 'state' | 'frame';
  graphBuilder: boolean;
  snapshots: string;
  clicks: { method: 'classes' | 'all-cells'; partition: 'exact' | 'sampled'; classes: number; samples: number; split: number; splitCells: number } | null;
  /** What the actions the game does not offer did in the graph: stay (nothing) or step (as the engine steps them); older reports read as stay. */
  unoffered: 'stay' | 'step';
  /** Those unoffered actions that changed the state where they were tried (the level's start and checked states); older reports read as none. */
  unofferedActs: string[];
  /** Paths from the level's start to won states other than the shortest win's (up to 3, BFS order): where other wins lead. Absent in older reports. */
  otherWins?: string[][];
  /** The level explored from the starts the previous level's other wins lead to (a chained sweep's); its outcome is the worst. Absent when none. */
  otherStarts?: OtherStartReport[];
  /** The game keeps state across attempts (a lost state's RESET does not lead where a fresh attempt starts): the graph is a fresh attempt's. Absent when not found. */
  attemptsWarning?: string;
  /** With attemptsWarning: the actions from the level's start that lose there, then RESET (where the next attempt starts). */
  attemptsActions?: string[];
  /** The game lists RESET (0) in available_actions, which the graph leaves out. Absent when it does not. */
  listsReset?: string;
}

/** A level explored from a start another win of the previous level leads to. */
export interface OtherStartReport {
  /** From the game's RESET to this start. */
  startActions: string[];
  /** This start is where the level's attempt number `attempt` (2, 3, ...) starts: the attempt before lost, and RESET. Absent for a start another win of the previous level leads to. */
  attempt?: number;
  nodes: number;
  fullyExplored: boolean;
  winReachable: boolean;
  /** Length of the shortest win from this start, or null when none was found. */
  shortestWin: number | null;
  pWin: { lower: number; upper: number; exact: { p: string; q: string } | null };
  verdict: 'pass' | 'fail' | 'inconclusive';
  /** The exploration's identity warning, or a game step's crash there, in one line; null when none. */
  problem: string | null;
}

/** The fuzz regime's performance profile of a level (see qualify's Profile). */
export interface ProfileReport {
  actionsPerSecond: number;
  framesPerSecond: number;
  framesPerAction: number;
  /** Below the ARC engine's 1,000 frames a second. */
  belowFloor: boolean;
  /** The slowest steps, with the actions from the level's start that reproduce each. */
  slowest: { ms: number; actions: string[] }[];
}

export interface ActionPathReport {
  length: number;
  actions: string[];
}

/** What the analysis adds to `arcgraph explore --json`. */
export interface AnalysisNumbers {
  winReachable: boolean;
  shortestWin: (ActionPathReport & { optimal: boolean }) | null;
  /** The game's declared human baseline for this level, when it has one. */
  baseline: { declared: number; shortest: number | null; difference: number | null } | null;
  deadEnds: { count: number; example: ActionPathReport | null };
  canWin: number;
  pWin: {
    policy: Policy;
    method: 'exact' | 'interval' | 'bounds';
    lower: number;
    upper: number;
    /** p/q as decimal strings, and q/p (null when p = 0). */
    exact: { p: string; q: string; oneIn: number | null } | null;
    converged: boolean;
    /** upper - lower, and that over upper (0 when upper is 0). */
    width: number;
    relativeWidth: number;
    /** Why the exact solve gave up, when it did (method interval or bounds). */
    exactGaveUp: string | null;
    /** Why interval iteration did not run (its arrays past the memory budget; the bounds are then 0 and 1), when it did not. */
    intervalGaveUp: string | null;
  };
  verdict: 'pass' | 'fail' | 'inconclusive';
  hint: string | null;
  threshold: number;
  exempt: boolean;
}

/** Which machine ran one job of the sweep (a local sweep's jobs all run on its own machine). */
export interface RanOn {
  /** The job's stage: a level's exploration or its Monte Carlo settling, or a game's qualification. */
  stage: 'explore' | 'monte-carlo' | 'qualify';
  /** Host name of the machine. */
  machine: string;
  /** The process on it: `host:pid` of the sweep (local) or of the `arcgraph worker` that took the job. */
  worker: string;
  /** Seconds the job took there. */
  seconds: number;
}

export interface RegimeReport {
  status: RegimeStatus;
  steps: number;
  wins: number | null;
  findings: number;
  seconds: number;
  /** The fuzz regime's performance profile of the level (absent in reports written before it). */
  profile?: ProfileReport | null;
}

export interface QualificationReport {
  passed: boolean;
  seed: number;
  stepsScale: number;
  policy: Policy;
  workers: number;
  /** Steps per second of the million-step regimes. */
  speed: { random2: number; fuzz: number };
  /** Folder of the findings' reproductions (recordings `arcgraph replay` plays to the fault); null when none. */
  out: string | null;
  seconds: number;
  levels: { level: number; tutorial: boolean; regimes: { random1: RegimeReport; random2: RegimeReport | null; fuzz: RegimeReport; playback: RegimeReport } }[];
  findings: { regime: string; check: string; level: number; severity: 'fail' | 'warn'; message: string; actions: string[]; reproduction: string | null }[];
  /** Where the qualification job ran; null in reports older than version 3. */
  ranOn: RanOn | null;
}

/** The level's numbers in the run it is compared with (the --baseline report, else the previous night in the history). */
export interface PreviousLevel {
  source: 'baseline' | 'history';
  /** When that run started. */
  startedAt: string;
  outcome: Outcome;
  states: number | null;
  /** Its start state's hash: a different one means the level itself changed. */
  startHash: string | null;
  /** The game's content hash that run (absent in older reports). */
  gameHash?: string | null;
  shortestWin: number | null;
  pWin: { lower: number; upper: number } | null;
  crashed: boolean;
}

export interface LevelReport {
  level: number;
  tutorial: boolean;
  /** SHA-256 (first 16 hex digits) of the canonical bytes of the level's reset state: it changes when the level does. Null when it cannot be built. */
  startHash: string | null;
  /** Null when the level crashed before the exploration finished. */
  explore: ExploreNumbers | null;
  analysis: AnalysisNumbers | null;
  /** Random play run because the graph's bounds were inconclusive; null when it was not needed. */
  monteCarlo: MonteCarloNumbers | null;
  /** A game step threw (or hung...): the action sequence from the level's reset state that reproduces it (its last action is the one that failed). */
  crash: { actions: string[]; reason: string; kind: CrashKind } | null;
  /** The level's worst qualification regime; null when qualification did not run. */
  qualification: RegimeStatus | null;
  outcome: Outcome;
  /** Why the outcome is not pass, one sentence each. */
  reasons: string[];
  previous: PreviousLevel | null;
  /** The level's jobs (exploration, then Monte Carlo) and where each ran; empty in reports older than version 3. */
  ranOn: RanOn[];
  /** Seconds of its jobs together. */
  seconds: number;
}

export interface GameReport {
  game: string;
  title: string;
  /** As given to the sweep: a suite id or a module path. */
  source: string;
  /** SHA-256 (first 16 hex digits) of the game's code and every level's reset state: the game's version. */
  contentHash: string | null;
  levelCount: number;
  tutorialLevels: number;
  levels: LevelReport[];
  qualification: QualificationReport | null;
  /** Jobs of this game that failed (not a game fault, which is a level's finding), one after another; the levels whose jobs finished are kept. */
  error: string | null;
  /**
   * What leaves the report short though the numbers are right, one line each: a queued job's files
   * (level artefacts, reproductions) that did not reach the report folder. Empty in older reports.
   */
  warnings: string[];
  outcome: Outcome;
  /** Seconds of its jobs together. */
  seconds: number;
}

export type RegressionKind = 'pwin-rose' | 'new-failure' | 'solution-longer' | 'solution-lost' | 'new-crash';

export interface Regression {
  game: string;
  /** Null for a game-wide regression (its qualification newly failed, or it newly errors). */
  level: number | null;
  kind: RegressionKind;
  message: string;
}

export interface HistoryInfo {
  path: string;
  /** Runs the file held before this one. */
  earlierRuns: number;
  /** The previous run's start, which levels are compared with when there is no --baseline. */
  previousRun: string | null;
  /** Why the history could not be read or written (the report is written all the same). */
  warning: string | null;
}

export interface SweepReport {
  schemaVersion: typeof SCHEMA_VERSION;
  tool: { name: 'arcgraph'; version: string };
  startedAt: string;
  updatedAt: string;
  seconds: number;
  /** running: written after a finished game while others remain (a killed sweep leaves this). */
  status: 'running' | 'complete' | 'interrupted';
  /**
   * workers: threads per job; null when the jobs ran on queue workers, each with its own count (each
   * level's explore.workers says). queue: the Redis URL the jobs went through (no password), null for a local sweep.
   */
  settings: {
    games: string[];
    budget: Budget;
    workers: number | null;
    policy: Policy;
    /** Under the reference policy, what a real ARC game's unoffered actions do: stay (nothing) or step (as the engine steps them); older reports read as stay. */
    unoffered: 'stay' | 'step';
    threshold: number;
    seed: number;
    queue: string | null;
  };
  baseline: { path: string; startedAt: string } | null;
  /** The sweep history file; null when the sweep keeps none. */
  history: HistoryInfo | null;
  games: GameReport[];
  regressions: Regression[];
  /** Level counts; crashes: levels whose game crashed or ran out of memory (a hang counts in hangs only). */
  summary: { games: number; levels: number; pass: number; fail: number; inconclusive: number; hangs: number; crashes: number; regressions: number };
  /** Every finished level passed (or is inconclusive) and no game errored. */
  passed: boolean;
}

const count = int({ min: 0 });
const probability = num({ min: 0, max: 1 });
const outcome = oneOf('pass', 'fail', 'inconclusive', 'hang');
const regimeStatus = oneOf('pass', 'fail', 'warn', 'skipped', 'interrupted');
const actionPath = obj({ length: count, actions: arr(str) });
const profileSchema = obj({
  actionsPerSecond: num({ min: 0 }),
  framesPerSecond: num({ min: 0 }),
  framesPerAction: num({ min: 0 }),
  belowFloor: bool,
  slowest: arr(obj({ ms: num({ min: 0 }), actions: arr(str) })),
});
const regime = obj({ status: regimeStatus, steps: count, wins: nullable(count), findings: count, seconds: num({ min: 0 }), profile: nullable(profileSchema) }, { optional: ['profile'] });
const pythonSchema = obj({
  levelStart: oneOf('played', 'set-level'),
  startNote: nullable(str),
  identity: oneOf('state', 'frame'),
  graphBuilder: bool,
  snapshots: str,
  clicks: nullable(obj({ method: oneOf('classes', 'all-cells'), partition: oneOf('exact', 'sampled'), classes: count, samples: count, split: count, splitCells: count })),
  unoffered: oneOf('stay', 'step'),
  unofferedActs: arr(str),
  otherWins: arr(arr(str)),
  otherStarts: arr(
    obj({
      startActions: arr(str),
      attempt: count,
      nodes: count,
      fullyExplored: bool,
      winReachable: bool,
      shortestWin: nullable(count),
      pWin: obj({ lower: probability, upper: probability, exact: nullable(obj({ p: str, q: str })) }),
      verdict: oneOf('pass', 'fail', 'inconclusive'),
      problem: nullable(str),
    }, { optional: ['attempt'] }),
  ),
  attemptsWarning: str,
  attemptsActions: arr(str),
  listsReset: str,
}, { optional: ['otherWins', 'otherStarts', 'attemptsWarning', 'attemptsActions', 'listsReset'] });
const ranOn = obj({ stage: oneOf('explore', 'monte-carlo', 'qualify'), machine: str, worker: str, seconds: num({ min: 0 }) });

const exploreSchema = obj({
  nodes: int({ min: 1 }),
  edges: count,
  transitions: count,
  mergeDensity: num({ max: 1 }),
  maxDepth: count,
  depthHistogram: arr(count),
  cycles: obj({ nonTrivial: count, largest: count, selfLoops: count }),
  terminals: obj({ won: count, lost: count, complete: count }),
  frontier: count,
  fullyExplored: bool,
  stopReason: nullable(oneOf('max-nodes', 'max-edges', 'max-steps', 'max-seconds', 'max-memory', 'interrupted')),
  collisionProbability: probability,
  workers: count,
  seconds: num({ min: 0 }),
  transitionsPerSecond: num({ min: 0 }),
  storeBytes: count,
  bytesPerState: num({ min: 0 }),
  identityWarning: nullable(obj({ message: str, actions: arr(str) })),
  stuckStep: nullable(obj({ actions: arr(str), seconds: num({ min: 0 }), message: str })),
  python: nullable(pythonSchema),
}, { optional: ['python', 'stuckStep'] });

const analysisSchema = obj({
  winReachable: bool,
  shortestWin: nullable(obj({ length: count, actions: arr(str), optimal: bool })),
  baseline: nullable(obj({ declared: count, shortest: nullable(count), difference: nullable(int()) })),
  deadEnds: obj({ count, example: nullable(actionPath) }),
  canWin: count,
  pWin: obj({
    policy: oneOf('available', 'reference'),
    method: oneOf('exact', 'interval', 'bounds'),
    lower: probability,
    upper: probability,
    exact: nullable(obj({ p: str, q: str, oneIn: nullable(num({ min: 1 })) })),
    converged: bool,
    width: num({ min: 0 }),
    relativeWidth: num({ min: 0, max: 1 }),
    exactGaveUp: nullable(str),
    intervalGaveUp: nullable(str),
  }),
  verdict: oneOf('pass', 'fail', 'inconclusive'),
  hint: nullable(str),
  threshold: num({ min: 0, max: 1 }),
  exempt: bool,
});

const qualificationSchema = obj({
  passed: bool,
  seed: count,
  stepsScale: num({ min: 0 }),
  policy: oneOf('available', 'reference'),
  workers: int({ min: 1 }),
  speed: obj({ random2: num({ min: 0 }), fuzz: num({ min: 0 }) }),
  out: nullable(str),
  seconds: num({ min: 0 }),
  levels: arr(obj({ level: int({ min: 1 }), tutorial: bool, regimes: obj({ random1: regime, random2: nullable(regime), fuzz: regime, playback: regime }) })),
  findings: arr(obj({ regime: str, check: str, level: count, severity: oneOf('fail', 'warn'), message: str, actions: arr(str), reproduction: nullable(str) })),
  ranOn: nullable(ranOn),
});

const monteCarloSchema = obj({
  policy: oneOf('available', 'reference'),
  seed: count,
  steps: count,
  episodes: count,
  wins: count,
  cutOff: count,
  lower: probability,
  upper: probability,
  verdict: oneOf('pass', 'fail', 'inconclusive'),
  seconds: num({ min: 0 }),
});

const levelSchema = obj({
  level: int({ min: 1 }),
  tutorial: bool,
  startHash: nullable(str),
  explore: nullable(exploreSchema),
  analysis: nullable(analysisSchema),
  monteCarlo: nullable(monteCarloSchema),
  crash: nullable(obj({ actions: arr(str), reason: str, kind: oneOf('crash', 'hang', 'out-of-memory') })),
  qualification: nullable(regimeStatus),
  outcome,
  reasons: arr(str),
  previous: nullable(obj({
    source: oneOf('baseline', 'history'),
    startedAt: str,
    outcome,
    states: nullable(count),
    startHash: nullable(str),
    gameHash: nullable(str),
    shortestWin: nullable(count),
    pWin: nullable(obj({ lower: probability, upper: probability })),
    crashed: bool,
  }, { optional: ['gameHash'] })),
  ranOn: arr(ranOn),
  seconds: num({ min: 0 }),
});

const gameSchema = obj({
  game: str,
  title: str,
  source: str,
  contentHash: nullable(str),
  levelCount: count,
  tutorialLevels: count,
  levels: arr(levelSchema),
  qualification: nullable(qualificationSchema),
  error: nullable(str),
  warnings: arr(str),
  outcome,
  seconds: num({ min: 0 }),
});

export const REPORT_SCHEMA: Schema = obj({
  schemaVersion: oneOf(SCHEMA_VERSION),
  tool: obj({ name: oneOf('arcgraph'), version: str }),
  startedAt: str,
  updatedAt: str,
  seconds: num({ min: 0 }),
  status: oneOf('running', 'complete', 'interrupted'),
  settings: obj({
    games: arr(str),
    budget: obj({ nodes: int({ min: 1 }), seconds: num({ min: 0 }), stepsScale: num({ min: 0 }), randomSteps: count }),
    workers: nullable(int({ min: 1 })),
    policy: oneOf('available', 'reference'),
    unoffered: oneOf('stay', 'step'),
    threshold: num({ min: 0, max: 1 }),
    seed: count,
    queue: nullable(str),
  }),
  baseline: nullable(obj({ path: str, startedAt: str })),
  history: nullable(obj({ path: str, earlierRuns: count, previousRun: nullable(str), warning: nullable(str) })),
  games: arr(gameSchema),
  regressions: arr(obj({ game: str, level: nullable(int({ min: 1 })), kind: oneOf('pwin-rose', 'new-failure', 'solution-longer', 'solution-lost', 'new-crash'), message: str })),
  summary: obj({ games: count, levels: count, pass: count, fail: count, inconclusive: count, hangs: count, crashes: count, regressions: count }),
  passed: bool,
});

/** The problems that keep `value` from being a report of the current version (empty when it is one). */
export function validateReport(value: unknown): string[] {
  return check(REPORT_SCHEMA, value);
}

/** Parses report.json text, or throws naming its first problems. */
export function parseReport(text: string, where = 'report'): SweepReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${where} is not JSON: ${(err as Error).message}`);
  }
  const version = (value as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (!READABLE_VERSIONS.includes(version as number)) throw new Error(`${where} has schemaVersion ${JSON.stringify(version)}; this arcgraph reads versions ${READABLE_VERSIONS.slice(0, -1).join(', ')} and ${READABLE_VERSIONS[READABLE_VERSIONS.length - 1]}`);
  if (version === 1 || version === 2) upgrade(value as Record<string, unknown>, version);
  fillAdded(value as Record<string, unknown>);
  const errors = validateReport(value);
  if (errors.length > 0) throw new Error(`${where} is not a valid report: ${errors.slice(0, 3).join('; ')}${errors.length > 3 ? ` (and ${errors.length - 3} more)` : ''}`);
  return value as SweepReport;
}

/**
 * Fields added after a version's first reports were written, filled from what those reports
 * have: a probability's width and relative width from its bounds, no reason for an exact solve
 * that gave up (older solvers did not say) nor for interval iteration that did not run (older
 * solvers always ran it), a crash's kind (a step that threw: hangs came later),
 * no hung levels in the summary and no identity warning (older explorers did not check), unoffered
 * actions that stayed put and none seen to act (older sweeps had no other mode, nor looked).
 */
function fillAdded(report: Record<string, unknown>): void {
  const summary = report.summary as Record<string, unknown> | undefined;
  if (summary && typeof summary === 'object') summary.hangs ??= 0;
  const settings = report.settings as Record<string, unknown> | undefined;
  if (settings && typeof settings === 'object') settings.unoffered ??= 'stay';
  for (const game of Array.isArray(report.games) ? (report.games as Record<string, unknown>[]) : []) {
    game.warnings ??= [];
    for (const level of Array.isArray(game.levels) ? (game.levels as Record<string, unknown>[]) : []) {
      const crash = level.crash as Record<string, unknown> | null | undefined;
      if (crash && typeof crash === 'object') crash.kind ??= 'crash';
      const explore = level.explore as Record<string, unknown> | null | undefined;
      if (explore && typeof explore === 'object') {
        explore.identityWarning ??= null;
        const python = explore.python as Record<string, unknown> | null | undefined;
        if (python && typeof python === 'object') {
          python.unoffered ??= 'stay';
          python.unofferedActs ??= [];
        }
      }
      const pWin = (level.analysis as { pWin?: Record<string, unknown> } | null)?.pWin;
      if (!pWin || typeof pWin.lower !== 'number' || typeof pWin.upper !== 'number') continue;
      pWin.width ??= pWin.upper - pWin.lower;
      pWin.relativeWidth ??= pWin.upper > 0 ? (pWin.upper - pWin.lower) / pWin.upper : 0;
      pWin.exactGaveUp ??= null;
      pWin.intervalGaveUp ??= null;
    }
  }
}

/**
 * An older report as the current version. Version 2 added the history, the hashes and the new
 * shape of `previous`: a version-1 report reads them as null, and each level's `previous` as null,
 * since version 1 recorded it in another shape. Version 3 added where each job ran (`ranOn`) and the
 * queue: read as none. The result serves as a baseline: what a baseline contributes is its own
 * levels' numbers.
 */
function upgrade(report: Record<string, unknown>, version: 1 | 2): void {
  report.schemaVersion = SCHEMA_VERSION;
  report.history ??= null;
  const settings = report.settings as Record<string, unknown> | undefined;
  if (settings && typeof settings === 'object') settings.queue ??= null;
  for (const game of Array.isArray(report.games) ? (report.games as Record<string, unknown>[]) : []) {
    game.contentHash ??= null;
    const q = game.qualification as Record<string, unknown> | null | undefined;
    if (q && typeof q === 'object') q.ranOn ??= null;
    for (const level of Array.isArray(game.levels) ? (game.levels as Record<string, unknown>[]) : []) {
      level.startHash ??= null;
      level.ranOn ??= [];
      if (version === 1) level.previous = null;
    }
  }
}
