/**
 * `arcgraph worker`: takes the sweep's work jobs from Redis and runs each with the sweep's own job
 * functions (explore, Monte Carlo, qualify), on a pool of worker threads kept for the process.
 * Progress goes to job.updateProgress; large outputs to files under the shared folder (never into
 * Redis). A job holds a lock it renews while it runs; a worker killed mid-job lets the lock lapse,
 * and another worker's stalled-job check puts the job back in the queue. Stopping: `finish` lets
 * the active jobs finish and takes no more; `return` stops them and puts them back at once.
 */
import { join } from 'node:path';
import { Job, Queue, UnrecoverableError, WaitingError, Worker, type Job as BullJob } from 'bullmq';
import { workerHeapMb } from '../explorer/index.js';
import { prepareOutputDir } from '../files.js';
import { arcGameFile, openPythonGame, PythonGame, type PythonSettings } from '../python/index.js';
import { loadGame, type LoadedGame } from '../suite/index.js';
import { codeHash, hashOffThread, JobInterrupted, qualifyGame, runJob, thisWorker, type JobProgress, type JobResult, type PlannedJob, type Qualifier } from '../sweep/index.js';
import { connection, PREFIX, WORK_QUEUE } from './connection.js';
import type { WorkData } from './flow.js';
import type { RedisTarget } from './url.js';

/** A job the lock of which is not renewed for this long is taken for a dead worker's and run again elsewhere. */
export const DEFAULT_LOCK_SECONDS = 30;
/** A job that stalls (its worker dies) this many times more is failed: a game that kills its worker is not retried forever. */
const MAX_STALLED = 2;

export interface WorkerOptions {
  target: RedisTarget;
  /** Worker threads per job. */
  workers: number;
  /** Jobs run at once by this process. */
  concurrency: number;
  /** The shared folder as this machine sees it; default the path each job names. */
  out?: string;
  lockSeconds?: number;
  /** The Python interpreter and ARC engine of real ARC games on this machine (default: python3, ARCGRAPH_ARC_ENGINE). */
  python?: PythonSettings;
  /** The qualification step (tests inject a stand-in). */
  qualifier?: Qualifier;
  /** The step limit of the games' code, in seconds (default 10). */
  stepSeconds?: number;
  /** Memory budget in GB of each job: worker threads get an equal share of heap. */
  maxMemory?: number;
  /**
   * Seconds a real ARC game's Python processes are kept once none of its jobs runs here (default
   * 5): the next job of the game (its next level) reuses them; an idle worker holds none.
   */
  idleSeconds?: number;
  onEvent?: (event: WorkerEvent) => void;
}

export type WorkerEvent =
  | { kind: 'ready'; worker: string }
  | { kind: 'started'; job: PlannedJob; attempt: number }
  | { kind: 'done'; job: PlannedJob; seconds: number }
  | { kind: 'failed'; job: PlannedJob; message: string; final: boolean }
  | { kind: 'returned'; job: PlannedJob }
  /** Its lock lapsed while it ran (this worker frozen past it): the job went back to the queue, for another worker, and this result is dropped. */
  | { kind: 'taken-back'; job: PlannedJob }
  | { kind: 'warning'; message: string };

export interface WorkerSummary {
  worker: string;
  done: number;
  failed: number;
  /** Jobs put back in the queue at a stop. */
  returned: number;
  /** Jobs Redis gave to another worker while this one ran them (their results dropped). */
  takenBack: number;
}

export interface RunningWorker {
  readonly name: string;
  /** Resolves once the worker is connected and taking jobs. */
  ready: Promise<void>;
  /** Stops taking jobs; `finish` waits for the active ones, `return` stops them and puts them back in the queue. */
  stop(mode: 'finish' | 'return'): Promise<WorkerSummary>;
}

/** A game this process loaded: the game, its content hash, and the digest of its code files when loaded. */
interface Copy {
  loaded: LoadedGame;
  hash: string | null;
  code: string | null;
  /** Jobs running on it now. */
  active: number;
  /** Set while it is idle: closes its Python processes when it fires. */
  idle?: NodeJS.Timeout;
}

/** A game lent to a job: `release` when the job is over. */
export interface Lease {
  loaded: LoadedGame;
  release(): void;
}

/** Default seconds a game's Python processes outlive its last job here. */
export const GAME_IDLE_SECONDS = 5;

/**
 * The games this process has loaded, checked against the version the sweep planned. A real ARC game
 * (its source an `<id>.py` beside its metadata.json) runs in this machine's Python processes, with
 * the options the night planned. A game whose file changed on disk since it was loaded (a worker
 * that outlives a game's edit) is loaded again as it is now: a game folder's index.js with its folder.
 */
class Games {
  private readonly loaded = new Map<string, Promise<Copy>>();
  /** Copies replaced by a fresher one: their Python processes may still run a job, so they end with its last job (or at close). */
  private readonly retired = new Set<Promise<Copy>>();

