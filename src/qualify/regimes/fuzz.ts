/**
 * The fuzz regime's coordinator: a million steps of seeded walks over the worker pool (a real ARC
 * game's in its Python processes), with a watchdog for hangs, and the performance profile of every
 * level (actions and frames a second, the slowest steps and the actions that reproduce each).
 */
import { actionCode, actionFromCode, actionName, sameBytes, type Action, type Check, type Game } from '../../engine/index.js';
import { OrderedRunner, StepStalled, Watchdog, workerPool } from '../../parallel/index.js';
import { workerHeapMb } from '../../explorer/index.js';
import { walkActions } from '../../player/index.js';
import { crossCheck, pythonFuzz, PythonError, PythonGame, stoppedAt, type PyFuzzResult } from '../../python/index.js';
import type { Profile, RegimeOutcome } from '../types.js';
import { elapsed, type RegimeContext } from './context.js';
import { runFuzz, type FuzzFault, type FuzzResult, type FuzzTask, type FuzzTiming, type WalkPoint } from './fuzz-walks.js';

/** Steps per fuzz task: enough to amortise a round trip, small enough to spread over the workers. */
const FUZZ_TASK_STEPS = 25_000;
/** A Python step costs about a millisecond: a task of 2,000 steps is a few seconds. */
const PYTHON_TASK_STEPS = 2_000;
/** Fuzz walks of level l, task k, walk w play Rng stream l*2^40 + k*2^20 + w (disjoint from random episodes). */
const streamOf = (level: number, task: number): number => level * 2 ** 40 + task * 2 ** 20;
const FUZZ_WALK_STEPS = 5_000;
/** Frames a second the ARC engine is expected to sustain: a game below it is flagged. */
export const FPS_FLOOR = 1000;

export interface FuzzOutcome {
  levels: Map<number, RegimeOutcome>;
  /** Levels where a step never returned (or ran its thread out of memory). */
  hung: Set<number>;
  steps: number;
  seconds: number;
}

/** The fuzz tasks of each level, in a fixed order (the results do not depend on the worker count). */
function fuzzTasks(ctx: RegimeContext, module: string, levels: readonly number[], total: number, perTask: number): FuzzTask[] {
  const tasks: FuzzTask[] = [];
  levels.forEach((level, i) => {
    const share = Math.floor(total / levels.length) + (i < total % levels.length ? 1 : 0);
    for (let k = 0; k * perTask < share; k++) {
      tasks.push({
        module,
        level,
        seed: ctx.seed,
        firstStream: streamOf(level, k),
        steps: Math.min(perTask, share - k * perTask),
        maxWalkSteps: FUZZ_WALK_STEPS,
        stepLimitMs: ctx.options.stepLimitMs ?? 1000,
        clickSampleEvery: 256,
        crossSampleEvery: 128,
      });
    }
  });
  return tasks;
}

/** A task's result whichever side ran it, or the walk point of a step that never returned. */
/** `exited`: the step ended its Python process (os._exit, a crash in C), not a hang. */
/** `cause`: why a Python game's restored copy may hang where the game does not (heldids.py). */
type Outcome = FuzzResult | { hung: WalkPoint; outOfMemory?: boolean; exited?: string; cause?: string };

/** A Python task's result in the shape of the TypeScript one (its samples are checked in another process here). */
async function fromPython(game: PythonGame, r: PyFuzzResult): Promise<Outcome> {
  if (r.hung) {
    const { cause, ...at } = r.hung;
    return { hung: at, ...(cause && { cause }) };
  }
  const odd = await crossCheck(game, r.samples);
  const faults: FuzzFault[] = [...r.faults];
  if (odd.length > 0) faults.push({ check: 'nondeterminism', message: `stepping the same state and action in another Python process (under another PYTHONHASHSEED) gave another successor: the game is not deterministic, or follows the hash order of strings`, walk: odd[0].walk, step: odd[0].step, action: odd[0].action });
  const timing: FuzzTiming = r.timing ?? { steps: 0, seconds: 0, frames: 0, slowest: [] };
  return { steps: r.steps, seconds: timing.seconds, walks: r.walks, wins: r.wins, faults, resetFaults: r.resetFaults, samples: [], timing };
}

/**
 * Runs the fuzz tasks over the pool (or in-process for a game without a module, or in the Python
 * processes of a real ARC game), two per worker in flight, merged in task order. A watchdog stops a
 * task whose step has not returned after `hangSeconds` (its worker or process is stopped) and
 * reports the step it was on.
 */
