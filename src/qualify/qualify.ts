/**
 * Qualification (the ARC-AGI-3 validation pipeline's regimes): two random-play regimes that no
 * level may lose to luck, a million-step fuzz of every transition, and playback of the known-good
 * recordings. Every finding comes with a shrunk action sequence from its level's reset state,
 * saved as a recording that replay plays back to the fault. Seeded: a failure reproduces exactly.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GameAction, actionCode, actionFromCode, actionName, parseAction, type Action } from '../engine/index.js';
import type { Game } from '../engine/index.js';
import { InputError } from '../errors.js';
import { loadGame, type LoadedGame } from '../suite/index.js';
import { defaultWorkers, workerPool } from '../parallel/index.js';
import { randomPlay } from '../random/index.js';
import type { Policy } from '../analysis/index.js';
import { sameBytes, type Check } from '../engine/index.js';
import { playEpisode, walkActions } from '../player/index.js';
import { runFuzz, type FuzzFault, type FuzzResult, type FuzzTask, type WalkPoint } from './fuzz.js';
import { playBack, recordingFolders, recordingsOf, type PlaybackOutcome } from './playback.js';
import { writeReproduction } from './reproduce.js';
import { cutCycles, shrink, type SearchLimits } from './shrink.js';

export type Regime = 'random1' | 'random2' | 'fuzz' | 'playback';

export interface RegimeOutcome {
  status: 'pass' | 'fail' | 'warn' | 'skipped';
  steps: number;
  wins?: number;
  findings: number;
  seconds: number;
}

/** One regime's status on one level. */
export type RegimeStatus = RegimeOutcome['status'];

export interface LevelQualification {
  level: number;
  tutorial: boolean;
  regimes: { random1: RegimeOutcome; random2: RegimeOutcome | null; fuzz: RegimeOutcome; playback: RegimeOutcome };
}

export interface Finding {
  regime: Regime;
  check: Check;
  level: number;
  /** `warn` for a tutorial level won by random play (exempt); every other finding fails. */
  severity: 'fail' | 'warn';
  message: string;
  /** The shortest sequence found, from the level's reset state, that shows the fault at its last action. */
  actions: string[];
  /** A recording `arcgraph replay` plays back to the fault. */
  reproduction?: string;
}

export interface QualifyResult {
  game: string;
  passed: boolean;
  seed: number;
  stepsScale: number;
  policy: Policy;
  levels: LevelQualification[];
  findings: Finding[];
  /** Where reproductions were written (absent when there were none to write). */
  out?: string;
  /** Steps per second of the million-step regimes (random2 over all its levels, fuzz). */
  speed: { random2: number; fuzz: number };
  workers: number;
  seconds: number;
}

export interface QualifyProgress {
  regime: Regime;
  level: number;
  steps: number;
  total: number;
  seconds: number;
}

export interface QualifyOptions {
  /** Only this level (default: all). */
  level?: number;
  /** Multiplies every regime's step count (default 1). */
  stepsScale?: number;
  workers?: number;
  seed?: number;
  /** Folder for reproductions (default: a new folder under the OS temp dir). */
  out?: string;
  /** Random policy of the random regimes (default: uniform over the available actions). */
  policy?: Policy;
  /** A step slower than this is a finding (default 1,000 ms). */
  stepLimitMs?: number;
  /** A fuzz step that has not returned after this long is a hang: its worker is stopped (default 10 s). */
  hangSeconds?: number;
  /** Bounds of the breadth-first search for shorter reproductions. */
  search?: SearchLimits;
  signal?: AbortSignal;
  onProgress?: (p: QualifyProgress) => void;
}

/** The regimes' step counts at scale 1, as the validation pipeline sets them. */
export const REGIME_STEPS = { random1: 50_000, random2: 1_000_000, fuzz: 1_000_000 } as const;
/** Steps per fuzz task: enough to amortise a round trip, small enough to spread over the workers. */
const FUZZ_TASK_STEPS = 25_000;
/** Fuzz walks of level l, task k, walk w play Rng stream l*2^40 + k*2^20 + w (disjoint from random episodes). */
const streamOf = (level: number, task: number): number => level * 2 ** 40 + task * 2 ** 20;
const FUZZ_WALK_STEPS = 5_000;

