/** Monte Carlo play of a random policy over the worker pool, with Clopper-Pearson bounds on its win rate. */
import { attemptsToCertify, DEFAULT_THRESHOLD, verdictFor, type Policy, type Verdict } from '../analysis/index.js';
import { actionName, codeName, cutCycles, type Action } from '../engine/index.js';
import { GameCrash, openLevel, workerHeapMb, type FaultKind, type GameSource } from '../explorer/index.js';
import { DEFAULT_STEP_SECONDS, OrderedRunner, sharedPool, StepStalled, threadedGame, Watchdog } from '../parallel/index.js';
import { episodeActions, policyChoices } from '../player/index.js';
import { Abandonment, checkUnofferedPolicy, faultKindOf, pythonWalks, stoppedAt, WalkCrash, type StepTiming } from '../python/index.js';
import { clopperPearson } from './clopper-pearson.js';
import { runWalks, WalkEnd, type WalkResult, type WalkTask } from './walk.js';

export interface RandomOptions {
  level: number;
  /** Total step budget over all attempts. */
  steps: number;
  workers?: number;
  seed?: number;
  policy?: Policy;
  /** An attempt still playing after this many steps is cut off (counted as a win for the upper bound). */
  maxAttemptSteps?: number;
  threshold?: number;
  signal?: AbortSignal;
  /** Memory budget in GB: each worker thread's heap is its share (default: 80% of what the machine has free). */
  maxMemory?: number;
  /** A step in a worker that does not return within this many seconds stops the play with a GameCrash of kind 'hang' (default 10). */
  stepSeconds?: number;
  onProgress?: (p: { steps: number; episodes: number; wins: number; seconds: number }) => void;
}

/** What `arcgraph random --json` prints. */
export interface RandomResult {
  game: string;
  level: number;
  policy: Policy;
  seed: number;
  /** Attempts finished within the step budget: won, lost, or cut off by the per-attempt limit. */
  episodes: number;
  wins: number;
  losses: number;
  cutOff: number;
  /** 1 when the budget ran out during an attempt (left out of the statistics), else 0. */
  unfinished: number;
  steps: number;
  winRate: number;
  /** One-sided 95% Clopper-Pearson bounds; cut-off attempts count as wins for the upper one. */
  lower: number;
  upper: number;
  threshold: number;
  verdict: Verdict;
  tutorial: boolean;
  /** For an inconclusive verdict: what would settle it. */
  hint?: string;
  /** A real ARC game's level start: where its earlier levels' wins (or --start-actions) lead, or the engine's set_level (and why). */
  levelStart?: 'played' | 'set-level';
  startNote?: string;
  /** A real ARC game's actions it does not offer: `step` when the engine stepped them (--unoffered step), else absent. */
  unoffered?: 'step';
  /** The level starts won or lost (its reset state): every attempt ends there, the rate is exact, no step is taken. */
  starts?: 'won' | 'lost';
  /**
   * A real ARC game whose episodes changed its module's state (globals, class attributes): each attempt
   * starts from the level's snapshot, which does not hold it, so the attempts are not independent
   * plays of the game and the rate is not the game's. Absent when none did.
   */
  warning?: string;
  /** The first winning episode, to reproduce it (replay with the same seed and policy). */
  firstWin?: number;
  /** A real ARC game's steps: how many, how long, frames rendered, the slowest (the performance profile). */
  timing?: StepTiming;
  workers: number;
  seconds: number;
  stepsPerSecond: number;
}

/** A walk task's result, with what a Python game's walks add: step timing, module state carried, state kept across RESET. */
type TaskResult = WalkResult & { timing?: StepTiming; carried?: string; kept?: string };

/**
 * Monte Carlo attempts of a random policy from the level's reset state over the worker pool.
 * Episode i always plays the same moves (seeded by seed and i), and results are consumed in
 * episode order until the step budget is spent, so the numbers do not depend on the worker count.
 */
