/** A game's page: its outcome, qualification, findings, the table of its levels and their start frames. */
import { linkFrom, SITE } from '../paths.js';
import type { GameReport, SweepReport } from '../schema.js';
import type { LevelArtefacts } from '../artefacts.js';
import { findingsList, levelLink, summaryTable } from './common.js';
import { esc, page } from './html.js';

export function gamePage(r: SweepReport, game: GameReport, out: string, artefacts: ReadonlyMap<number, LevelArtefacts | null>): string {
  const from = SITE.gamePage(game.game);
  const q = game.qualification;
  const starts = game.levels.map((level) => {
    const a = artefacts.get(level.level);
    const img = a?.start ? `<img class="frame" src="${esc(linkFrom(from, `${SITE.levelDir(game.game, level.level)}/${a.start}`))}" width="128" height="128" alt="${esc(`${game.game} level ${level.level}: start frame`)}">` : '<span class="none">no frame</span>';
    return `<figure>${levelLink(from, game.game, level.level, `Level ${level.level}`)}<a href="${esc(linkFrom(from, SITE.levelPage(game.game, level.level)))}">${img}</a><figcaption><span class="badge ${level.outcome}">${level.outcome}</span></figcaption></figure>`;
  });
  const body = [
    `<h1>${esc(game.game)}: ${esc(game.title)} <span class="badge ${game.outcome}">${game.outcome.toUpperCase()}</span></h1>`,
    `<p>Source <code>${esc(game.source)}</code>, content hash <code>${esc(game.contentHash ?? 'unknown')}</code>; ${game.levelCount} level${game.levelCount === 1 ? '' : 's'} (${game.tutorialLevels} tutorial); ${game.seconds.toFixed(1)} s.</p>`,
    game.error ? `<p class="fail">Error: ${esc(game.error)}</p>` : '',
    ...game.warnings.map((w) => `<p class="fail">Warning: ${esc(w)}</p>`),
    q
      ? `<p>Qualification <span class="badge ${q.passed ? 'pass' : 'fail'}">${q.passed ? 'passed' : 'failed'}</span> (seed ${q.seed}, steps scale ${q.stepsScale}, policy ${q.policy}, ${q.seconds.toFixed(1)} s${q.ranOn ? ` on ${q.ranOn.worker}` : ''}; random ${Math.round(q.speed.random2).toLocaleString('en-US')} steps/s, fuzz ${Math.round(q.speed.fuzz).toLocaleString('en-US')} steps/s)</p>`
      : '<p class="quiet">Qualification did not run.</p>',
    '<h2>Findings</h2>',
    findingsList(from, out, r, [game]),
    '<h2>Levels</h2>',
    summaryTable(from, r, game.levels.map((level) => ({ game, level })), false),
    `<div class="starts">${starts.join('')}</div>`,
  ];
  return page({ page: from, title: `${game.game}: ${game.title}`, crumbs: [['Summary', SITE.index], [game.game, null]], body: body.join('\n') });
}
