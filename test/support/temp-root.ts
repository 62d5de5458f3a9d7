/**
 * Vitest global setup: every test process (and every CLI they spawn) gets a private temp folder
 * through TMPDIR, removed when the run ends. What a test left there is named on stderr: tests
 * clean up after themselves, and this catches what a crashed one or a child process could not.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'arcgraph-test-run-'));
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    if (left.length > 0) console.error(`tests left ${left.length} item(s) in the temp folder (removed): ${left.slice(0, 10).join(', ')}${left.length > 10 ? ', ...' : ''}`);
    rmSync(root, { recursive: true, force: true });
  };
}