/** A fault before shrinking: its level, check, message and the sequence (possibly a pair, see `earlier`). */
interface RawFault {
  regime: Regime;
  check: Check;
  level: number;
  severity: 'fail' | 'warn';
  message: string;
  actions: Action[];
  /** For equal bytes rendering differently: the sequence to the first state. */
  earlier?: Action[];
  /** A playback fault's recording. */
  file?: string;
}

const elapsed = (since: number): number => (performance.now() - since) / 1000;

function levelsToRun(game: Game, level: number | undefined): number[] {
  if (level === undefined) return Array.from({ length: game.levels }, (_, i) => i + 1);
  if (!Number.isInteger(level) || level < 1 || level > game.levels) throw new InputError(`level ${level} does not exist: ${game.id} has levels 1..${game.levels}`);
  return [level];
}

/** Runs every qualification regime on a game (a suite id, a module path, or a loaded game). */
export async function qualify(source: string | LoadedGame | Game, options: QualifyOptions = {}): Promise<QualifyResult> {
  const started = performance.now();
  const loaded: { game: Game; module?: string } = typeof source === 'string' ? await loadGame(source) : 'module' in source ? source : { game: source };
  const { game, module } = loaded;
  const ref = typeof source === 'string' ? source : module;
  const scale = options.stepsScale ?? 1;
  if (!(scale > 0)) throw new InputError(`the steps scale must be positive, got ${scale}`);
  const seed = options.seed ?? 1;
  const policy = options.policy ?? 'available';
  const workers = module ? Math.max(1, options.workers ?? defaultWorkers()) : 1;
  const levels = levelsToRun(game, options.level);
  const tutorial = (level: number): boolean => level <= game.tutorialLevels;
  const steps = (regime: keyof typeof REGIME_STEPS): number => Math.max(1, Math.round(REGIME_STEPS[regime] * scale));
  const raw: RawFault[] = [];
  const ctx: RegimeContext = { game, loaded: module ? { game, module } : game, workers, seed, policy, options, raw };

  // The fuzz runs first: a level where a step never returns is skipped by the random regimes,
  // whose walks have no watchdog and would wait for it forever.
  const fuzz = await fuzzRegime(ctx, levels, steps('fuzz'));
  const skipped = (): RegimeOutcome => ({ status: 'skipped', steps: 0, findings: 0, seconds: 0 });
  const random1 = new Map<number, RegimeOutcome>();
  const random2 = new Map<number, RegimeOutcome>();
  let random2Steps = 0;
  let random2Seconds = 0;
  for (const level of levels) random1.set(level, fuzz.hung.has(level) ? skipped() : await randomRegime(ctx, 'random1', level, steps('random1'), seed, tutorial(level)));
  for (const level of levels.filter((l) => !tutorial(l))) {
    const outcome = fuzz.hung.has(level) ? skipped() : await randomRegime(ctx, 'random2', level, steps('random2'), seed + 1, false);
    random2.set(level, outcome);
    random2Steps += outcome.steps;
    random2Seconds += outcome.seconds;
  }
  const playback = playbackRegime(ctx, ref, levels);

  const { findings, out } = await reproduce(game, raw, options);
  const count = (regime: Regime, level: number): number => findings.filter((f) => f.regime === regime && f.level === level).length;
  const result: QualifyResult = {
    game: game.id,
    passed: findings.every((f) => f.severity === 'warn'),
    seed,
    stepsScale: scale,
    policy,
    levels: levels.map((level) => ({
      level,
      tutorial: tutorial(level),
      regimes: {
        random1: random1.get(level)!,
        random2: random2.get(level) ?? null,
        fuzz: { ...fuzz.levels.get(level)!, findings: count('fuzz', level) },
        playback: { ...playback.get(level)!, findings: count('playback', level) },
      },
    })),
    findings,
    speed: { random2: random2Seconds > 0 ? random2Steps / random2Seconds : 0, fuzz: fuzz.seconds > 0 ? fuzz.steps / fuzz.seconds : 0 },
    workers,
    seconds: elapsed(started),
  };
  if (out) result.out = out;
  return result;
}

