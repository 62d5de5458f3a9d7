import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOutputFile, makeDir, prepareOutputDir, writeFileAtomic } from './files.js';

const dir = mkdtempSync(join(tmpdir(), 'arcgraph-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('makeDir', () => {
  it('creates missing parents level by level, and accepts an existing folder', () => {
    const deep = join(dir, 'a', 'b', 'c');
    makeDir(deep);
    expect(existsSync(deep)).toBe(true);
    expect(() => makeDir(deep)).not.toThrow();
  });

  it('fails at once where Node\'s recursive mkdir spins forever (/proc) or a parent is a file', () => {
    const started = performance.now();
    expect(() => makeDir('/proc/arcgraph-forbidden/sub')).toThrow(/cannot create \/proc\/arcgraph-forbidden/);
    expect(performance.now() - started).toBeLessThan(1000);
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    expect(() => makeDir(join(file, 'sub'))).toThrow(/plain is not a folder/);
  });
});

describe('output checks before any work', () => {
  it('prepareOutputDir creates a writable folder and refuses a file or an unwritable place', () => {
    const out = join(dir, 'reports', 'night');
    expect(prepareOutputDir(out)).toBe(out);
    expect(readdirSync(out)).toEqual([]);
    const file = join(dir, 'report.txt');
    writeFileSync(file, 'x');
    expect(() => prepareOutputDir(file)).toThrow(/is a file, not a folder/);
    expect(() => prepareOutputDir('/proc/arcgraph-forbidden')).toThrow(/cannot create/);
    expect(() => prepareOutputDir('/proc/self')).toThrow(/cannot write in \/proc\/self/);
  });

  it('checkOutputFile needs an existing, writable folder and a path that is not a folder', () => {
    expect(checkOutputFile(join(dir, 'graph.gexf'))).toBe(join(dir, 'graph.gexf'));
    expect(() => checkOutputFile(join(dir, 'nonexistent', 'graph.gexf'))).toThrow(/no such folder/);
    expect(() => checkOutputFile(dir)).toThrow(/is a folder/);
    expect(() => checkOutputFile('/proc/self/graph.gexf')).toThrow(/cannot write in/);
    expect(readdirSync(dir).filter((n) => n.startsWith('.arcgraph-probe'))).toEqual([]);
  });
});

describe('writeFileAtomic', () => {
  it('writes the whole file and leaves no temporary file, also when the write fails', () => {
    const path = join(dir, 'atomic.json');
    writeFileAtomic(path, '{"a":1}');
    writeFileAtomic(path, new Uint8Array([123, 125]));
    expect(readFileSync(path, 'utf8')).toBe('{}');
    expect(() => writeFileAtomic(join(dir, 'missing', 'x.json'), 'x')).toThrow(/ENOENT/);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