  constructor(
    private readonly python: PythonSettings & { stepSeconds?: number; memoryMb?: number } = {},
    private readonly idleMs = GAME_IDLE_SECONDS * 1000,
  ) {}

  private load(job: PlannedJob, code?: string): Promise<LoadedGame> {
    if (!arcGameFile(job.source)) return loadGame(job.source, code);
    const game = openPythonGame(job.source, { ...job.settings.python, ...this.python });
    return Promise.resolve({ game, module: game.file });
  }

  private open(key: string, job: PlannedJob, fresh: boolean): Promise<Copy> {
    const entry = (async (): Promise<Copy> => {
      // the digest read before the import: a fresh import is named by it
      const code = fresh ? codeHash(job.source) : null;
      const loaded = await this.load(job, fresh ? (code ?? undefined) : undefined);
      return { loaded, hash: hashOffThread(loaded, this.python.stepSeconds), code: code ?? codeHash(loaded.module), active: 0 };
    })();
    this.loaded.set(key, entry);
    entry.catch(() => this.loaded.get(key) === entry && this.loaded.delete(key));
    return entry;
  }

  async get(job: PlannedJob): Promise<Lease> {
    // a game loaded with other Python options (another night's) is another game
    const key = `${job.source}\n${JSON.stringify(job.settings.python ?? null)}`;
    const cached = this.loaded.get(key);
    let entry = cached ?? this.open(key, job, false);
    let copy = await entry;
    if (copy.hash !== job.contentHash && cached) {
      // loaded before its files changed? (a game folder's index.js brings its folder's files afresh too)
      const now = this.loaded.get(key);
      if (now && now !== cached) copy = await (entry = now);
      else if (codeHash(copy.loaded.module) !== copy.code) {
        this.retire(key, cached);
        copy = await (entry = this.open(key, job, true));
      }
    }
    // another version of the game would give other numbers under the same job id
    if (copy.hash !== job.contentHash) throw new Error(`this worker's copy of ${job.game} (${job.source}) has content hash ${copy.hash ?? 'none'}, the sweep planned ${job.contentHash ?? 'none'}`);
    copy.active++;
    clearTimeout(copy.idle);
    copy.idle = undefined;
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      if (--copy.active > 0) return;
      const idle = (): void => {
        copy.idle = undefined;
        if (copy.active > 0) return;
        if (this.loaded.get(key) === entry) this.loaded.delete(key);
        this.retired.delete(entry);
        shut(copy);
      };
      // a copy replaced meanwhile ends with its last job; the current one after a while without jobs
      if (this.loaded.get(key) !== entry || !(copy.loaded.game instanceof PythonGame)) {
        if (this.loaded.get(key) !== entry) idle();
        return;
      }
      copy.idle = setTimeout(idle, this.idleMs);
      copy.idle.unref();
    };
    return { loaded: copy.loaded, release };
  }

  /** Takes a copy out of use (its file changed): it ends once no job runs on it. */
  private retire(key: string, entry: Promise<Copy>): void {
    if (this.loaded.get(key) === entry) this.loaded.delete(key);
    this.retired.add(entry);
    entry.then((copy) => {
      if (copy.active === 0) {
        this.retired.delete(entry);
        shut(copy);
      }
    }, () => this.retired.delete(entry));
  }

  /** Ends the Python processes of the real ARC games loaded. */
  async close(): Promise<void> {
    for (const entry of [...this.loaded.values(), ...this.retired]) {
      const copy = await entry.catch(() => null);
      if (copy) shut(copy);
    }
    this.loaded.clear();
    this.retired.clear();
  }
}

/** Ends a copy's Python processes (a JavaScript game runs in the shared thread pools: nothing to end). */
function shut(copy: Copy): void {
  clearTimeout(copy.idle);
  copy.idle = undefined;
  if (copy.loaded.game instanceof PythonGame) copy.loaded.game.close();
}