interface RegimeContext {
  game: Game;
  loaded: LoadedGame | Game;
  workers: number;
  seed: number;
  policy: Policy;
  options: QualifyOptions;
  raw: RawFault[];
}

/** Random play from the level's reset state: a win fails the level (warns on a tutorial level). */
async function randomRegime(ctx: RegimeContext, regime: Regime, level: number, budget: number, seed: number, tutorial: boolean): Promise<RegimeOutcome> {
  const { game, policy, options } = ctx;
  const started = performance.now();
  try {
    const r = await randomPlay(ctx.loaded, {
      level,
      steps: budget,
      workers: ctx.workers,
      seed,
      policy,
      signal: options.signal,
      onProgress: (p) => options.onProgress?.({ regime, level, steps: p.steps, total: budget, seconds: p.seconds }),
    });
    if (r.wins === 0) return { status: 'pass', steps: r.steps, wins: 0, findings: 0, seconds: elapsed(started) };
    const episode = playEpisode(game, level, policy, seed, r.firstWin!, budget);
    const severity = tutorial ? 'warn' : 'fail';
    const rate = `${r.wins} of ${r.episodes} random attempts won level ${level} in ${r.steps} steps`;
    ctx.raw.push({ regime, check: 'random-win', level, severity, message: tutorial ? `${rate} (a tutorial level: exempt)` : rate, actions: episode.actions });
    return { status: severity, steps: r.steps, wins: r.wins, findings: 1, seconds: elapsed(started) };
  } catch (err) {
    // A worker's game threw: play the episodes again here to find the first that throws.
    let used = 0;
    for (let index = 0; used < budget; index++) {
      const episode = playEpisode(game, level, policy, seed, index, budget - used);
      used += episode.steps;
      if (episode.end === 'threw') {
        ctx.raw.push({ regime, check: 'exception', level, severity: 'fail', message: `step threw: ${episode.error}`, actions: episode.actions });
        return { status: 'fail', steps: used, findings: 1, seconds: elapsed(started) };
      }
    }
    throw err;
  }
}

interface FuzzOutcome {
  levels: Map<number, RegimeOutcome>;
  /** Levels where a step never returned. */
  hung: Set<number>;
  steps: number;
  seconds: number;
}

/** The fuzz tasks of each level, in a fixed order (the results do not depend on the worker count). */
function fuzzTasks(ctx: RegimeContext, module: string, levels: readonly number[], total: number): FuzzTask[] {
  const tasks: FuzzTask[] = [];
  levels.forEach((level, i) => {
    const share = Math.floor(total / levels.length) + (i < total % levels.length ? 1 : 0);
    for (let k = 0; k * FUZZ_TASK_STEPS < share; k++) {
      tasks.push({
        module,
        level,
        seed: ctx.seed,
        firstStream: streamOf(level, k),
        steps: Math.min(FUZZ_TASK_STEPS, share - k * FUZZ_TASK_STEPS),
        maxWalkSteps: FUZZ_WALK_STEPS,
        stepLimitMs: ctx.options.stepLimitMs ?? 1000,
        clickSampleEvery: 256,
        crossSampleEvery: 128,
      });
    }
  });
  return tasks;
}

/**
 * Runs the fuzz tasks over the pool (or in-process for a game without a module), two per worker
 * in flight, merged in task order. A watchdog stops a task whose step has not returned after
 * `hangSeconds` (its worker is terminated) and reports the step it was on.
 */
