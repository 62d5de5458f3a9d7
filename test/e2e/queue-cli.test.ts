/**
 * `arcgraph sweep --queue` and `arcgraph worker` through the built CLI against a real redis-server
 * of the test's own: two workers give the numbers a local sweep gives; a worker killed mid-job, a
 * worker stopped by SIGTERM and a Redis restart lose nothing; a night run again reuses its jobs; a
 * game fault is a finding, not a retry; bad URLs are bad input.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { parseReport, type SweepReport } from '../../src/report/schema.js';
import { run, start, type Running } from '../support/cli.js';
import { freePort, RedisServer } from '../support/redis.js';
import { comparable } from '../support/sweep.js';
import { tempFolders } from '../support/temp.js';

const fixture = (name: string): string => join(PACKAGE_ROOT, 'dist/test/fixtures', `${name}.js`);
const tempDir = tempFolders('arcgraph-queue-cli-');
const GAMES = ['ruin', 'maze', 'lights'].map(fixture).join(',');
const BUDGET = 'steps-scale=0.01';
const reportIn = (dir: string): SweepReport => parseReport(readFileSync(join(dir, 'report.json'), 'utf8'));

let redis: RedisServer;
/** The local sweep's report of GAMES, and its folder. */
let local: { report: SweepReport; out: string };

beforeAll(async () => {
  redis = await RedisServer.start(tempDir());
  const out = join(tempDir(), 'local');
  const r = await run(['sweep', '--games', GAMES, '--budget', BUDGET, '--workers', '1', '--no-history', '--out', out]);
  expect(r.code, r.stderr).toBe(1);
  local = { report: reportIn(out), out };
});

afterAll(async () => {
  await redis?.stop();
});

/** A worker on database `db` of the test's Redis (one thread a job), once it says it is waiting for jobs. */
async function worker(db: number, ...extra: string[]): Promise<Running> {
  const w = start(['worker', '--queue', `${redis.url}/${db}`, '--workers', '1', ...extra]);
  await w.waitFor(/waiting for jobs/);
  return w;
}

/** The queue sweep of GAMES into a fresh folder (a database of its own, so tests do not share jobs). */
function producer(db: number, games = GAMES): { night: Running; out: string; shared: string } {
  const base = tempDir();
  const out = join(base, 'night');
  const shared = join(base, 'jobs');
  return { night: start(['sweep', '--queue', `${redis.url}/${db}`, '--games', games, '--budget', BUDGET, '--no-history', '--out', out, '--shared', shared]), out, shared };
}

const pidOf = (w: Running): number => w.child.pid!;
const workersIn = (report: SweepReport): Set<string> => new Set(report.games.flatMap((g) => [...g.levels.flatMap((l) => l.ranOn.map((r) => r.worker)), g.qualification!.ranOn!.worker]));

async function stopped(w: Running): Promise<void> {
  w.child.kill('SIGTERM');
  const r = await w.finished;
  expect(r.code, r.stderr).toBe(130);
}

