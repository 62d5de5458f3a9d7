/**
 * Test support: the built CLI as a child process whose output a test can wait on line by line
 * (a worker says it is ready, a job started), signal, and wait out. Every process started here is
 * killed after the test file if it is still running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { PACKAGE_ROOT } from '../../src/suite/loader.js';

export const CLI = join(PACKAGE_ROOT, 'dist/src/cli/main.js');

/** The keys of `value` that reports/JSON.md does not name (as `key`): a field the --json outputs gained without a word. */
export function undocumented(value: object): string[] {
  const doc = readFileSync(join(PACKAGE_ROOT, 'reports', 'JSON.md'), 'utf8');
  return Object.keys(value).filter((k) => !doc.includes('`' + k + '`') && !doc.includes('`' + k + '?`') && !new RegExp(`[{,] ${k}[?,: }]`).test(doc));
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves when stdout (or stderr) has a line matching `pattern`; rejects after `timeoutMs` or if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  finished: Promise<Finished>;
}

const running = new Set<ChildProcess>();
afterAll(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Starts `arcgraph ...args`, with `env` added to this process's environment. */
export function start(args: string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  running.add(child);
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const check = (): void => {
    for (const w of [...waiters]) {
      const line = `${stdout}\n${stderr}`.split('\n').find((l) => w.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  child.stdout!.on('data', (d) => {
    stdout += d;
    check();
  });
  child.stderr!.on('data', (d) => {
    stderr += d;
    check();
  });
  const finished = new Promise<Finished>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`)), timeoutMs);
        const done = (line: string): void => {
          clearTimeout(timer);
          resolve(line);
        };
        waiters.push({ pattern, resolve: done });
        check();
        finished.then(() => {
          clearTimeout(timer);
          if (waiters.some((w) => w.resolve === done)) reject(new Error(`exited before a line matching ${pattern}; stdout:\n${stdout}\nstderr:\n${stderr}`));
        });
      });
    },
    finished,
  };
}

/** Runs `arcgraph ...args` to its end. */
export const run = (args: string[], env: Record<string, string> = {}): Promise<Finished> => start(args, env).finished;
