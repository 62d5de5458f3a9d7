import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweep } from '../../sweep/sweep.js';
import { stubQualifier } from '../../../test/support/sweep.js';
import maze from '../../../test/fixtures/maze.js';
import { PALETTE } from '../../toolkit/index.js';
import type { SweepReport } from '../schema.js';
import { SITE } from '../paths.js';

const fixture = (name: string): string => join(__dirname, '../../../test/fixtures', `${name}.ts`);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : [join(dir, name)]));
}

describe('the report site on disk', () => {
  const out = mkdtempSync(join(tmpdir(), 'arcgraph-site-'));
  let report: SweepReport;
  let pages: string[];
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  beforeAll(async () => {
    report = await sweep({ games: ['maze', 'ruin', 'lights', 'boom'].map(fixture), out, workers: 1, threshold: 0.5, qualifier: stubQualifier({ fail: { maze: [1] } }) });
    pages = files(out).filter((f) => f.endsWith('.html'));
  });

  it('has the index, a page per game and per level, and nothing half-written', () => {
    const expected = [SITE.index, ...report.games.flatMap((g) => [SITE.gamePage(g.game), ...g.levels.map((l) => SITE.levelPage(g.game, l.level))])];
    expect(pages.map((p) => relative(out, p)).sort()).toEqual(expected.sort());
    expect(files(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('links only to files in the folder that exist, and names no URL but the SVG namespace', () => {
    let links = 0;
    for (const page of pages) {
      const html = readFileSync(page, 'utf8');
      expect([...html.matchAll(/\w+:\/\/[^"' )<]+/g)].map((m) => m[0]).filter((u) => u !== 'http://www.w3.org/2000/svg'), page).toEqual([]);
      for (const m of html.matchAll(/(?:href|src)="([^"#]+)"/g)) {
        const target = join(dirname(page), m[1].replace(/&amp;/g, '&'));
        expect(existsSync(target), `${relative(out, page)} -> ${m[1]}`).toBe(true);
        expect(relative(out, target).startsWith('..'), m[1]).toBe(false);
        links++;
      }
    }
    expect(links).toBeGreaterThan(200);
  });

  it('shows each level its filmstrips: the shortest win and the dead end, one frame per action plus the start', () => {
    for (const game of report.games) {
      for (const level of game.levels) {
        const html = readFileSync(join(out, SITE.levelPage(game.game, level.level)), 'utf8');
        const strip = (cls: string): number => (html.match(new RegExp(`<ol class="filmstrip ${cls}">(.*?)</ol>`))?.[1].match(/<li/g) ?? []).length;
        expect(strip('win'), `${game.game} ${level.level}`).toBe(level.analysis?.shortestWin ? level.analysis.shortestWin.length + 1 : 0);
        expect(strip('dead')).toBe(level.analysis?.deadEnds.example ? level.analysis.deadEnds.example.length + 1 : 0);
        if (level.crash) expect(strip('crash')).toBe(level.crash.actions.length); // the frames before the step that threw
      }
    }
  });

  it('draws the start frame as the game renders it', () => {
    const png = PNG.sync.read(readFileSync(join(out, SITE.levelDir('maze', 2), 'start-000.png')));
    const frame = maze.render(maze.init(2)).at(-1)!;
    for (let i = 0; i < frame.length; i += 97) {
      const hex = `#${[0, 1, 2].map((c) => png.data[4 * i + c].toString(16).padStart(2, '0')).join('')}`.toUpperCase();
      expect(hex).toBe(PALETTE[frame[i]]);
    }
  });

  it('links the findings to their reproductions and gives the replay command', () => {
    const html = readFileSync(join(out, SITE.levelPage('maze', 1)), 'utf8');
    const repro = report.games[0].qualification!.findings[0].reproduction!;
    expect(html).toContain(`href="../../reproductions/maze/level1.recording.jsonl"`);
    expect(html).toContain(`arcgraph replay ${repro} --game ${fixture('maze')}`);
  });
});
