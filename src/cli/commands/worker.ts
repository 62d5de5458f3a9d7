import { InputError } from '../../errors.js';
import { defaultWorkers } from '../../parallel/index.js';
import { DEFAULT_LOCK_SECONDS, parseRedisUrl, PASSWORD_ENV, probe, startWorker, type WorkerEvent } from '../../queue/index.js';
import type { Command } from '../main.js';
import { numberOption, outputDirOption, parse, STEP_OPTION, stepTimeoutOption, workersOption } from '../args.js';
import { INTERRUPTED, interruption } from '../interrupt.js';

const USAGE = `Usage: arcgraph worker --queue redis://HOST:PORT[/DB] [options]

Takes the jobs of \`arcgraph sweep --queue\` from Redis (BullMQ) and runs them: explores and
analyses levels, settles inconclusive ones by random play, qualifies games; their numbers go back
through Redis, their files (level artefacts, reproductions) to the shared folder. Runs until
stopped. Every machine that runs one needs the project and the games' files (at the paths the
sweep names them by, for games given as module paths and real ARC games), and for real ARC games
Python with the ARC engine (its packages, or ARCGRAPH_ARC_ENGINE); the night's --graph-builder
comes with the jobs.

Options:
  --queue URL          the Redis the sweep's producer uses (required); its password from
                       ${PASSWORD_ENV} when the URL has none (a password in the URL wins; it shows
                       in ps and the shell's history, the variable does not)
  --workers K          worker threads per job (default: all cores, from 16 up all but one)
  --concurrency N      jobs run at once (default 1)
  --out DIR            the shared folder as this machine sees it (default: the path the producer
                       gives each job, right when the folder is mounted at the same path)
  --lock-seconds S     a job whose worker stops renewing its lock for this long (killed, or its
                       machine gone) goes back to the queue for another worker (default ${DEFAULT_LOCK_SECONDS})
  --step-timeout S     a game step or render that does not return within S seconds is a hang: the
                       level is reported as "hang" (default 10)
  --max-memory GB      memory budget of each job; worker threads get an equal share of it as heap,
                       and a game that allocates past it is "out of memory" (default: 80% of what
                       is free when the job starts)
  --python PATH        the Python interpreter of real ARC games on this machine (default python3,
                       or ARCGRAPH_PYTHON)
  --json               at the end, print what this worker did as one JSON object
Stopping: Ctrl-C or SIGTERM lets the active jobs finish and takes no more; a second one stops
them and puts them back in the queue at once; a third quits. Exit 130 when stopped, 2 for bad
input (an unreachable Redis included).`;

function line(event: WorkerEvent): string | null {
  const name = (job: { game: string; level: number | null; stage: string }): string => `${job.game} ${job.level === null ? '' : `level ${job.level} `}${job.stage}`;
  switch (event.kind) {
    case 'ready':
      return `worker ${event.worker}: waiting for jobs`;
    case 'started':
      return `${name(event.job)}: started${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`;
    case 'done':
      return `${name(event.job)}: done in ${event.seconds.toFixed(1)} s`;
    case 'failed':
      return `${name(event.job)}: failed: ${event.message}${event.final ? '' : ' (to be retried)'}`;
    case 'returned':
      return `${name(event.job)}: stopped and put back in the queue`;
    case 'taken-back':
      return `${name(event.job)}: taken back (this worker was frozen past its lock: the job went back to the queue, for another worker): result discarded`;
    case 'warning':
      return `warning: ${event.message}`;
  }
}

const command: Command = {
  summary: 'run the jobs of a sweep given to a Redis queue (sweep --queue), on this machine',
  async run(argv) {
    const p = parse(argv, {
      queue: { type: 'string' },
      workers: { type: 'string' },
      concurrency: { type: 'string' },
      out: { type: 'string' },
      'lock-seconds': { type: 'string' },
      'max-memory': { type: 'string' },
      ...STEP_OPTION,
      python: { type: 'string' },
      json: { type: 'boolean' },
    }, 'worker');
    if (p.help) {
      console.log(USAGE);
      return 0;
    }
    if (p.positionals.length > 0) throw new InputError(`unexpected argument '${p.positionals[0]}'`);
    const v = p.values;
    if (typeof v.queue !== 'string') throw new InputError('--queue redis://HOST:PORT is required (see arcgraph worker --help)');
    const target = parseRedisUrl(v.queue, process.env);
    const workers = workersOption(v, 'worker') ?? defaultWorkers();
    const concurrency = numberOption(v, 'concurrency', { min: 1, max: 64 }) ?? 1;
    const lockSeconds = numberOption(v, 'lock-seconds', { min: 1, max: 3600, real: true }) ?? DEFAULT_LOCK_SECONDS;
    const out = outputDirOption(v, 'out');
    const stepSeconds = stepTimeoutOption(v);
    const maxMemory = numberOption(v, 'max-memory', { min: 0.001, real: true });
    await probe(target);

    const json = v.json === true;
    const say = json ? (text: string) => console.error(text) : (text: string) => console.log(text);
    const running = startWorker({
      target,
      workers,
      concurrency,
      out,
      lockSeconds,
      stepSeconds,
      maxMemory,
      ...(typeof v.python === 'string' && { python: { python: v.python } }),
      onEvent: (event) => {
        const text = line(event);
        if (text) (event.kind === 'warning' ? console.error : say)(event.kind === 'warning' ? `arcgraph worker: ${text}` : text);
      },
    });
    let returning = false;
    const stop = interruption(
      (signal) => say(`${signal}: finishing the active job${concurrency > 1 ? 's' : ''}, taking no more (again to put ${concurrency > 1 ? 'them' : 'it'} back in the queue)`),
      (signal) => {
        returning = true;
        say(`${signal}: putting the active job${concurrency > 1 ? 's' : ''} back in the queue (again to quit at once)`);
        void running.stop('return');
      },
    );
    try {
      await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
      const summary = await running.stop(returning ? 'return' : 'finish');
      say(`worker ${summary.worker}: ${summary.done} jobs done, ${summary.failed} failed, ${summary.returned} put back${summary.takenBack > 0 ? `, ${summary.takenBack} taken back` : ''}`);
      if (json) console.log(JSON.stringify({ ...summary, interrupted: true }));
      return INTERRUPTED;
    } finally {
      stop.dispose();
    }
  },
};

export default command;
