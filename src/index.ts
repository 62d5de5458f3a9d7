/** arcgraph as a library. */
export * from './engine/index.js';
export { InputError } from './errors.js';
export { loadGame, type LoadedGame } from './suite/index.js';
export * as toolkit from './toolkit/index.js';
export * from './graph/index.js';
export { exploreGraph, GameCrash, type ExploreOptions, type ExploreResult, type GameSource, type Progress, type StopReason } from './explorer/index.js';
export { explore, exploreLevel, type LevelOptions, type ExploreReport } from './level.js';
export * from './analysis/index.js';
export { randomPlay, type RandomOptions, type RandomResult } from './random/index.js';
export { clopperPearson } from './random/index.js';
