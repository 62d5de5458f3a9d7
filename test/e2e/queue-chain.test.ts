/**
 * Chained levels through the queue, in-process against a real redis-server: a level whose start
 * depends on the previous level's result (as Python games' do) runs only after that level's jobs,
 * on whichever worker, and the numbers are the local sweep's.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { QueueEvents } from 'bullmq';
import { connection, parseRedisUrl, PREFIX, queueSweep, startWorker, WORK_QUEUE, type WorkerEvent } from '../../src/queue/index.js';
import { sweep } from '../../src/sweep/index.js';
import { RedisServer } from '../support/redis.js';
import { comparable, stubQualifier } from '../support/sweep.js';
import { FIXTURE_ENGINE, hostPids } from '../support/python.js';
import { tempFolders } from '../support/temp.js';

const fixture = (name: string): string => join(__dirname, '../fixtures', `${name}.ts`);
const tempDir = tempFolders('arcgraph-queue-chain-');
let redis: RedisServer;

beforeAll(async () => {
  redis = await RedisServer.start(tempDir());
});
afterAll(async () => {
  await redis?.stop();
});

describe('chained levels through the queue', () => {
  it('runs each level after the previous one finished, on two workers, with the local numbers', async () => {
    const target = parseRedisUrl(redis.url);
    const log: string[] = [];
    const onEvent = (e: WorkerEvent): void => {
      if (e.kind === 'started' || e.kind === 'done') log.push(`${e.kind} ${e.job.stage} ${e.job.level}`);
    };
    // what the workers report through job.updateProgress, as anyone watching the queue sees it
    // read the events stream from its start: with the default ('$') events sent before the first
    // blocking read is issued are never seen, and waitUntilReady does not wait for that read
    const events = new QueueEvents(WORK_QUEUE, { connection: connection(target), prefix: PREFIX, lastEventId: '0-0' });
    const progress: unknown[] = [];
    events.on('progress', ({ data }) => progress.push(data));
    await events.waitUntilReady();
    const workers = [1, 2].map(() => startWorker({ target, workers: 1, concurrency: 2, qualifier: stubQualifier(), onEvent }));
    await Promise.all(workers.map((w) => w.ready));
    const base = tempDir();
    const out = join(base, 'night');
    const games = [fixture('ruin')];
    const report = await queueSweep({ games, target, shared: join(base, 'jobs'), out, chainLevels: () => true });
    const summaries = await Promise.all(workers.map((w) => w.stop('finish')));
    expect(summaries.reduce((n, s) => n + s.done, 0)).toBe(13);
    await vi.waitFor(() => expect(progress).toContainEqual({ stage: 'qualify', level: null, done: 0, seconds: 0 }), { timeout: 10_000 });
    await events.close();

    for (let level = 2; level <= 6; level++) {
      expect(log.indexOf(`started explore ${level}`), log.join('\n')).toBeGreaterThan(log.indexOf(`done monte-carlo ${level - 1}`));
    }
    const localOut = join(base, 'local');
    const local = await sweep({ games, out: localOut, workers: 1, qualifier: stubQualifier() });
    expect(comparable(report, out)).toEqual(comparable(local, localOut));
  });

  it('sweeps real ARC games (Python) through the queue with the local numbers, each level started where the last one’s win leads', async () => {
    const target = parseRedisUrl(redis.url);
    // the workers' machine: the engine is its own, the night's Python options come with the jobs
    const workers = [1, 2].map(() => startWorker({ target, workers: 1, concurrency: 1, python: { engine: FIXTURE_ENGINE } }));
    await Promise.all(workers.map((w) => w.ready));
    const base = tempDir();
    const options = { arcGames: join(FIXTURE_ENGINE, 'games'), games: ['hid1', 'gen1'], python: { engine: FIXTURE_ENGINE, graphBuilder: true }, budget: { nodes: 1000, seconds: 20, stepsScale: 0.002, randomSteps: 2000 } };
    const out = join(base, 'night');
    const report = await queueSweep({ ...options, target, shared: join(base, 'jobs'), out });
    const summaries = await Promise.all(workers.map((w) => w.stop('finish')));
    expect(summaries.reduce((n, s) => n + s.failed, 0)).toBe(0);
    expect(report.games.map((g) => [g.game, g.error])).toEqual([['hid1', null], ['gen1', null]]);
    expect(report.games[0].levels.map((l) => l.explore!.python!.levelStart)).toEqual(['played', 'played']);
    expect(report.games.every((g) => g.qualification !== null)).toBe(true);

    const localOut = join(base, 'local');
    const local = await sweep({ ...options, out: localOut, workers: 1 });
    expect(comparable(report, out)).toEqual(comparable(local, localOut));
  });

  it('ends a Python game’s processes once no job of it has run for a while: an idle worker holds none', async () => {
    const target = parseRedisUrl(redis.url);
    // its processes run under this worker's heap share (2 GB over 1 thread + 1: --memory-mb 1024), which tells them from the producer's
    const mine = (): number[] => hostPids('hid1', '--memory-mb', '1024');
    let seen = 0;
    const onEvent = (e: WorkerEvent): void => {
      if (e.kind === 'done') seen = Math.max(seen, mine().length);
    };
    const worker = startWorker({ target, workers: 1, concurrency: 1, maxMemory: 2, idleSeconds: 0.5, python: { engine: FIXTURE_ENGINE }, onEvent });
    await worker.ready;
    const base = tempDir();
    const options = { arcGames: join(FIXTURE_ENGINE, 'games'), games: ['hid1'], python: { engine: FIXTURE_ENGINE }, budget: { nodes: 1000, seconds: 20, stepsScale: 0.002, randomSteps: 2000 } };
    const report = await queueSweep({ ...options, target, shared: join(base, 'jobs'), out: join(base, 'night') });
    expect(report.games.map((g) => [g.game, g.error])).toEqual([['hid1', null]]);
    // the jobs ran in processes of this worker
    expect(seen).toBeGreaterThan(0);
    try {
      // the worker is still running, idle: it used to keep every game's processes until it stopped
      await vi.waitFor(() => expect(mine()).toEqual([]), { timeout: 10_000, interval: 100 });
    } finally {
      await worker.stop('finish');
    }
  });
});
