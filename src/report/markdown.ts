/** report.md: a heading, the regressions, and one summary table per game. */
import { replayCommand } from './paths.js';
import type { GameReport, SweepReport } from './schema.js';
import { faultName, formatProfile, formatPythonRun, SUMMARY_HEADERS, summaryRows } from './summary.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const row = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;

/** The report's headline: overall result, counts and regressions. */
export function headline(r: SweepReport): string {
  const s = r.summary;
  const state = r.status === 'complete' ? (r.passed ? 'PASSED' : 'FAILED') : r.status === 'interrupted' ? 'INTERRUPTED' : 'RUNNING';
  const regressions = r.baseline ? `, ${s.regressions} regression${s.regressions === 1 ? '' : 's'} against ${r.baseline.path}` : '';
  // levels whose search its budget stopped with a step still running: possible hangs, not counted as hung
  const stuck = r.games.reduce((n, g) => n + g.levels.filter((l) => l.explore?.stuckStep).length, 0);
  const maybe = stuck > 0 ? ` (${stuck} stopped with a step still running: a hang?)` : '';
  return `${state}: ${s.games} game${s.games === 1 ? '' : 's'}, ${s.levels} levels: ${s.pass} pass, ${s.fail} fail, ${s.inconclusive} inconclusive, ${s.hangs} hung${maybe}, ${s.crashes} crashed${regressions}`;
}

/** What the sweep ran with. */
export function settingsLine(r: SweepReport): string {
  const { budget, workers, policy, unoffered, threshold, seed, queue } = r.settings;
  const where = queue === null ? `${workers} workers` : `jobs through the queue ${queue}${workers === null ? '' : `, ${workers} workers each`}`;
  return `Budget per level: ${budget.nodes.toLocaleString('en-US')} states, ${budget.seconds} s; qualification steps scale ${budget.stepsScale}; ${where}; policy ${policy}${policy === 'reference' && unoffered === 'step' ? ' (unoffered actions stepped)' : ''}; threshold ${threshold}; seed ${seed}; ${r.seconds.toFixed(1)} s.`;
}

export function gameTable(game: GameReport, r: SweepReport): string[] {
  return [row(SUMMARY_HEADERS), row(SUMMARY_HEADERS.map(() => '---')), ...summaryRows(game, r.regressions).map((s) => row(s.cells))];
}

/** A game's own text (its title) as Markdown shows it literally: HTML and Markdown's marks escaped. */
export const markdownText = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/[\\`*_[\]|#]/g, (c) => `\\${c}`);

function gameSection(game: GameReport, r: SweepReport): string[] {
  const lines = [`## ${game.game}: ${markdownText(game.title)} (${game.outcome.toUpperCase()})`, ''];
  lines.push(`Source \`${game.source}\`, ${game.levelCount} level${game.levelCount === 1 ? '' : 's'} (${game.tutorialLevels} tutorial), ${game.seconds.toFixed(1)} s.`, '');
  if (game.error) lines.push(`**Error:** ${game.error}`, '');
  for (const warning of game.warnings) lines.push(`**Warning:** ${warning}`, '');
  if (game.levels.length > 0) lines.push(...gameTable(game, r), '');
  for (const level of game.levels.filter((l) => l.explore?.stuckStep)) {
    const w = level.explore!.stuckStep!;
    lines.push(`Level ${level.level} stuck step: ${w.message}. Reproduce from the reset state: \`${w.actions.join(' ') || '(no actions)'}\``, '');
  }
  for (const level of game.levels.filter((l) => l.explore?.identityWarning)) {
    const w = level.explore!.identityWarning!;
    lines.push(`Level ${level.level} identity warning: ${w.message}; the graph's numbers cannot be trusted. Reproduce from the reset state: \`${w.actions.join(' ') || '(no actions)'}\``, '');
  }
  for (const level of game.levels.filter((l) => l.crash)) {
    lines.push(`Level ${level.level} ${faultName(level.crash!.kind)}: ${level.crash!.reason}. Reproduce from the reset state: \`${level.crash!.actions.join(' ') || '(no actions)'}\``, '');
  }
  for (const level of game.levels) {
    const py = level.explore?.python;
    if (py) lines.push(`Level ${level.level}: ${formatPythonRun(py, level.level)}.`);
  }
  const profiled = (game.qualification?.levels ?? []).filter((l) => l.regimes.fuzz.profile);
  if (profiled.length > 0) {
    lines.push('', 'Performance under random play (the fuzz regime):', '');
    for (const l of profiled) {
      const p = l.regimes.fuzz.profile!;
      lines.push(`- Level ${l.level}: ${formatProfile(p, { code: (s) => `\`${s}\``, strong: (s) => `**${s}**` })}`);
    }
  }
  if (game.levels.some((l) => l.explore?.python) || profiled.length > 0) lines.push('');
  const q = game.qualification;
  if (q) {
    lines.push(`Qualification ${q.passed ? 'passed' : '**failed**'} (seed ${q.seed}, steps scale ${q.stepsScale}, ${q.seconds.toFixed(1)} s)${q.findings.length > 0 ? ':' : '.'}`);
    for (const f of q.findings) lines.push(`- ${f.severity.toUpperCase()} ${f.regime} / ${f.check}, level ${f.level}: ${f.message}${f.reproduction ? ` (reproduce: \`${replayCommand(f.reproduction, game.source)}\`)` : ''}`);
    lines.push('');
  }
  return lines;
}

export function renderMarkdown(r: SweepReport): string {
  const lines = [`# arcgraph sweep ${r.startedAt}`, '', `**${headline(r)}**`, '', settingsLine(r), ''];
  if (r.regressions.length > 0) {
    lines.push('## Regressions', '');
    for (const reg of r.regressions) lines.push(`- **${reg.kind}**: ${reg.message}`);
    lines.push('');
  }
  for (const game of r.games) lines.push(...gameSection(game, r));
  return `${lines.join('\n').trimEnd()}\n`;
}
