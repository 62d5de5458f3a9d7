/** State identity: 64-bit xxhash fingerprints of canonical bytes, and the collision odds of a run. */
import xxhash from 'xxhash-wasm';

/** A 64-bit state fingerprint split in two unsigned 32-bit halves (typed-array friendly). */
export interface Fingerprint {
  lo: number;
  hi: number;
}

type Hasher = Awaited<ReturnType<typeof xxhash>>;
let hasher: Hasher | undefined;

/** Loads the xxHash WebAssembly module once per thread; call before `fingerprint`. */
export async function initIdentity(): Promise<void> {
  hasher ??= await xxhash();
}

function ready(): Hasher {
  if (!hasher) throw new Error('identity not initialised: await initIdentity() first');
  return hasher;
}

/** xxHash64 (seed 0) of canonical state bytes, as a bigint. */
export function hash64(bytes: Uint8Array): bigint {
  return ready().h64Raw(bytes);
}

/**
 * The hash is split through a 64-bit view of two 32-bit words: BigInt arithmetic
 * (asUintN, shift) allocates, and cost as much as the hash of a small state.
 */
const wide = new BigUint64Array(1);
const halves = new Uint32Array(wide.buffer);
const LO = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 0 : 1;

/** xxHash64 of the bytes written into `out` (no allocation on the hot path). */
export function fingerprintInto(bytes: Uint8Array, out: Fingerprint): Fingerprint {
  wide[0] = ready().h64Raw(bytes);
  out.lo = halves[LO];
  out.hi = halves[1 - LO];
  return out;
}

export function fingerprint(bytes: Uint8Array): Fingerprint {
  return fingerprintInto(bytes, { lo: 0, hi: 0 });
}

/** 16 hex digits, as printed in reports and exports. */
export function fingerprintHex(lo: number, hi: number): string {
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/**
 * Probability that some pair of the `distinct` states shares a 64-bit fingerprint, given
 * `generated` successor computations (as TLC reports it: d*(g-d)/2^64), capped at 1.
 */
export function collisionProbability(distinct: number, generated: number): number {
  return Math.min(1, (distinct * Math.max(0, generated - distinct)) / 2 ** 64);
}

/** Collision odds from which a graph's numbers are worth a warning (reached near 10^8 states: bx19 level 5 has 0.0034). */
export const COLLISION_WARNING = 1e-3;

/** What people should know about these collision odds: nothing below COLLISION_WARNING. */
export function collisionWarning(probability: number): string | undefined {
  if (probability < COLLISION_WARNING) return undefined;
  return `two distinct states may share a 64-bit fingerprint (odds ${probability.toExponential(1)}) and be merged as one: the counts and probabilities are exact for the graph as merged`;
}
