/**
 * Output files and folders: a mkdir -p that cannot loop, checks that an output path is writable
 * before any work is done, and atomic writes (a reader never sees a half-written file).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, parse, resolve } from 'node:path';

/**
 * Creates a folder and its missing parents, one level at a time. Node's own recursive mkdir
 * spins forever on some special filesystems (`/proc/x`); this one fails at the first level that
 * cannot be made, with a message that names it.
 */
export function makeDir(dir: string): void {
  const path = resolve(dir);
  const missing: string[] = [];
  let at = path;
  while (!existsSync(at)) {
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  if (!statSync(at).isDirectory()) throw new Error(`${at} is not a folder`);
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') throw new Error(`cannot create ${level} (${code ?? (err as Error).message})`);
    }
  }
}

/** Removes `dir` when it is an empty folder (one a command made and wrote nothing in, or emptied). */
export function removeEmptyDir(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length === 0) rmdirSync(dir);
}

/** Creates a file in `dir` and removes it: the one sure test of writability (access() lies to root). */
function probeWrite(dir: string): void {
  const probe = join(dir, `.arcgraph-probe-${process.pid}-${Date.now()}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (err) {
    throw new Error(`cannot write in ${dir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  unlinkSync(probe);
}

/** Makes sure `dir` exists (created if needed) and files can be written in it; throws why not. */
export function prepareOutputDir(dir: string): string {
  const path = resolve(dir);
  if (existsSync(path) && !statSync(path).isDirectory()) throw new Error(`${path} is a file, not a folder`);
  makeDir(path);
  probeWrite(path);
  return path;
}

/** Makes sure `file` can be written: its folder exists and is writable, and it is not a folder itself. */
export function checkOutputFile(file: string): string {
  const path = resolve(file);
  const dir = dirname(path);
  if (!existsSync(dir)) throw new Error(`no such folder ${dir}`);
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a folder`);
  if (existsSync(path) && statSync(path).isDirectory()) throw new Error(`${path} is a folder`);
  if (parse(path).base === '') throw new Error(`${file} names no file`);
  probeWrite(dir);
  return path;
}

/**
 * Writes `data` to `path` atomically: a hidden temporary file in the same folder (its name unique
 * to this write, so two writers never share one), then a rename.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (err) {
    if (existsSync(temp)) unlinkSync(temp);
    throw err;
  }
}
