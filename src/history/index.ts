/** The history stage's public surface: other folders import only this file. */
export * from './history.js';
