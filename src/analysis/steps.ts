/**
 * The long loops of the analysis (the exact eliminations, interval sweeps) are generators that yield
 * at checkpoints, so one code path runs two ways: at once (`runSteps`, the synchronous `analyze`),
 * or with the event loop turning every few dozen milliseconds (`runStepsAsync`), where a Ctrl-C or
 * SIGTERM is seen: the solvers then stop as if their budgets had run out, with sound answers.
 */

/** Work that yields at its checkpoints and returns T. */
export type Steps<T> = Generator<void, T, void>;

/** Set when the analysis is asked to stop; the solvers read it after each checkpoint. */
export class AnalysisStop {
  requested = false;
}

/** Why a solver stopped early on a stop request. */
export const INTERRUPTED = 'interrupted (Ctrl-C or SIGTERM)';

/** Runs the steps to their end at once. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** How long the steps run before the event loop gets a turn. */
const SLICE_MS = 40;

/**
 * Runs the steps, giving the event loop a turn every SLICE_MS; once `signal` aborts (an abort from
 * before the start does not count: that stop was the exploration's, and its analysis runs whole)
 * `stop.requested` is set and the steps finish early.
 */
export async function runStepsAsync<T>(steps: Steps<T>, stop: AnalysisStop, signal?: AbortSignal): Promise<T> {
  const watching = signal !== undefined && !signal.aborted;
  let until = performance.now() + SLICE_MS;
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() < until) continue;
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (watching && signal.aborted) stop.requested = true;
    until = performance.now() + SLICE_MS;
  }
}
