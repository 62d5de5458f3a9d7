/**
 * The import graph of src/ against the pipeline: each folder (or top-level file) of src/ is a
 * stage, and a stage imports only stages before it, and another folder only through its index.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');

/** The stages in pipeline order: data flows from the left to the right, never back. */
export const STAGES = [
  'errors', 'files', 'engine', 'toolkit', 'suite', 'parallel', 'python', 'graph', 'explorer', 'analysis', 'player', 'random',
  'recording', 'qualify', 'level', 'report', 'history', 'sweep', 'queue', 'cli', 'index',
] as const;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** The relative specifiers a file imports (static, dynamic, type-only and re-exports). */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*\(\s*['"](\.[^'"]+)['"]\s*\)|^import\s+['"](\.[^'"]+)['"]/gm)) {
    found.push(m[1] ?? m[2] ?? m[3]);
  }
  return found;
}

/** The stage of a path under src/: its first folder, or a top-level file's name. */
const stageOf = (path: string): string => relative(SRC, path).split(sep)[0].replace(/\.[jt]s$/, '');

/** Every import edge of src/ that breaks a rule, as `from -> to: why`. */
function violations(): string[] {
  const bad: string[] = [];
  for (const file of sources(SRC)) {
    const from = stageOf(file);
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const target = normalize(join(dirname(file), spec));
      const where = `${relative(ROOT, file)} -> ${spec}`;
      // The suite's list of games is known to suite/ alone.
      if (from === 'suite' && relative(ROOT, target) === join('games', 'index.js')) continue;
      if (relative(SRC, target).startsWith('..')) {
        bad.push(`${where}: outside src/ (the suite and tools come in as modules, by path)`);
        continue;
      }
      const to = stageOf(target);
      if (to === from) continue;
      const order = STAGES.indexOf(from as never);
      const other = STAGES.indexOf(to as never);
      if (order < 0 || other < 0) bad.push(`${where}: stage ${order < 0 ? from : to} is not in STAGES`);
      else if (other > order) bad.push(`${where}: ${from} imports ${to}, a later stage`);
      const isFolder = relative(SRC, target).includes(sep);
      if (isFolder && relative(join(SRC, to), target) !== 'index.js') bad.push(`${where}: into ${to}/ past its index.ts`);
    }
  }
  return bad;
}

describe('the import graph of src/', () => {
  it('finds every kind of import', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from '../b/index.js';",
      "export * from './c.js';",
      "export { d } from './d.js';",
      "const e = await import('../e/index.js');",
      "import {\n  f,\n  g,\n} from './fg.js';",
      "import { x } from 'node:fs';",
    ].join('\n');
    expect(importsOf(text).sort()).toEqual(['../b/index.js', '../e/index.js', './a.js', './c.js', './d.js', './fg.js']);
  });

  it('has no edge against the pipeline and none into a folder past its index.ts', () => {
    expect(violations()).toEqual([]);
  });
});
