/** Exact non-negative rationals over BigInt, and their sound conversion to floating point. */
import type { MemoryCheck } from './memory.js';

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
const TWO_64 = LIMB_POWERS[1];

/** The number of 64-bit limbs of |x| (at least 1). */
export function limbs(x: bigint): number {
  if (x < 0n) x = -x;
  if (x < TWO_64) return 1;
  let lo = 2;
  let hi = LIMB_POWERS.length - 1;
  if (x >= LIMB_POWERS[hi]) return Math.ceil(x.toString(16).length / 16);
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x < LIMB_POWERS[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Bounds the cost of exact arithmetic, deterministically (the same graph always gets the same
 * method): work counted in limb operations (an operation on an n-limb number costs n, a product of
 * an n-limb and an m-limb number n * m), a cap on the size of any number, and a cap on how many
 * numbers an elimination may hold at once (`maxFill`: what bounds its plain arrays of BigInts).
 */
export class ExactBudget {
  private readonly limit: bigint;
  /** The memory check, and the work since it was last asked (see watch). */
  private memory?: MemoryCheck;
  private sinceCheck = 0;
  constructor(
    private work: number,
    readonly maxBits: number,
    readonly maxFill = 10_000_000,
  ) {
    this.limit = 1n << BigInt(maxBits);
  }
  /** From now on, asks `memory` every MEMORY_CHECK_UNITS of work and runs out when it says no (the numbers an exact solve holds live in the JavaScript heap). */
  watch(memory: MemoryCheck): this {
    this.memory = memory;
    return this;
  }
  /** Charges `times` operations on numbers the size of x. */
  spend(x: bigint, times = 1): void {
    this.charge(limbs(x) * times);
  }
  /** Charges `units` limb operations. */
  charge(units: number): void {
    this.work -= units;
    if (this.work < 0) throw new BudgetExceeded('the exact arithmetic budget ran out');
    if (this.memory && (this.sinceCheck += units) >= MEMORY_CHECK_UNITS) {
      this.sinceCheck = 0;
      if (!this.memory(0)) throw new BudgetExceeded('the memory budget ran out');
    }
  }
  /** Work left, in limb operations. */
  get left(): number {
    return this.work;
  }
  /** Checks a number's size (numbers past `maxBits` make every later operation slow). */
  check(x: bigint): bigint {
    if (x >= this.limit || -x >= this.limit) throw new BudgetExceeded(`a number outgrew ${this.maxBits} bits`);
    return x;
  }
}

/** Work between two memory checks of a watched budget: a few milliseconds of arithmetic. */
const MEMORY_CHECK_UNITS = 2 ** 22;

/** 2^53: integers below it are exact in a double. */
const SAFE = 1n << 53n;

/** Euclid on doubles (both below 2^53, so every remainder is exact). */
function gcdNumber(a: number, b: number): number {
  while (b !== 0) {
    const r = a % b;
    a = b;
    b = r;
  }
  return a;
}

const trailingZeros = (x: bigint): bigint => BigInt(bitLength(x & -x) - 1);

/**
 * Greatest common divisor. Numbers below 2^53 go through doubles (most of an elimination's are
 * small, and a BigInt operation costs tens of nanoseconds). Past that, factors of two are taken out
 * first by shifts; Lehmer's algorithm does the rest.
 */
export function gcd(a: bigint, b: bigint, budget?: ExactBudget): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  if (a === 0n) return b;
  if (b === 0n) return a;
  if (a < SAFE && b < SAFE) {
    budget?.charge(1);
    return BigInt(gcdNumber(Number(a), Number(b)));
  }
  budget?.spend(a > b ? a : b, 4);
  // powers of two out by shifts (weights are multiples of 4,096: denominators are rich in them)
  const za = (a & 1n) === 0n ? trailingZeros(a) : 0n;
  const zb = (b & 1n) === 0n ? trailingZeros(b) : 0n;
  return lehmer(a >> za, b >> zb, budget) << (za < zb ? za : zb);
}

/** floor(x / y) for integers 0 <= x, 0 < y below 2^50, exactly (a double quotient may round up). */
function floorDiv(x: number, y: number): number {
  let q = Math.floor(x / y);
  if (q * y > x) q--;
  else if ((q + 1) * y <= x) q++;
  return q;
}

/** The bit length of x >= 0. */
function bitLength(x: bigint): number {
  if (x === 0n) return 0;
  const hex = x.toString(16);
  return 4 * (hex.length - 1) + (32 - Math.clz32(parseInt(hex[0], 16)));
}

/**
 * Lehmer's gcd (Knuth, TAOCP 4.5.2, Algorithm L): Euclid's quotients are simulated on the leading 48
 * bits in doubles while they are certain, then applied to the big numbers in one step, so a
 * BigInt operation clears about 24 bits instead of Euclid's 1.7.
 */
function lehmer(a: bigint, b: bigint, budget?: ExactBudget): bigint {
  if (a < b) [a, b] = [b, a];
  // a's leading 48 bits are a >> shift; the shift follows a down as it shrinks (no bit length anew)
  let shift = bitLength(a) - 48;
  while (b >= SAFE) {
    let ah = Number(a >> BigInt(shift));
    while (ah < 2 ** 40 && shift > 0) {
      shift = Math.max(0, shift - (ah === 0 ? 48 : 48 - numberBits(ah)));
      ah = Number(a >> BigInt(shift));
    }
    let bh = Number(b >> BigInt(shift));
    let A = 1;
    let B = 0;
    let C = 0;
    let D = 1;
    for (;;) {
      if (bh + C <= 0 || bh + D <= 0 || ah + A < 0 || ah + B < 0) break;
      const q = floorDiv(ah + A, bh + C);
      if (q !== floorDiv(ah + B, bh + D)) break;
      let t = A - q * C;
      A = C;
      C = t;
      t = B - q * D;
      B = D;
      D = t;
      t = ah - q * bh;
      ah = bh;
      bh = t;
    }
    budget?.spend(a, 4);
    if (B === 0) {
      const r = a % b;
      a = b;
      b = r;
    } else {
      const na = BigInt(A) * a + BigInt(B) * b;
      b = BigInt(C) * a + BigInt(D) * b;
      a = na;
    }
  }
  if (b === 0n) return a;
  return BigInt(gcdNumber(Number(b), Number(a % b)));
}

/** The bit length of an integer 0 < x < 2^53. */
function numberBits(x: number): number {
  return x >= 2 ** 32 ? 64 - Math.clz32(Math.floor(x / 2 ** 32)) : 32 - Math.clz32(x);
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
