/** Timing with warm-up and repetitions; results are medians (the machines are shared and noisy). */
import { collectGarbage } from '../src/parallel/index.js';

export interface Timing {
  median: number;
  runs: number[];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Runs and their median. */
export function timing(runs: number[]): Timing {
  return { median: median(runs), runs };
}

/** Each run divided by the same round's run of `base`: ratios that cancel the machine's drift. */
export function perRound(runs: number[], base: number[]): Timing {
  return timing(runs.map((x, i) => x / base[i]));
}

/** Runs `fn` once to warm up, then `reps` times; `fn` returns a rate (work per second). */
export async function rate(reps: number, fn: () => number | Promise<number>): Promise<Timing> {
  collectGarbage();
  await fn();
  const runs: number[] = [];
  for (let i = 0; i < reps; i++) {
    collectGarbage();
    runs.push(await fn());
  }
  return timing(runs);
}

/**
 * Measurements collect garbage in between (the project's full collection, which needs no
 * --expose-gc), so one measurement's garbage is not charged to the next: after the naive
 * explorer's heap, the explorer's coordinator ran 20-30% slower.
 */
export { collectGarbage };

/** Seconds taken by `fn`. */
export async function seconds(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return (performance.now() - t) / 1000;
}