async function fuzzRegime(ctx: RegimeContext, levels: readonly number[], total: number): Promise<FuzzOutcome> {
  const { game, options } = ctx;
  const module = 'module' in ctx.loaded ? ctx.loaded.module : undefined;
  const started = performance.now();
  const tasks = fuzzTasks(ctx, module ?? '', levels, total);
  const perLevel = new Map<number, { steps: number; wins: number; seconds: number; found: Set<Check> }>(levels.map((l) => [l, { steps: 0, wins: 0, seconds: 0, found: new Set() }]));
  const pool = module ? workerPool('fuzz', ctx.workers) : undefined;
  const hangMs = (options.hangSeconds ?? 10) * 1000;
  const hung = new Set<number>();
  type Inflight = { task: FuzzTask; result: Promise<FuzzResult | 'hung'>; view?: Int32Array; abort?: AbortController; last: string; since: number };
  const inflight: Inflight[] = [];
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const f of inflight) {
      if (!f.view || Atomics.load(f.view, 0) < 0) continue;
      const at = `${Atomics.load(f.view, 0)}:${Atomics.load(f.view, 1)}`;
      if (at !== f.last) {
        f.last = at;
        f.since = now;
      } else if (now - f.since > hangMs) f.abort!.abort();
    }
  }, 100);
  watchdog.unref();
  const launch = (task: FuzzTask): Inflight => {
    if (!pool) return { task, result: runFuzz(game, task), last: '', since: 0 };
    const progress = new SharedArrayBuffer(8);
    const view = new Int32Array(progress).fill(-1);
    const abort = new AbortController();
    const result = pool.run({ ...task, progress }, { signal: abort.signal }).catch((err: unknown) => {
      if (abort.signal.aborted) return 'hung' as const;
      throw err;
    });
    return { task, result, view, abort, last: '', since: performance.now() };
  };
  let next = 0;
  let done = 0;
  try {
    while (next < tasks.length || inflight.length > 0) {
      while (next < tasks.length && inflight.length < 2 * ctx.workers && !options.signal?.aborted) inflight.push(launch(tasks[next++]));
      // The task stays in flight (watched) until its result is in.
      const f = inflight[0];
      if (!f) break;
      const r = await f.result;
      inflight.shift();
      const level = perLevel.get(f.task.level)!;
      const note = (fault: Omit<FuzzFault, 'earlier'> & { earlier?: WalkPoint }): void => {
        if (level.found.has(fault.check)) return;
        level.found.add(fault.check);
        const sequence = (p: WalkPoint): Action[] => [...walkActions(game, f.task.seed, f.task.firstStream + p.walk, p.step), actionFromCode(p.action)];
        ctx.raw.push({ regime: 'fuzz', check: fault.check, level: f.task.level, severity: 'fail', message: fault.message, actions: sequence(fault), ...(fault.earlier && { earlier: sequence(fault.earlier) }) });
      };
      if (r === 'hung') {
        const walk = Atomics.load(f.view!, 0);
        const step = Atomics.load(f.view!, 1);
        const action = walkActions(game, f.task.seed, f.task.firstStream + walk, step + 1)[step];
        note({ check: 'slow-step', message: `a step did not return within ${hangMs / 1000} s (a hang): its worker was stopped`, walk, step, action: actionCode(action) });
        level.steps += step;
        hung.add(f.task.level);
      } else {
        for (const fault of r.resetFaults) {
          if (level.found.has(fault.check)) continue;
          level.found.add(fault.check);
          ctx.raw.push({ regime: 'fuzz', check: fault.check, level: f.task.level, severity: 'fail', message: fault.message, actions: [] });
        }
        for (const fault of r.faults) note(fault);
        for (const s of r.samples) if (!restepsAlike(game, s.pre, s.action, s.next)) note({ check: 'nondeterminism', message: 'stepping the same state and action in another thread gave another successor', ...s });
        level.steps += r.steps;
        level.wins += r.wins;
        level.seconds += r.seconds;
      }
      done += f.task.steps;
      options.onProgress?.({ regime: 'fuzz', level: f.task.level, steps: done, total, seconds: elapsed(started) });
    }
  } finally {
    clearInterval(watchdog);
    await Promise.allSettled(inflight.map((f) => f.result));
    await pool?.destroy();
  }
  const outcomes = new Map<number, RegimeOutcome>();
  let steps = 0;
  for (const [l, s] of perLevel) {
    steps += s.steps;
    outcomes.set(l, { status: s.found.size > 0 ? 'fail' : 'pass', steps: s.steps, wins: s.wins, findings: s.found.size, seconds: s.seconds });
  }
  return { levels: outcomes, hung, steps, seconds: elapsed(started) };
}

/** Steps a shipped transition again in this thread and compares the successor's bytes. */
function restepsAlike(game: Game, pre: Uint8Array, code: number, next: Uint8Array): boolean {
  try {
    return sameBytes(game.encode(game.step(game.decode(pre), actionFromCode(code))), next);
  } catch {
    return false;
  }
}

