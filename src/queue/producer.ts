/**
 * `arcgraph sweep --queue`: the sweep as a producer. It plans the night as a local sweep does,
 * puts the plan into Redis as one BullMQ flow (work jobs for `arcgraph worker`, a collector per
 * game and one for the night), and collects: when a game's jobs have all finished, its collector
 * runs here, brings the jobs' files home from the shared folder, and publishes the game through
 * the same Night a local sweep uses. Jobs done before under the same ids (this night run again)
 * are reused; jobs that failed before are run again. One producer collects a night at a time.
 */
import { cpSync, existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { FlowProducer, Job, Queue, QueueEvents, Worker, type Job as BullJob } from 'bullmq';
import { Redis } from 'ioredis';
import { InputError } from '../errors.js';
import type { SweepReport } from '../report/index.js';
import { PythonGame } from '../python/index.js';
import { gameReport, isBroken, Night, prepareSweep, type JobOutcome, type JobResult, type PlannedGame, type PlannedJob, type SweepEvent, type SweepOptions } from '../sweep/index.js';
import { collectQueue, connection, PREFIX, probe, WORK_QUEUE } from './connection.js';
import { GAME_COLLECTOR, gameCollectorId, NIGHT_COLLECTOR, nightFlow, type CollectData, type WorkData } from './flow.js';
import type { RedisTarget } from './url.js';

export interface QueueSweepOptions extends Omit<SweepOptions, 'workers' | 'qualifier' | 'onEvent'> {
  target: RedisTarget;
  /** The folder work jobs write their large outputs under (each in a folder named by its id), as this machine sees it. */
  shared: string;
  onEvent?: (event: QueueSweepEvent) => void;
}

export type QueueSweepEvent = SweepEvent | { kind: 'job'; job: PlannedJob; state: 'done' | 'failed'; detail: string } | { kind: 'queued'; jobs: number; reused: number };

/** How long the night's lock lives without its producer renewing it. */
const NIGHT_LOCK_MS = 60_000;
/** How often the producer checks that Redis still holds its night. */
const NIGHT_CHECK_MS = 5_000;

/** A path under `from` moved under `to` (a reproduction written on a worker, now in the report folder). */
function rehome(path: string | null, from: string, to: string): string | null {
  if (path === null) return null;
  const rel = relative(from, path);
  return rel === '' ? to : rel.startsWith('..') || rel.startsWith(sep) ? path : join(to, rel);
}

/** Copies a job's files from its folder under the shared folder into the report folder, and points its paths there; else says what is missing. */
function bringHome(result: JobResult, from: string, out: string): string | null {
  if (result.stage === 'monte-carlo') return null;
  const what = result.stage === 'explore' ? `level ${result.level}'s artefacts` : "the qualification's reproductions";
  if (!existsSync(from)) return `${what} are not in ${from}, where ${result.ranOn.worker} wrote them to ${result.dir}: is the shared folder the same on every worker (or given as its --out)?`;
  cpSync(from, out, { recursive: true });
  if (result.stage === 'qualify') {
    const q = result.qualification;
    q.out = rehome(q.out, result.dir, out);
    for (const f of q.findings) f.reproduction = rehome(f.reproduction, result.dir, out);
  }
  return null;
}

export async function queueSweep(options: QueueSweepOptions): Promise<SweepReport> {
  const { refs, loaded, plan } = await prepareSweep(options);
  // the workers run the games: a real ARC game's Python processes here were only for planning
  for (const l of loaded) if (!isBroken(l) && l.game instanceof PythonGame) l.game.close();
  const emit = (event: QueueSweepEvent): void => options.onEvent?.(event);
  await probe(options.target);
  const conn = connection(options.target);
  const redis = new Redis({ ...conn });
  redis.on('error', () => undefined);
  const closers: (() => Promise<unknown>)[] = [async () => redis.disconnect()];
  // closed last opened first, each once
  const closeAll = async (): Promise<void> => {
    for (let close = closers.pop(); close; close = closers.pop()) await close().catch(() => undefined);
  };

  try {
    // one producer collects a night: a second one would publish half the games each
    const lockKey = `${PREFIX}:${collectQueue(plan.key)}:producer`;
    const me = `${process.pid}@${new Date().toISOString()}`;
    if ((await redis.set(lockKey, me, 'PX', NIGHT_LOCK_MS, 'NX')) !== 'OK') {
      const holder = await redis.get(lockKey);
      throw new InputError(`another producer (${holder ?? 'gone now'}) is collecting this night in ${options.target.display}; wait for it, or for its lock to lapse (${NIGHT_LOCK_MS / 1000} s after it died)`);
    }
    const renew = setInterval(() => void redis.set(lockKey, me, 'PX', NIGHT_LOCK_MS).catch(() => undefined), NIGHT_LOCK_MS / 3);
    closers.push(async () => {
      clearInterval(renew);
      if ((await redis.get(lockKey)) === me) await redis.del(lockKey);
    });
    emit({ kind: 'start' });

    const work = new Queue<WorkData, JobResult>(WORK_QUEUE, { connection: conn, prefix: PREFIX });
    work.on('error', () => undefined);
    closers.push(() => work.close());
    const jobs = new Map(plan.games.flatMap((g) => g.jobs.map((j) => [j.id, { job: j, game: g }] as const)));

    // a job that failed before runs again; a finished one whose files are gone from the shared folder too
    let reused = 0;
    for (const [id] of jobs) {
      const old = await Job.fromId<WorkData, JobResult>(work, id);
      if (!old) continue;
      const state = await old.getState();
      if (state === 'failed' || (state === 'completed' && old.returnvalue.stage !== 'monte-carlo' && !existsSync(join(options.shared, id)))) await old.remove({ removeChildren: false });
      else if (state === 'completed') reused++;
    }

    const events = new QueueEvents(WORK_QUEUE, { connection: conn, prefix: PREFIX });
    events.on('error', () => undefined);
    closers.push(() => events.close());
    events.on('completed', ({ jobId, returnvalue }) => {
      const entry = jobs.get(jobId);
      const value = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as JobResult | undefined;
      const ran = value?.ranOn;
      if (entry) emit({ kind: 'job', job: entry.job, state: 'done', detail: ran ? `on ${ran.worker} in ${ran.seconds.toFixed(1)} s` : '' });
    });
    events.on('failed', ({ jobId, failedReason }) => {
      const entry = jobs.get(jobId);
      if (entry) emit({ kind: 'job', job: entry.job, state: 'failed', detail: failedReason });
    });
    await events.waitUntilReady();

    const night = new Night({
      out: options.out,
      refs,
      plan,
      workers: null,
      queue: options.target.display,
      history: options.history,
      baseline: options.baseline,
      onWarning: (message) => emit({ kind: 'warning', message }),
    });
    closers.push(async () => night.close());

    /** How each of a game's jobs ended; one still under way (held by another night's flow) is waited for here. */
    async function outcomes(game: PlannedGame): Promise<Map<string, JobOutcome>> {
      const found = new Map<string, JobOutcome>();
      for (const { id } of game.jobs) {
        // the state first: a job read before it finishes has no result yet
        const state = await work.getJobState(id);
        const job = await Job.fromId<WorkData, JobResult>(work, id);
        if (!job || state === 'unknown') {
          found.set(id, { error: 'the job vanished from the queue' });
          continue;
        }
        if (state === 'failed') found.set(id, { error: job.failedReason });
        else if (state === 'completed') found.set(id, { result: job.returnvalue });
        else {
          try {
            found.set(id, { result: await job.waitUntilFinished(events) });
          } catch (err) {
            found.set(id, { error: (err as Error).message });
          }
        }
      }
      return found;
    }

    /**
     * A job another night's flow holds (running, or done while that night's collector lives) keeps its
     * parent: BullMQ does not make it a child of this night's collector too. A collector left with no
     * job to wait on would wait forever; it is replaced by one that runs at once (under the night's
     * collector), and its collect waits on the game's jobs themselves (outcomes()).
     */
    async function releaseStranded(): Promise<void> {
      const collectors = new Queue<CollectData>(collectQueue(plan.key), { connection: conn, prefix: PREFIX });
      collectors.on('error', () => undefined);
      try {
        for (const g of plan.games) {
          const stuck = await Job.fromId<CollectData>(collectors, gameCollectorId(g.game));
          if (!stuck || (await stuck.getState()) !== 'waiting-children') continue;
          if ((await stuck.getDependenciesCount({ unprocessed: true })).unprocessed! > 0) continue;
          // the replacement joins the night's collector before the stuck one leaves it, so the night is never released early
          await collectors.add(GAME_COLLECTOR, { game: g.game }, { jobId: `${gameCollectorId(g.game)}.waited`, parent: { id: NIGHT_COLLECTOR, queue: collectors.qualifiedName }, removeOnComplete: true, removeOnFail: true });
          // its children are work jobs that stay (done ones are reused)
          await stuck.remove({ removeChildren: false });
        }
      } finally {
        await collectors.close();
      }
    }

    let finished!: () => void;
    let broke!: (err: Error) => void;
    const done = new Promise<void>((resolve, reject) => {
      finished = resolve;
      broke = reject;
    });
    let collected = false;
    const collect = async (bull: BullJob<CollectData>): Promise<string> => {
      if (bull.name !== GAME_COLLECTOR) {
        collected = true;
        finished();
        return 'night';
      }
      const planned = plan.games.find((g) => g.game === bull.data.game);
      if (!planned || night.report.games.some((g) => g.game === planned.game)) return 'skipped';
      const found = await outcomes(planned);
      const missing: string[] = [];
      for (const [id, outcome] of found) {
        if (!('result' in outcome)) continue;
        const problem = bringHome(outcome.result, join(options.shared, id), options.out);
        if (problem) missing.push(problem);
      }
      const game = gameReport(planned, found, night.previousLevel);
      // in the report too, not only on stderr: a nightly pipeline reads the report
      game.warnings.push(...missing);
      for (const problem of missing) emit({ kind: 'warning', message: `${planned.game}: ${problem}` });
      await night.addGame(game);
      emit({ kind: 'game', game, report: night.report });
      return planned.game;
    };
    const collector = new Worker<CollectData>(collectQueue(plan.key), collect, { connection: conn, prefix: PREFIX, concurrency: 1 });
    collector.on('error', () => undefined);
    // a collector that cannot publish (a full disk) stops the night
    collector.on('failed', (_job, err) => broke(err));
    closers.push(() => collector.close());

    // A Redis restarted without its data (no persistence) or flushed has forgotten the night: its
    // collectors would never run. (A Redis that is down is waited out: the check waits with it.)
    const nightKey = `${PREFIX}:${collectQueue(plan.key)}:${NIGHT_COLLECTOR}`;
    const gone = (): Error => new Error(`the night is gone from Redis ${options.target.display} (restarted without persistence, or flushed): its jobs' results are lost; run the night again`);
    const isGone = async (): Promise<boolean> => (await redis.exists(nightKey)) === 0;

    const flow = new FlowProducer({ connection: conn, prefix: PREFIX });
    flow.on('error', () => undefined);
    closers.push(() => flow.close());
    try {
      await flow.add(nightFlow(plan, options.shared));
      await releaseStranded();
    } catch (err) {
      // a flush while the night is queued fails BullMQ's own calls first ("Missing key for parent job")
      if (await isGone().catch(() => false)) throw gone();
      throw err;
    }
    emit({ kind: 'queued', jobs: jobs.size, reused });

    let checking = false;
    const watch = setInterval(() => {
      if (checking || collected) return;
      checking = true;
      isGone()
        .then((yes) => yes && !collected && broke(gone()), () => undefined)
        .finally(() => (checking = false));
    }, NIGHT_CHECK_MS);
    closers.push(async () => clearInterval(watch));

    const stopped = new Promise<void>((resolve) => {
      if (options.signal?.aborted) resolve();
      options.signal?.addEventListener('abort', () => resolve(), { once: true });
    });
    await Promise.race([done, stopped]);
    if (night.complete) {
      // the night is collected: its collectors' queue goes (its work jobs stay, for a run of the same night)
      await collector.close();
      const collected = new Queue(collectQueue(plan.key), { connection: conn, prefix: PREFIX });
      collected.on('error', () => undefined);
      await collected.obliterate({ force: true }).catch(() => undefined);
      await collected.close();
    }
    await closeAll();
    return night.report;
  } finally {
    await closeAll();
  }
}
