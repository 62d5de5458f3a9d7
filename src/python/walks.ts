/** Monte Carlo walks of a Python level: seeded episodes played in the game's processes (the draws of src/player). */
import type { PythonGame } from './game.js';
import { isGameFault } from './process.js';
import { u32 } from './protocol.js';

/** Episodes first..first+count-1 of a seeded random policy from a level's start. */
export interface PyWalkTask {
  level: number;
  seed: number;
  first: number;
  count: number;
  maxAttemptSteps: number;
  /** The action ids the policy draws from (src/player/policyChoices). */
  choices: readonly number[];
}

/** The steps of the slowest few, and the actions from the level start that reproduce each. */
export interface StepTiming {
  steps: number;
  seconds: number;
  /** Frames the engine rendered (an action may animate several). */
  frames: number;
  slowest: { seconds: number; episode: number; actions: number[] }[];
}

/** An episode's step threw: which episode, its actions up to the step, and what Python said. */
export class WalkCrash extends Error {
  constructor(
    readonly episode: number,
    readonly actions: number[],
    readonly reason: string,
    /** `timeout` for a step stopped by its alarm (a hang), `memory`, or `exception`. */
    readonly kind: string,
  ) {
    super(reason);
  }
}

/**
 * Runs a walk task in one of `workers` processes: steps and end (WalkEnd) of each episode, step
 * timing, the part of the game's module state its episodes changed, if any (`carried`), and the warning of
 * the first lost episode whose RESET does not lead where a fresh attempt starts (`kept`: the game keeps state across attempts). Its process is killed if `abandon` aborts before the task is done (see Abandonment).
 */
export async function pythonWalks(game: PythonGame, task: PyWalkTask, workers: number, abandon?: AbortSignal): Promise<{ steps: Uint32Array; end: Uint8Array; timing: StepTiming; carried?: string; kept?: string }> {
  let start: Uint8Array;
  try {
    start = game.root(task.level).snapshot;
  } catch (err) {
    // The game's fault at the level's start (its constructor or RESET raised): the first episode's, with no action.
    if (isGameFault(err)) throw new WalkCrash(task.first, [], `the reset state cannot be built: ${err.message}`, err.kind);
    throw err;
  }
  const m = await game.run(workers, { op: 'walks', level: task.level, seed: task.seed, first: task.first, count: task.count, maxSteps: task.maxAttemptSteps, choices: task.choices }, [start], task.count * task.maxAttemptSteps, abandon);
  const error = m.header.error as { episode: number; actions: number[]; message: string; kind: string } | undefined;
  if (error) throw new WalkCrash(error.episode, error.actions, error.message, error.kind);
  const { carried, kept } = m.header;
  return { steps: u32(m.blobs[0]), end: m.blobs[1], timing: m.header.timing as StepTiming, ...(typeof carried === 'string' && { carried }), ...(typeof kept === 'string' && { kept }) };
}
