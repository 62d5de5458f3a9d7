/** The report site's page shell: escaping, links to the local assets, breadcrumbs, the stylesheet. */
import { posix } from 'node:path';
import { SITE } from '../paths.js';

export function esc(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

/** The path from page `page` (relative to the report folder) back to the report folder, '' or '../..'-like with a trailing slash. */
export const rootOf = (page: string): string => {
  const up = posix.dirname(page).split('/').filter((p) => p !== '.' && p !== '').length;
  return '../'.repeat(up);
};

export interface PageParts {
  /** The page's path relative to the report folder (for relative links). */
  page: string;
  title: string;
  /** Breadcrumbs: [label, path relative to the report folder or null for the current page]. */
  crumbs: [string, string | null][];
  body: string;
  /** Whether the page draws with the vendored libraries (sigma, uPlot). */
  interactive?: boolean;
  /** Scripts beside the page (data files), relative to the report folder. */
  data?: string[];
}

export function page(p: PageParts): string {
  const root = rootOf(p.page);
  const asset = (name: string): string => `${root}${SITE.assets}/${name}`;
  const crumbs = p.crumbs.map(([label, to]) => (to === null ? `<span>${esc(label)}</span>` : `<a href="${esc(root + to)}">${esc(label)}</a>`)).join(' › ');
  const scripts = [
    ...(p.interactive ? ['graphology.umd.min.js', 'sigma.min.js', 'uPlot.iife.min.js'].map(asset) : []),
    ...(p.data ?? []).map((d) => root + d),
    asset('site.js'),
  ];
  const styles = [...(p.interactive ? [asset('uPlot.min.css')] : []), asset('site.css')];
  return (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${esc(p.title)}</title>${styles.map((s) => `<link rel="stylesheet" href="${esc(s)}">`).join('')}</head>\n` +
    `<body>\n<nav class="crumbs">${crumbs}</nav>\n${p.body}\n${scripts.map((s) => `<script src="${esc(s)}"></script>`).join('\n')}\n</body></html>\n`
  );
}

export const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 20px 28px; color: #333333; max-width: 1400px; }
h1 { font-size: 21px; margin: 8px 0; } h2 { font-size: 17px; margin-top: 28px; border-bottom: 1px solid #DDDDDD; } h3 { font-size: 15px; }
a { color: #1565C0; } nav.crumbs { font-size: 13px; color: #666666; } nav.pager { float: right; font-size: 13px; }
.banner { padding: 8px 12px; border-radius: 4px; font-weight: bold; display: inline-block; }
table { border-collapse: collapse; margin: 8px 0; }
th, td { border: 1px solid #CCCCCC; padding: 3px 8px; text-align: left; vertical-align: top; }
th { background: #EEEEEE; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
.pass { background: #DDF5D6; } .fail { background: #FDDCDA; } .inconclusive, .warn { background: #FFF4BF; }
.exempt, .skipped { background: #EEEEEE; color: #666666; } .crash, .hang { background: #921231; color: #FFFFFF; } .none { color: #999999; }
.crash a { color: #FFFFFF; }
.badge { padding: 1px 7px; border-radius: 3px; font-size: 12px; font-weight: bold; }
tr.regression td:last-child, .regression-text { color: #921231; font-weight: bold; }
.findings { border-left: 4px solid #F93C31; padding: 4px 16px; background: #FFF8F7; }
.findings li { margin: 3px 0; }
.quiet { color: #666666; font-size: 13px; }
code, pre { font-size: 12px; background: #F4F4F4; padding: 1px 4px; border-radius: 3px; }
pre { padding: 6px 8px; white-space: pre-wrap; }
img.frame { image-rendering: pixelated; border: 1px solid #999999; display: block; }
ol.filmstrip { display: flex; flex-wrap: wrap; gap: 6px; list-style: none; padding: 0; margin: 6px 0; }
ol.filmstrip li { display: flex; flex-direction: column; align-items: center; font-size: 11px; }
ol.filmstrip li .action { max-width: 96px; overflow-wrap: anywhere; text-align: center; }
ol.filmstrip li.won img { outline: 3px solid #4FCC30; } ol.filmstrip li.lost img, ol.filmstrip li.dead img { outline: 3px solid #A356D0; }
.row { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.starts { display: flex; flex-wrap: wrap; gap: 12px; } .starts a { text-decoration: none; color: inherit; font-size: 12px; }
svg.chart text { font-size: 11px; fill: #333333; } svg.chart .axis-label { font-size: 12px; font-weight: bold; }
.trends { display: flex; flex-wrap: wrap; gap: 12px; }
#graph { width: 100%; height: 620px; border: 1px solid #CCCCCC; position: relative; background: #FFFFFF; }
#tooltip { position: absolute; pointer-events: none; background: rgba(255,255,255,0.96); border: 1px solid #666666; border-radius: 4px;
  padding: 4px 8px; font-size: 12px; max-width: 420px; z-index: 10; display: none; overflow-wrap: anywhere; }
.legend span { display: inline-flex; align-items: center; gap: 4px; margin-right: 14px; font-size: 12px; }
.legend i { width: 11px; height: 11px; border-radius: 50%; display: inline-block; border: 1px solid #666666; }
`;
