import type { Game } from '../engine/game.js';
import { workerPool } from '../parallel/pool.js';
import { expandBatch, type ExpandResult, type ExpandTask } from './expand.js';
import { packMessage, unpackMessage } from './wire.js';

/** Runs expansion batches somewhere: a worker pool, or this thread. */
export interface Expander {
  readonly workers: number;
  run(task: ExpandTask): Promise<ExpandResult>;
  close(): Promise<void>;
}

/** Batches go to a Piscina pool as transferred msgpack buffers, and come back the same way. */
export function poolExpander(workers: number): Expander {
  const pool = workerPool('expand', workers, 2);
  return {
    workers,
    async run(task) {
      const buffer = packMessage(task);
      const reply: ArrayBuffer = await pool.run(buffer, { transferList: [buffer] });
      return unpackMessage<ExpandResult>(reply);
    },
    async close() {
      await pool.destroy();
    },
  };
}

/**
 * Expands on this thread (for a game given as an object, without a module workers could load).
 * `delay` lets tests complete batches out of order.
 */
export function inlineExpander(game: Game, delay?: () => number): Expander {
  return {
    workers: 1,
    run(task) {
      if (!delay) return Promise.resolve().then(() => expandBatch(game, task));
      return new Promise((resolve, reject) => setTimeout(() => {
        try {
          resolve(expandBatch(game, task));
        } catch (err) {
          reject(err);
        }
      }, delay()));
    },
    async close() {},
  };
}
