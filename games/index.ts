/** The game suite: id -> module (relative to this file) whose default export is the game. */
export const SUITE: Record<string, string> = {};
