/**
 * Where the sweep's jobs live in Redis and how arcgraph connects there: the key prefix, the
 * queues' names, connection options that ride out a Redis restart (commands wait for the
 * reconnection instead of failing), and a quick probe so an unreachable server is a one-line error
 * at start instead of a silent wait.
 */
import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { InputError } from '../errors.js';
import { PASSWORD_ENV, type RedisTarget } from './url.js';

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

/** What went wrong connecting, in words, from the error ioredis gave (its 'error' event, not the "Connection is closed." that follows). */
function whyNot(err: Error & { code?: string }, target: RedisTarget, timeoutMs: number): string {
  const where = `${target.host}:${target.port}`;
  const message = (err.message || String(err)).split('\n')[0];
  if (err.code === 'ECONNREFUSED') return `cannot reach Redis: nothing listens on ${where} (connection refused)`;
  if (err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN') return `cannot reach Redis: unknown host ${target.host}`;
  if (err.code === 'ETIMEDOUT' || /ETIMEDOUT/.test(message)) return `cannot reach Redis: no answer from ${where} within ${timeoutMs / 1000} s`;
  if (/^NOAUTH/.test(message)) return `this Redis needs a password: give it in ${PASSWORD_ENV} (or in the URL: redis://:PASSWORD@HOST:PORT, redis://USER:PASSWORD@...)`;
  if (/^WRONGPASS/.test(message)) return 'Redis refused the user name or password (WRONGPASS)';
  // another kind of server (HTTP, ...) answers something that is not the Redis protocol
  if (/Unknown RESP type|Protocol error/i.test(message)) return `${where} does not answer as Redis does (another kind of server?)`;
  return `cannot reach Redis (${message})`;
}

/**
 * Connects once with a short timeout and no retries, and selects the URL's database; bad input
 * (exit 2) when the server cannot be reached or used, saying why when Redis said.
 */
export async function probe(target: RedisTarget, timeoutMs = 5000): Promise<void> {
  const { display, ...server } = target;
  const client = new Redis({ ...server, lazyConnect: true, connectTimeout: timeoutMs, maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => null });
  let cause: Error | undefined;
  client.on('error', (err: Error) => (cause ??= err));
  try {
    await client.connect();
    await client.ping();
    // ioredis reports a SELECT that fails at connect only as an 'error' event, and goes on in database 0
    await client.select(target.db);
  } catch (err) {
    if (/DB index is out of range/.test((err as Error).message)) {
      const databases = await client.config('GET', 'databases').then((r) => (r as string[])[1], () => undefined);
      throw new InputError(`--queue ${display}: database ${target.db} does not exist on this Redis${databases ? ` (it has ${databases})` : ''}`);
    }
    throw new InputError(`--queue ${display}: ${whyNot((cause ?? err) as Error, target, timeoutMs)}`);
  } finally {
    client.disconnect();
  }
}
