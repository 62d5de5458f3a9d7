/** The python stage's public surface: other folders import only this file. */
export * from './discover.js';
export * from './expand.js';
export * from './game.js';
export { faultKindOf, isGameFault, PythonError, stoppedAt, type RunningStep } from './process.js';
export { Abandonment } from './pool.js';
export * from './walks.js';
export { PySession } from './session.js';
export * from './fuzz.js';