export async function fuzzRegime(ctx: RegimeContext, levels: readonly number[], total: number): Promise<FuzzOutcome> {
  const { game, options } = ctx;
  const python = game instanceof PythonGame ? game : undefined;
  const module = 'module' in ctx.loaded ? ctx.loaded.module : undefined;
  const started = performance.now();
  const tasks = fuzzTasks(ctx, module ?? '', levels, total, python ? PYTHON_TASK_STEPS : FUZZ_TASK_STEPS);
  type Slow = { seconds: number; seed: number; stream: number; step: number };
  const perLevel = new Map<number, { steps: number; wins: number; seconds: number; found: Set<Check>; timing: FuzzTiming; slowest: Slow[] }>(
    levels.map((l) => [l, { steps: 0, wins: 0, seconds: 0, found: new Set(), timing: { steps: 0, seconds: 0, frames: 0, slowest: [] }, slowest: [] }]),
  );
  const pool = module && !python ? workerPool('fuzz', ctx.workers, workerHeapMb(ctx.workers, options.maxMemory)) : undefined;
  const hangMs = (options.hangSeconds ?? 10) * 1000;
  const hung = new Set<number>();
  // The step watchdog (src/parallel/watchdog.ts): the worker writes (walk, step) into its task's progress.
  const watchdog = new Watchdog(hangMs / 1000);
  const inflight = new OrderedRunner<{ task: FuzzTask }, Outcome>();
  const launch = (task: FuzzTask): void => {
    if (python) {
      const pyTask = { level: task.level, seed: task.seed, firstStream: task.firstStream, steps: task.steps, maxWalkSteps: task.maxWalkSteps, stepLimitMs: task.stepLimitMs, restepEvery: 16, crossEvery: task.crossSampleEvery, stepSeconds: Math.min(python.options.stepSeconds, hangMs / 1000) };
      // The process's own alarm (and heartbeat) stop a hang: the walk point comes back with the error.
      // A task queued behind a step that never returned dies with that step's process: it runs again.
      const attempt = (): Promise<PyFuzzResult> => pythonFuzz(python, pyTask, ctx.workers);
      const result = attempt().catch((err: unknown) => (err instanceof PythonError && err.kind === 'died' ? attempt() : Promise.reject(err))).then(
        (r): Promise<Outcome> => fromPython(python, r),
        (err: unknown): Outcome => {
          const at = stoppedAt(err);
          if (!at) throw err;
          return { hung: { walk: at.item, step: at.step, action: at.action }, ...(at.kind === 'crash' && { exited: at.message }) };
        },
      );
      return inflight.add({ task }, result);
    }
    if (!pool) return inflight.add({ task }, runFuzz(game, task));
    const result = watchdog.runOn<FuzzResult>(pool, { ...task }).then(
      (r): Outcome => r,
      (err: unknown): Outcome => {
        if (!(err instanceof StepStalled) || err.kind === 'stopped') throw err;
        const [walk, step] = err.at;
        // No walk had begun: the level's init (or loading the game) never returned.
        if (walk < 0 || step < 0) return { hung: { walk: -1, step: -1, action: -1 }, outOfMemory: err.kind === 'out-of-memory' };
        return { hung: { walk, step, action: actionCode(walkActions(game, task.seed, task.firstStream + walk, step + 1)[step]) }, outOfMemory: err.kind === 'out-of-memory' };
      },
    );
    inflight.add({ task }, result);
  };
  let next = 0;
  let done = 0;
  /** Planned steps of the tasks whose results came back, by level. */
  const finished = new Map<number, number>();
  try {
    while (next < tasks.length || inflight.size > 0) {
      while (next < tasks.length && inflight.size < 2 * ctx.workers && !options.signal?.aborted) launch(tasks[next++]);
      // The task stays in flight (watched) until its result is in.
      const taken = await inflight.next();
      if (!taken) break;
      const { task: f, result: r } = taken;
      const level = perLevel.get(f.task.level)!;
      const sequence = (p: Omit<WalkPoint, 'action'>): Action[] => walkActions(game, f.task.seed, f.task.firstStream + p.walk, p.step);
      const note = (fault: Omit<FuzzFault, 'earlier'> & { earlier?: WalkPoint }): void => {
        if (level.found.has(fault.check)) return;
        level.found.add(fault.check);
        const at = (p: WalkPoint): Action[] => [...sequence(p), actionFromCode(p.action)];
        ctx.raw.push({ regime: 'fuzz', check: fault.check, level: f.task.level, severity: 'fail', message: fault.message, actions: at(fault), ...(fault.earlier && { earlier: at(fault.earlier) }) });
      };
      if ('hung' in r && r.hung.step < 0) {
        const check = r.outOfMemory ? 'out-of-memory' : 'slow-step';
        const message = r.outOfMemory ? `building the reset state of level ${f.task.level} ran its worker thread out of memory` : `the reset state of level ${f.task.level} was not built within ${hangMs / 1000} s (a hang in init): it was stopped`;
        if (!level.found.has(check)) ctx.raw.push({ regime: 'fuzz', check, level: f.task.level, severity: 'fail', message, actions: [] });
        level.found.add(check);
        hung.add(f.task.level);
      } else if ('hung' in r) {
        if (r.exited) note({ check: 'exception', message: r.exited, ...r.hung });
        else if (r.outOfMemory) note({ check: 'out-of-memory', message: 'a step ran its worker thread out of memory (ERR_WORKER_OUT_OF_MEMORY): it was stopped', ...r.hung });
        else note({ check: 'slow-step', message: `a step did not return within ${python ? `${Math.min(python.options.stepSeconds, hangMs / 1000)} s` : `${hangMs / 1000} s`} (a hang): it was stopped${r.cause ? `; ${r.cause}` : ''}`, ...r.hung });
        level.steps += r.hung.step;
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
        const t = r.timing;
        level.timing.steps += t.steps;
        level.timing.seconds += t.seconds;
        level.timing.frames += t.frames;
        for (const x of t.slowest) level.slowest.push({ seconds: x.seconds, stream: f.task.firstStream + x.walk, seed: f.task.seed, step: x.step });
        level.slowest = level.slowest.sort((a, b) => b.seconds - a.seconds).slice(0, 5);
      }
      done += f.task.steps;
      finished.set(f.task.level, (finished.get(f.task.level) ?? 0) + f.task.steps);
      options.onProgress?.({ regime: 'fuzz', level: f.task.level, steps: done, total, seconds: elapsed(started) });
    }
  } finally {
    if (inflight.size > 0) watchdog.stop(0);
    await inflight.settle();
    await pool?.destroy();
  }
  const outcomes = new Map<number, RegimeOutcome>();
  let steps = 0;
  // A level whose tasks did not all come back (the signal stopped launching them) was cut short.
  const planned = new Map<number, number>();
  for (const t of tasks) planned.set(t.level, (planned.get(t.level) ?? 0) + t.steps);
  const cut = (l: number): boolean => options.signal?.aborted === true && (finished.get(l) ?? 0) < (planned.get(l) ?? 0);
  for (const [l, s] of perLevel) {
    steps += s.steps;
    outcomes.set(l, { status: s.found.size > 0 ? 'fail' : cut(l) ? 'interrupted' : 'pass', steps: s.steps, wins: s.wins, findings: s.found.size, seconds: s.seconds, profile: profileOf(s.timing, s.slowest.map((x) => ({ seconds: x.seconds, actions: walkActions(game, x.seed, x.stream, x.step + 1) }))) });
  }
  return { levels: outcomes, hung, steps, seconds: elapsed(started) };
}

/** A level's performance profile from its timed steps. */
function profileOf(t: FuzzTiming, slowest: { seconds: number; actions: Action[] }[]): Profile {
  const framesPerSecond = t.seconds > 0 ? t.frames / t.seconds : 0;
  return {
    actionsPerSecond: t.seconds > 0 ? t.steps / t.seconds : 0,
    framesPerSecond,
    framesPerAction: t.steps > 0 ? t.frames / t.steps : 0,
    belowFloor: t.steps > 0 && framesPerSecond < FPS_FLOOR,
    slowest: slowest.map((s) => ({ ms: s.seconds * 1000, actions: s.actions.map(actionName) })),
  };
}

/** Steps a shipped transition again in this thread and compares the successor's bytes. */
function restepsAlike(game: Game, pre: Uint8Array, code: number, next: Uint8Array): boolean {
  try {
    return sameBytes(game.encode(game.step(game.decode(pre), actionFromCode(code))), next);
  } catch {
    return false;
  }
}
