/** The shapes of qualification: its options, per-level regime outcomes, findings and result. */
import type { Policy } from '../analysis/index.js';
import type { Check } from '../engine/index.js';
import type { SearchLimits } from './shrink.js';

export type Regime = 'random1' | 'random2' | 'fuzz' | 'playback';

export interface RegimeOutcome {
  /** `interrupted`: Ctrl-C or SIGTERM stopped it before its steps were played (what ran found nothing). */
  status: 'pass' | 'fail' | 'warn' | 'skipped' | 'interrupted';
  steps: number;
  wins?: number;
  findings: number;
  seconds: number;
  /** The fuzz regime's performance profile of the level (its walks are random play). */
  profile?: Profile;
}

/**
 * How fast a level's steps ran under the fuzz regime's random walks (time in the game: its step, and
 * the render of a TypeScript game), the frames they drew, and the slowest steps with the actions from
 * the level's start that reproduce each. `belowFloor`: under the ARC engine's 1,000 frames a second.
 */
export interface Profile {
  actionsPerSecond: number;
  framesPerSecond: number;
  framesPerAction: number;
  belowFloor: boolean;
  slowest: { ms: number; actions: string[] }[];
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
  /** Every regime ran in full and found nothing that fails (warnings allowed); never true when interrupted. */
  passed: boolean;
  /** The signal stopped qualification: a partial result, not a qualification (`passed` is false). */
  interrupted?: true;
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
  /** A step (fuzz or random play) that has not returned after this long is a hang: its worker is stopped (default 10 s). */
  hangSeconds?: number;
  /** Memory budget in GB: each worker thread's heap is its share (default: 80% of what the machine has free). */
  maxMemory?: number;
  /** Bounds of the breadth-first search for shorter reproductions. */
  search?: SearchLimits;
  signal?: AbortSignal;
  onProgress?: (p: QualifyProgress) => void;
}

/** The regimes' step counts at scale 1, as the validation pipeline sets them. */
export const REGIME_STEPS = { random1: 50_000, random2: 1_000_000, fuzz: 1_000_000 } as const;
