/**
 * Where the workers' time went during a search: expanding batches (by their own clocks), or idle,
 * and then what held the next batch back. What an engineer with many cores needs to tell a
 * coordinator that cannot keep up from a frontier that is too narrow or a merge order that waits.
 */

/**
 * Why a worker had no batch, as the coordinator saw it: nothing to hand out (or nothing worth it
 * before a limit) and no result waiting (`frontier`: a narrow layer, or the oldest batch still
 * running alone), nothing to hand out while
 * later results wait for an older one (`order`: states are handed out only once merged, in order),
 * states to hand out but as many batches unmerged as allowed (`window`), or the fingerprint table
 * rebuilding (`growth`).
 */
export type IdleReason = 'frontier' | 'order' | 'window' | 'growth';

export interface ScheduleStats {
  /** Share of the workers' time (workers x search seconds) spent in their batches, by their own clocks (null where they do not say: a Python game, a game on this thread). */
  busy: number | null;
  /** Shares of the workers' time with a worker idle while the coordinator waited, by reason. */
  idle: Record<IdleReason, number>;
  /**
   * The rest (1 - busy - idle): workers idle while the coordinator was busy (merging, handing out)
   * or a message was on its way; high when one coordinator cannot keep up with the workers.
   */
  coordinator: number | null;
  /** Batches merged, and the states they carried on average: small batches cost the coordinator their fixed cost more often. */
  batches: number;
  statesPerBatch: number;
}

/** Accumulates idle worker time between the coordinator's marks, and the workers' own busy time. */
export class ScheduleClock {
  private readonly started: number;
  private last: number;
  private idleWorkers = 0;
  private reason: IdleReason = 'frontier';
  private readonly idleMs: Record<IdleReason, number> = { frontier: 0, order: 0, window: 0, growth: 0 };
  private busyMs = 0;
  private batches = 0;
  private batchStates = 0;
  private timed = 0;
  /** When the search ended (the first `stop`). */
  private ended: number | undefined;

  constructor(
    private readonly workers: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = this.last = now();
  }

  /** From now on `idleWorkers` workers have no batch, for `reason` (until the next mark). */
  mark(idleWorkers: number, reason: IdleReason): void {
    const now = this.now();
    if (this.idleWorkers > 0) this.idleMs[this.reason] += this.idleWorkers * (now - this.last);
    this.last = now;
    this.idleWorkers = idleWorkers;
    this.reason = reason;
  }

  /** A batch of `states` came back; `kernelMs` is how long its worker spent on it, where it says. */
  batch(states: number, kernelMs: number | undefined): void {
    this.batches++;
    this.batchStates += states;
    if (kernelMs === undefined) return;
    this.timed++;
    this.busyMs += kernelMs;
  }

  /** The search ends now (later calls change nothing): the shares cover it up to here. */
  stop(): void {
    if (this.ended !== undefined) return;
    this.mark(0, this.reason);
    this.ended = this.last;
  }

  /** The shares of the search (it ends now if it has not yet). */
  stats(): ScheduleStats {
    this.stop();
    const total = Math.max(1e-9, this.workers * (this.ended! - this.started));
    const idle = { frontier: 0, order: 0, window: 0, growth: 0 };
    for (const r of Object.keys(idle) as IdleReason[]) idle[r] = this.idleMs[r] / total;
    const busy = this.batches > 0 && this.timed === this.batches ? Math.min(1, this.busyMs / total) : null;
    const idleSum = idle.frontier + idle.order + idle.window + idle.growth;
    const coordinator = busy === null ? null : Math.max(0, 1 - busy - idleSum);
    return { busy, idle, coordinator, batches: this.batches, statesPerBatch: this.batchStates / Math.max(1, this.batches) };
  }
}

const IDLE_NAMES: Record<IdleReason, string> = { frontier: 'frontier', order: 'merge order', window: 'window full', growth: 'table growth' };
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** One line for people: "workers 92.6% busy; idle 7.1% coordinator, 0.6% merge order; 221 batches of 3,713 states" (shares under 0.05% left out). */
export function describeSchedule(s: ScheduleStats): string {
  const parts: [string, number][] = (Object.keys(s.idle) as IdleReason[]).map((r) => [IDLE_NAMES[r], s.idle[r]]);
  if (s.coordinator !== null) parts.push(['coordinator', s.coordinator]);
  const idle = parts.filter(([, x]) => x >= 0.0005).sort((a, b) => b[1] - a[1]);
  const busy = s.busy === null ? 'workers busy: not reported' : `workers ${pct(s.busy)} busy`;
  const size = Math.round(s.statesPerBatch);
  const batches = `${s.batches.toLocaleString('en-US')} batch${s.batches === 1 ? '' : 'es'} of ${size.toLocaleString('en-US')} state${size === 1 ? '' : 's'}`;
  return `${busy}; idle ${idle.length > 0 ? idle.map(([name, x]) => `${pct(x)} ${name}`).join(', ') : 'never'}; ${batches}`;
}
