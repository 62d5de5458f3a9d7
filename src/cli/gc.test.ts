import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../suite/index.js';
import { takesGcFlags } from './gc.js';

describe('the command line\'s collector flags', () => {
  it('are set on the Node.js major where they were tried, unless node already runs single-threaded', () => {
    expect(takesGcFlags([], '20.20.2')).toBe(true);
    expect(takesGcFlags(['--expose-gc'], '20.1.0')).toBe(true);
    expect(takesGcFlags(['--single-threaded-gc'], '20.20.2')).toBe(false);
    expect(takesGcFlags([], '22.11.0')).toBe(false);
    expect(takesGcFlags([], '18.20.4')).toBe(false);
  });

  it('leave a process that collects in its main thread and in worker threads running (V8 aborts on flags it does not take at run time)', () => {
    // Young and old collections, a worker's too, after the flags: an abort would end this child with a signal.
    const script = `
      import { singleThreadedGc } from './dist/src/cli/gc.js';
      import { Worker } from 'node:worker_threads';
      const set = singleThreadedGc();
      const churn = 'let keep = []; for (let i = 0; i < 3e6; i++) { keep.push({ i, a: [i] }); if (keep.length > 2e5) keep = []; }';
      eval(churn);
      await new Promise((done, fail) => new Worker(churn, { eval: true }).on('exit', done).on('error', fail));
      console.log(JSON.stringify({ set }));
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(r.signal).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ set: takesGcFlags([], process.versions.node) });
  });
});
