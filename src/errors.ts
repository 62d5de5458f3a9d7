/** The one error type every stage shares: bad input from the user, reported as one line, exit code 2. */

/** Bad input from the user (unknown game, invalid module...): reported as one line, exit code 2. */
export class InputError extends Error {}

/**
 * A game whose own files are broken (its module throws on import, its metadata.json is missing or
 * malformed): bad input for a command given that game (exit 2), that game's error in a sweep, which
 * goes on with the others. `game` is the id the game goes by (its folder's or file's name).
 */
export class GameLoadError extends InputError {
  constructor(
    readonly game: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether `err` says the work was stopped by the user (Ctrl-C, SIGTERM), not that it failed: a
 * Python process of a game stopped by such a signal (kind `interrupted`). Commands exit 130 for it.
 */
export const isInterrupted = (err: unknown): boolean => err instanceof Error && (err as { kind?: unknown }).kind === 'interrupted';

/**
 * Rethrows `err` when it is the user's stop (isInterrupted). Called first in a catch that turns a
 * game's error into a finding or a divergence: a Ctrl-C that ended the game's Python process mid-step
 * is not the game's crash (a replay read it as "the game threw", then stepped a fresh process).
 */
export function rethrowInterruption(err: unknown): void {
  if (isInterrupted(err)) throw err;
}
