/** The qualify stage's public surface: other folders import only this file. */
export * from './fuzz.js';
export * from './qualify.js';
