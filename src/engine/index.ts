/** The engine stage's public surface: other folders import only this file. */
export * from './actions.js';
export * from './bytes.js';
export * from './checks.js';
export * from './game.js';
export * from './identity.js';
export * from './runtime.js';
export * from './frames.js';
export * from './cycles.js';
