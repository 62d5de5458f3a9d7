/** arcgraph as a library. */
export * from './engine/actions.js';
export * from './engine/game.js';
export * from './engine/runtime.js';
export * from './engine/identity.js';
export { ByteReader, ByteWriter } from './engine/bytes.js';
export { loadGame, InputError, type LoadedGame } from './engine/loader.js';
export * as toolkit from './toolkit/index.js';
export * from './explorer/graph.js';
export { exploreGraph, pathTo, GameCrash, type ExploreOptions, type ExploreResult, type GameSource, type Progress, type StopReason } from './explorer/explore.js';
export { toGraphology, exportGraph } from './explorer/graphology.js';
export { explore, exploreLevel, type LevelOptions, type LevelReport } from './explore.js';
export * from './analysis/index.js';
export { randomPlay, type RandomOptions, type RandomResult } from './random/random.js';
export { clopperPearson } from './random/bounds.js';
