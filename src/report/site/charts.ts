/**
 * The level page's static charts as inline SVG with labelled axes: states per BFS depth, and the
 * random-win probability's bounds (graph, random play) against the threshold on a log scale.
 */
import type { LevelReport } from '../schema.js';
import { formatProbability, grouped } from '../summary.js';
import { esc } from './html.js';


/** About `count` round tick values from 0 to max. */
export function ticks(max: number, count = 4): number[] {
  if (max <= 0) return [0];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(Math.round(v * 1e9) / 1e9);
  return out;
}

/** A chart's bars are at least this wide (px): a deeper histogram shows consecutive depths summed in one bar. */
const MIN_BAR_PX = 2;

/**
 * States per depth as bars; both axes ticked and labelled. Past one bar every MIN_BAR_PX pixels,
 * each bar sums as many consecutive depths as it takes (a corridor level 100,000 deep drew 100,000
 * bars: a 10 MB page).
 */
export function histogramChart(histogram: readonly number[], title: string, width = 560, height = 240): string {
  const left = 64;
  const right = 12;
  const top = 12;
  const bottom = 44;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const depths = histogram.length;
  const per = Math.max(1, Math.ceil(depths / Math.floor(plotW / MIN_BAR_PX)));
  const sums: number[] = [];
  for (let d = 0; d < depths; d += per) {
    let sum = 0;
    for (let k = d; k < Math.min(depths, d + per); k++) sum += histogram[k];
    sums.push(sum);
  }
  const yTicks = ticks(Math.max(1, ...sums));
  const max = yTicks[yTicks.length - 1] || 1;
  const barW = plotW / Math.max(1, sums.length);
  const bars = sums.map((count, i) => {
    const h = (count / max) * plotH;
    const first = i * per;
    const last = Math.min(depths, first + per) - 1;
    const which = first === last ? `depth ${first}` : `depths ${first}-${last}`;
    return `<rect x="${(left + i * barW).toFixed(2)}" y="${(top + plotH - h).toFixed(2)}" width="${Math.max(0.5, barW - 1).toFixed(2)}" height="${h.toFixed(2)}"><title>${which}: ${grouped(count)} states</title></rect>`;
  });
  const xTicks = ticks(Math.max(0, depths - 1), Math.min(10, Math.max(1, depths - 1))).filter((d) => Number.isInteger(d));
  const axis = [
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#333333"/>`,
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#333333"/>`,
    ...yTicks.map((v) => {
      const y = top + plotH - (v / max) * plotH;
      return `<line x1="${left - 4}" y1="${y.toFixed(1)}" x2="${left}" y2="${y.toFixed(1)}" stroke="#333333"/><text class="tick" x="${left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${grouped(v)}</text>`;
    }),
    ...xTicks.map((d) => {
      const x = left + (d / per + 0.5) * barW;
      return `<line x1="${x.toFixed(1)}" y1="${top + plotH}" x2="${x.toFixed(1)}" y2="${top + plotH + 4}" stroke="#333333"/><text class="tick" x="${x.toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle">${d}</text>`;
    }),
    `<text class="axis-label" x="${left + plotW / 2}" y="${height - 6}" text-anchor="middle">depth (actions from the start)</text>`,
    `<text class="axis-label" transform="translate(14 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${per === 1 ? 'states' : `states per ${grouped(per)} depths`}</text>`,
  ];
  return (
    `<svg class="chart histogram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">` +
    `<title>${esc(title)}</title><g fill="#1E93FF">${bars.join('')}</g>${axis.join('')}</svg>`
  );
}

/** The probability bounds on a log axis: the graph's, random play's, and the threshold as a red line. */
export function boundsChart(level: LevelReport, title: string, width = 560): string {
  const a = level.analysis;
  if (!a) return '';
  const rows: { label: string; lower: number; upper: number; exact: boolean }[] = [
    { label: `graph (${a.pWin.method})`, lower: a.pWin.lower, upper: a.pWin.upper, exact: a.pWin.method === 'exact' },
  ];
  const mc = level.monteCarlo;
  if (mc) rows.push({ label: 'random play (95%)', lower: mc.lower, upper: mc.upper, exact: false });
  const positive = [a.threshold, ...rows.flatMap((r) => [r.lower, r.upper])].filter((v) => v > 0);
  const lo = Math.min(-4, Math.floor(Math.log10(Math.min(...positive))) - 1);
  const left = 130;
  const right = 16;
  const rowH = 26;
  const top = 10;
  const plotW = width - left - right;
  const plotH = rows.length * rowH;
  const height = top + plotH + 46;
  // 0 sits at the left edge: a log axis has no place for it
  const xOf = (p: number): number => left + (p <= 0 ? 0 : ((Math.max(lo, Math.log10(p)) - lo) / -lo) * plotW);
  const parts: string[] = [];
  rows.forEach((r, i) => {
    const y = top + i * rowH + rowH / 2;
    const tip = `${r.label}: ${r.exact ? formatProbability(r.lower) : `[${formatProbability(r.lower)}, ${formatProbability(r.upper)}]`}`;
    parts.push(`<text x="${left - 8}" y="${y + 4}" text-anchor="end">${esc(r.label)}</text>`);
    if (r.exact) parts.push(`<circle cx="${xOf(r.lower).toFixed(1)}" cy="${y}" r="5" fill="#1E93FF"><title>${esc(tip)}</title></circle>`);
    else parts.push(`<rect x="${xOf(r.lower).toFixed(1)}" y="${y - 6}" width="${Math.max(2, xOf(r.upper) - xOf(r.lower)).toFixed(1)}" height="12" fill="#1E93FF" opacity="0.7"><title>${esc(tip)}</title></rect>`);
  });
  // at most about eight labelled decades, ending at 1
  const every = Math.max(1, Math.ceil(-lo / 8));
  for (let e = 0; e >= lo; e -= every) {
    const x = xOf(10 ** e);
    parts.push(`<line x1="${x.toFixed(1)}" y1="${top + plotH}" x2="${x.toFixed(1)}" y2="${top + plotH + 4}" stroke="#333333"/><text class="tick" x="${x.toFixed(1)}" y="${top + plotH + 16}" text-anchor="middle">${e === 0 ? '1' : `1e${e}`}</text>`);
  }
  const tx = xOf(a.threshold);
  parts.push(
    `<line class="threshold" x1="${tx.toFixed(1)}" y1="${top - 4}" x2="${tx.toFixed(1)}" y2="${top + plotH}" stroke="#F93C31" stroke-width="2" stroke-dasharray="4 3"><title>threshold ${a.threshold}</title></line>`,
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#333333"/>`,
    `<text class="axis-label" x="${left + plotW / 2}" y="${height - 6}" text-anchor="middle">P(random policy wins), log scale; red: threshold ${a.threshold}</text>`,
  );
  return (
    `<svg class="chart bounds" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img">` +
    `<title>${esc(title)}</title>${parts.join('')}</svg>`
  );
}
