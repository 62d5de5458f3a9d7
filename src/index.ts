/** arcgraph as a library. */
export * from './engine/actions.js';
export * from './engine/game.js';
export * from './engine/runtime.js';
export * from './engine/identity.js';
export { ByteReader, ByteWriter } from './engine/bytes.js';
export { loadGame, InputError, type LoadedGame } from './suite/loader.js';
export * as toolkit from './toolkit/index.js';
export * from './graph/graph.js';
export { exploreGraph, pathTo, GameCrash, type ExploreOptions, type ExploreResult, type GameSource, type Progress, type StopReason } from './explorer/coordinator.js';
export { toGraphology, exportGraph } from './graph/graphology.js';
export { explore, exploreLevel, type LevelOptions, type LevelReport } from './level.js';
export * from './analysis/index.js';
export { randomPlay, type RandomOptions, type RandomResult } from './random/monte-carlo.js';
export { clopperPearson } from './random/clopper-pearson.js';
