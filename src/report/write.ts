/** Writes a sweep's reports into its folder: report.json, report.md and the site, each file atomically. */
import { join } from 'node:path';
import { makeDir, writeFileAtomic } from '../files.js';
import { renderMarkdown } from './markdown.js';
import { validateReport, type SweepReport } from './schema.js';
import { writeSite } from './site/site.js';
import type { Trends } from './trend.js';

export const REPORT_FILES = { json: 'report.json', markdown: 'report.md', site: 'index.html' } as const;

/**
 * Writes report.json, report.md and the site (index.html, pages per game and level) from the report,
 * the levels' artefacts already in the folder, and the levels' trends over nights. A report that
 * breaks its own schema is a bug, never written.
 */
export async function writeReports(dir: string, report: SweepReport, trends: Trends): Promise<void> {
  const json = JSON.stringify(report, null, 2);
  const errors = validateReport(JSON.parse(json));
  if (errors.length > 0) throw new Error(`internal error: the report breaks its schema: ${errors.slice(0, 3).join('; ')}`);
  makeDir(dir);
  writeFileAtomic(join(dir, REPORT_FILES.json), `${json}\n`);
  writeFileAtomic(join(dir, REPORT_FILES.markdown), renderMarkdown(report));
  await writeSite(dir, report, trends);
}
