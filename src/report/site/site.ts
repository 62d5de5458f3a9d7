/**
 * Writes the report site: index.html, a page per game and per level, and assets/ (the vendored
 * sigma.js, Graphology and uPlot builds, the site's own script and stylesheet). Built from the
 * report and the levels' artefacts.json files on disk, never from live explorer objects, so any
 * process holding report.json and the level folders can build it. Plain files: they open from disk.
 */
import { copyFile, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { LevelArtefacts } from '../artefacts.js';
import { ARTEFACTS_FILE, SITE } from '../paths.js';
import type { SweepReport } from '../schema.js';
import { trendKey, type TrendPoint, type Trends } from '../trend.js';
import { clientScript } from './client.js';
import { gamePage } from './game-page.js';
import { STYLE } from './html.js';
import { indexPage } from './index-page.js';
import { levelPage } from './level-page.js';
import { writeFileAtomic, makeDir } from '../../files.js';

const require = createRequire(import.meta.url);

/** The vendored browser builds: [package, its main entry's folder-relative file, name in assets/]. */
const VENDOR: [string, string, string][] = [
  ['graphology', 'graphology.umd.min.js', 'graphology.umd.min.js'],
  ['sigma', 'sigma.min.js', 'sigma.min.js'],
  ['uplot', 'uPlot.iife.min.js', 'uPlot.iife.min.js'],
  ['uplot', 'uPlot.min.css', 'uPlot.min.css'],
];


async function copyAssets(out: string): Promise<void> {
  const dir = join(out, SITE.assets);
  makeDir(dir);
  for (const [pkg, file, name] of VENDOR) {
    // the packages' exports hide their dist files: find them beside the main entry (dist/)
    const source = join(dirname(require.resolve(pkg)), file);
    const target = join(dir, name);
    const same = await Promise.all([stat(source), stat(target).catch(() => null)]).then(([s, t]) => t !== null && t.size === s.size);
    if (!same) await copyFile(source, target);
  }
  writeFileAtomic(join(dir, 'site.css'), STYLE);
  writeFileAtomic(join(dir, 'site.js'), clientScript());
}

async function readArtefacts(out: string, game: string, level: number): Promise<LevelArtefacts | null> {
  try {
    return JSON.parse(await readFile(join(out, SITE.levelDir(game, level), ARTEFACTS_FILE), 'utf8')) as LevelArtefacts;
  } catch {
    return null;
  }
}

/** Writes (or rewrites) the whole site for `report` into `out`; `trends` are the levels' points over nights, this one included. */
export async function writeSite(out: string, report: SweepReport, trends: Trends): Promise<void> {
  await copyAssets(out);
  for (const game of report.games) {
    makeDir(join(out, 'games', game.game));
    const artefacts = new Map<number, LevelArtefacts | null>();
    for (const level of game.levels) artefacts.set(level.level, await readArtefacts(out, game.game, level.level));
    for (const level of game.levels) {
      const trend: readonly TrendPoint[] = trends.get(trendKey(game.game, level.level)) ?? [];
      writeFileAtomic(join(out, SITE.levelPage(game.game, level.level)), levelPage(report, game, level, out, artefacts.get(level.level) ?? null, trend));
    }
    writeFileAtomic(join(out, SITE.gamePage(game.game)), gamePage(report, game, out, artefacts));
  }
  writeFileAtomic(join(out, SITE.index), indexPage(report, out));
}
