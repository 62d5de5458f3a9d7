/**
 * A level's page: its numbers, the start frame, the filmstrips (shortest win, path into a dead end,
 * path into a crash), the depth and probability charts, the trends over nights, the qualification
 * findings with their reproductions, and the interactive state graph.
 */
import type { Filmstrip, LevelArtefacts } from '../artefacts.js';
import { VIEW_KINDS } from '../graph-view.js';
import { linkFrom, SITE } from '../paths.js';
import type { GameReport, LevelReport, SweepReport } from '../schema.js';
import { faultName, formatChange, formatExplored, formatProfile, formatPWin, formatPythonRun, formatShortest, formatVerdict, grouped } from '../summary.js';
import type { TrendPoint } from '../trend.js';
import { boundsChart, histogramChart } from './charts.js';
import { KIND_COLOURS, KIND_LABELS } from './client.js';
import { reproduction } from './common.js';
import { esc, page } from './html.js';

const FRAME_SIZE = 96;

function filmstrip(from: string, dir: string, strip: Filmstrip, cls: string, what: string): string {
  const items = strip.frames.map((f, i) => {
    const last = i === strip.frames.length - 1;
    const state = f.status !== 'playing' ? f.status : last && cls === 'dead' ? 'dead' : '';
    const label = f.action === null ? 'start' : `${i}. ${f.action}`;
    return (
      `<li${state ? ` class="${state}"` : ''}><img class="frame" src="${esc(linkFrom(from, `${dir}/${f.file}`))}" width="${FRAME_SIZE}" height="${FRAME_SIZE}" loading="lazy" alt="${esc(`${what}: ${label}`)}">` +
      `<span class="action">${esc(label)}</span></li>`
    );
  });
  const cut = strip.frames.length < strip.length + 1 && !strip.error ? `<p class="quiet">The first ${strip.frames.length - 1} of ${strip.length} actions are shown.</p>` : '';
  const error = strip.error ? `<p class="fail">${esc(strip.error)}</p>` : '';
  return `<ol class="filmstrip ${cls}">${items.join('')}</ol>${cut}${error}`;
}

function numbers(game: GameReport, level: LevelReport): string {
  const e = level.explore;
  const a = level.analysis;
  const rows: [string, string][] = [
    ['Verdict', formatVerdict(level)],
    ['States', e ? `${grouped(e.nodes)} (${grouped(e.edges)} distinct moves, ${grouped(e.transitions)} transitions, max depth ${e.maxDepth})` : '—'],
    ['Fully explored', formatExplored(level)],
    ['Random win p', formatPWin(level)],
    ['Shortest solution', formatShortest(level)],
    ['Dead ends', a ? `${e?.fullyExplored ? '' : '≥ '}${grouped(a.deadEnds.count)}` : '—'],
    ['Cycles', e ? `${grouped(e.cycles.nonTrivial)} (largest ${grouped(e.cycles.largest)} states), ${grouped(e.cycles.selfLoops)} self-loops` : '—'],
    ['Qualification', level.qualification ?? '—'],
    ['Since last night', formatChange(level)],
    ['Start-state hash', level.startHash ?? '—'],
    ['Time', `${level.seconds.toFixed(2)} s${e ? `, ${grouped(Math.round(e.transitionsPerSecond))} transitions/s on ${e.workers} worker${e.workers === 1 ? '' : 's'}` : ''}`],
    ['Ran on', level.ranOn.length > 0 ? level.ranOn.map((r) => `${r.stage} on ${r.worker} (${r.seconds.toFixed(2)} s)`).join('; ') : '—'],
  ];
  // a real ARC game: how the level ran, and its speed under random play
  const py = e?.python;
  if (py) rows.push(['Python level', formatPythonRun(py, level.level)]);
  const profile = game.qualification?.levels.find((l) => l.level === level.level)?.regimes.fuzz.profile;
  if (profile) rows.push(['Performance', formatProfile(profile)]);
  return `<table class="numbers">${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`;
}

function qualification(from: string, out: string, game: GameReport, level: LevelReport): string {
  const q = game.qualification;
  if (!q) return '<p class="quiet">Qualification did not run.</p>';
  const entry = q.levels.find((l) => l.level === level.level);
  const regimes = entry
    ? Object.entries(entry.regimes).flatMap(([name, r]) =>
        r ? [`<tr><td>${esc(name)}</td><td class="${r.status}">${esc(r.status)}</td><td class="num">${grouped(r.steps)}</td><td class="num">${r.wins === null ? '—' : grouped(r.wins)}</td><td class="num">${r.findings}</td><td class="num">${r.seconds.toFixed(1)}</td></tr>`] : [],
      )
    : [];
  const findings = q.findings.filter((f) => f.level === level.level);
  const list = findings.map((f) => {
    const repro = f.reproduction ? `<br>Reproduce: ${reproduction(from, out, f.reproduction, game.source)}` : '';
    return `<li><span class="badge ${f.severity}">${f.severity.toUpperCase()}</span> ${esc(`${f.regime} / ${f.check}: ${f.message}`)} (${f.actions.length} actions)${repro}</li>`;
  });
  return (
    `<table><thead><tr><th>Regime</th><th>Status</th><th>Steps</th><th>Wins</th><th>Findings</th><th>Seconds</th></tr></thead><tbody>${regimes.join('')}</tbody></table>` +
    (list.length > 0 ? `<ul class="findings">${list.join('')}</ul>` : '<p class="quiet">No findings at this level.</p>')
  );
}

