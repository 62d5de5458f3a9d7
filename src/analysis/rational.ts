/** Exact non-negative rationals over BigInt, and their sound conversion to floating point. */

/** A fraction num/den in lowest terms, den > 0. */
export interface Fraction {
  readonly num: bigint;
  readonly den: bigint;
}

export const ZERO: Fraction = { num: 0n, den: 1n };
export const ONE: Fraction = { num: 1n, den: 1n };

/** Thrown when exact arithmetic outgrows its budget; the caller falls back to an interval. */
export class BudgetExceeded extends Error {}

/** 2^(64k) for k = 0..128: limb counts by binary search. */
const LIMB_POWERS = Array.from({ length: 129 }, (_, k) => 1n << BigInt(64 * k));

/** The number of 64-bit limbs of |x| (at least 1; capped past 8,192 bits). */
export function limbs(x: bigint): number {
  if (x < 0n) x = -x;
  let lo = 1;
  let hi = LIMB_POWERS.length - 1;
  if (x >= LIMB_POWERS[hi]) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x < LIMB_POWERS[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Bounds the cost of exact arithmetic, deterministically (the same graph always gets the same
 * method): work counted in limb operations (an operation on an n-limb number costs n), and a cap on
 * the size of any number.
 */
export class ExactBudget {
  private readonly limit: bigint;
  constructor(
    private work: number,
    readonly maxBits: number,
  ) {
    this.limit = 1n << BigInt(maxBits);
  }
  /** Charges `times` operations on numbers the size of x. */
  spend(x: bigint, times = 1): void {
    this.work -= limbs(x) * times;
    if (this.work < 0) throw new BudgetExceeded('exact arithmetic budget spent');
  }
  /** Checks a number's size (numbers past `maxBits` make every later operation slow). */
  check(x: bigint): bigint {
    if (x >= this.limit || -x >= this.limit) throw new BudgetExceeded(`a number outgrew ${this.maxBits} bits`);
    return x;
  }
}

const trailingZeros = (x: bigint): bigint => BigInt((x & -x).toString(2).length - 1);

/**
 * Greatest common divisor. Factors of two are taken out first by shifts (weights are multiples of
 * 4,096, so denominators are rich in them); Euclid does the rest.
 */
export function gcd(a: bigint, b: bigint, budget?: ExactBudget): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  if (a === 0n) return b;
  if (b === 0n) return a;
  budget?.spend(a > b ? a : b, 4);
  const za = trailingZeros(a);
  const zb = trailingZeros(b);
  a >>= za;
  b >>= zb;
  while (b !== 0n) {
    budget?.spend(a);
    [a, b] = [b, a % b];
  }
  return a << (za < zb ? za : zb);
}

export function fraction(num: bigint, den: bigint, budget?: ExactBudget): Fraction {
  if (den < 0n) (num = -num), (den = -den);
  const g = gcd(num, den, budget);
  return g > 1n ? { num: num / g, den: den / g } : { num, den };
}

/** Accumulates a sum of fractions over a running common denominator. */
export class FractionSum {
  num = 0n;
  den = 1n;
  constructor(private readonly budget?: ExactBudget) {}
  /** Adds w * f, w an integer. */
  add(w: bigint, f: Fraction): void {
    if (f.num === 0n || w === 0n) return;
    this.budget?.spend(this.den > f.den ? this.den : f.den, 3);
    if (f.den === this.den) {
      this.num += w * f.num;
      return;
    }
    const g = gcd(this.den, f.den, this.budget);
    const scale = f.den / g;
    this.num = this.num * scale + w * f.num * (this.den / g);
    this.den *= scale;
    this.budget?.check(this.den);
  }
}

export function compareFractions(a: Fraction, b: Fraction): number {
  const l = a.num * b.den;
  const r = b.num * a.den;
  return l < r ? -1 : l > r ? 1 : 0;
}

const view = new DataView(new ArrayBuffer(8));

/** The exact value of a finite non-negative double as a (not necessarily reduced) fraction. */
export function floatFraction(x: number): Fraction {
  if (!(x >= 0) || !Number.isFinite(x)) throw new RangeError(`not a finite non-negative number: ${x}`);
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number(bits >> 52n);
  const mantissa = bits & ((1n << 52n) - 1n);
  // value = m * 2^e with subnormals (exponent 0) not getting the implicit bit
  const m = exponent === 0 ? mantissa : mantissa | (1n << 52n);
  const e = (exponent === 0 ? 1 : exponent) - 1075;
  return e >= 0 ? { num: m << BigInt(e), den: 1n } : { num: m, den: 1n << BigInt(-e) };
}

/** The decimal a double prints as (what a user typed: 1e-4 is 1/10,000, not the double's binary value). */
export function decimalFraction(x: number): Fraction {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(x));
  if (!m) throw new RangeError(`not a finite non-negative number: ${x}`);
  const digits = BigInt(m[1] + (m[2] ?? ''));
  const exponent = Number(m[3] ?? 0) - (m[2]?.length ?? 0);
  return exponent >= 0 ? { num: digits * 10n ** BigInt(exponent), den: 1n } : fraction(digits, 10n ** BigInt(-exponent));
}

function nextUp(x: number): number {
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) + 1n);
  return view.getFloat64(0);
}

function nextDown(x: number): number {
  if (x === 0) return 0;
  view.setFloat64(0, x);
  view.setBigUint64(0, view.getBigUint64(0) - 1n);
  return view.getFloat64(0);
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

/** A close double to num/den (num, den >= 0), with about 64 bits of quotient before rounding. */
export function approximate(f: Fraction): number {
  if (f.num === 0n) return 0;
  const shift = bitLength(f.den) - bitLength(f.num) + 64;
  const q = shift >= 0 ? (f.num << BigInt(shift)) / f.den : f.num / (f.den << BigInt(-shift));
  // scale in two halves so that neither power of two underflows on its own
  const half = Math.trunc(shift / 2);
  return Number(q) * 2 ** -half * 2 ** -(shift - half);
}

/** The largest double not above f. */
export function floatBelow(f: Fraction): number {
  let x = approximate(f);
  while (compareFractions(floatFraction(x), f) > 0) x = nextDown(x);
  while (compareFractions(floatFraction(nextUp(x)), f) <= 0) x = nextUp(x);
  return x;
}

/** The smallest double not below f. */
export function floatAbove(f: Fraction): number {
  let x = approximate(f);
  while (compareFractions(floatFraction(x), f) < 0) x = nextUp(x);
  while (x > 0 && compareFractions(floatFraction(nextDown(x)), f) >= 0) x = nextDown(x);
  return x;
}

/** "1 in N": den / num as a double (Infinity for zero). */
export function oneIn(f: Fraction): number {
  return f.num === 0n ? Infinity : approximate({ num: f.den, den: f.num });
}
