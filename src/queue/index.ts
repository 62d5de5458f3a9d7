/** The queue stage's public surface (BullMQ on Redis): other folders import only this file. */
export * from './connection.js';
export * from './flow.js';
export * from './producer.js';
export * from './url.js';
export * from './worker.js';
