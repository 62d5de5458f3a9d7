/** Writes the three reports into a folder, each atomically: a reader never sees a half-written file. */
import { join } from 'node:path';
import { makeDir, writeFileAtomic } from '../files.js';
import { renderHtml, type Pictures } from './html.js';
import { renderMarkdown } from './markdown.js';
import { validateReport, type SweepReport } from './schema.js';

export const REPORT_FILES = { json: 'report.json', markdown: 'report.md', html: 'report.html' } as const;

/** Writes report.json, report.md and report.html; a report that breaks its own schema is a bug, never written. */
export async function writeReports(dir: string, report: SweepReport, pictures: Pictures): Promise<void> {
  const json = JSON.stringify(report, null, 2);
  const errors = validateReport(JSON.parse(json));
  if (errors.length > 0) throw new Error(`internal error: the report breaks its schema: ${errors.slice(0, 3).join('; ')}`);
  makeDir(dir);
  writeFileAtomic(join(dir, REPORT_FILES.json), `${json}\n`);
  writeFileAtomic(join(dir, REPORT_FILES.markdown), renderMarkdown(report));
  writeFileAtomic(join(dir, REPORT_FILES.html), renderHtml(report, pictures));
}
