/**
 * The night's plan as a BullMQ flow: the night's collector over one collector per game, each over
 * the game's last jobs, every job over the one it waits on (`after`). Children finish before
 * their parents run, so a game's collector runs once all its jobs have finished, and the night's
 * once every game is collected. Work jobs keep the plan's deterministic ids: a job already done
 * (this night run before) is not run again, its result is reused.
 */
import type { FlowJob, JobsOptions } from 'bullmq';
import type { PlannedGame, PlannedJob, SweepPlan } from '../sweep/index.js';
import { collectQueue, PREFIX, WORK_QUEUE } from './connection.js';

/** How long finished work jobs (their results, and their folders under the shared folder) are kept: a week. */
export const KEEP_SECONDS = 7 * 24 * 3600;
/** Attempts of a work job that fails (not a game fault, which is a finding): the first and two retries. */
export const ATTEMPTS = 3;
/** The first retry waits this long, each next one twice as long. */
export const BACKOFF_MS = 5000;

/** What a work job carries: the planned job, and the shared folder (as the producer sees it) for its large outputs. */
export interface WorkData {
  job: PlannedJob;
  shared: string;
}

/** What a collector job carries. */
export interface CollectData {
  /** The game's id; absent for the night's collector. */
  game?: string;
}

export const GAME_COLLECTOR = 'game';
export const NIGHT_COLLECTOR = 'night';
export const gameCollectorId = (game: string): string => `game.${game}`;

const workOptions = (id: string): JobsOptions => ({
  jobId: id,
  attempts: ATTEMPTS,
  backoff: { type: 'exponential', delay: BACKOFF_MS },
  removeOnComplete: { age: KEEP_SECONDS },
  removeOnFail: { age: KEEP_SECONDS },
  // a failed job lets its parent run (which reports the failure) instead of holding the night forever
  ignoreDependencyOnFailure: true,
});

function workNode(planned: PlannedGame, job: PlannedJob, shared: string): FlowJob {
  const after = job.after === null ? undefined : planned.jobs.find((j) => j.id === job.after)!;
  const data: WorkData = { job, shared };
  return { name: job.stage, queueName: WORK_QUEUE, prefix: PREFIX, data, opts: workOptions(job.id), children: after ? [workNode(planned, after, shared)] : undefined };
}

/** The flow of a night: its root is the night's collector. `shared` is the folder work jobs write their large outputs under. */
export function nightFlow(plan: SweepPlan, shared: string): FlowJob {
  const queueName = collectQueue(plan.key);
  const collector = { removeOnComplete: true, removeOnFail: true, ignoreDependencyOnFailure: true } satisfies JobsOptions;
  return {
    name: NIGHT_COLLECTOR,
    queueName,
    prefix: PREFIX,
    data: {} satisfies CollectData,
    opts: { jobId: NIGHT_COLLECTOR, ...collector },
    children: plan.games.map((g) => ({
      name: GAME_COLLECTOR,
      queueName,
      prefix: PREFIX,
      data: { game: g.game } satisfies CollectData,
      opts: { jobId: gameCollectorId(g.game), ...collector },
      children: g.last.map((id) => workNode(g, g.jobs.find((j) => j.id === id)!, shared)),
    })),
  };
}
