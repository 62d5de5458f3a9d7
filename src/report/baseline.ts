/** Comparison with an earlier run (--baseline, or the previous night in the history): what each level was, and what got worse. */
import { readFile } from 'node:fs/promises';
import { parseReport, type GameReport, type LevelReport, type PreviousLevel, type Regression, type SweepReport } from './schema.js';
import { formatApart } from './summary.js';

export async function readBaseline(path: string): Promise<SweepReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the baseline ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseReport(text, `baseline ${path}`);
}

export function baselineGame(baseline: SweepReport | null, game: string): GameReport | undefined {
  return baseline?.games.find((g) => g.game === game);
}

/** What the level was in the baseline report (started at `startedAt`); null when the baseline does not have it. */
export function previousLevel(before: GameReport | undefined, level: number, startedAt: string): PreviousLevel | null {
  const old = before?.levels.find((l) => l.level === level);
  if (!old) return null;
  return {
    source: 'baseline',
    startedAt,
    outcome: old.outcome,
    states: old.explore?.nodes ?? null,
    startHash: old.startHash,
    gameHash: before?.contentHash ?? null,
    shortestWin: old.analysis?.shortestWin?.length ?? null,
    pWin: old.analysis ? { lower: old.analysis.pWin.lower, upper: old.analysis.pWin.upper } : null,
    crashed: old.crash !== null,
  };
}

/**
 * A level regresses when it newly crashes, newly fails, its random-win probability certainly rose
 * (the new lower bound is above the old upper bound), or its shortest solution got longer or was
 * lost. Levels new since the baseline count as regressions only when they crash or fail.
 */
function levelRegressions(game: string, level: LevelReport, contentHash: string | null): Regression[] {
  const prev = level.previous;
  const at = { game, level: level.level };
  const found: Regression[] = [];
  if (level.crash && !prev?.crashed) found.push({ ...at, kind: 'new-crash', message: `${game} level ${level.level} now ${level.crash.kind === 'hang' ? 'hangs' : level.crash.kind === 'out-of-memory' ? 'runs out of memory' : 'crashes'}: ${level.crash.reason}` });
  else if (level.outcome === 'fail' && prev?.outcome !== 'fail') {
    found.push({ ...at, kind: 'new-failure', message: `${game} level ${level.level} now fails (${prev ? `was ${prev.outcome}` : 'not in the baseline'}): ${level.reasons.join('; ')}` });
  }
  if (!prev || !level.analysis) return found;
  const now = level.analysis;
  if (prev.pWin && now.pWin.lower > prev.pWin.upper) {
    const [was, is] = formatApart(prev.pWin.upper, now.pWin.lower);
    found.push({ ...at, kind: 'pwin-rose', message: `${game} level ${level.level}: random-win probability rose from <= ${was} to >= ${is}` });
  }
  if (prev.shortestWin !== null) {
    const length = now.shortestWin?.length ?? null;
    if (length === null) {
      if (!budgetShort(level, contentHash)) found.push({ ...at, kind: 'solution-lost', message: `${game} level ${level.level}: no solution found any more (was ${prev.shortestWin} actions)` });
    } else if (length > prev.shortestWin) found.push({ ...at, kind: 'solution-longer', message: `${game} level ${level.level}: shortest solution got longer, ${prev.shortestWin} -> ${length} actions` });
  }
  return found;
}

/**
 * A solution not found again only because this night's search stopped short of it: the graph is
 * partial, stopped by its time (a loaded machine explores fewer states) or memory budget, the
 * search did not get past the depth of the earlier shortest solution, and neither the level (its
 * start hash) nor the game (its content hash, where both runs have one) changed. That is the
 * budget's doing, not the game's: a note, not a regression. A complete graph without the win, or a
 * changed level, is still a regression.
 */
function budgetShort(level: LevelReport, contentHash: string | null): boolean {
  const prev = level.previous;
  const explore = level.explore;
  if (!prev || prev.shortestWin === null || !explore || explore.fullyExplored) return false;
  // the budgets a machine's load or free memory decides; a node, edge or step limit gives the same graph every night
  if (explore.stopReason !== 'max-seconds' && explore.stopReason !== 'max-memory') return false;
  if (explore.maxDepth > prev.shortestWin) return false;
  if (prev.startHash === null || prev.startHash !== level.startHash) return false;
  if (prev.gameHash != null && contentHash !== null && prev.gameHash !== contentHash) return false;
  return true;
}

/** The notes of solutions not found again within the budget (see budgetShort), one line each: shown as the game's warnings, not regressions. */
export function budgetNotes(game: GameReport, before: PreviousGame | undefined): string[] {
  if (!before) return [];
  return game.levels.flatMap((level) => {
    if (level.analysis?.shortestWin || !budgetShort(level, game.contentHash)) return [];
    const prev = level.previous!;
    const states = prev.states === null ? '' : ` (${prev.states} before)`;
    return [`budget: ${game.game} level ${level.level}: the solution of ${prev.shortestWin} actions was not found again, the search stopped by its budget (${level.explore!.stopReason}) at depth ${level.explore!.maxDepth} with ${level.explore!.nodes} states${states}; the level is unchanged, so this is not a regression: give it a larger budget`];
  });
}

/** What a whole game was in the run compared with: whether an error stopped it, whether its qualification passed (null: it did not run). */
export interface PreviousGame {
  error: boolean;
  qualificationPassed: boolean | null;
}

export const previousGame = (before: GameReport): PreviousGame => ({ error: before.error !== null, qualificationPassed: before.qualification?.passed ?? null });

/** The regressions of one finished game against the run compared with (none for a game that run lacks). */
export function gameRegressions(game: GameReport, before: PreviousGame | undefined): Regression[] {
  if (!before) return [];
  const found: Regression[] = [];
  if (game.error !== null && !before.error) found.push({ game: game.game, level: null, kind: 'new-failure', message: `${game.game} now stops with an error: ${game.error}` });
  if (game.qualification && !game.qualification.passed && before.qualificationPassed !== false) {
    found.push({ game: game.game, level: null, kind: 'new-failure', message: `${game.game}: qualification now fails` });
  }
  for (const level of game.levels) found.push(...levelRegressions(game.game, level, game.contentHash));
  return found;
}
