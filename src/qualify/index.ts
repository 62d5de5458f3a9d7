/** The qualify stage's public surface: other folders import only this file. */
export * from './qualify.js';
export * from './types.js';
