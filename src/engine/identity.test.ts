import { beforeAll, describe, expect, it } from 'vitest';
import boom from '../../test/fixtures/boom.js';
import lights from '../../test/fixtures/lights.js';
import maze from '../../test/fixtures/maze.js';
import ruin from '../../test/fixtures/ruin.js';
import { playerMoves, type Game } from './game.js';
import { collisionProbability, collisionWarning, fingerprint, fingerprintHex, hash64, initIdentity } from './identity.js';

beforeAll(initIdentity);

/** Small seeded PRNG (mulberry32) so failures reproduce. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Structural identity independent of `encode`: JSON with keys sorted at every depth. */
function structural(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(structural).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${structural((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** The same state with its keys inserted in reverse order (a differently built equal object). */
function rebuilt(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rebuilt);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).reverse()) out[k] = rebuilt((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe.each([
  ['ruin', ruin],
  ['maze', maze],
  ['lights', lights],
  ['boom', boom],
])('canonical identity of %s', (_name, game: Game) => {
  it('gives equal states identical bytes and distinct states distinct bytes, whatever path built them', () => {
    const random = rng(12345);
    const bytesOf = new Map<string, string>(); // structural state -> encoded bytes
    const stateOf = new Map<string, string>(); // encoded bytes -> structural state
    const pathsTo = new Map<string, Set<string>>();
    for (let walk = 0; walk < 300; walk++) {
      const level = 1 + Math.floor(random() * game.levels);
      let state = game.init(level);
      const path: string[] = [`L${level}`];
      for (let step = 0; step < 12 && game.status(state) === 'playing'; step++) {
        const options = playerMoves(game, state);
        const action = options[Math.floor(random() * options.length)];
        try {
          state = game.step(state, action);
        } catch {
          break; // boom's planted crash: not an identity question
        }
        path.push(`${action.id}:${action.x ?? ''},${action.y ?? ''}`);
        const key = structural(state);
        const bytes = hex(game.encode(state));
        expect(bytesOf.get(key) ?? bytes).toBe(bytes);
        expect(stateOf.get(bytes) ?? key).toBe(key);
        bytesOf.set(key, bytes);
        stateOf.set(bytes, key);
        if (!pathsTo.has(key)) pathsTo.set(key, new Set());
        pathsTo.get(key)!.add(path.join(' '));
        expect(hex(game.encode(rebuilt(state)))).toBe(bytes);
        const decoded = game.decode(game.encode(state));
        expect(structural(decoded)).toBe(key);
        expect(hex(game.encode(decoded))).toBe(bytes);
      }
    }
    // the property was exercised: many states were reached along several different paths
    const merged = [...pathsTo.values()].filter((p) => p.size > 1).length;
    expect(merged).toBeGreaterThan(3);
  });

  it('hashes equal bytes to equal fingerprints, and the halves rebuild the 64-bit hash', () => {
    const state = game.init(1);
    const h = hash64(game.encode(state));
    expect(hash64(game.encode(rebuilt(state)))).toBe(h);
    const f = fingerprint(game.encode(state));
    expect((BigInt(f.hi) << 32n) | BigInt(f.lo)).toBe(h);
    expect(fingerprintHex(f.lo, f.hi)).toBe(h.toString(16).padStart(16, '0'));
  });
});

describe('hash64', () => {
  it('is xxHash64 with seed 0 (reference vectors)', () => {
    expect(hash64(new Uint8Array(0))).toBe(0xef46db3751d8e999n);
    expect(hash64(new TextEncoder().encode('a'))).toBe(0xd24ec4f1a98c6e5bn);
  });

  it('splits into the fingerprint halves exactly, whatever the high bits', () => {
    const random = rng(99);
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const bytes = Uint8Array.from({ length: Math.floor(random() * 80) }, () => Math.floor(random() * 256));
      const h = hash64(bytes);
      const f = fingerprint(bytes);
      expect([f.lo, f.hi]).toEqual([Number(h & 0xffffffffn), Number(h >> 32n)]);
      seen.add(`${f.lo >= 2 ** 31}${f.hi >= 2 ** 31}`);
    }
    expect(seen.size).toBe(4);
  });
});

describe('collisionProbability', () => {
  it('is d*(g-d)/2^64, capped at 1', () => {
    expect(collisionProbability(1e6, 3e6)).toBeCloseTo((1e6 * 2e6) / 2 ** 64, 25);
    expect(collisionProbability(10, 10)).toBe(0);
    expect(collisionProbability(2 ** 40, 2 ** 41)).toBe(1);
  });

  it('is worth a warning from 1e-3 on: bx19 level 6 (606.7M states, 2.91G transitions) gets one, level 3 (63.6M, 209M) not', () => {
    const level6 = collisionProbability(606_669_660, 2_910_000_000);
    expect(level6).toBeCloseTo(0.076, 2);
    expect(collisionWarning(level6)).toMatch(/odds 7\.6e-2\b.*exact for the graph as merged/);
    expect(collisionWarning(collisionProbability(63_562_700, 208_990_215))).toBeUndefined();
    expect(collisionWarning(1e-3)).toBeDefined();
  });
});
