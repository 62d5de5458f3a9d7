/** The game suite: id -> module (relative to this file) whose default export is the game. */
export const SUITE: Record<string, string> = {
  cm16: './cm16/index.js',
  gv08: './gv08/index.js',
  rt42: './rt42/index.js',
  bx19: './bx19/index.js',
};
