import { describe, expect, it } from 'vitest';
import { FractionSum, floatAbove, floatBelow, floatFraction, fraction, gcd, oneIn, type Fraction } from './rational.js';

/** a/b < c/d by cross multiplication (all positive). */
const below = (a: Fraction, b: Fraction): boolean => a.num * b.den < b.num * a.den;
const bits = (x: number): bigint => {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0);
};
const equal = (a: Fraction, b: Fraction): boolean => a.num * b.den === b.num * a.den;

describe('rationals', () => {
  it('reduces fractions and sums them over a common denominator', () => {
    expect(fraction(6n, 8n)).toEqual({ num: 3n, den: 4n });
    const sum = new FractionSum();
    sum.add(1n, { num: 1n, den: 6n });
    sum.add(2n, { num: 1n, den: 4n });
    sum.add(-1n, { num: 1n, den: 3n });
    // 1/6 + 1/2 - 1/3 = 1/3
    expect(equal({ num: sum.num, den: sum.den }, { num: 1n, den: 3n })).toBe(true);
  });

  it('reads doubles back exactly', () => {
    expect(floatFraction(0.5)).toEqual({ num: 1n << 52n, den: 1n << 53n });
    expect(floatFraction(3)).toEqual({ num: 3n << 51n, den: 1n << 51n });
    const tiny = floatFraction(Number.MIN_VALUE);
    expect(tiny.num).toBe(1n);
    expect(tiny.den).toBe(1n << 1074n);
  });

  it('rounds down and up soundly and tightly, tiny and huge denominators included', () => {
    const cases: Fraction[] = [
      { num: 1n, den: 3n },
      { num: 1n, den: 10n },
      { num: 13n, den: 40n },
      { num: 1n, den: 2n },
      { num: 2n ** 200n - 1n, den: 2n ** 200n },
      { num: 1n, den: 3n ** 700n }, // about 1e-334: subnormal territory is 1e-308 and below
      { num: 7n, den: 2n ** 1100n }, // below the smallest subnormal
      { num: 355n, den: 113n * 1000n },
    ];
    for (const f of cases) {
      const lo = floatFraction(floatBelow(f));
      const hi = floatFraction(floatAbove(f));
      expect(below(f, lo)).toBe(false);
      expect(below(hi, f)).toBe(false);
      // tight: equal when representable, else the two doubles are adjacent
      if (equal(lo, hi)) expect(equal(lo, f)).toBe(true);
      else expect(bits(floatAbove(f)) - bits(floatBelow(f))).toBe(1n);
    }
    expect(floatBelow({ num: 1n, den: 3n })).toBe(0.3333333333333333);
    expect(floatAbove({ num: 1n, den: 3n })).toBe(0.33333333333333337);
    expect(floatBelow({ num: 7n, den: 2n ** 1100n })).toBe(0);
    expect(floatAbove({ num: 7n, den: 2n ** 1100n })).toBe(Number.MIN_VALUE);
  });

  it('says 1 in N', () => {
    expect(oneIn({ num: 2n, den: 710n })).toBe(355);
    expect(oneIn({ num: 0n, den: 1n })).toBe(Infinity);
  });
});

describe('gcd', () => {
  it("agrees with Euclid's algorithm on numbers of every size, common factors and powers of two included", () => {
    const euclid = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : euclid(b, a % b));
    let seed = 12345n;
    const random = (bits: number): bigint => {
      let x = 0n;
      for (let i = 0; i < bits; i += 32) {
        seed = (seed * 6364136223846793005n + 1442695040888963407n) & ((1n << 64n) - 1n);
        x = (x << 32n) | (seed >> 32n);
      }
      return x >> BigInt((32 - (bits % 32)) % 32);
    };
    for (const bits of [1, 20, 53, 54, 64, 100, 500, 3000]) {
      for (let trial = 0; trial < 20; trial++) {
        const common = trial % 3 === 0 ? random(bits >> 1) + 1n : 1n;
        const a = random(bits) * common * (trial % 4 === 0 ? 1n << 70n : 1n);
        const b = (random(bits) + 1n) * common * (trial % 5 === 0 ? -1n : 1n);
        expect(gcd(a, b)).toBe(euclid(a, b));
        expect(gcd(b, a)).toBe(euclid(a, b));
      }
    }
    // consecutive Fibonacci numbers: the most quotient steps for their size
    let [f, g] = [1n, 1n];
    for (let i = 0; i < 3000; i++) [f, g] = [g, f + g];
    expect(gcd(f, g)).toBe(1n);
    expect(gcd(f * 7n, g * 7n)).toBe(7n);
  });
});
