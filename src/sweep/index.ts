/** The sweep stage's public surface: other folders import only this file. */
export * from './budget.js';
export * from './qualification.js';
export * from './sweep.js';
