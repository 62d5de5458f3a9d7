/** The player stage's public surface: other folders import only this file. */
export * from './episodes.js';
export * from './rng.js';