/** Replays every recording of the game; each is attributed to the level it ends on. */
function playbackRegime(ctx: RegimeContext, ref: string | undefined, levels: readonly number[]): Map<number, RegimeOutcome> {
  const outcomes = new Map<number, RegimeOutcome>(levels.map((l) => [l, { status: 'skipped', steps: 0, findings: 0, seconds: 0 }]));
  const files = ref ? recordingsOf(ctx.game, recordingFolders(ref)) : [];
  for (const file of files) {
    const started = performance.now();
    const p: PlaybackOutcome = playBack(ctx.game, file);
    const outcome = outcomes.get(p.level);
    if (!outcome) continue;
    outcome.steps += p.steps;
    outcome.seconds += elapsed(started);
    if (p.failure) {
      outcome.status = 'fail';
      ctx.raw.push({ regime: 'playback', check: 'playback', level: p.level, severity: 'fail', message: `${file}: ${p.failure}`, actions: p.actions.map(parseAction), file });
    } else if (outcome.status === 'skipped') outcome.status = 'pass';
  }
  return outcomes;
}

/** Shrinks every fault and writes its reproduction; playback findings point at their recording. */
async function reproduce(game: Game, raw: RawFault[], options: QualifyOptions): Promise<{ findings: Finding[]; out?: string }> {
  let out: string | undefined;
  const folder = (): string => {
    if (!out) {
      out = options.out ?? mkdtempSync(join(tmpdir(), `arcgraph-qualify-${game.id}-`));
      mkdirSync(out, { recursive: true });
    }
    return out;
  };
  const limits = options.search ?? { maxNodes: 200_000, maxSeconds: 20 };
  const findings: Finding[] = [];
  for (const [n, fault] of raw.entries()) {
    const finding: Finding = { regime: fault.regime, check: fault.check, level: fault.level, severity: fault.severity, message: fault.message, actions: fault.actions.map(actionName) };
    if (fault.file) {
      finding.reproduction = fault.file;
      findings.push(finding);
      continue;
    }
    let recorded: Action[];
    if (fault.earlier) {
      // Two states with equal bytes: both sequences, the second after a full reset to the level.
      recorded = [...cutCycles(game, fault.level, fault.earlier), RESET, RESET, ...cutCycles(game, fault.level, fault.actions)];
      finding.actions = recorded.map(actionName);
    } else {
      const pinned = fault.check === 'exception' ? fault.message : undefined;
      const actions = await shrink(game, fault.level, fault.check, fault.actions, limits, pinned);
      finding.actions = actions.map(actionName);
      recorded = fault.check === 'nondeterminism' ? repeatFlaky(game, fault.level, actions) : actions;
    }
    const path = join(folder(), `${game.id}.qualify-${fault.check}.${n + 1}.${randomUUID()}.recording.jsonl`);
    writeReproduction(path, game, fault.level, recorded, fault.check);
    finding.reproduction = path;
    findings.push(finding);
  }
  return { findings, out };
}

const RESET: Action = { id: GameAction.RESET };

/**
 * A flaky step differs only sometimes: the recording repeats the sequence (two RESETs between,
 * the second a full reset back to the level) often enough that replay, which steps every
 * transition twice and compares repeats, misses it with probability under 1e-9.
 */
function repeatFlaky(game: Game, level: number, actions: Action[]): Action[] {
  let state = game.init(level);
  for (const a of actions.slice(0, -1)) state = game.step(state, a);
  const last = actions[actions.length - 1];
  const counts = new Map<string, number>();
  const samples = 64;
  for (let i = 0; i < samples; i++) {
    const key = Buffer.from(game.encode(game.step(state, last))).toString('latin1');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let same = 0;
  for (const c of counts.values()) same += (c / samples) ** 2;
  const differ = Math.max(1 - same, 1 / samples);
  const repeats = Math.min(64, Math.max(1, Math.ceil(Math.log(1e-9) / Math.log(1 - differ) / 2)));
  const recorded: Action[] = [...actions];
  for (let r = 1; r < repeats; r++) recorded.push(RESET, RESET, ...actions);
  return recorded;
}
