/** The explorer stage's public surface: other folders import only this file. */
export * from './coordinator.js';
export * from './expand.js';
export * from './wire.js';
export * from './source.js';
export { budgetCheck, defaultMemoryBudget, workerHeapMb } from './memory.js';
export { describeSchedule, type IdleReason, type ScheduleStats } from './schedule.js';
export type { TableHandle } from './shared-table.js';
export { inlineExpander, poolExpander, type Expander } from './expander.js';
