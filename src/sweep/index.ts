/** The sweep stage's public surface: other folders import only this file. */
export * from './budget.js';
export * from './collect.js';
export * from './hashes.js';
export * from './jobs.js';
export * from './night.js';
export * from './plan.js';
export * from './qualification.js';
export * from './sweep.js';
