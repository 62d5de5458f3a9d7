/**
 * Qualification (the ARC-AGI-3 validation pipeline's regimes): two random-play regimes that no
 * level may lose to luck, a million-step fuzz of every transition, and playback of the known-good
 * recordings. Every finding comes with a shrunk action sequence from its level's reset state,
 * saved as a recording that replay plays back to the fault. Seeded: a failure reproduces exactly.
 */
import { threadedGame } from '../parallel/index.js';
import type { Game } from '../engine/index.js';
import { InputError } from '../errors.js';
import { checkLevel, openGame, type GameSource } from '../explorer/index.js';
import { PythonGame } from '../python/index.js';
import type { RawFault, RegimeContext } from './regimes/context.js';
import { elapsed } from './regimes/context.js';
import { fuzzRegime } from './regimes/fuzz.js';
import { playbackRegime } from './regimes/playback.js';
import { randomRegime } from './regimes/random.js';
import { reproduce } from './reproduce.js';
import { REGIME_STEPS, type QualifyOptions, type QualifyResult, type Regime, type RegimeOutcome } from './types.js';

function levelsToRun(game: Game, level: number | undefined): number[] {
  if (level === undefined) return Array.from({ length: game.levels }, (_, i) => i + 1);
  checkLevel(game, level);
  return [level];
}

/** Runs every qualification regime on a game (a suite id, a module path, or a loaded game). */
export async function qualify(source: GameSource, options: QualifyOptions = {}): Promise<QualifyResult> {
  const started = performance.now();
  const { game, module, workers } = await openGame(source, options.workers);
  // Recordings are looked for beside the game's module (or a real ARC game's files).
  const ref = typeof source === 'string' ? source : (module ?? (game instanceof PythonGame ? game.file : undefined));
  const scale = options.stepsScale ?? 1;
  if (!(scale > 0)) throw new InputError(`the steps scale must be positive, got ${scale}`);
  const seed = options.seed ?? 1;
  const policy = options.policy ?? 'available';
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
  // After an interruption the regimes not yet run are skipped, not reported as passes of 0 steps.
  const skip = (level: number): boolean => fuzz.hung.has(level) || options.signal?.aborted === true;
  for (const level of levels) random1.set(level, skip(level) ? skipped() : await randomRegime(ctx, 'random1', level, steps('random1'), seed, tutorial(level)));
  for (const level of levels.filter((l) => !tutorial(l))) {
    const outcome = skip(level) ? skipped() : await randomRegime(ctx, 'random2', level, steps('random2'), seed + 1, false);
    random2.set(level, outcome);
    random2Steps += outcome.steps;
    random2Seconds += outcome.seconds;
  }
  const playback = playbackRegime(ctx, options.signal?.aborted ? undefined : ref, levels);

  // Reproductions are played to write them: a JavaScript game's on a thread of its own, where a
  // step or an init that never returns (the next level's, after a win) stops at the step limit.
  // Only started when a finding needs one written (playback findings point at their own file).
  const recorder = module && raw.some((f) => !f.file) ? threadedGame(module, options.hangSeconds) : undefined;
  let reproduced: Awaited<ReturnType<typeof reproduce>>;
  try {
    reproduced = await reproduce(game, raw, options, recorder);
  } finally {
    recorder?.close();
  }
  const { findings, out } = reproduced;
  const count = (regime: Regime, level: number): number => findings.filter((f) => f.regime === regime && f.level === level).length;
  // An interrupted run qualifies nothing: its regimes did not play their steps (or its reproductions were not all written).
  const interrupted = options.signal?.aborted === true || reproduced.interrupted === true;
  const result: QualifyResult = {
    game: game.id,
    passed: !interrupted && findings.every((f) => f.severity === 'warn'),
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
  if (interrupted) result.interrupted = true;
  return result;
}
