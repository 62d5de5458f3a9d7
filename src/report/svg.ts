/** Inline SVG pictures for the HTML report: a frame in the ARC palette, a state graph, a depth histogram. */
import { GRID } from '../engine/index.js';
import type { Frame, Game } from '../engine/index.js';
import type { StateGraph } from '../graph/index.js';
import { PALETTE } from '../toolkit/index.js';
import { layoutGraph, type GraphPicture, type PictureKind } from './graph-picture.js';

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** A 64x64 frame, one rectangle per horizontal run of one colour, drawn `size` pixels wide. */
export function frameSvg(frame: Frame, title: string, size = 128): string {
  const rects: string[] = [];
  for (let y = 0; y < GRID; y++) {
    for (let x = 0; x < GRID; ) {
      const colour = frame[y * GRID + x];
      let end = x + 1;
      while (end < GRID && frame[y * GRID + end] === colour) end++;
      rects.push(`<rect x="${x}" y="${y}" width="${end - x}" height="1" fill="${PALETTE[colour]}"/>`);
      x = end;
    }
  }
  return (
    `<svg class="frame" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${GRID} ${GRID}" width="${size}" height="${size}" shape-rendering="crispEdges" role="img">` +
    `<title>${escapeXml(title)}</title>${rects.join('')}</svg>`
  );
}

/** How each kind of state is drawn (and named in the legend), in drawing order: the marked ones on top. */
export const KIND_STYLE: Record<PictureKind, { fill: string; stroke?: string; scale: number; label: string }> = {
  state: { fill: '#999999', scale: 1, label: 'state' },
  frontier: { fill: '#FFFFFF', stroke: '#666666', scale: 1, label: 'unexplored (frontier)' },
  dead: { fill: '#A356D0', scale: 1.4, label: 'dead end (no win reachable)' },
  lost: { fill: '#F93C31', scale: 1.4, label: 'game over' },
  won: { fill: '#4FCC30', scale: 1.8, label: 'level won' },
  start: { fill: '#1E93FF', stroke: '#000000', scale: 2.2, label: 'start (reset state)' },
};
const EDGE = '#CCCCCC';
const CYCLE_EDGE = '#FF851B';

/** A laid-out state graph: edges first (cycle edges in orange), then states by kind. */
export function graphSvg(picture: GraphPicture, title: string, width = picture.nodes.length > 300 ? 480 : 320): string {
  const margin = 12;
  const inner = width - 2 * margin;
  const n = picture.nodes.length;
  const radius = Math.max(1.2, Math.min(6, 40 / Math.sqrt(n)));
  const at = (u: number): [string, string] => [(margin + picture.nodes[u].x * inner).toFixed(1), (margin + picture.nodes[u].y * inner).toFixed(1)];
  const height = Math.ceil(2 * margin + inner * Math.max(0, ...picture.nodes.map((p) => p.y)));
  const parts: string[] = [];
  for (const cycle of [false, true]) {
    const lines = picture.edges.filter((e) => e.cycle === cycle).map((e) => {
      const [x1, y1] = at(e.from);
      const [x2, y2] = at(e.to);
      return `M${x1} ${y1}L${x2} ${y2}`;
    });
    if (lines.length > 0) parts.push(`<path class="${cycle ? 'cycle-edges' : 'edges'}" d="${lines.join('')}" stroke="${cycle ? CYCLE_EDGE : EDGE}" stroke-width="${cycle ? 1 : 0.8}" fill="none" opacity="0.8"/>`);
  }
  for (const kind of Object.keys(KIND_STYLE) as PictureKind[]) {
    const style = KIND_STYLE[kind];
    const r = (radius * style.scale).toFixed(1);
    const dots = picture.nodes.flatMap((p, u) => (p.kind === kind ? [u] : [])).map((u) => {
      const [cx, cy] = at(u);
      return `<circle cx="${cx}" cy="${cy}" r="${r}"/>`;
    });
    if (dots.length > 0) parts.push(`<g class="${kind}" fill="${style.fill}"${style.stroke ? ` stroke="${style.stroke}" stroke-width="0.6"` : ''}>${dots.join('')}</g>`);
  }
  return (
    `<svg class="graph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${Math.max(height, 2 * margin)}" width="${width}" role="img">` +
    `<title>${escapeXml(title)}</title>${parts.join('')}</svg>`
  );
}

/** Legend for the graph pictures (drawn once per report), in one row. */
export function legendSvg(): string {
  const items: string[] = [];
  let x = 4;
  const label = (text: string): void => {
    items.push(`<text x="${x + 14}" y="16">${escapeXml(text)}</text>`);
    x += 14 + text.length * 6.5 + 16;
  };
  for (const kind of (Object.keys(KIND_STYLE) as PictureKind[]).reverse()) {
    const s = KIND_STYLE[kind];
    items.push(`<circle cx="${x + 5}" cy="12" r="5" fill="${s.fill}"${s.stroke ? ` stroke="${s.stroke}"` : ''}/>`);
    label(s.label);
  }
  for (const [colour, text] of [[CYCLE_EDGE, 'move inside a cycle'], [EDGE, 'other move']]) {
    items.push(`<line x1="${x}" y1="12" x2="${x + 10}" y2="12" stroke="${colour}" stroke-width="2"/>`);
    label(text);
  }
  return `<svg class="legend" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${Math.ceil(x)} 24" width="${Math.ceil(x)}" height="24" font-size="12" role="img"><title>legend</title>${items.join('')}</svg>`;
}

/** States per BFS depth as a bar chart, for levels too big for a graph picture. */
export function histogramSvg(histogram: readonly number[], title: string, width = 420, height = 180): string {
  const left = 48;
  const bottom = 24;
  const top = 8;
  const plotW = width - left - 8;
  const plotH = height - bottom - top;
  const max = Math.max(1, ...histogram);
  const barW = plotW / Math.max(1, histogram.length);
  const bars = histogram.map((count, depth) => {
    const h = (count / max) * plotH;
    return `<rect x="${(left + depth * barW).toFixed(2)}" y="${(top + plotH - h).toFixed(2)}" width="${Math.max(0.5, barW - 1).toFixed(2)}" height="${h.toFixed(2)}"><title>depth ${depth}: ${count} states</title></rect>`;
  });
  const axis =
    `<line x1="${left}" y1="${top + plotH}" x2="${left + plotW}" y2="${top + plotH}" stroke="#333333"/>` +
    `<line x1="${left}" y1="${top}" x2="${left}" y2="${top + plotH}" stroke="#333333"/>` +
    `<text x="${left - 4}" y="${top + 10}" text-anchor="end">${max}</text>` +
    `<text x="${left - 4}" y="${top + plotH}" text-anchor="end">0</text>` +
    `<text x="${left}" y="${height - 6}">depth 0</text>` +
    `<text x="${left + plotW}" y="${height - 6}" text-anchor="end">${histogram.length - 1}</text>`;
  return (
    `<svg class="histogram" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" font-size="11" role="img">` +
    `<title>${escapeXml(title)}</title><g fill="#1E93FF">${bars.join('')}</g>${axis}</svg>`
  );
}

/** A level's start frame as a picture (null when the game draws no layer). Runs game code: the caller reports a throw. */
export function startFrameSvg(game: Game, level: number): string | null {
  const layers = game.render(game.init(level));
  const frame = layers[layers.length - 1];
  return frame ? frameSvg(frame, `${game.id} level ${level}: start frame`) : null;
}

/** A small level's state graph as a picture, laid out from `seed`. */
export function stateGraphSvg(graph: StateGraph, seed: number, title: string): string {
  return graphSvg(layoutGraph(graph, seed), title);
}
