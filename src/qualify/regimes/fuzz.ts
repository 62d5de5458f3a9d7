/** The fuzz regime's coordinator: a million steps of seeded walks over the worker pool, with a watchdog for hangs. */
import { actionCode, actionFromCode, sameBytes, type Action, type Check, type Game } from '../../engine/index.js';
import { OrderedRunner, workerPool } from '../../parallel/index.js';
import { walkActions } from '../../player/index.js';
import type { RegimeOutcome } from '../types.js';
import { elapsed, type RegimeContext } from './context.js';
import { runFuzz, type FuzzFault, type FuzzResult, type FuzzTask, type WalkPoint } from './fuzz-walks.js';

/** Steps per fuzz task: enough to amortise a round trip, small enough to spread over the workers. */
const FUZZ_TASK_STEPS = 25_000;
/** Fuzz walks of level l, task k, walk w play Rng stream l*2^40 + k*2^20 + w (disjoint from random episodes). */
const streamOf = (level: number, task: number): number => level * 2 ** 40 + task * 2 ** 20;
const FUZZ_WALK_STEPS = 5_000;

export interface FuzzOutcome {
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
export async function fuzzRegime(ctx: RegimeContext, levels: readonly number[], total: number): Promise<FuzzOutcome> {
  const { game, options } = ctx;
  const module = 'module' in ctx.loaded ? ctx.loaded.module : undefined;
  const started = performance.now();
  const tasks = fuzzTasks(ctx, module ?? '', levels, total);
  const perLevel = new Map<number, { steps: number; wins: number; seconds: number; found: Set<Check> }>(levels.map((l) => [l, { steps: 0, wins: 0, seconds: 0, found: new Set() }]));
  const pool = module ? workerPool('fuzz', ctx.workers) : undefined;
  const hangMs = (options.hangSeconds ?? 10) * 1000;
  const hung = new Set<number>();
  type Watched = { task: FuzzTask; view?: Int32Array; abort?: AbortController; last: string; since: number };
  const inflight = new OrderedRunner<Watched, FuzzResult | 'hung'>();
  const watchdog = setInterval(() => {
    const now = performance.now();
    for (const f of inflight.tasks) {
      if (!f.view || Atomics.load(f.view, 0) < 0) continue;
      const at = `${Atomics.load(f.view, 0)}:${Atomics.load(f.view, 1)}`;
      if (at !== f.last) {
        f.last = at;
        f.since = now;
      } else if (now - f.since > hangMs) f.abort!.abort();
    }
  }, 100);
  watchdog.unref();
  const launch = (task: FuzzTask): void => {
    if (!pool) return inflight.add({ task, last: '', since: 0 }, runFuzz(game, task));
    const progress = new SharedArrayBuffer(8);
    const view = new Int32Array(progress).fill(-1);
    const abort = new AbortController();
    const result = pool.run({ ...task, progress }, { signal: abort.signal }).catch((err: unknown) => {
      if (abort.signal.aborted) return 'hung' as const;
      throw err;
    });
    inflight.add({ task, view, abort, last: '', since: performance.now() }, result);
  };
  let next = 0;
  let done = 0;
  try {
    while (next < tasks.length || inflight.size > 0) {
      while (next < tasks.length && inflight.size < 2 * ctx.workers && !options.signal?.aborted) launch(tasks[next++]);
      // The task stays in flight (watched) until its result is in.
      const taken = await inflight.next();
      if (!taken) break;
      const { task: f, result: r } = taken;
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
    await inflight.settle();
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
