/** The report stage's public surface: other folders import only this file. */
export * from './artefacts.js';
export * from './baseline.js';
export * from './clear.js';
export * from './graph-picture.js';
export * from './graph-view.js';
export * from './markdown.js';
export * from './paths.js';
export * from './schema.js';
export * from './summary.js';
export * from './trend.js';
export * from './write.js';
