import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../suite/loader.js';
import { workerPool } from './pool.js';
import type { Worker } from 'node:worker_threads';
import { markFinished, markStarted, StepStalled, Watchdog } from './watchdog.js';

const module = (name: string): string => join(PACKAGE_ROOT, 'dist/test/fixtures', `${name}.js`);
/** Random walks of the hang fixture reach its endless step within a few moves; lights' never hang. */
const walks = (game: string) => ({ module: module(game), level: 1, policy: 'available', seed: 1, first: 0, count: 50, maxAttemptSteps: 200 });

describe('Watchdog', () => {
  // One thread taking two tasks at a time: a task queued behind a stuck one dies with its thread.
  const pool = workerPool('walk', 1, 256, 2);
  afterAll(() => pool.destroy());

  it('stops a task whose progress stands still, says where it stood, and runs the task queued on its thread again', async () => {
    const watchdog = new Watchdog(3);
    // Both games loaded on the thread first: the second task then waits on the thread behind the
    // stuck one (not in Piscina's queue), dies with it, and must run again (without the retry it
    // fails with "worker exited").
    await watchdog.runOn(pool, walks('lights'));
    await watchdog.runOn(pool, { ...walks('hang'), count: 0 });
    const started = performance.now();
    const stuck = watchdog.runOn(pool, walks('hang')).catch((e: unknown) => e);
    const behind = watchdog.runOn<{ steps: Uint32Array }>(pool, walks('lights'));
    const err = await stuck;
    expect(err).toBeInstanceOf(StepStalled);
    expect((err as StepStalled).kind).toBe('hang');
    // [episode offset, its step]: episode 0 hangs on its 9th move (see the fault table's random row).
    expect([...(err as StepStalled).at.slice(0, 2)]).toEqual([0, 9]);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect((await behind).steps.length).toBe(50);
    expect(watchdog.size).toBe(0);
  }, 30_000);

  it('blames the task whose kernel hangs, not one on its thread whose kernel returned and whose result waits behind it', async () => {
    // A thread that takes two tasks at a time can start the second's kernel before the first's
    // result is sent; if that kernel hangs, both stand still. A fake thread, to order it so.
    const pending = new Set<(err: Error) => void>();
    const thread = { threadId: 7, terminate: () => [...pending].forEach((reject) => reject(new Error('Terminating worker thread'))) };
    const pool = { threads: [thread] as unknown as Worker[] };
    const watchdog = new Watchdog(0.3);
    const task = (kernelReturns: boolean): Promise<string> => {
      let attempt = 0;
      return watchdog.run(pool, (progress) => {
        // Run again on a fresh thread, it finishes at once.
        if (attempt++ > 0) return Promise.resolve('sent');
        const view = markStarted(progress, thread.threadId)!;
        // In its kernel: state 0, action code 4, a beat.
        view.set([0, 4, 1], 1);
        if (kernelReturns) markFinished(view);
        return new Promise<string>((_, reject) => pending.add(reject));
      });
    };
    const finished = task(true);
    const hung = task(false).catch((e: unknown) => e);
    const err = (await hung) as StepStalled;
    expect(err).toBeInstanceOf(StepStalled);
    expect(err.kind).toBe('hang');
    expect([...err.at.slice(1, 3)]).toEqual([0, 4]);
    expect(await finished).toBe('sent');
  });

  it('stops every running task when the caller stops waiting, and leaves the pool usable', async () => {
    const watchdog = new Watchdog(60);
    const stuck = watchdog.runOn(pool, walks('hang')).catch((e: unknown) => e);
    await new Promise((resolve) => setTimeout(resolve, 300));
    watchdog.stop(0);
    const err = (await stuck) as StepStalled;
    expect(err.kind).toBe('stopped');
    const again = await new Watchdog(5).runOn<{ steps: Uint32Array }>(pool, walks('lights'));
    expect(again.steps.length).toBe(50);
  }, 30_000);
});
