/** The graph stage's public surface: other folders import only this file. */
export * from './graph.js';
export * from './graphology.js';
export * from './measures.js';
export * from './scc.js';
