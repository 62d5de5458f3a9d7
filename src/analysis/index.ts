/** The analysis stage: what a level's graph says about solvability, softlocks and luck. */
export { analyze, analyzeAsync, type AnalyzeOptions, type Analysis, type ShortestWin } from './analyze.js';
export { POLICIES, type Policy } from './policy.js';
export type { PWin, ExactProbability } from './probability.js';
export type { WithinK } from './horizon.js';
export { backwardReach, deadEndNodes, isExpandedPlaying, isFrontier, reverseEdges, type ActionPath } from './reachability.js';
export type { IntervalOptions } from './interval.js';
export type { MemoryCheck } from './memory.js';
export { DEFAULT_THRESHOLD, attemptsToCertify, verdictFor, type Verdict } from './verdict.js';
