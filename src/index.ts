/** arcgraph as a library. */
export * from './engine/actions.js';
export * from './engine/game.js';
export * from './engine/runtime.js';
export * from './engine/identity.js';
export { ByteReader, ByteWriter } from './engine/bytes.js';
export { loadGame, InputError, type LoadedGame } from './engine/loader.js';
export * as toolkit from './toolkit/index.js';
export * from './explorer/graph.js';