export function startWorker(options: WorkerOptions): RunningWorker {
  const name = thisWorker();
  // this worker's --step-timeout is a Python game's step alarm too (else the night's, from the job)
  // Each Python process of a job gets a worker thread's share of this machine's budget (as the job's threads do).
  const games = new Games({ ...(options.stepSeconds !== undefined && { stepSeconds: options.stepSeconds }), memoryMb: workerHeapMb(options.workers, options.maxMemory), ...options.python }, (options.idleSeconds ?? GAME_IDLE_SECONDS) * 1000);
  const summary: WorkerSummary = { worker: name, done: 0, failed: 0, returned: 0, takenBack: 0 };
  const returning = new AbortController();
  const emit = (event: WorkerEvent): void => options.onEvent?.(event);
  const lockDuration = (options.lockSeconds ?? DEFAULT_LOCK_SECONDS) * 1000;
  const conn = connection(options.target);
  // reads the results of the jobs a job depends on
  const queue = new Queue(WORK_QUEUE, { connection: conn, prefix: PREFIX });
  queue.on('error', () => undefined);

  async function inputs(job: PlannedJob): Promise<Map<string, JobResult>> {
    const results = new Map<string, JobResult>();
    for (const id of job.reads) {
      const input = await Job.fromId<WorkData, JobResult>(queue, id);
      // its input failed after all its attempts (or was removed): this job cannot run, and retrying will not help
      if (!input || (await input.getState()) !== 'completed') throw new UnrecoverableError(`its input ${id} did not finish`);
      results.set(id, input.returnvalue);
    }
    return results;
  }

  async function process(bull: BullJob<WorkData, JobResult>, token?: string, signal?: AbortSignal): Promise<JobResult> {
    const { job, shared } = bull.data;
    emit({ kind: 'started', job, attempt: bull.attemptsMade + 1 });
    const started = performance.now();
    // the first report of a job always goes out (performance.now() starts near 0 in a young thread)
    let lastProgress = -Infinity;
    const onProgress = (p: JobProgress): void => {
      const now = performance.now();
      if (now - lastProgress < 1000) return;
      lastProgress = now;
      bull.updateProgress({ ...p }).catch(() => undefined);
    };
    const stop = signal ? AbortSignal.any([signal, returning.signal]) : returning.signal;
    let dir = join(options.out ?? shared, job.id);
    try {
      // Monte Carlo writes no file
      if (job.stage !== 'monte-carlo') dir = prepareOutputDir(dir);
    } catch (err) {
      throw new Error(`cannot write the job's outputs: ${(err as Error).message} (give this worker the shared folder with --out)`);
    }
    try {
      // its inputs first: a job whose input failed fails for good at once, before its game is loaded (a load that fails is retried)
      const given = await inputs(job);
      const lease = await games.get(job);
      let result: JobResult;
      try {
        result = await runJob(job, lease.loaded, given, { workers: options.workers, dir, qualifier: options.qualifier ?? qualifyGame, worker: name, signal: stop, onProgress, stepSeconds: options.stepSeconds, maxMemory: options.maxMemory });
      } finally {
        // the game's Python processes end once no job of it has run here for a while
        lease.release();
      }
      // Frozen past its lock (a stopped process, a paused machine), this worker was taken for dead and
      // the job put back for another: that worker's result is the one kept (extendLock fails on a lock
      // not ours, or lapsed; BullMQ would refuse to complete the job on it all the same).
      if (token && !(await bull.extendLock(token, lockDuration))) {
        summary.takenBack++;
        emit({ kind: 'taken-back', job });
        // BullMQ then leaves the job as it is (completing it would fail on the other worker's lock)
        throw new WaitingError();
      }
      summary.done++;
      emit({ kind: 'done', job, seconds: (performance.now() - started) / 1000 });
      return result;
    } catch (err) {
      if (err instanceof JobInterrupted && returning.signal.aborted) {
        // back in the queue now, for another worker (or this one, restarted)
        await bull.moveToWait(token);
        summary.returned++;
        emit({ kind: 'returned', job });
        throw new WaitingError();
      }
      throw err;
    }
  }

  const worker = new Worker<WorkData, JobResult>(WORK_QUEUE, process, {
    connection: conn,
    prefix: PREFIX,
    name,
    concurrency: options.concurrency,
    lockDuration,
    stalledInterval: lockDuration,
    maxStalledCount: MAX_STALLED,
  });
  worker.on('failed', (bull, err) => {
    if (!bull || err instanceof WaitingError || err.name === 'WaitingError') return;
    const final = bull.attemptsMade >= (bull.opts.attempts ?? 1) || err instanceof UnrecoverableError || err.name === 'UnrecoverableError';
    if (final) summary.failed++;
    emit({ kind: 'failed', job: bull.data.job, message: err.message, final });
  });
  // a Redis outage is waited out (connection() retries); say so once per outage
  let down = false;
  worker.on('error', (err) => {
    // a lock this worker could not renew (frozen past it) is no outage: the job's end says what became of it
    if (/^could not renew lock for job /.test(err.message)) return;
    if (down) return;
    down = true;
    emit({ kind: 'warning', message: `Redis: ${err.message.split('\n')[0]}; retrying` });
  });
  worker.on('ready', () => (down = false));
  const ready = worker.waitUntilReady().then(() => emit({ kind: 'ready', worker: name }));
  ready.catch(() => undefined);

  let stopping: Promise<WorkerSummary> | null = null;
  return {
    name,
    ready,
    stop(mode) {
      if (mode === 'return') returning.abort();
      stopping ??= (async () => {
        await worker.close();
        await queue.close();
        await games.close();
        return summary;
      })();
      return stopping;
    },
  };
}
