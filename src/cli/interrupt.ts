/** Ctrl-C and SIGTERM, handled alike by every command: stop cleanly first, quit at once on the second. */

/** The exit code of an interrupted command (128 + SIGINT), whatever signal stopped it. */
export const INTERRUPTED = 130;

export interface Interruption {
  /** Aborted by the first SIGINT or SIGTERM: the work stops and returns its partial result. */
  readonly signal: AbortSignal;
  readonly interrupted: boolean;
  /** Removes the handlers (call in a finally). */
  dispose(): void;
}

/**
 * Installs one handler for SIGINT and SIGTERM: the first aborts `signal` (and calls `onFirst`, to
 * say what happens next), a second exits with 130 at once. A pipeline's SIGTERM thus leaves the
 * same finished reports and partial results as a developer's Ctrl-C. With `onSecond` the second
 * signal runs it instead (a worker puts its jobs back in the queue), and a third exits at once.
 */
export function interruption(onFirst?: (signal: NodeJS.Signals) => void, onSecond?: (signal: NodeJS.Signals) => void): Interruption {
  const abort = new AbortController();
  let second = false;
  const handler = (signal: NodeJS.Signals): void => {
    if (abort.signal.aborted) {
      if (!onSecond || second) process.exit(INTERRUPTED);
      second = true;
      onSecond(signal);
      return;
    }
    onFirst?.(signal);
    abort.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: abort.signal,
    get interrupted() {
      return abort.signal.aborted;
    },
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
