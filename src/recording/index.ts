/** The recording stage's public surface: other folders import only this file. */
export * from './read.js';
export * from './replay.js';
export * from './write.js';
