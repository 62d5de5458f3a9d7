/**
 * The sweep's one door to qualification (`arcgraph qualify`, src/qualify): the result types the
 * sweep reads, the call itself, and how one level's regimes sum up to one status.
 */
import type { LoadedGame } from '../engine/loader.js';

export type RegimeStatus = 'pass' | 'fail' | 'warn' | 'skipped';

export interface RegimeOutcome {
  status: RegimeStatus;
  steps: number;
  wins?: number;
  findings: number;
  seconds: number;
}

export interface QualifyFinding {
  regime: string;
  check: string;
  level: number;
  message: string;
  actions: string[];
  reproduction?: string;
}

export interface QualifyLevel {
  level: number;
  tutorial: boolean;
  regimes: { random1: RegimeOutcome; random2: RegimeOutcome | null; fuzz: RegimeOutcome; playback: RegimeOutcome };
}

export interface QualifyResult {
  game: string;
  passed: boolean;
  seed: number;
  stepsScale: number;
  levels: QualifyLevel[];
  findings: QualifyFinding[];
  seconds: number;
}

export interface QualifyOptions {
  stepsScale: number;
  workers?: number;
  seed: number;
}

/** Qualifies every level of a game; the sweep calls it once per game. */
export type Qualifier = (source: LoadedGame, options: QualifyOptions) => Promise<QualifyResult>;

/** The real qualification (loaded on demand: the sweep pays for its imports only when it runs). */
export const qualifyGame: Qualifier = async (source, options) => {
  const modulePath = '../qualify/qualify.js';
  const { qualify } = (await import(modulePath)) as { qualify: (source: LoadedGame, options: QualifyOptions) => Promise<QualifyResult> };
  return qualify(source, options);
};

const SEVERITY: Record<RegimeStatus, number> = { skipped: 0, pass: 1, warn: 2, fail: 3 };

/** A level's qualification: its worst regime (fail over warn over pass; skipped only if all were). */
export function levelQualification(result: QualifyResult, level: number): RegimeStatus | null {
  const entry = result.levels.find((l) => l.level === level);
  if (!entry) return null;
  const statuses = Object.values(entry.regimes).flatMap((r) => (r ? [r.status] : []));
  return statuses.reduce<RegimeStatus>((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst), 'skipped');
}
