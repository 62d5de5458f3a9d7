/** index.html: the headline, what needs a look (findings first), and every game and level in one table. */
import { headline, settingsLine } from '../markdown.js';
import { SITE } from '../paths.js';
import type { SweepReport } from '../schema.js';
import { findingsList, gameLink, severity, summaryTable } from './common.js';
import { esc, page } from './html.js';

export function historyLine(r: SweepReport): string {
  const h = r.history;
  if (!h) return r.baseline ? `Compared with the baseline ${r.baseline.path} (${r.baseline.startedAt}).` : 'No history kept (--no-history).';
  if (h.warning) return `History: ${h.warning}`;
  const against = r.baseline ? `; levels compared with the baseline ${r.baseline.path}` : h.previousRun ? `; levels compared with the previous run, ${h.previousRun}` : '';
  return `History ${h.path}: ${h.earlierRuns} earlier run${h.earlierRuns === 1 ? '' : 's'}${against}.`;
}

export function indexPage(r: SweepReport, out: string): string {
  const from = SITE.index;
  const state = r.status === 'complete' ? (r.passed ? 'pass' : 'fail') : r.passed ? 'inconclusive' : 'fail';
  const rows = r.games.flatMap((game) => game.levels.map((level) => ({ game, level })));
  // findings first: the worst levels on top, the sweep's order among equals
  const order = rows.map((row, i) => ({ row, i, s: severity(r, row.game, row.level) })).sort((a, b) => a.s - b.s || a.i - b.i).map((x) => x.row);
  const body = [
    `<h1>arcgraph sweep ${esc(r.startedAt)}</h1>`,
    `<p class="banner ${state}">${esc(headline(r))}</p>`,
    `<p class="quiet">${esc(settingsLine(r))} arcgraph ${esc(r.tool.version)}.</p>`,
    `<p class="quiet ${r.history?.warning ? 'warn' : ''}">${esc(historyLine(r))}</p>`,
    `<h2>Findings</h2>`,
    findingsList(from, out, r, r.games),
    `<h2>Every level</h2>`,
    `<p class="quiet">Levels with findings first. Games: ${r.games.map((g) => `${gameLink(from, g.game, `${g.game} (${g.title})`)} <span class="badge ${g.outcome}">${g.outcome}</span>`).join(', ')}.</p>`,
    summaryTable(from, r, order, true),
    `<p class="quiet">Also as <a href="report.md">report.md</a> and <a href="report.json">report.json</a>.</p>`,
  ];
  return page({ page: from, title: `arcgraph sweep ${r.startedAt}`, crumbs: [['Summary', null]], body: body.join('\n') });
}
