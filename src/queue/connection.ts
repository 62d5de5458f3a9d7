/**
 * Where the sweep's jobs live in Redis and how arcgraph connects there: the key prefix, the
 * queues' names, connection options that ride out a Redis restart (commands wait for the
 * reconnection instead of failing), and a quick probe so an unreachable server is a one-line error
 * at start instead of a silent wait.
 */
import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { InputError } from '../errors.js';
import type { RedisTarget } from './url.js';

/** Every key arcgraph writes starts with this (BullMQ's own default is `bull`). */
export const PREFIX = 'arcgraph';
/** The queue of work jobs (explore, Monte Carlo, qualify) that `arcgraph worker` takes. */
export const WORK_QUEUE = 'jobs';
/** The queue of one night's collector jobs (a parent per game and one for the night), which only its producer takes. */
export const collectQueue = (nightKey: string): string => `night-${nightKey}`;

/** Connection options for BullMQ: unlimited retries, so a Redis restart is waited out, not an error. */
export function connection(target: RedisTarget): RedisOptions {
  const { display: _display, ...server } = target;
  return {
    ...server,
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    // reconnect quickly at first, then every two seconds
    retryStrategy: (times: number) => Math.min(100 * times, 2000),
  };
}

/** Connects once with a short timeout and no retries; bad input (exit 2) when the server cannot be reached. */
export async function probe(target: RedisTarget, timeoutMs = 5000): Promise<void> {
  const { display, ...server } = target;
  const client = new Redis({ ...server, lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new InputError(`--queue ${display}: cannot reach Redis (${((err as Error).message || String(err)).split('\n')[0]})`);
  } finally {
    client.disconnect();
  }
}
