/** The per-game summary table as plain text cells, shared by report.md, the report site and the terminal. */
import type { CrashKind, GameReport, LevelReport, OtherStartReport, ProfileReport, PythonLevelReport, Regression } from './schema.js';

export const SUMMARY_HEADERS = ['Level', 'States', 'Fully explored', 'Shortest solution', 'Dead ends', 'Random win p', 'Verdict', 'Qualification', 'Since last night', 'Outcome'] as const;

export const grouped = (n: number): string => n.toLocaleString('en-US');
/** A probability or bound: small ones in exponent form so their size reads at once. */
export const formatProbability = (x: number, digits = 3): string => (x === 0 || x === 1 ? String(x) : x < 1e-3 ? x.toExponential(digits - 1) : x.toPrecision(digits));
/** Two different probabilities with the digits it takes to tell them apart (three when those do). */
export function formatApart(a: number, b: number): [string, string] {
  for (let digits = 3; digits < 17; digits++) if (formatProbability(a, digits) !== formatProbability(b, digits)) return [formatProbability(a, digits), formatProbability(b, digits)];
  return [formatProbability(a, 17), formatProbability(b, 17)];
}

/**
 * num/den (decimal strings of integers, num > 0) in exponent form to `digits` digits, from the integers
 * themselves: an exact probability of 2^-2000 is below any double (it read "0 (1 in ∞)").
 */
export function scientific(num: string, den: string, digits = 3): string {
  const n = BigInt(num);
  const d = BigInt(den);
  // n * 10^k / d has at least `digits` + 1 digits before its point: the first of them, rounded
  const k = den.length - num.length + digits + 1;
  const m = (k >= 0 ? (n * 10n ** BigInt(k)) / d : n / (d * 10n ** BigInt(-k))).toString();
  let exponent = m.length - 1 - k;
  let kept = ((BigInt(m.slice(0, digits + 1)) + 5n) / 10n).toString();
  if (kept.length > digits) {
    kept = kept.slice(0, digits); // 9.995 rounded up to 10.0
    exponent++;
  }
  const mantissa = `${kept[0]}.${kept.slice(1)}`.replace(/\.?0+$/, '');
  return `${mantissa}e${exponent < 0 ? '' : '+'}${exponent}`;
}

/** "1 in 4.3M" style: the odds a person reads at a glance. */
function oneIn(n: number): string {
  if (n >= 1e12) return n.toExponential(2);
  if (n >= 1e9) return `${(n / 1e9).toPrecision(3)}G`;
  if (n >= 1e6) return `${(n / 1e6).toPrecision(3)}M`;
  if (n >= 1e4) return `${(n / 1e3).toPrecision(3)}k`;
  return n >= 100 ? n.toFixed(0) : n.toPrecision(3).replace(/\.?0+$/, '');
}

export function formatPWin(level: LevelReport): string {
  const a = level.analysis;
  if (!a) return '—';
  const { pWin } = a;
  if (pWin.exact) {
    const { p, q, oneIn: odds } = pWin.exact;
    if (p === '0') return level.explore?.python?.clicks?.partition === 'sampled' ? '0 (exact over sampled click classes)' : '0 (exact)';
    // Within 1% of the threshold three digits cannot tell a pass from a fail: six, and the odds in full.
    const near = Math.abs(pWin.lower / a.threshold - 1) < 0.01;
    const fraction = p.length + q.length <= 14 ? `${p}/${q}` : pWin.lower >= 1e-300 ? formatProbability(pWin.lower, near ? 6 : 3) : scientific(p, q);
    // A real ARC game's clicks over sampled classes: exact only if the partition is.
    const exact = level.explore?.python?.clicks?.partition === 'sampled' ? 'exact over sampled click classes' : 'exact';
    const odd = odds === null || !Number.isFinite(odds) ? scientific(q, p) : near ? grouped(Math.round(odds)) : oneIn(odds);
    return `${fraction} (1 in ${odd}, ${exact})`;
  }
  const bounds = `[${formatProbability(pWin.lower)}, ${formatProbability(pWin.upper)}] (${pWin.method === 'bounds' ? 'bounds, partial graph' : 'interval'})`;
  const mc = level.monteCarlo;
  return mc ? `${bounds}; random play: ${mc.wins} wins in ${grouped(mc.episodes)} attempts, p < ${formatProbability(mc.upper)} (95%)` : bounds;
}

