/**
 * Nights that meet in the queue, in-process against a real redis-server: two producers whose plans
 * share jobs, running at the same time, both finish; a long-running worker runs a game module as
 * it is on disk now; a producer whose night Redis forgot says so.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { parseReport } from '../../src/report/schema.js';
import { History } from '../../src/history/index.js';
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

/** The stub qualifier, holding the games `holds` picks until `release()`: `qualifying` resolves when the first starts. */
function gatedQualifier(holds: (id: string) => boolean): { qualifier: Qualifier; qualifying: Promise<void>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const qualifying = new Promise<void>((r) => (started = r));
  const stub = stubQualifier();
  const qualifier: Qualifier = async (source, options) => {
    if (holds(source.game.id)) {
      started();
      await gate;
    }
    return stub(source, options);
  };
  return { qualifier, qualifying, release: () => release() };
}

describe('two nights sharing jobs', () => {
  it('a night queued while another night runs their shared jobs publishes them once they finish', async () => {
    const target = parseRedisUrl(`${redis.url}/1`);
    // the first night's qualification of ruin holds until the second night is queued
    const { qualifier, qualifying, release } = gatedQualifier((id) => id === 'ruin');
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

/** A game module of its own (a row of cells to walk to the end), its levels' lengths `ks`, or imported from the module `ksFrom`. */
function lockGame(file: string, ks: number[] | { ksFrom: string }): void {
  writeFileSync(
    file,
    `import { GameAction, toolkit } from ${JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist/src/index.js')).href)};
const { Camera, Canvas, Colour } = toolkit;
${Array.isArray(ks) ? `const KS = ${JSON.stringify(ks)};` : `import { KS } from ${JSON.stringify(ks.ksFrom)};`}
export default {
  id: 'lock', title: 'Lock', levels: KS.length, tutorialLevels: 0,
  actions: [GameAction.ACTION1, GameAction.ACTION2],
  init: (level) => ({ level, pos: 0, dead: 0 }),
  step: (s, a) => (a.id === GameAction.ACTION1 ? { level: s.level, pos: s.pos + 1, dead: 0 } : { level: s.level, pos: s.pos, dead: 1 }),
  status: (s) => (s.dead ? 'lost' : s.pos >= KS[s.level - 1] ? 'won' : 'playing'),
  render: (s) => [new Camera(KS[s.level - 1] + 1, 1).render(new Canvas(KS[s.level - 1] + 1, 1, Colour.LIGHT_GREY).set(Math.min(s.pos, KS[s.level - 1]), 0, s.dead ? Colour.RED : Colour.BLUE))],
  encode: (s) => Uint8Array.of(s.level, s.pos, s.dead),
  decode: (b) => ({ level: b[0], pos: b[1], dead: b[2] }),
};
`,
  );
}

describe('a long-running worker', () => {
  it('runs the jobs of a game module changed on disk since it loaded it, loading it again', async () => {
    const target = parseRedisUrl(`${redis.url}/2`);
    const base = tempDir();
    const file = join(base, 'lock.mjs');
    lockGame(file, [2, 3]);
    const failed: string[] = [];
    const worker = startWorker({ target, workers: 1, concurrency: 1, qualifier: stubQualifier(), onEvent: (e) => e.kind === 'failed' && failed.push(e.message) });
    await worker.ready;
    const night = (name: string, onEvent?: Parameters<typeof queueSweep>[0]['onEvent']) => queueSweep({ games: [file], target, shared: join(base, 'jobs'), out: join(base, name), onEvent });
    const first = await night('first');
    expect(first.games[0].levels.map((l) => l.analysis?.shortestWin?.length)).toEqual([2, 3]);
    // the module changes on disk: the worker loads it again, as it is now
    lockGame(file, [2, 4]);
    const second = await night('second');
    expect(failed).toEqual([]);
    expect(second.games[0].error).toBeNull();
    expect(second.games[0].levels.map((l) => l.analysis?.shortestWin?.length)).toEqual([2, 4]);
    await worker.stop('finish');
  });

  it('runs the jobs of a game folder whose other files changed on disk, loading the folder again', async () => {
    const target = parseRedisUrl(`${redis.url}/5`);
    const base = tempDir();
    // a game folder: index.js and the modules beside it (in a folder of its own, as the suite's games are)
    const dir = join(base, 'lock');
    mkdirSync(join(dir, 'data'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    lockGame(join(dir, 'index.js'), { ksFrom: './data/levels.js' });
    const levels = (ks: number[]): void => {
      // two modules deep, one importing the other from above: every file of the folder is its own again
      writeFileSync(join(dir, 'data', 'levels.js'), `export { KS } from '../ks.js';\n`);
      writeFileSync(join(dir, 'ks.js'), `export const KS = ${JSON.stringify(ks)};\n`);
    };
    levels([2, 3]);
    const failed: string[] = [];
    const worker = startWorker({ target, workers: 1, concurrency: 1, qualifier: stubQualifier(), onEvent: (e) => e.kind === 'failed' && failed.push(e.message) });
    await worker.ready;
    const night = (name: string) => queueSweep({ games: [join(dir, 'index.js')], target, shared: join(base, 'jobs'), out: join(base, name) });
    const first = await night('first');
    expect(first.games[0].levels.map((l) => l.analysis?.shortestWin?.length)).toEqual([2, 3]);
    // only a file beside index.js changes: the worker loads the folder again, as it is now
    levels([2, 4]);
    const second = await night('second');
    await worker.stop('finish');
    expect(failed).toEqual([]);
    expect(second.games[0].error).toBeNull();
    expect(second.games[0].contentHash).not.toBe(first.games[0].contentHash);
    expect(second.games[0].levels.map((l) => l.analysis?.shortestWin?.length)).toEqual([2, 4]);
  });
});

describe('a game whose module the workers cannot load', () => {
  it('is in the night\'s history: one row, no level, the error', async () => {
    const target = parseRedisUrl(`${redis.url}/6`);
    const base = tempDir();
    const file = join(base, 'lock.mjs');
    lockGame(file, [2, 3]);
    const history = join(base, 'history.sqlite');
    let worker: ReturnType<typeof startWorker> | undefined;
    const report = await queueSweep({
      games: [file],
      target,
      shared: join(base, 'jobs'),
      out: join(base, 'night'),
      history,
      onEvent: (e) => {
        if (e.kind !== 'queued') return;
        // planned, then broken on disk before any worker loads it: every job fails (after its retries)
        writeFileSync(file, 'export default {;\n');
        // all its jobs at once: their retries wait out their backoffs together
        worker = startWorker({ target, workers: 1, concurrency: 5, qualifier: stubQualifier() });
      },
    });
    await worker!.stop('finish');
    expect(report.games[0]).toMatchObject({ levels: [], outcome: 'fail', error: expect.stringMatching(/^level 1 explore: .*Unexpected token/) });
    const h = History.open(history, { mustExist: true, readonly: true });
    try {
      expect(h.levels()).toEqual([expect.objectContaining({ startedAt: report.startedAt, game: 'lock', level: null, verdict: 'error', outcome: 'fail', error: report.games[0].error })]);
    } finally {
      h.close();
    }
  });
});

describe('a worker that writes its files where the producer does not look', () => {
  it('the report says which files are missing (report.json, report.md), not only stderr', async () => {
    const target = parseRedisUrl(`${redis.url}/4`);
    const base = tempDir();
    // the worker's --out is not the producer's shared folder (a share mounted elsewhere, or not at all)
    const worker = startWorker({ target, workers: 1, concurrency: 1, qualifier: stubQualifier(), out: join(base, 'not-shared') });
    await worker.ready;
    const out = join(base, 'night');
    const warnings: string[] = [];
    const report = await queueSweep({ games: [fixture('ruin')], target, shared: join(base, 'jobs'), out, onEvent: (e) => e.kind === 'warning' && warnings.push(e.message) });
    await worker.stop('finish');
    const ruin = report.games[0];
    // its numbers are all there
    expect(ruin.error).toBeNull();
    expect(ruin.levels).toHaveLength(ruin.levelCount);
    expect(ruin.warnings.map((w) => w.split(' are not in ')[0])).toEqual([...ruin.levels.map((l) => `level ${l.level}'s artefacts`), "the qualification's reproductions"]);
    expect(ruin.warnings[0]).toMatch(new RegExp(`^level 1's artefacts are not in ${join(base, 'jobs')}/ruin\\.\\S+, where \\S+:${process.pid} wrote them to ${join(base, 'not-shared')}/ruin\\.\\S+: is the shared folder the same on every worker`));
    expect(warnings).toEqual(ruin.warnings.map((w) => `ruin: ${w}`));
    const written = parseReport(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(written.games[0].warnings).toEqual(ruin.warnings);
    const md = readFileSync(join(out, 'report.md'), 'utf8');
    for (const w of ruin.warnings) expect(md).toContain(`**Warning:** ${w}`);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toContain('<span class="badge warn">WARNING</span>');
  });
});

describe('a Redis restarted without its data mid-night', () => {
  it('the producer says the night is gone and ends it as interrupted, instead of waiting forever', async () => {
    const target = parseRedisUrl(`${redis.url}/3`);
    const { qualifier, qualifying, release } = gatedQualifier(() => true);
    const worker = startWorker({ target, workers: 1, concurrency: 1, qualifier });
    await worker.ready;
    const base = tempDir();
    const out = join(base, 'night');
    const night = queueSweep({ games: [fixture('ruin')], target, shared: join(base, 'jobs'), out });
    night.catch(() => undefined);
    await qualifying;
    await redis.restartEmpty();
    release();
    const ended = await Promise.race([night.then(() => 'finished', (err: Error) => err.message), sleep(30_000)]);
    await worker.stop('finish');
    expect(ended).toMatch(/^the night is gone from Redis redis:\/\/127\.0\.0\.1:\d+\/3 \(restarted without persistence, or flushed\)/);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))).toMatchObject({ status: 'interrupted' });
  });
});
