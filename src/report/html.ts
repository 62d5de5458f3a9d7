/**
 * report.html: one self-contained page (inline CSS and SVG, no script, no external URL) with the
 * summary tables in verdict colours and, per level, its start frame and its state graph (or, for
 * big levels, its depth histogram).
 */
import { headline, settingsLine } from './markdown.js';
import type { GameReport, LevelReport, SweepReport } from './schema.js';
import { SUMMARY_HEADERS, summaryRows } from './summary.js';
import { escapeXml as esc, histogramSvg, legendSvg } from './svg.js';

/** Pictures made while the graph was in memory, as SVG text, by `pictureKey`. */
export interface LevelPictures {
  frame: string | null;
  graph: string | null;
}
export type Pictures = ReadonlyMap<string, LevelPictures>;
export const pictureKey = (game: string, level: number): string => `${game}#${level}`;

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #333333; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 32px; }
.banner { padding: 8px 12px; border-radius: 4px; font-weight: bold; display: inline-block; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #CCCCCC; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #EEEEEE; }
.pass { background: #DDF5D6; } .fail { background: #FDDCDA; } .inconclusive { background: #FFF4BF; }
.exempt { background: #EEEEEE; color: #666666; } .crash { background: #921231; color: #FFFFFF; } .none { color: #999999; }
.badge { padding: 1px 6px; border-radius: 3px; font-size: 12px; }
tr.regression td:last-child, .regressions li { color: #921231; font-weight: bold; }
.regressions { border: 2px solid #F93C31; padding: 4px 16px; }
.levels { display: flex; flex-wrap: wrap; gap: 16px; }
figure.level { margin: 0; border: 1px solid #CCCCCC; padding: 8px; }
figure.level p { max-width: 560px; }
figure.level .pictures { display: flex; gap: 8px; align-items: flex-start; }
figcaption { font-weight: bold; margin-bottom: 4px; }
.frame { border: 1px solid #999999; }
code { font-size: 12px; }
`;

const QUALIFICATION_CLASS = { pass: 'pass', fail: 'fail', warn: 'inconclusive', skipped: 'none' } as const;

function table(game: GameReport, r: SweepReport): string {
  const head = `<thead><tr>${SUMMARY_HEADERS.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead>`;
  const verdictColumn = SUMMARY_HEADERS.indexOf('Verdict');
  const qualificationColumn = SUMMARY_HEADERS.indexOf('Qualification');
  const rows = summaryRows(game, r.regressions).map((row) => {
    const cells = row.cells.map((text, i) => {
      const cls = i === verdictColumn ? row.verdictClass : i === qualificationColumn ? QUALIFICATION_CLASS[row.qualification ?? 'skipped'] : i === row.cells.length - 1 ? row.outcome : '';
      return `<td${cls ? ` class="${cls}"` : ''}>${esc(text)}</td>`;
    });
    return `<tr class="level-row${row.regressions.length > 0 ? ' regression' : ''}">${cells.join('')}</tr>`;
  });
  return `<table class="summary">${head}<tbody>${rows.join('')}</tbody></table>`;
}

function levelFigure(game: GameReport, level: LevelReport, pictures: Pictures): string {
  const p = pictures.get(pictureKey(game.game, level.level));
  const e = level.explore;
  const parts: string[] = [];
  if (p?.frame) parts.push(p.frame);
  if (p?.graph) parts.push(p.graph);
  else if (e) parts.push(histogramSvg(e.depthHistogram, `${game.game} level ${level.level}: states per depth`));
  const what = p?.graph ? 'state graph' : e ? 'states per depth (too many states to draw the graph)' : 'no graph';
  const cycles = e ? `, ${e.cycles.nonTrivial} cycles (largest ${e.cycles.largest}), ${e.cycles.selfLoops} self-loops` : '';
  return (
    `<figure class="level"><figcaption>Level ${level.level}: <span class="badge ${level.outcome}">${level.outcome}</span> ${esc(what)}${esc(cycles)}</figcaption>` +
    `<div class="pictures">${parts.join('')}</div>${level.reasons.length > 0 ? `<p>${esc(level.reasons.join('; '))}</p>` : ''}</figure>`
  );
}

function gameSection(game: GameReport, r: SweepReport, pictures: Pictures): string {
  const out = [`<section class="game" id="game-${esc(game.game)}">`, `<h2>${esc(game.game)}: ${esc(game.title)} <span class="badge ${game.outcome}">${game.outcome.toUpperCase()}</span></h2>`];
  out.push(`<p>Source <code>${esc(game.source)}</code>, ${game.levelCount} level${game.levelCount === 1 ? '' : 's'} (${game.tutorialLevels} tutorial), ${game.seconds.toFixed(1)} s.</p>`);
  if (game.error) out.push(`<p class="fail">Error: ${esc(game.error)}</p>`);
  if (game.levels.length > 0) out.push(table(game, r));
  for (const level of game.levels.filter((l) => l.crash)) {
    out.push(`<p class="crash">Level ${level.level} crash: ${esc(level.crash!.reason)}. Reproduce from the reset state: <code>${esc(level.crash!.actions.join(' ') || '(no actions)')}</code></p>`);
  }
  const q = game.qualification;
  if (q) {
    out.push(`<p>Qualification <span class="badge ${q.passed ? 'pass' : 'fail'}">${q.passed ? 'passed' : 'failed'}</span> (seed ${q.seed}, steps scale ${q.stepsScale}, ${q.seconds.toFixed(1)} s)</p>`);
    if (q.findings.length > 0) {
      out.push(`<ul class="findings">${q.findings.map((f) => `<li class="${f.severity === 'warn' ? 'inconclusive' : 'fail'}">${esc(`${f.severity.toUpperCase()} ${f.regime} / ${f.check}, level ${f.level}: ${f.message}`)}${f.reproduction ? ` <code>${esc(f.reproduction)}</code>` : ''}</li>`).join('')}</ul>`);
    }
  }
  out.push(`<div class="levels">${game.levels.map((l) => levelFigure(game, l, pictures)).join('')}</div>`, '</section>');
  return out.join('\n');
}

export function renderHtml(r: SweepReport, pictures: Pictures): string {
  const state = r.status === 'complete' ? (r.passed ? 'pass' : 'fail') : r.passed ? 'inconclusive' : 'fail';
  const body = [
    `<h1>arcgraph sweep ${esc(r.startedAt)}</h1>`,
    `<p class="banner ${state}">${esc(headline(r))}</p>`,
    `<p>${esc(settingsLine(r))}</p>`,
  ];
  if (r.regressions.length > 0) {
    body.push(`<div class="regressions"><h2>Regressions against ${esc(r.baseline?.path ?? 'the baseline')}</h2><ul>${r.regressions.map((g) => `<li>${esc(`${g.kind}: ${g.message}`)}</li>`).join('')}</ul></div>`);
  }
  body.push(`<p class="legend-box">Graph pictures: ${legendSvg()}</p>`);
  for (const game of r.games) body.push(gameSection(game, r, pictures));
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>arcgraph sweep ${esc(r.startedAt)}</title><style>${STYLE}</style></head>\n<body>\n${body.join('\n')}\n</body></html>\n`;
}