/** A level's reason when its complete graph has no win but cannot be trusted (sweep/outcome.ts): not "unsolvable". */
export const UNTRUSTED_NO_WIN = 'no win was found in the complete graph, which cannot be trusted: the game steps otherwise than its states say (the finding below)';

export function formatShortest(level: LevelReport): string {
  const a = level.analysis;
  if (!a) return '—';
  const win = a.shortestWin;
  const parts: string[] = [];
  if (a.baseline) parts.push(`baseline ${a.baseline.declared}${a.baseline.difference === null ? '' : `, ${a.baseline.difference >= 0 ? '+' : ''}${a.baseline.difference}`}`);
  if (level.previous?.source === 'baseline') parts.push(`was ${level.previous.shortestWin ?? 'none'}`);
  const text = win === null ? (level.explore?.fullyExplored && !level.reasons.includes(UNTRUSTED_NO_WIN) ? 'unsolvable' : 'none found') : `${win.length}${win.optimal ? '' : ' (may be shorter)'}`;
  return parts.length > 0 ? `${text} (${parts.join('; ')})` : text;
}

export function formatExplored(level: LevelReport): string {
  const e = level.explore;
  if (!e) return '—';
  return e.fullyExplored ? 'yes' : `no: ${e.stopReason ?? 'stopped'}, ${grouped(e.frontier)} on the frontier`;
}

/** A game fault's name in a report: crash, hang, out of memory. */
export const faultName = (kind: CrashKind): string => (kind === 'out-of-memory' ? 'out of memory' : kind);

export function formatVerdict(level: LevelReport): string {
  if (level.crash) return faultName(level.crash.kind);
  const a = level.analysis;
  if (!a) return '—';
  if (level.tutorial) return `${a.verdict} (tutorial, exempt)`;
  return level.monteCarlo ? `${level.monteCarlo.verdict} (random play)` : a.verdict;
}

/**
 * What changed since the run the level is compared with (the previous night in the history, or the
 * --baseline report): the level itself (its start state), its outcome, states, shortest solution.
 */
/** How a real ARC game's level ran: where it started, its identity, how its clicks were expanded. */
export function formatPythonRun(py: PythonLevelReport, level?: number): string {
  // level 1 has no earlier levels: it starts at the game's RESET
  const start = py.levelStart !== 'played' ? "started at the engine's set_level" : level === 1 ? "started at the game's RESET" : 'started where the shortest wins of the earlier levels lead';
  const clicks = py.clicks ? `; clicks over ${py.clicks.method === 'all-cells' ? 'all 4,096 cells' : `verified classes (${py.clicks.split} split by grid cell)`}` : '';
  const line = (o: OtherStartReport): string => {
    // a long fraction (49 digits, the probe's pk18) as its value, as the level's own table cell does
    const exact = o.pWin.exact;
    const p = exact ? `p ${exact.p.length + exact.q.length <= 24 ? `${exact.p}/${exact.q}` : formatProbability(o.pWin.lower, 6)}` : `p in [${formatProbability(o.pWin.lower)}, ${formatProbability(o.pWin.upper)}]`;
    return `${o.attempt ? `attempt ${o.attempt} ` : ''}(${o.startActions.join(' ')}): ${o.nodes} states${o.fullyExplored ? '' : ' (partial)'}, shortest ${o.shortestWin ?? 'none found'}, ${p}, ${o.verdict}${o.problem ? `, ${o.problem}` : ''}`;
  };
  const wins = (py.otherStarts ?? []).filter((o) => !o.attempt).map(line);
  const attempts = (py.otherStarts ?? []).filter((o) => o.attempt).map(line);
  const also = [
    wins.length > 0 ? `; also explored from the starts other wins of the previous level lead to: ${wins.join('; ')}` : '',
    attempts.length > 0 ? `; also explored from where later attempts start (a loss, then RESET): ${attempts.join('; ')}` : '',
  ].join('');
  const warned = [py.attemptsWarning && `ATTEMPTS WARNING: ${py.attemptsWarning}`, py.listsReset && `AVAILABLE ACTIONS WARNING: ${py.listsReset}`].filter(Boolean).map((w) => `; ${w}`).join('');
  return `${start}${py.startNote ? ` (${py.startNote})` : ''}; identity ${py.identity}${clicks}${also}${warned}`;
}

