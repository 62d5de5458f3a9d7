/** Writes the three reports into a folder, each atomically: a reader never sees a half-written file. */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderHtml, type Pictures } from './html.js';
import { renderMarkdown } from './markdown.js';
import { validateReport, type SweepReport } from './schema.js';

export const REPORT_FILES = { json: 'report.json', markdown: 'report.md', html: 'report.html' } as const;

async function writeAtomically(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, file);
}

/** Writes report.json, report.md and report.html; a report that breaks its own schema is a bug, never written. */
export async function writeReports(dir: string, report: SweepReport, pictures: Pictures): Promise<void> {
  const json = JSON.stringify(report, null, 2);
  const errors = validateReport(JSON.parse(json));
  if (errors.length > 0) throw new Error(`internal error: the report breaks its schema: ${errors.slice(0, 3).join('; ')}`);
  await mkdir(dir, { recursive: true });
  await writeAtomically(join(dir, REPORT_FILES.json), `${json}\n`);
  await writeAtomically(join(dir, REPORT_FILES.markdown), renderMarkdown(report));
  await writeAtomically(join(dir, REPORT_FILES.html), renderHtml(report, pictures));
}
