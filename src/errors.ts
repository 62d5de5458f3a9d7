/** The one error type every stage shares: bad input from the user, reported as one line, exit code 2. */

/** Bad input from the user (unknown game, invalid module...): reported as one line, exit code 2. */
export class InputError extends Error {}
