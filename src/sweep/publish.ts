/**
 * The sweep's output side, apart from computing the levels: what each level is compared with (the
 * --baseline report, else the previous night in the history), the reports and site written from
 * the report and the level artefacts on disk, and the night recorded in the history. Whatever goes
 * wrong with the history costs the history only: one warning, and the reports are written anyway.
 */
import { History, HistoryError } from '../history/index.js';
import { baselineGame, previousGame, previousLevel, trendKey, trendPoint, writeReports } from '../report/index.js';
import type { HistoryInfo, PreviousGame, PreviousLevel, SweepReport, TrendPoint } from '../report/index.js';

/** How many earlier nights a level's trend charts show. */
export const TREND_NIGHTS = 60;

export interface PublishOptions {
  /** The history file; none when absent. */
  history?: string;
  baseline?: { path: string; report: SweepReport };
  /** Told each history problem once, as it happens. */
  onWarning?: (message: string) => void;
}

export class Publisher {
  private history: History | null = null;
  readonly info: HistoryInfo | null = null;

  constructor(
    private readonly out: string,
    private readonly startedAt: string,
    private readonly options: PublishOptions,
  ) {
    if (options.history === undefined) return;
    this.info = { path: options.history, earlierRuns: 0, previousRun: null, warning: null };
    try {
      this.history = History.open(options.history);
      const earlier = this.history.earlier(startedAt);
      this.info.earlierRuns = earlier.runs;
      this.info.previousRun = earlier.previous;
    } catch (err) {
      this.fail(err);
    }
  }

  /** Drops the history for the rest of the sweep with one warning (the first problem is the one reported). */
  private fail(err: unknown): void {
    if (!(err instanceof HistoryError)) throw err;
    this.history?.close();
    this.history = null;
    if (this.info && this.info.warning === null) {
      this.info.warning = `${err.message}; this night is not recorded in the history (the reports are written all the same)`;
      this.options.onWarning?.(this.info.warning);
    }
  }

  private guarded<T>(work: (h: History) => T, otherwise: T): T {
    if (!this.history) return otherwise;
    try {
      return work(this.history);
    } catch (err) {
      this.fail(err);
      return otherwise;
    }
  }

  /** What a level was in the run it is compared with: the baseline's when there is one, else the previous night's. */
  previousLevel(game: string, level: number): PreviousLevel | null {
    const { baseline } = this.options;
    if (baseline) return previousLevel(baselineGame(baseline.report, game), level, baseline.report.startedAt);
    return this.guarded((h) => h.previousLevel(game, level, this.startedAt), null);
  }

  previousGame(game: string): PreviousGame | undefined {
    const { baseline } = this.options;
    if (baseline) {
      const before = baselineGame(baseline.report, game);
      return before && previousGame(before);
    }
    return this.guarded((h) => h.previousGame(game, this.startedAt), undefined);
  }

  /** Each finished level's points over the earlier nights, then tonight's. */
  private trends(report: SweepReport): Map<string, TrendPoint[]> {
    const trends = new Map<string, TrendPoint[]>();
    for (const game of report.games) {
      for (const level of game.levels) {
        const earlier = this.guarded((h) => h.levels({ game: game.game, level: level.level, before: this.startedAt, newestFirst: true, limit: TREND_NIGHTS }).reverse(), []);
        trends.set(trendKey(game.game, level.level), [...earlier, trendPoint(report, game, level)]);
      }
    }
    return trends;
  }

  /** Writes report.json, report.md and the site as the report stands. */
  async write(report: SweepReport): Promise<void> {
    report.history = this.info && { ...this.info };
    await writeReports(this.out, report, this.trends(report));
  }

  /** Records the night in the history (a run recorded before with the same start is replaced), then writes the reports once more. */
  async record(report: SweepReport): Promise<void> {
    this.guarded((h) => h.append(report), undefined);
    await this.write(report);
  }

  close(): void {
    this.history?.close();
    this.history = null;
  }
}
