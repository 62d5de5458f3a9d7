/**
 * A night's report as its games come in: each finished game is placed in plan order, compared
 * with the previous night (or the baseline) and published at once; the night is recorded in the
 * history when the last game is in, or when it is cut short. Local sweeps and the queue's producer
 * publish through it alike.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { budgetNotes, clearEarlierReport, gameRegressions, SCHEMA_VERSION, type GameReport, type PreviousLevel, type SweepReport } from '../report/index.js';
import { PACKAGE_ROOT } from '../suite/index.js';
import { makeDir } from '../files.js';
import type { SweepPlan } from './plan.js';
import { Publisher, type PublishOptions } from './publish.js';

/** The version of arcgraph that wrote a report. */
export const VERSION: string = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version;

export interface NightOptions extends PublishOptions {
  /** The report folder (created if needed). */
  out: string;
  /** The games as given to the sweep. */
  refs: readonly string[];
  plan: SweepPlan;
  /** Threads per job; null when queue workers choose their own. */
  workers: number | null;
  /** The Redis URL the jobs go through (no password); null for a local sweep. */
  queue: string | null;
}

function summarise(report: SweepReport): void {
  const levels = report.games.flatMap((g) => g.levels);
  report.summary = {
    games: report.games.length,
    levels: levels.length,
    pass: levels.filter((l) => l.outcome === 'pass').length,
    fail: levels.filter((l) => l.outcome === 'fail').length,
    inconclusive: levels.filter((l) => l.outcome === 'inconclusive').length,
    hangs: levels.filter((l) => l.outcome === 'hang').length,
    // a hang is counted once, as a hang
    crashes: levels.filter((l) => l.crash !== null && l.crash.kind !== 'hang').length,
    regressions: report.regressions.length,
  };
  report.passed = report.games.every((g) => g.outcome !== 'fail');
}

export class Night {
  readonly report: SweepReport;
  private readonly publisher: Publisher;
  private readonly started = performance.now();
  private readonly order: string[];
  private done = false;

  constructor(private readonly options: NightOptions) {
    const startedAt = new Date().toISOString();
    // the report folder first: the history beside it is then in a folder that exists
    makeDir(options.out);
    // the games are loaded by now: bad input never costs the earlier report
    clearEarlierReport(options.out);
    this.publisher = new Publisher(options.out, startedAt, options);
    const { settings } = options.plan;
    this.order = options.plan.games.map((g) => g.game);
    this.report = {
      schemaVersion: SCHEMA_VERSION,
      tool: { name: 'arcgraph', version: VERSION },
      startedAt,
      updatedAt: startedAt,
      seconds: 0,
      status: 'running',
      settings: {
        games: [...options.refs],
        budget: settings.budget,
        workers: options.workers,
        policy: settings.policy,
        unoffered: settings.python?.unoffered ?? 'stay',
        threshold: settings.threshold,
        seed: settings.seed,
        queue: options.queue,
      },
      baseline: options.baseline ? { path: options.baseline.path, startedAt: options.baseline.report.startedAt } : null,
      history: this.publisher.info,
      games: [],
      regressions: [],
      summary: { games: 0, levels: 0, pass: 0, fail: 0, inconclusive: 0, hangs: 0, crashes: 0, regressions: 0 },
      passed: true,
    };
  }

  /** What a level was in the run it is compared with. */
  previousLevel = (game: string, level: number): PreviousLevel | null => this.publisher.previousLevel(game, level);

  get complete(): boolean {
    return this.report.games.length === this.order.length;
  }

  private async save(status: SweepReport['status'], last: boolean): Promise<void> {
    const { report } = this;
    report.status = status;
    report.updatedAt = new Date().toISOString();
    report.seconds = (performance.now() - this.started) / 1000;
    summarise(report);
    // the night goes into the history once, at its end (an interrupted one with the games it finished)
    await (last ? this.publisher.record(report) : this.publisher.write(report));
  }

  /** Adds a finished game (in plan order among those in) and publishes; the last one completes the night. */
  async addGame(game: GameReport): Promise<void> {
    const { report } = this;
    const rank = (id: string): number => this.order.indexOf(id);
    const at = report.games.findIndex((g) => rank(g.game) > rank(game.game));
    report.games.splice(at < 0 ? report.games.length : at, 0, game);
    const before = this.publisher.previousGame(game.game);
    report.regressions.push(...gameRegressions(game, before));
    // a solution lost only to the search's budget on an unchanged level: a note, not a regression
    game.warnings.push(...budgetNotes(game, before));
    report.regressions.sort((a, b) => rank(a.game) - rank(b.game));
    this.done = this.complete;
    await this.save(this.done ? 'complete' : 'running', this.done);
  }

  /** Ends the night: an unfinished one is recorded as interrupted with the games it has. */
  async close(): Promise<SweepReport> {
    try {
      if (!this.done) await this.save('interrupted', true);
    } finally {
      this.publisher.close();
    }
    return this.report;
  }
}
