import { describe, expect, it } from 'vitest';
import { OrderedRunner } from './ordered.js';

/** A promise settled from outside, to finish tasks in a chosen order. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void; reject: (e: Error) => void } {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('OrderedRunner', () => {
  it('hands results back in the order tasks started, whatever order they finish in', async () => {
    const runner = new OrderedRunner<number, string>();
    const d = [deferred<string>(), deferred<string>(), deferred<string>()];
    d.forEach((x, i) => runner.add(i, x.promise));
    expect([runner.size, runner.running, runner.headDone]).toEqual([3, 3, false]);
    d[2].resolve('c');
    d[1].resolve('b');
    await runner.anyFinished();
    expect(runner.running).toBeLessThan(3);
    expect(runner.headDone).toBe(false);
    d[0].resolve('a');
    const got: [number, string][] = [];
    for (let r = await runner.next(); r; r = await runner.next()) got.push([r.task, r.result]);
    expect(got).toEqual([[0, 'a'], [1, 'b'], [2, 'c']]);
    expect([runner.size, runner.running]).toEqual([0, 0]);
  });

  it('keeps a task watched until its result is taken, and a settled one never counts as running', async () => {
    const runner = new OrderedRunner<string, number>();
    runner.add('here', Promise.resolve(1), true);
    const later = deferred<number>();
    runner.add('pool', later.promise);
    expect([runner.running, runner.headDone, runner.size, runner.head]).toEqual([1, true, 2, 'here']);
    expect(await runner.next()).toEqual({ task: 'here', result: 1 });
    const taking = runner.next();
    expect([runner.size, runner.head]).toEqual([1, 'pool']);
    later.resolve(2);
    expect(await taking).toEqual({ task: 'pool', result: 2 });
    expect([runner.size, runner.head]).toEqual([0, undefined]);
  });

  it('rejects in turn for a failed task, without an unhandled rejection while it waits', async () => {
    const runner = new OrderedRunner<number, number>();
    const first = deferred<number>();
    const second = deferred<number>();
    runner.add(0, first.promise);
    runner.add(1, second.promise);
    second.reject(new Error('worker threw'));
    await new Promise((r) => setTimeout(r, 10));
    first.resolve(7);
    expect(await runner.next()).toEqual({ task: 0, result: 7 });
    await expect(runner.next()).rejects.toThrow('worker threw');
    expect(runner.size).toBe(0);
  });

  it('settles every task not taken, for a caller that stops early', async () => {
    const runner = new OrderedRunner<number, number>();
    const slow = deferred<number>();
    let finished = false;
    runner.add(0, slow.promise.then((v) => ((finished = true), v)));
    setTimeout(() => slow.resolve(1), 5);
    await runner.settle();
    expect(finished).toBe(true);
  });
});
