/**
 * The sweep's one door to qualification (`arcgraph qualify`, src/qualify): the result types the
 * sweep reads, the call itself, and how one level's regimes sum up to one status.
 */
import type { Policy } from '../analysis/index.js';
import type { LoadedGame } from '../suite/index.js';
import type { QualifyResult, RegimeStatus } from '../qualify/index.js';

export type { Finding, QualifyResult, RegimeOutcome, RegimeStatus } from '../qualify/index.js';

export interface SweepQualifyOptions {
  stepsScale: number;
  workers: number;
  seed: number;
  policy: Policy;
  /** Folder for the reproductions of findings. */
  out: string;
  /** Stops qualification early (its pool winds down; the sweep drops the game). */
  signal?: AbortSignal;
}

/** Qualifies every level of a game; the sweep calls it once per game. */
export type Qualifier = (source: LoadedGame, options: SweepQualifyOptions) => Promise<QualifyResult>;

/** The real qualification (loaded on demand: the sweep pays for its imports only when it runs). */
export const qualifyGame: Qualifier = async (source, options) => (await import('../qualify/index.js')).qualify(source, options);

const SEVERITY: Record<RegimeStatus, number> = { skipped: 0, pass: 1, interrupted: 2, warn: 3, fail: 4 };

/** A level's qualification: its worst regime (fail over warn over interrupted over pass; skipped only if all were). */
export function levelQualification(result: QualifyResult, level: number): RegimeStatus | null {
  const entry = result.levels.find((l) => l.level === level);
  if (!entry) return null;
  const statuses = Object.values(entry.regimes).flatMap((r) => (r ? [r.status] : []));
  return statuses.reduce<RegimeStatus>((worst, s) => (SEVERITY[s] > SEVERITY[worst] ? s : worst), 'skipped');
}
