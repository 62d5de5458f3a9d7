import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../sweep/sweep.js';
import { stubQualifier } from '../../test/support/sweep.js';
import type { SweepReport } from './schema.js';

const fixture = (name: string): string => join(__dirname, '../../test/fixtures', `${name}.ts`);

/** Debian's Chromium, headless, with a fresh profile and nothing that talks to the network. */
async function launch(): Promise<BrowserContext> {
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'arcgraph-chromium-')), {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

describe('report.html in a browser', () => {
  const PICTURE_LIMIT = 100;
  let report: SweepReport;
  let html: string;
  let url: string;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const requests: string[] = [];

  beforeAll(async () => {
    const out = mkdtempSync(join(tmpdir(), 'arcgraph-html-'));
    report = await sweep({
      games: ['ruin', 'maze', 'lights', 'boom'].map(fixture),
      out,
      workers: 1,
      threshold: 0.5,
      qualifier: stubQualifier({ fail: { maze: [1] } }),
      pictureLimit: PICTURE_LIMIT,
    });
    const file = join(out, 'report.html');
    html = readFileSync(file, 'utf8');
    url = pathToFileURL(file).href;
    context = await launch();
    page = await context.newPage();
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(url);
  });

  afterAll(async () => {
    await context?.close();
  });

  it('loads with no console error and asks for nothing but itself', () => {
    expect(problems).toEqual([]);
    expect(requests).toEqual([url]);
    // the only URLs in the file are SVG namespace names
    expect([...html.matchAll(/\w+:\/\/[^"' )]+/g)].map((m) => m[0]).filter((u) => u !== 'http://www.w3.org/2000/svg')).toEqual([]);
  });

  it('has one summary table per game with one row per level', async () => {
    const tables = page.locator('table.summary');
    expect(await tables.count()).toBe(report.games.length);
    for (const [i, game] of report.games.entries()) {
      expect(await tables.nth(i).locator('tbody tr').count()).toBe(game.levels.length);
      expect(await page.locator(`#game-${game.game} table.summary tbody tr td:first-child`).allTextContents()).toEqual(game.levels.map((l) => String(l.level)));
    }
  });

  it('colours the verdicts: fail red, pass green, crash dark red', async () => {
    const colours = await page.locator('table.summary tbody tr td:nth-child(7)').evaluateAll((cells) =>
      cells.map((c) => [c.textContent, getComputedStyle(c).backgroundColor]),
    );
    const levels = report.games.flatMap((g) => g.levels);
    expect(colours).toHaveLength(levels.length);
    const expected: Record<string, string> = { fail: 'rgb(253, 220, 218)', pass: 'rgb(221, 245, 214)', crash: 'rgb(146, 18, 49)' };
    for (const [i, [text, colour]] of colours.entries()) {
      const verdict = levels[i].crash ? 'crash' : levels[i].analysis!.verdict;
      expect(text).toBe(verdict);
      expect(colour, `${text}`).toBe(expected[verdict]);
    }
    expect(new Set(colours.map(([t]) => t))).toEqual(new Set(['pass', 'fail', 'crash']));
  });

  it('draws every start frame, a graph for small levels and a depth histogram for big ones', async () => {
    const levels = report.games.flatMap((g) => g.levels);
    const explored = levels.filter((l) => l.explore);
    const small = explored.filter((l) => l.explore!.nodes <= PICTURE_LIMIT);
    expect(small.length).toBeGreaterThan(0);
    expect(small.length).toBeLessThan(explored.length);
    expect(await page.locator('svg.frame').count()).toBe(levels.length);
    expect(await page.locator('svg.graph').count()).toBe(small.length);
    expect(await page.locator('svg.histogram').count()).toBe(explored.length - small.length);
    expect(await page.locator('svg.legend').count()).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    // each graph has one dot per state; each histogram one bar per depth
    const dots = await page.locator('svg.graph').evaluateAll((svgs) => svgs.map((s) => s.querySelectorAll('circle').length));
    expect(dots).toEqual(small.map((l) => l.explore!.nodes));
    const bars = await page.locator('svg.histogram').evaluateAll((svgs) => svgs.map((s) => s.querySelectorAll('rect').length));
    expect(bars).toEqual(explored.filter((l) => l.explore!.nodes > PICTURE_LIMIT).map((l) => l.explore!.depthHistogram.length));
    // and they are laid out on the page with a size
    for (const cls of ['frame', 'graph', 'histogram']) {
      const box = await page.locator(`svg.${cls}`).first().boundingBox();
      expect(box!.width, cls).toBeGreaterThan(50);
      expect(box!.height, cls).toBeGreaterThan(20);
    }
  });
});
