/** Parts several pages of the report site share: the summary table, the findings list, links to levels. */
import { posix } from 'node:path';
import { linkFrom, replayCommand, SITE } from '../paths.js';
import type { GameReport, LevelReport, SweepReport } from '../schema.js';
import { faultName, SUMMARY_HEADERS, summaryRows } from '../summary.js';
import { esc } from './html.js';

const QUALIFICATION_CLASS: Record<string, string> = { pass: 'pass', fail: 'fail', warn: 'warn', skipped: 'skipped', interrupted: 'skipped' };

export const levelLink = (from: string, game: string, level: number, text: string): string => `<a href="${esc(linkFrom(from, SITE.levelPage(game, level)))}">${esc(text)}</a>`;
export const gameLink = (from: string, game: string, text = game): string => `<a href="${esc(linkFrom(from, SITE.gamePage(game)))}">${esc(text)}</a>`;

/** How bad a level's news is, for putting findings first: regression, crash, fail, inconclusive, pass. */
export function severity(r: SweepReport, game: GameReport, level: LevelReport): number {
  if (r.regressions.some((g) => g.game === game.game && g.level === level.level)) return 0;
  if (level.crash) return 1;
  return { hang: 1, fail: 2, inconclusive: 3, pass: 4 }[level.outcome];
}

/**
 * The summary table: one row per level, the level numbers linking to their pages; with `withGame`
 * a first column names the game (the index's table of every level).
 */
export function summaryTable(from: string, r: SweepReport, rows: { game: GameReport; level: LevelReport }[], withGame: boolean): string {
  const heads = [...(withGame ? ['Game'] : []), ...SUMMARY_HEADERS];
  const verdictCol = SUMMARY_HEADERS.indexOf('Verdict');
  const qualCol = SUMMARY_HEADERS.indexOf('Qualification');
  const numeric = new Set([SUMMARY_HEADERS.indexOf('States'), SUMMARY_HEADERS.indexOf('Dead ends')]);
  const body = rows.map(({ game, level }) => {
    const row = summaryRows({ ...game, levels: [level] }, r.regressions)[0];
    const cells = row.cells.map((text, i) => {
      const cls = i === verdictCol ? row.verdictClass : i === qualCol ? QUALIFICATION_CLASS[row.qualification ?? 'skipped'] : i === row.cells.length - 1 ? row.outcome : numeric.has(i) ? 'num' : '';
      const content = i === 0 ? levelLink(from, game.game, level.level, text) : esc(text);
      return `<td${cls ? ` class="${cls}"` : ''}>${content}</td>`;
    });
    if (withGame) cells.unshift(`<td>${gameLink(from, game.game)}</td>`);
    return `<tr class="level-row${row.regressions.length > 0 ? ' regression' : ''}" data-game="${esc(game.game)}" data-level="${level.level}">${cells.join('')}</tr>`;
  });
  return `<table class="summary"><thead><tr>${heads.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${body.join('')}</tbody></table>`;
}

/** A reproduction: a link to the saved recording (relative, when it lies in the report folder) and the exact replay command. */
export function reproduction(from: string, out: string, path: string, source: string): string {
  const inside = posix.relative(out.split('\\').join('/'), path.split('\\').join('/'));
  const link = inside.startsWith('..') || posix.isAbsolute(inside) ? `<code>${esc(path)}</code>` : `<a href="${esc(linkFrom(from, inside))}">${esc(posix.basename(path))}</a>`;
  return `${link} <code class="replay">${esc(replayCommand(path, source))}</code>`;
}

/**
 * Everything that needs a look, worst first: regressions, crashes, failed and inconclusive levels
 * with their reasons, game errors, qualification findings (with their reproductions).
 */
export function findingsList(from: string, out: string, r: SweepReport, games: readonly GameReport[]): string {
  const items: string[] = [];
  const ids = new Set(games.map((g) => g.game));
  for (const reg of r.regressions.filter((g) => ids.has(g.game))) {
    const where = reg.level === null ? gameLink(from, reg.game) : levelLink(from, reg.game, reg.level, `${reg.game} level ${reg.level}`);
    items.push(`<li class="regression-text">▲ REGRESSION ${esc(reg.kind)} (${where}): ${esc(reg.message)}</li>`);
  }
  const levels = games.flatMap((game) => game.levels.map((level) => ({ game, level })));
  levels.sort((a, b) => severity(r, a.game, a.level) - severity(r, b.game, b.level));
  for (const { game, level } of levels) {
    if (level.outcome === 'pass' && !level.crash) continue;
    const what = level.crash ? faultName(level.crash.kind).toUpperCase() : level.outcome.toUpperCase();
    items.push(`<li><span class="badge ${level.crash ? 'crash' : level.outcome}">${what}</span> ${levelLink(from, game.game, level.level, `${game.game} level ${level.level}`)}: ${esc(level.reasons.join('; '))}</li>`);
  }
  for (const game of games) {
    if (game.error) items.push(`<li><span class="badge fail">ERROR</span> ${gameLink(from, game.game)}: ${esc(game.error)}</li>`);
    for (const w of game.warnings) items.push(`<li><span class="badge warn">WARNING</span> ${gameLink(from, game.game)}: ${esc(w)}</li>`);
    for (const f of game.qualification?.findings ?? []) {
      const repro = f.reproduction ? ` ${reproduction(from, out, f.reproduction, game.source)}` : '';
      items.push(`<li><span class="badge ${f.severity}">${f.severity.toUpperCase()}</span> ${levelLink(from, game.game, f.level, `${game.game} level ${f.level}`)} ${esc(`${f.regime} / ${f.check}: ${f.message}`)}${repro}</li>`);
    }
  }
  return items.length === 0 ? '<p class="quiet">No findings: every level passed.</p>' : `<ul class="findings">${items.join('')}</ul>`;
}
