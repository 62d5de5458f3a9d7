/**
 * The report site in a real headless Chromium (the system's, else the one inside the
 * @sparticuz/chromium package: see test/support/browser.ts), opened from disk as a person would:
 * index.html, a link to a level page, its filmstrip, sigma's canvas and tooltip, the charts' axis
 * labels, no console error, no request outside the report folder. Screenshots go to a temp folder
 * removed afterwards, or to $ARCGRAPH_SCREENSHOTS when set (kept there).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PNG } from 'pngjs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';
import { sweep } from '../../src/sweep/sweep.js';
import type { SweepReport } from '../../src/report/schema.js';
import { launchChromium } from '../support/browser.js';
import { stubQualifier } from '../support/sweep.js';

const fixture = (name: string): string => join(PACKAGE_ROOT, 'test/fixtures', `${name}.ts`);
const GRAPH_LIMIT = 30;

/** Pixels of a PNG that are not (near) white. */
function inkedPixels(png: Buffer): number {
  const { data } = PNG.sync.read(png);
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (data[i] < 235 || data[i + 1] < 235 || data[i + 2] < 235) n++;
  return n;
}

describe('the report site in Chromium', () => {
  const temp = mkdtempSync(join(tmpdir(), 'arcgraph-site-'));
  const shots = process.env.ARCGRAPH_SCREENSHOTS ?? join(temp, 'screenshots');
  const out = join(temp, 'night-2');
  let report: SweepReport;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const history = join(temp, 'history.sqlite');
    const options = { games: ['maze', 'ruin', 'boom'].map(fixture), workers: 1, threshold: 0.5, history, graphLimit: GRAPH_LIMIT, qualifier: stubQualifier({ fail: { maze: [2] } }) };
    await sweep({ ...options, out: join(temp, 'night-1') });
    report = await sweep({ ...options, out });
    const launched = await launchChromium();
    browser = launched.browser;
    console.log(`browser tests on ${launched.source} Chromium ${browser.version()} (${launched.path})`);
    // an explicit locale: from LANG=C.UTF-8 the headless shell makes 'en-US@posix', which Intl (and so uPlot) rejects
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(join(out, 'index.html')).href);
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(temp, { recursive: true, force: true });
  });

  it('opens index.html from disk: every level in one table, findings first, and the findings listed', async () => {
    const levels = report.games.flatMap((g) => g.levels);
    expect(await page.locator('table.summary tbody tr').count()).toBe(levels.length);
    const first = page.locator('table.summary tbody tr').first();
    expect(await first.getAttribute('data-game')).toBe('boom'); // the crash
    const outcomes = await page.locator('table.summary tbody tr td:last-child').allTextContents();
    const firstPass = outcomes.findIndex((o) => o.startsWith('pass'));
    expect(outcomes.slice(firstPass).every((o) => o.startsWith('pass'))).toBe(true);
    expect(await page.locator('ul.findings li').count()).toBeGreaterThan(3);
    expect(await page.locator('text=History').first().textContent()).toContain('1 earlier run');
    await page.screenshot({ path: join(shots, 'index.png'), fullPage: true });
  });

  it('follows a link to a level page whose filmstrip has one frame per action plus the start', async () => {
    const level = report.games.find((g) => g.game === 'maze')!.levels[0];
    await Promise.all([page.waitForURL(/games\/maze\/level-1\.html$/), page.locator('tr[data-game="maze"][data-level="1"] td:nth-child(2) a').click()]);
    await page.waitForFunction(() => (window as unknown as { arcgraphCharts?: unknown[] }).arcgraphCharts?.length === 4);
    const frames = page.locator('ol.filmstrip.win li');
    expect(await frames.count()).toBe(level.analysis!.shortestWin!.length + 1);
    expect(await frames.locator('.action').allTextContents()).toEqual(['start', ...level.analysis!.shortestWin!.actions.map((a, i) => `${i + 1}. ${a}`)]);
    // every frame is loaded: 64x64 pixels
    const sizes = await page.locator('img.frame').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
    expect(sizes.length).toBeGreaterThan(frames.count.length);
    expect(new Set(sizes)).toEqual(new Set([64]));
    expect(await page.locator('ol.filmstrip.dead li').count()).toBe(level.analysis!.deadEnds.example!.length + 1);
  });

  it('draws the state graph with sigma (non-blank canvas) and shows depth and path on hover', async () => {
    const graph = page.locator('#graph');
    expect(inkedPixels(await graph.screenshot())).toBeGreaterThan(200);
    const at = (node: string): Promise<{ x: number; y: number }> =>
      page.evaluate((n) => {
        const { renderer, graph } = (window as unknown as { arcgraphGraph: { renderer: any; graph: any } }).arcgraphGraph;
        const box = document.getElementById('graph')!.getBoundingClientRect();
        const p = renderer.graphToViewport(graph.getNodeAttributes(n));
        return { x: box.left + p.x, y: box.top + p.y };
      }, node);
    const tip = page.locator('#tooltip');
    expect(await tip.isVisible()).toBe(false);
    const start = await at('0');
    await page.mouse.move(start.x, start.y);
    await expect.poll(() => tip.isVisible()).toBe(true);
    expect(await tip.textContent()).toContain('start (reset state), depth 0');
    // the first win state: its depth and path are the shortest solution's
    const win = report.games.find((g) => g.game === 'maze')!.levels[0].analysis!.shortestWin!;
    const won = await page.evaluate(() => {
      const data = (window as unknown as { ARCGRAPH_GRAPH: { kind: number[]; depth: number[] } }).ARCGRAPH_GRAPH;
      return String(data.kind.findIndex((k, u) => k === 4 && data.depth[u] === Math.min(...data.depth.filter((_, v) => data.kind[v] === 4))));
    });
    await page.mouse.move(1, 1);
    const p = await at(won);
    await page.mouse.move(p.x, p.y);
    await expect.poll(() => tip.textContent()).toContain(`level won, depth ${win.length}`);
    await page.screenshot({ path: join(shots, 'level.png'), fullPage: true });
  });

  it('labels the axes of every chart: depth histogram, probability bounds, trends over nights', async () => {
    expect(await page.locator('svg.histogram .axis-label').allTextContents()).toEqual(['depth (actions from the start)', 'states']);
    expect((await page.locator('svg.bounds .axis-label').allTextContents())[0]).toMatch(/^P\(random policy wins\), log scale/);
    const axes = await page.evaluate(() => (window as unknown as { arcgraphCharts: { axes: { label?: string }[]; data: unknown[][] }[] }).arcgraphCharts.map((c) => ({ labels: c.axes.map((a) => a.label), nights: c.data[0].length })));
    expect(axes).toHaveLength(4);
    for (const a of axes) {
      expect(a.labels[0]).toBe('night');
      expect(a.labels[1]).toMatch(/\w/);
      expect(a.nights).toBe(2); // the history's night and this one
    }
    expect(inkedPixels(await page.locator('#trends').screenshot())).toBeGreaterThan(500);
  });

  it('draws a big level as the condensed view, with a tooltip per group', async () => {
    const big = report.games.find((g) => g.game === 'ruin')!.levels.find((l) => l.explore!.nodes > GRAPH_LIMIT)!;
    await page.goto(pathToFileURL(join(out, `games/ruin/level-${big.level}.html`)).href);
    expect(await page.locator('#graph').getAttribute('data-view')).toBe('condensed');
    await page.waitForFunction(() => (window as unknown as { arcgraphGraph?: unknown }).arcgraphGraph !== undefined);
    expect(inkedPixels(await page.locator('#graph').screenshot())).toBeGreaterThan(100);
    const p = await page.evaluate(() => {
      const { renderer, graph } = (window as unknown as { arcgraphGraph: { renderer: any; graph: any } }).arcgraphGraph;
      const box = document.getElementById('graph')!.getBoundingClientRect();
      const q = renderer.graphToViewport(graph.getNodeAttributes('0'));
      return { x: box.left + q.x, y: box.top + q.y };
    });
    await page.mouse.move(p.x, p.y);
    await expect.poll(() => page.locator('#tooltip').textContent()).toMatch(/^1 states: start \(reset state\), depth 0/);
  });

  it('had no console error, and asked for nothing outside the report folder', () => {
    expect(problems).toEqual([]);
    const folder = pathToFileURL(out).href;
    const outside = requests.filter((u) => !u.startsWith(`${folder}/`));
    expect(outside).toEqual([]);
    expect(requests.some((u) => u.endsWith('/assets/sigma.min.js'))).toBe(true);
    expect(requests.some((u) => u.endsWith('/graph.js'))).toBe(true);
    expect(fileURLToPath(requests[0])).toBe(join(out, 'index.html'));
  });
});
