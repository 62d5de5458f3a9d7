/** The random stage's public surface: other folders import only this file. */
export * from './clopper-pearson.js';
export * from './monte-carlo.js';
export * from './walk.js';