function graphSection(a: LevelArtefacts | null): string {
  if (!a?.graph) return '<p class="quiet">No graph (the level crashed before it was explored).</p>';
  const g = a.graph;
  const legend = VIEW_KINDS.map((k) => `<span><i style="background:${KIND_COLOURS[k]}"></i>${esc(KIND_LABELS[k])}</span>`).join('');
  const what =
    g.view === 'states'
      ? `Every one of the ${grouped(g.states)} states and the ${grouped(g.edges)} distinct moves between them. Hover a state for its depth and the shortest action path to it; scroll to zoom, drag to pan.`
      : `${grouped(g.states)} states are too many to draw one by one: each dot is the states of one depth and kind (its size grows with their number; left to right by depth), each line the moves between two groups. Hover a group for its size and the path to one of its states.`;
  return `<p class="quiet">${esc(what)}</p><div class="legend">${legend}</div><div id="graph" data-view="${g.view}"><div id="tooltip"></div></div>`;
}

export function levelPage(r: SweepReport, game: GameReport, level: LevelReport, out: string, a: LevelArtefacts | null, trend: readonly TrendPoint[]): string {
  const from = SITE.levelPage(game.game, level.level);
  const dir = SITE.levelDir(game.game, level.level);
  const name = `${game.game} level ${level.level}`;
  const i = game.levels.indexOf(level);
  const pager = [
    i > 0 ? `<a href="${esc(linkFrom(from, SITE.levelPage(game.game, game.levels[i - 1].level)))}">‹ level ${game.levels[i - 1].level}</a>` : '',
    i < game.levels.length - 1 ? `<a href="${esc(linkFrom(from, SITE.levelPage(game.game, game.levels[i + 1].level)))}">level ${game.levels[i + 1].level} ›</a>` : '',
  ].filter((s) => s !== '');
  const body = [
    `<nav class="pager">${pager.join(' · ')}</nav>`,
    `<h1>${esc(name)}${level.tutorial ? ' (tutorial)' : ''} <span class="badge ${level.crash ? 'crash' : level.outcome}">${level.crash ? faultName(level.crash.kind).toUpperCase() : level.outcome.toUpperCase()}</span></h1>`,
    level.reasons.length > 0 ? `<p class="${level.outcome}">${esc(level.reasons.join('; '))}</p>` : '',
    `<div class="row">${a?.start ? `<figure><img class="frame" src="${esc(linkFrom(from, `${dir}/${a.start}`))}" width="256" height="256" alt="${esc(`${name}: start frame`)}"><figcaption>Start frame</figcaption></figure>` : ''}${numbers(game, level)}</div>`,
    ...(a?.errors ?? []).map((e) => `<p class="fail">${esc(e)}</p>`),
  ];
  const win = level.analysis?.shortestWin;
  body.push(`<h2 id="win">Shortest winning sequence${win ? `: ${win.length} action${win.length === 1 ? '' : 's'}${win.optimal ? '' : ' (the partial graph may hide a shorter one)'}` : ''}</h2>`);
  body.push(a?.win ? filmstrip(from, dir, a.win, 'win', 'shortest win') : `<p class="quiet">${level.analysis ? 'No winning sequence found.' : 'Not analysed.'}</p>`);
  const dead = level.analysis?.deadEnds;
  body.push(`<h2 id="dead-end">A dead end${dead?.example ? `, ${dead.example.length} actions from the start` : ''}</h2>`);
  body.push(a?.deadEnd ? `<p class="quiet">A state from which no win can be reached any more (${grouped(dead?.count ?? 0)} such states), and the shortest path into it.</p>${filmstrip(from, dir, a.deadEnd, 'dead', 'dead end')}` : '<p class="quiet">No dead end found.</p>');
  if (level.crash) {
    const fault = faultName(level.crash.kind);
    body.push(`<h2 id="crash">${fault[0].toUpperCase()}${fault.slice(1)}</h2><p class="crash">${esc(level.crash.reason)}</p><p>Reproduce from the reset state: <code>${esc(level.crash.actions.join(' ') || '(no actions)')}</code>${level.crash.kind === 'crash' ? '' : ' (its last action is the step that did not return; the frames stop before it)'}</p>`);
    if (a?.crash) body.push(filmstrip(from, dir, a.crash, 'crash', `path into the ${fault}`));
  }
  body.push('<h2 id="charts">Depth and probability</h2><div class="row">');
  if (level.explore) body.push(histogramChart(level.explore.depthHistogram, `${name}: states per depth`));
  if (level.analysis) body.push(boundsChart(level, `${name}: random-win probability bounds`));
  body.push('</div>');
  body.push(`<h2 id="over-nights">Over nights</h2><p class="quiet">${trend.length} night${trend.length === 1 ? '' : 's'} in the history, this one included.</p><div id="trends" class="trends"></div>`);
  body.push(`<script>window.ARCGRAPH_TRENDS = ${JSON.stringify(trend).replace(/</g, '\\u003c')};</script>`);
  body.push(`<h2 id="qualification">Qualification</h2>${qualification(from, out, game, level)}`);
  body.push(`<h2 id="graph-section">State graph</h2>${graphSection(a)}`);
  return page({
    page: from,
    title: name,
    crumbs: [['Summary', SITE.index], [game.game, SITE.gamePage(game.game)], [`level ${level.level}`, null]],
    body: body.join('\n'),
    interactive: true,
    data: a?.graph ? [`${dir}/${a.graph.file}`] : [],
  });
}
