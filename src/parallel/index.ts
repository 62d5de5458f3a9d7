/** The parallel stage's public surface: other folders import only this file. */
export * from './pool.js';
export * from './collect.js';
export * from './ordered.js';
export * from './watchdog.js';
export * from './sync-worker.js';
export * from './threaded-game.js';
