/** The report stage's public surface: other folders import only this file. */
export * from './baseline.js';
export * from './graph-picture.js';
export * from './html.js';
export * from './markdown.js';
export * from './schema.js';
export * from './summary.js';
export * from './svg.js';
export * from './write.js';
