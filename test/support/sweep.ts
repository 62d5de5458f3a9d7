/**
 * Test support: a stand-in for qualification, so sweep tests run in a second and say exactly which
 * levels qualification fails. Only tests inject it; the sweep's real path calls `qualify`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SweepReport } from '../../src/report/index.js';
import type { Qualifier, QualifyResult, RegimeOutcome } from '../../src/sweep/index.js';

export interface StubQualifier extends Qualifier {
  /** The game ids it was called for, in order. */
  readonly calls: string[];
}

/** Passes every level, except the `fail` ones (game id -> levels); throws for the games in `throwFor`. */
export function stubQualifier(opts: { fail?: Record<string, number[]>; throwFor?: string[] } = {}): StubQualifier {
  const calls: string[] = [];
  const qualifier = async (source: Parameters<Qualifier>[0], options: Parameters<Qualifier>[1]): Promise<QualifyResult> => {
    const { game } = source;
    calls.push(game.id);
    if (opts.throwFor?.includes(game.id)) throw new Error(`stub qualification of ${game.id} broke`);
    const failing = opts.fail?.[game.id] ?? [];
    const outcome = (status: RegimeOutcome['status']): RegimeOutcome => ({ status, steps: 100, wins: 0, findings: status === 'fail' ? 1 : 0, seconds: 0.01 });
    const levels = Array.from({ length: game.levels }, (_, i) => ({
      level: i + 1,
      tutorial: i < game.tutorialLevels,
      regimes: { random1: outcome(failing.includes(i + 1) ? 'fail' : 'pass'), random2: null, fuzz: outcome('pass'), playback: outcome('skipped') },
    }));
    // the reproductions exist, as the real ones do (the report links to them)
    if (failing.length > 0) mkdirSync(options.out, { recursive: true });
    for (const level of failing) writeFileSync(join(options.out, `level${level}.recording.jsonl`), `${JSON.stringify({ stub: game.id, level })}\n`);
    return {
      game: game.id,
      passed: failing.length === 0,
      seed: options.seed,
      stepsScale: options.stepsScale,
      policy: options.policy,
      workers: options.workers,
      speed: { random2: 1000, fuzz: 1000 },
      levels,
      findings: failing.map((level) => ({ regime: 'random1' as const, check: 'random-win' as const, level, severity: 'fail' as const, message: `random play won level ${level}`, actions: ['ACTION4'], reproduction: join(options.out, `level${level}.recording.jsonl`) })),
      ...(failing.length > 0 ? { out: options.out } : {}),
      seconds: 0.01,
    };
  };
  return Object.assign(qualifier, { calls });
}

/**
 * Fields that say how long, how much memory, where and when, not what: they differ between two runs
 * of the same sweep (`profile`: the fuzz regime's timings of each level).
 */
const CIRCUMSTANTIAL = new Set(['seconds', 'transitionsPerSecond', 'storeBytes', 'bytesPerState', 'ranOn', 'workers', 'speed', 'startedAt', 'updatedAt', 'history', 'queue', 'profile']);

/**
 * A report's numbers and findings, for comparing two runs of the same sweep (locally, through the
 * queue): timings and the machines are dropped, the report folder's path and the random part of
 * reproductions' names made neutral. Everything else must be equal.
 */
export function comparable(report: SweepReport, out: string): unknown {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'string') return value.split(out).join('<out>').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).filter(([k]) => !CIRCUMSTANTIAL.has(k)).map(([k, v]) => [k, walk(v)]));
  };
  return walk(report);
}
