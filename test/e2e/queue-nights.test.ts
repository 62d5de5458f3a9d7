/**
 * Nights that meet in the queue, in-process against a real redis-server: two producers whose plans
 * share jobs, running at the same time, both finish.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRedisUrl, queueSweep, startWorker } from '../../src/queue/index.js';
import type { Qualifier } from '../../src/sweep/index.js';
import { RedisServer } from '../support/redis.js';
import { stubQualifier } from '../support/sweep.js';
import { tempFolders } from '../support/temp.js';

const fixture = (name: string): string => join(__dirname, '../fixtures', `${name}.ts`);
const tempDir = tempFolders('arcgraph-queue-nights-');
let redis: RedisServer;

beforeAll(async () => {
  redis = await RedisServer.start(tempDir());
});
afterAll(async () => {
  await redis?.stop();
});

const sleep = (ms: number): Promise<'timeout'> => new Promise((r) => setTimeout(() => r('timeout'), ms));

describe('two nights sharing jobs', () => {
  it('a night queued while another night runs their shared jobs publishes them once they finish', async () => {
    const target = parseRedisUrl(`${redis.url}/1`);
    // the first night's qualification of ruin holds until the second night is queued
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const qualifying = new Promise<void>((r) => (started = r));
    const stub = stubQualifier();
    const qualifier: Qualifier = async (source, options) => {
      if (source.game.id === 'ruin') {
        started();
        await gate;
      }
      return stub(source, options);
    };
    const worker = startWorker({ target, workers: 1, concurrency: 1, qualifier });
    await worker.ready;
    const base = tempDir();
    const shared = join(base, 'jobs');
    const x = queueSweep({ games: [fixture('ruin')], target, shared, out: join(base, 'x') });
    await qualifying;
    const stopY = new AbortController();
    let queued!: () => void;
    const yQueued = new Promise<void>((r) => (queued = r));
    const y = queueSweep({ games: [fixture('ruin'), fixture('maze')], target, shared, out: join(base, 'y'), signal: stopY.signal, onEvent: (e) => e.kind === 'queued' && queued() });
    await yQueued;
    release();
    const xReport = await x;
    expect(xReport.games.map((g) => g.game)).toEqual(['ruin']);
    const ended = await Promise.race([y, sleep(30_000)]);
    if (ended === 'timeout') stopY.abort();
    const yReport = await y;
    await worker.stop('finish');
    expect(ended, 'the second night did not finish').not.toBe('timeout');
    expect(yReport.status).toBe('complete');
    expect(yReport.games.map((g) => g.game).sort()).toEqual(['maze', 'ruin']);
    // the shared jobs' results, not errors
    expect(yReport.games.find((g) => g.game === 'ruin')!.error).toBeNull();
    expect(comparableLevels(yReport.games.find((g) => g.game === 'ruin')!)).toEqual(comparableLevels(xReport.games[0]));
  });
});

const comparableLevels = (game: { levels: { level: number; verdict: unknown }[] }): unknown => game.levels.map((l) => [l.level, l.verdict]);
