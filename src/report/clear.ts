/**
 * A new night in a report folder that holds an earlier one: the earlier night's reports, pages,
 * level artefacts and reproductions are removed first, so the folder shows this night alone (the
 * reproductions' names carry a random part: without this two nights' would mix, and the pages of a
 * game the new night does not sweep would stay, unlinked and stale). Only what the earlier
 * report.json names, in the layout arcgraph writes, is removed; any other file is left alone.
 */
import { existsSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { removeEmptyDir } from '../files.js';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { SITE } from './paths.js';
import { REPORT_FILES } from './write.js';

/** A game id that is one plain path segment (the only kind arcgraph writes pages for). */
const SAFE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

interface EarlierGame {
  game: string;
  levelCount: number;
  levels: { level: number }[];
  qualification: { out: string | null; findings: { reproduction: string | null }[] } | null;
}

/** The earlier arcgraph report in `dir`, or null when there is none (or the file is someone else's). */
function readEarlier(dir: string): { startedAt: string; games: EarlierGame[] } | null {
  const file = join(dir, REPORT_FILES.json);
  if (!existsSync(file)) return null;
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    if (report?.tool?.name !== 'arcgraph' || !Array.isArray(report.games)) return null;
    return { startedAt: String(report.startedAt), games: report.games };
  } catch {
    return null;
  }
}

const inside = (dir: string, path: string): boolean => {
  const rel = relative(dir, resolve(dir, path));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
};

const removeFile = (path: string): void => {
  if (existsSync(path)) unlinkSync(path);
};

/**
 * Removes the earlier night's outputs from report folder `dir`; returns when that night started,
 * or null when the folder held no arcgraph report.
 */
export function clearEarlierReport(dir: string): string | null {
  const earlier = readEarlier(dir);
  if (!earlier) return null;
  for (const g of earlier.games) {
    if (typeof g?.game !== 'string' || !SAFE_ID.test(g.game)) continue;
    const levels = new Set<number>((g.levels ?? []).map((l) => l.level));
    for (let n = 1; n <= (Number.isInteger(g.levelCount) ? g.levelCount : 0); n++) levels.add(n);
    for (const n of levels) {
      if (!Number.isInteger(n) || n < 1) continue;
      removeFile(join(dir, SITE.levelPage(g.game, n)));
      // the level's artefacts folder is arcgraph's alone (frames, graph data, artefacts.json)
      rmSync(join(dir, SITE.levelDir(g.game, n)), { recursive: true, force: true });
    }
    removeFile(join(dir, SITE.gamePage(g.game)));
    removeEmptyDir(join(dir, 'games', g.game));
    // reproductions: those the findings name, and the rest of their folder's recordings of this game
    const q = g.qualification;
    const folders = new Set<string>([join(dir, 'reproductions', g.game)]);
    if (typeof q?.out === 'string' && inside(dir, q.out)) folders.add(resolve(dir, q.out));
    for (const f of q?.findings ?? []) {
      if (typeof f?.reproduction === 'string' && inside(dir, f.reproduction)) removeFile(resolve(dir, f.reproduction));
    }
    for (const folder of folders) {
      if (!existsSync(folder)) continue;
      for (const name of readdirSync(folder)) {
        if (name.startsWith(`${g.game}.`) && name.endsWith('.recording.jsonl')) removeFile(join(folder, name));
      }
      removeEmptyDir(folder);
    }
  }
  removeEmptyDir(join(dir, 'games'));
  removeEmptyDir(join(dir, 'reproductions'));
  for (const file of Object.values(REPORT_FILES)) removeFile(join(dir, file));
  return earlier.startedAt;
}

/** Whether `dir` holds an arcgraph report (a new night there replaces it). */
export const holdsReport = (dir: string): boolean => readEarlier(dir) !== null;
