/** The fuzz regime's kernel for a Python level, and the cross-process re-step of its samples. */
import type { PythonGame } from './game.js';
import type { StepTiming } from './walks.js';

/** A fuzz task: `steps` steps of seeded walks, walk w on Rng stream firstStream + w (as the TypeScript fuzz walks). */
export interface PyFuzzTask {
  level: number;
  seed: number;
  firstStream: number;
  steps: number;
  maxWalkSteps: number;
  stepLimitMs: number;
  /** Every this many steps, the step is played again from a restored snapshot and compared. */
  restepEvery: number;
  /** Every this many steps, the transition is shipped back to be stepped again in another process. */
  crossEvery: number;
  /** A step running longer is a hang (its alarm stops it). */
  stepSeconds: number;
}

export interface PyFuzzFault {
  check: 'exception' | 'invalid-frame' | 'malformed-transition' | 'nondeterminism' | 'non-canonical-identity' | 'slow-step';
  message: string;
  walk: number;
  step: number;
  action: number;
}

export interface PyFuzzResult {
  steps: number;
  walks: number;
  wins: number;
  faults: PyFuzzFault[];
  resetFaults: { check: PyFuzzFault['check']; message: string }[];
  timing: (StepTiming & { slowest: { seconds: number; walk: number; step: number }[] }) | null;
  /** Where a step ran past the step limit (a hang): the task stopped there. */
  hung?: { walk: number; step: number; action: number; cause?: string };
  samples: { walk: number; step: number; action: number; pre: Uint8Array; digest: Uint8Array }[];
}

export async function pythonFuzz(game: PythonGame, task: PyFuzzTask, workers: number): Promise<PyFuzzResult> {
  const path = game.startPath(task.level);
  const m = await game.run(workers, { op: 'fuzz', ...task, ...(path && path.length > 0 && { path }) }, [], task.steps * 3);
  const h = m.header as unknown as Omit<PyFuzzResult, 'samples'> & { samples: { walk: number; step: number; action: number }[] };
  const samples = h.samples.map((s, i) => ({ ...s, pre: m.blobs[2 * i], digest: m.blobs[2 * i + 1] }));
  return { ...h, samples };
}

/**
 * Steps each sample again in the game's process under another PYTHONHASHSEED (not the pool's that
 * made it): which ones gave another successor, from a game that is not deterministic or that
 * follows string hash order.
 */
export async function crossCheck(game: PythonGame, samples: PyFuzzResult['samples']): Promise<PyFuzzResult['samples']> {
  const apart = await game.differUnderOtherSeed(samples.map((s) => s.pre), samples.map((s) => s.action), samples.map((s) => s.digest));
  return apart.map((i) => samples[i]);
}