/** The fuzz regime's performance profile of a level in one line (the slowest step with the actions before it). */
export function formatProfile(p: ProfileReport, mark: { code(s: string): string; strong(s: string): string } = { code: (s) => s, strong: (s) => s }): string {
  const slow = p.slowest[0];
  const slowest = slow ? `; slowest step ${slow.ms.toFixed(1)} ms after ${mark.code(slow.actions.slice(0, -1).join(' ') || '(the start)')} (${slow.actions.at(-1)})` : '';
  return `${grouped(Math.round(p.actionsPerSecond))} actions/s, ${grouped(Math.round(p.framesPerSecond))} frames/s (${p.framesPerAction.toFixed(1)} a step)${p.belowFloor ? `, ${mark.strong('below the 1,000 frames/s floor')}` : ''}${slowest}`;
}

export function formatChange(level: LevelReport): string {
  const prev = level.previous;
  if (!prev) return 'no earlier run';
  const changes: string[] = [];
  if (prev.startHash !== null && level.startHash !== null && prev.startHash !== level.startHash) changes.push('level changed');
  if (prev.outcome !== level.outcome) changes.push(`${prev.outcome} → ${level.outcome}`);
  if (prev.crashed !== (level.crash !== null)) changes.push(level.crash ? 'crashes now' : 'no longer crashes');
  const states = level.explore?.nodes ?? null;
  if (prev.states !== states) changes.push(`states ${prev.states === null ? '—' : grouped(prev.states)} → ${states === null ? '—' : grouped(states)}`);
  const shortest = level.analysis?.shortestWin?.length ?? null;
  if (prev.shortestWin !== shortest) changes.push(`shortest ${prev.shortestWin ?? 'none'} → ${shortest ?? 'none'}`);
  const text = changes.length > 0 ? changes.join('; ') : 'no change';
  return prev.source === 'baseline' ? `${text} (vs baseline)` : text;
}

export interface SummaryRow {
  cells: string[];
  outcome: LevelReport['outcome'];
  /** The verdict cell's word, for colouring: pass, fail, inconclusive, crash, exempt. */
  verdictClass: string;
  qualification: LevelReport['qualification'];
  regressions: Regression[];
}

export function summaryRows(game: GameReport, regressions: readonly Regression[]): SummaryRow[] {
  return game.levels.map((level) => {
    const mine = regressions.filter((r) => r.game === game.game && r.level === level.level);
    const a = level.analysis;
    const cells = [
      `${level.level}${level.tutorial ? ' (tutorial)' : ''}`,
      level.explore ? grouped(level.explore.nodes) : '—',
      formatExplored(level),
      formatShortest(level),
      // on a partial graph only the certain dead ends are counted
      a ? `${level.explore?.fullyExplored ? '' : '≥ '}${grouped(a.deadEnds.count)}` : '—',
      formatPWin(level),
      formatVerdict(level),
      level.qualification ?? '—',
      formatChange(level),
      level.outcome + (mine.length > 0 ? ` ▲ REGRESSION: ${mine.map((r) => r.kind).join(', ')}` : ''),
    ];
    const verdictClass = level.crash ? 'crash' : !a ? 'none' : level.tutorial ? 'exempt' : (level.monteCarlo?.verdict ?? a.verdict);
    return { cells, outcome: level.outcome, verdictClass, qualification: level.qualification, regressions: mine };
  });
}

/** One line about the probability and bounds for the terminal. */
export function levelLine(game: string, level: LevelReport): string {
  const e = level.explore;
  const found = e ? `${grouped(e.nodes)} states${e.fullyExplored ? '' : ` (partial: ${e.stopReason})`}, shortest ${formatShortest(level)}, p ${formatPWin(level)}` : 'no graph';
  const reasons = level.reasons.length > 0 ? ` - ${level.reasons.join('; ')}` : '';
  return `${game} level ${level.level}${level.tutorial ? ' (tutorial)' : ''}: ${found}: ${level.outcome.toUpperCase()}${reasons}`;
}