describe('arcgraph sweep --queue with arcgraph worker', () => {
  it('two workers sweep the games; the report has the local sweep numbers and says which worker ran each job', async () => {
    const db = 1;
    const workers = [await worker(db), await worker(db)];
    const { night, out } = producer(db);
    const r = await night.finished;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/queued 23 jobs \(0 done before, reused\)/);
    const report = reportIn(out);
    expect(comparable(report, out)).toEqual(comparable(local.report, local.out));
    expect(report.status).toBe('complete');
    expect(report.settings).toMatchObject({ workers: null, queue: `${redis.url}/${db}` });
    // every job ran on one of the two workers, and both took jobs
    const names = workersIn(report);
    expect([...names].sort()).toEqual(workers.map((w) => `${report.games[0].levels[0].ranOn[0].machine}:${pidOf(w)}`).sort());
    for (const level of report.games.flatMap((g) => g.levels)) expect(level.ranOn.map((j) => j.stage)).toEqual(['explore', 'monte-carlo']);
    // the level artefacts and reproductions were brought into the report folder
    for (const game of report.games) {
      for (const level of game.levels) expect(existsSync(join(out, 'games', game.game, `level-${level.level}`, 'artefacts.json'))).toBe(true);
      for (const f of game.qualification!.findings) expect(existsSync(f.reproduction!), f.reproduction!).toBe(true);
    }
    expect(readdirSync(join(out, 'reproductions')).sort()).toEqual(readdirSync(join(local.out, 'reproductions')).sort());
    await Promise.all(workers.map(stopped));
  });

  it('a night run again reuses every job: nothing is run twice, the numbers are the same', async () => {
    const db = 2;
    const w = await worker(db);
    const first = producer(db);
    expect((await first.night.finished).code).toBe(1);
    const doneBefore = (w.stdout.match(/: done in/g) ?? []).length;
    expect(doneBefore).toBe(23);
    const out = join(tempDir(), 'again');
    const r = await run(['sweep', '--queue', `${redis.url}/${db}`, '--games', GAMES, '--budget', BUDGET, '--no-history', '--out', out, '--shared', first.shared]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/queued 23 jobs \(23 done before, reused\)/);
    expect((w.stdout.match(/: done in/g) ?? []).length).toBe(doneBefore);
    const report = reportIn(out);
    expect(comparable(report, out)).toEqual(comparable(local.report, local.out));
    // the same jobs' results: where and how long they ran the first time
    expect(report.games.map((g) => g.levels.map((l) => l.ranOn))).toEqual(reportIn(first.out).games.map((g) => g.levels.map((l) => l.ranOn)));
    expect(existsSync(join(out, 'games', 'ruin', 'level-1', 'artefacts.json'))).toBe(true);
    await stopped(w);
  });

  it('a worker SIGKILLed mid-job: its job goes back to the queue when its lock lapses, another worker runs it, nothing is lost', async () => {
    const db = 3;
    const victim = await worker(db, '--lock-seconds', '2');
    const { night, out } = producer(db);
    // killed in the middle of a qualification (a second or more of work)
    const line = await victim.waitFor(/^\w+ qualify: started/);
    victim.child.kill('SIGKILL');
    expect((await victim.finished).signal).toBe('SIGKILL');
    const game = line.split(' ')[0];
    const rescuer = await worker(db, '--lock-seconds', '2');
    const r = await night.finished;
    expect(r.code, r.stderr).toBe(1);
    const report = reportIn(out);
    expect(comparable(report, out)).toEqual(comparable(local.report, local.out));
    expect(report.games.find((g) => g.game === game)!.qualification!.ranOn!.worker).toMatch(new RegExp(`:${pidOf(rescuer)}$`));
    expect(rescuer.stdout).toContain(`${game} qualify: started`);
    await stopped(rescuer);
  });

  it('a worker frozen past its lock (SIGSTOP): another worker runs the job; woken, it says the job was taken back, not done', async () => {
    const db = 8;
    // locks of 4 s, not 2: on a loaded machine a 2 s lock can lapse on its own
    const frozen = await worker(db, '--lock-seconds', '4');
    const { night, out } = producer(db);
    const line = await frozen.waitFor(/^\w+ qualify: started/);
    const game = line.split(' ')[0];
    frozen.child.kill('SIGSTOP');
    const rescuer = await worker(db, '--lock-seconds', '4');
    await rescuer.waitFor(new RegExp(`^${game} qualify: done`));
    frozen.child.kill('SIGCONT');
    // its qualification runs to its end, then finds the job is another worker's
    await frozen.waitFor(new RegExp(`^${game} qualify: taken back`));
    const r = await night.finished;
    expect(r.code, r.stderr).toBe(1);
    expect(comparable(reportIn(out), out)).toEqual(comparable(local.report, local.out));
    expect(reportIn(out).games.find((g) => g.game === game)!.qualification!.ranOn!.worker).toMatch(new RegExp(`:${pidOf(rescuer)}$`));
    expect(frozen.stdout).toContain(`${game} qualify: taken back (this worker was frozen past its lock: the job went back to the queue, for another worker): result discarded`);
    expect(frozen.stdout).not.toContain(`${game} qualify: done`);
    // a lock it could not renew is not a Redis outage
    expect(frozen.stdout).not.toMatch(/warning: Redis/);
    frozen.child.kill('SIGTERM');
    const summary = await frozen.finished;
    expect(summary.code).toBe(130);
    expect(summary.stdout).toMatch(/, 1 taken back$/m);
    await stopped(rescuer);
  });

  it('SIGTERM lets the active job finish; a second one puts it back in the queue for another worker', async () => {
    const db = 4;
    const first = await worker(db);
    const { night, out } = producer(db);
    await first.waitFor(/^\w+ qualify: started/);
    first.child.kill('SIGTERM');
    // the qualification under way finishes here, and this worker takes nothing more
    await first.waitFor(/^\w+ qualify: done/);
    const finished = await first.finished;
    expect(finished.code).toBe(130);
    expect(finished.stdout.split('\n').filter((l) => /: started/.test(l)).length).toBe(finished.stdout.split('\n').filter((l) => /: done in/.test(l)).length);

    const second = await worker(db);
    const line = await second.waitFor(/^\w+ qualify: started/);
    second.child.kill('SIGTERM');
    await second.waitFor(/finishing the active job/);
    second.child.kill('SIGTERM');
    const stoppedTwice = await second.finished;
    expect(stoppedTwice.code).toBe(130);
    expect(stoppedTwice.stdout).toContain(`${line.split(' ')[0]} qualify: stopped and put back in the queue`);
    expect(stoppedTwice.stdout).toMatch(/1 put back/);

    const third = await worker(db);
    const r = await night.finished;
    expect(r.code, r.stderr).toBe(1);
    expect(comparable(reportIn(out), out)).toEqual(comparable(local.report, local.out));
    // the job put back ran again at once (no lock to wait out) on the third worker
    expect(third.stdout).toContain(`${line.split(' ')[0]} qualify: started`);
    await stopped(third);
  });

  it('a Redis restart mid-sweep: workers and producer reconnect, the sweep completes with the local numbers', async () => {
    const db = 5;
    const workers = [await worker(db, '--lock-seconds', '3'), await worker(db, '--lock-seconds', '3')];
    const { night, out } = producer(db);
    await night.waitFor(/: done on /);
    await redis.restart(500);
    const before = night.stdout.length;
    const r = await night.finished;
    expect(r.code, r.stderr).toBe(1);
    // jobs went on finishing after the restart
    expect(r.stdout.slice(before)).toMatch(/: done on /);
    const report = reportIn(out);
    expect(report.status).toBe('complete');
    expect(comparable(report, out)).toEqual(comparable(local.report, local.out));
    await Promise.all(workers.map(stopped));
  });

  it('a producer stopped before its night is done leaves the jobs queued; run again, it collects the same night', async () => {
    const db = 7;
    const first = producer(db);
    await first.night.waitFor(/queued 23 jobs/);
    first.night.child.kill('SIGINT');
    const stoppedEarly = await first.night.finished;
    expect(stoppedEarly.code, stoppedEarly.stderr).toBe(130);
    expect(reportIn(first.out)).toMatchObject({ status: 'interrupted', games: [] });
    const w = await worker(db);
    const out = join(tempDir(), 'again');
    const r = await run(['sweep', '--queue', `${redis.url}/${db}`, '--games', GAMES, '--budget', BUDGET, '--no-history', '--out', out, '--shared', first.shared]);
    expect(r.code, r.stderr).toBe(1);
    expect(comparable(reportIn(out), out)).toEqual(comparable(local.report, local.out));
    // each job ran once
    expect((w.stdout.match(/: done in/g) ?? []).length).toBe(23);
    await stopped(w);
  });

  it('a game step that throws is the level\'s crash finding, run once: no retry', async () => {
    const db = 6;
    const games = ['boom', 'ruin'].map(fixture).join(',');
    const localOut = join(tempDir(), 'local-boom');
    await run(['sweep', '--games', games, '--budget', BUDGET, '--workers', '1', '--no-history', '--out', localOut]);
    const w = await worker(db);
    const { night, out } = producer(db, games);
    const r = await night.finished;
    expect(r.code, r.stderr).toBe(1);
    const report = reportIn(out);
    expect(comparable(report, out)).toEqual(comparable(reportIn(localOut), localOut));
    const boom = report.games[0];
    expect(boom.levels[0].crash!.actions.length).toBeGreaterThan(0);
    expect(boom.error).toBeNull();
    expect(w.stdout).not.toMatch(/attempt 2|failed/);
    await stopped(w);
  });

  it('a Redis that cannot be used says why, at start: exit 2, one line', async () => {
    const closed = await freePort();
    const locked = await RedisServer.start(tempDir(), ['--requirepass', 'sekret']);
    // a server that is not Redis: an HTTP server's answer to the Redis protocol
    const http = createServer((socket) => socket.once('data', () => socket.end('HTTP/1.0 400 Bad request\r\n\r\n')).on('error', () => undefined));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    const httpPort = (http.address() as AddressInfo).port;
    try {
      for (const [url, why] of [
        [`${redis.url}/99`, /: database 99 does not exist on this Redis \(it has 16\)$/],
        [`redis://127.0.0.1:${closed}`, /: cannot reach Redis: nothing listens on 127\.0\.0\.1:\d+ \(connection refused\)$/],
        [`redis://127.0.0.1:${locked.port}`, /: this Redis needs a password: give it in ARCGRAPH_REDIS_PASSWORD \(or in the URL/],
        [`redis://:wrong@127.0.0.1:${locked.port}`, /: Redis refused the user name or password \(WRONGPASS\)$/],
        [`redis://127.0.0.1:${httpPort}`, /: 127\.0\.0\.1:\d+ does not answer as Redis does/],
      ] as const) {
        for (const args of [['sweep', '--queue', url, '--games', fixture('ruin'), '--out', join(tempDir(), 'night')], ['worker', '--queue', url]]) {
          const r = await run(args);
          expect(r.code, args.join(' ')).toBe(2);
          expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
          expect(r.stderr.trim(), args.join(' ')).toMatch(why);
        }
      }
      // the password in the URL: it works
      const w = start(['worker', '--queue', `redis://:sekret@127.0.0.1:${locked.port}/3`, '--workers', '1']);
      await w.waitFor(/waiting for jobs/);
      await stopped(w);
      // the password in ARCGRAPH_REDIS_PASSWORD (out of ps and the shell's history): both commands read it...
      const url = `redis://127.0.0.1:${locked.port}/4`;
      for (const args of [['sweep', '--queue', url, '--games', fixture('ruin'), '--out', join(tempDir(), 'night')], ['worker', '--queue', url]]) {
        const r = await run(args, { ARCGRAPH_REDIS_PASSWORD: 'wrong' });
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.stderr.trim(), args.join(' ')).toMatch(/: Redis refused the user name or password \(WRONGPASS\)$/);
      }
      // ...a night runs with it; and a password in the URL wins over a stale one in the variable
      const secret = { ARCGRAPH_REDIS_PASSWORD: 'sekret' };
      const fromEnv = start(['worker', '--queue', url, '--workers', '1'], secret);
      await fromEnv.waitFor(/waiting for jobs/);
      const out = join(tempDir(), 'night');
      const night = await run(['sweep', '--queue', url, '--games', fixture('ruin'), '--budget', BUDGET, '--no-history', '--out', out, '--shared', join(tempDir(), 'jobs')], secret);
      expect(night.code, night.stderr).toBe(1);
      expect(reportIn(out)).toMatchObject({ status: 'complete', settings: { queue: url } });
      await stopped(fromEnv);
      const urlWins = start(['worker', '--queue', `redis://:sekret@127.0.0.1:${locked.port}/4`, '--workers', '1'], { ARCGRAPH_REDIS_PASSWORD: 'wrong' });
      await urlWins.waitFor(/waiting for jobs/);
      await stopped(urlWins);
    } finally {
      http.close();
      await locked.stop();
    }
  });

  it('a bad or unreachable Redis URL is bad input: exit 2, one line, no report folder', async () => {
    const closed = await freePort();
    for (const args of [
      ['sweep', '--queue', 'http://127.0.0.1:6379'],
      ['sweep', '--queue', 'redis://127.0.0.1:notaport'],
      ['sweep', '--queue', 'redis://127.0.0.1:6379/db'],
      ['sweep', '--queue', `redis://127.0.0.1:${closed}`],
      ['sweep', '--queue', redis.url, '--workers', '2'],
      ['sweep', '--queue', redis.url, '--step-timeout', '5'],
      ['sweep', '--queue', redis.url, '--max-memory', '2'],
      ['worker', '--queue', 'nope'],
      ['worker'],
      ['worker', '--queue', `redis://127.0.0.1:${closed}`],
    ]) {
      const base = tempDir();
      const r = await run(args[0] === 'sweep' ? [...args, '--games', fixture('ruin'), '--out', join(base, 'night')] : args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^arcgraph ${args[0]}: `));
      expect(readdirSync(base), args.join(' ')).toEqual([]);
    }
  });
});