export async function randomPlay(source: GameSource, options: RandomOptions): Promise<RandomResult> {
  const { level, steps: budget } = options;
  const { game, module, workers, python } = await openLevel(source, level, options.workers);
  const policy = options.policy ?? 'available';
  checkUnofferedPolicy(game, policy);
  const seed = options.seed ?? 1;
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const cap = Math.max(1, Math.min(options.maxAttemptSteps ?? budget, budget));
  const pool = module ? sharedPool('walk', workers, workerHeapMb(workers, options.maxMemory)) : undefined;
  let timing: StepTiming | undefined;
  // A real ARC game's walks run in its Python processes, drawing the same moves (src/player's RNG, ported).
  const walksStopped = python ? new Abandonment() : undefined;
  const run = (task: WalkTask): Promise<TaskResult> => {
    if (python) return pythonWalks(python, { ...task, choices: policyChoices(game, policy) }, workers, walksStopped?.signal);
    return pool ? watchdog.runOn<WalkResult>(pool, { ...task }) : Promise.resolve().then(() => runWalks(game, task));
  };
  const watchdog = new Watchdog(options.stepSeconds ?? DEFAULT_STEP_SECONDS);
  /** A fault of episode `index` at its step `step`: the episode's moves up to it (drawn again here, not played). */
  const fault = (index: number, step: number, reason: string, kind: FaultKind): GameCrash =>
    new GameCrash(game.id, level, shorter(episodeActions(game, policy, seed, index, step)).map(actionName), `${reason} (random episode ${index}, seed ${seed})`, kind);
  /**
   * The episode's moves with their cycles cut: its prefix played again (every step of it returned
   * in a worker) on a thread of its own under the step limit, the last move never played.
   */
  const shorter = (actions: Action[]): Action[] => {
    if (!module || python || actions.length < 2) return actions;
    let here: ReturnType<typeof threadedGame> | undefined;
    try {
      here = threadedGame(module, options.stepSeconds);
      return cutCycles(here, level, actions);
    } catch {
      return actions;
    } finally {
      here?.close();
    }
  };
  const wake = (): void => inflight.wake();
  options.signal?.addEventListener('abort', wake);
  const started = performance.now();

  let used = 0;
  let episodes = 0;
  let wins = 0;
  let losses = 0;
  let cutOff = 0;
  let unfinished = 0;
  let firstWin: number | undefined;
  let starts: RandomResult['starts'];
  let nextEpisode = 0;
  // A task of about 20,000 steps amortises a thread's round trip; a Python step costs a millisecond,
  // so there a task is about 500 steps (and few are wasted past the budget).
  const taskSteps = python ? 500 : 20_000;
  let perTask = python ? 2 : 16;
  const inflight = new OrderedRunner<number, TaskResult>();
  let carried: string | undefined;
  let kept: string | undefined;
  // Tasks still in flight when the budget is spent are left to finish on the shared pool, unused
  // (the watchdog stops one that is stuck; a Python game's processes still running one are killed
  // after a grace).
  try {
    while (used < budget && !starts && !options.signal?.aborted) {
      while (inflight.size < 2 * workers) {
        inflight.add(nextEpisode, run({ module: module ?? '', level, policy, seed, first: nextEpisode, count: perTask, maxAttemptSteps: cap }));
        nextEpisode += perTask;
      }
      // Ctrl-C ends the wait even while a step is stuck.
      if (!inflight.headDone) {
        await inflight.anyFinished();
        continue;
      }
      const first = inflight.head!;
      let r: TaskResult;
      try {
        r = (await inflight.next())!.result;
      } catch (err) {
        // A Python walk names the episode that threw and the actions from the level's start.
        if (err instanceof WalkCrash) throw new GameCrash(game.id, level, err.actions.map(codeName), `${err.reason} (random episode ${err.episode}, seed ${seed})`, faultKindOf(err.kind));
        // Its process killed by the heartbeat, or ended by the game (os._exit): the episode and step it was on.
        const at = stoppedAt(err);
        if (at) throw fault(first + at.item, at.step, at.message, at.kind);
        if (!(err instanceof StepStalled)) throw err;
        const [offset, step] = err.at;
        const reason = err.kind === 'hang' ? `a step did not return within ${err.limitSeconds} s: its worker thread was stopped` : 'a step ran its worker thread out of memory (ERR_WORKER_OUT_OF_MEMORY)';
        throw fault(first + Math.max(0, offset), step, reason, err.kind === 'hang' ? 'hang' : 'out-of-memory');
      }
      if (r.timing) timing = mergeTiming(timing, r.timing);
      carried ??= r.carried;
      kept ??= r.kept;
      let stepsTaken = 0;
      for (let i = 0; i < r.steps.length && used < budget; i++) {
        // Only a level whose reset state is won or lost ends an attempt before its first step
        // (a drawn no-op counts as a step): every attempt would, so one settles it.
        if (r.steps[i] === 0) {
          starts = r.end[i] === WalkEnd.WON ? 'won' : 'lost';
          if (starts === 'won') firstWin = 0;
          wins = starts === 'won' ? 1 : 0;
          losses = 1 - wins;
          episodes = 1;
          break;
        }
        const left = budget - used;
        const taken = Math.min(r.steps[i], left);
        used += taken;
        stepsTaken += taken;
        // The attempt the budget runs out in is not an attempt cut off by the per-attempt limit:
        // it is left out of the statistics (its end is unknown, not a possible win). One cut just
        // where the budget ends is that too (without --max-attempt-steps the limit is the budget).
        if (r.steps[i] > left || (r.end[i] === WalkEnd.CUT && r.steps[i] === left)) {
          unfinished = 1;
          break;
        }
        const end = r.end[i];
        if (end === WalkEnd.WON) {
          wins++;
          firstWin ??= episodes;
        } else if (end === WalkEnd.LOST) losses++;
        else cutOff++;
        episodes++;
      }
      if (r.error && used < budget) throw fault(first + r.error.episode, r.error.step, r.error.message, 'crash');
      perTask = Math.max(1, Math.min(100_000, Math.round((taskSteps * Math.max(1, r.steps.length)) / Math.max(1, stepsTaken))));
      options.onProgress?.({ steps: used, episodes, wins, seconds: (performance.now() - started) / 1000 });
    }
  } finally {
    options.signal?.removeEventListener('abort', wake);
    if (inflight.running > 0) {
      watchdog.stop();
      walksStopped?.abandon();
    }
  }
  const { lower, upper } = starts ? { lower: wins, upper: wins } : { lower: clopperPearson(wins, episodes).lower, upper: clopperPearson(wins + cutOff, episodes).upper };
  const verdict = verdictFor(lower, upper, threshold);
  const seconds = (performance.now() - started) / 1000;
  const result: RandomResult = {
    game: game.id,
    level,
    policy,
    seed,
    episodes,
    wins,
    losses,
    cutOff,
    unfinished,
    steps: used,
    winRate: episodes ? wins / episodes : 0,
    lower,
    upper,
    threshold,
    verdict,
    tutorial: level <= game.tutorialLevels,
    workers,
    seconds,
    stepsPerSecond: seconds > 0 ? used / seconds : 0,
  };
  if (firstWin !== undefined) result.firstWin = firstWin;
  if (starts) result.starts = starts;
  if (python) {
    const root = python.root(level);
    result.levelStart = root.levelStart;
    if (root.note) result.startNote = root.note;
    if (python.options.unoffered === 'step') result.unoffered = 'step';
  }
  if (timing) result.timing = timing;
  if (carried !== undefined) {
    result.warning = `the attempts changed ${carried} in the game's module (state kept in module globals or class attributes): each attempt starts from the level's start, which does not hold it, so the attempts are not independent plays of the game and this rate is not its own`;
  }
  if (kept !== undefined) result.warning = result.warning ? `${result.warning}; ${kept}` : kept;
  if (verdict === 'inconclusive') {
    const need = attemptsToCertify(threshold);
    result.hint =
      cutOff > wins
        ? `${cutOff} attempts were cut off: raise the step budget or the per-attempt limit`
        : wins > 0
          ? // clean attempts cannot certify a rate with wins in it: only a narrower interval can
            `${wins} wins in ${episodes} attempts put the rate near ${threshold}: more attempts narrow the bounds, and explore gives the exact value where the graph is complete`
          : `about ${need} clean attempts (0 wins) certify p < ${threshold}; ${episodes} were played`;
  }
  return result;
}

/** Step timings of several tasks as one: sums, and the slowest few overall. */
function mergeTiming(a: StepTiming | undefined, b: StepTiming): StepTiming {
  if (!a) return b;
  const slowest = [...a.slowest, ...b.slowest].sort((x, y) => y.seconds - x.seconds).slice(0, 5);
  return { steps: a.steps + b.steps, seconds: a.seconds + b.seconds, frames: a.frames + b.frames, slowest };
}
