/** The suite stage's public surface: other folders import only this file. */
export * from './loader.js';
