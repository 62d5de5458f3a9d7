import type { PWin } from './probability.js';
import { decimalFraction, floatFraction, type Fraction } from './rational.js';

export type Verdict = 'pass' | 'fail' | 'inconclusive';

/** The ARC-AGI-3 acceptance threshold: a random policy must not win more than 1 in 10,000 attempts. */
export const DEFAULT_THRESHOLD = 1e-4;

/**
 * Pass when even the upper bound is at most the threshold (ARC: a level must not be solved "more often
 * than 1 in 10,000 attempts", so exactly 1 in 10,000 passes), fail when even the lower bound is above it.
 * Compared exactly with the threshold as written (1e-4 is 1/10,000, not the nearest double), and an
 * exact probability by its fraction.
 */
export function verdictFor(lower: number, upper: number, threshold: number, exact?: Fraction, bounds: { lower?: Fraction; upper?: Fraction } = {}): Verdict {
  const t = decimalFraction(threshold);
  const atMost = (f: Fraction): boolean => f.num * t.den <= t.num * f.den;
  if (exact) return atMost(exact) ? 'pass' : 'fail';
  // Exact bounds where a partial graph's solves were exact: a bound's double can lie across the threshold its fraction meets.
  if (atMost(bounds.upper ?? floatFraction(upper))) return 'pass';
  if (!atMost(bounds.lower ?? floatFraction(lower))) return 'fail';
  return 'inconclusive';
}

/**
 * Clean random attempts (no win) that certify p < threshold at 95% confidence: the one-sided
 * Clopper-Pearson bound after n attempts without a win is 1 - 0.05^(1/n).
 */
export function attemptsToCertify(threshold: number): number {
  return Math.ceil(Math.log(0.05) / Math.log1p(-threshold));
}

/** What would settle an inconclusive verdict. */
export function settleHint(pWin: PWin, threshold: number, frontier: number): string {
  const show = (x: number): string => (x === 0 || x === 1 ? String(x) : x.toPrecision(4));
  const bounds = `p in [${show(pWin.lower)}, ${show(pWin.upper)}] straddles ${threshold}`;
  if (pWin.method === 'bounds') {
    return (
      `${bounds}: explore further (${frontier} frontier states unexplored), ` +
      `or run random attempts (${attemptsToCertify(threshold)} attempts without a win certify p < ${threshold} at 95%)`
    );
  }
  return `${bounds}: interval iteration stopped on its work budget; give it a larger budget or a tighter tolerance`;
}
