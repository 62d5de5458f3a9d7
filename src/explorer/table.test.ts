import { describe, expect, it } from 'vitest';
import { Rng } from '../player/rng.js';
import { FingerprintTable } from './table.js';

/**
 * Fingerprint i of a sequence where every low half is shared by several fingerprints (same probe
 * chain, told apart by the high half) and every high half by thousands.
 */
const fpOf = (i: number): [number, number] => [Math.imul((i % 40_000) + 1, 0x9e3779b1) >>> 0, Math.imul(Math.floor(i / 40_000) + 1, 0x85ebca6b) >>> 0];

describe('FingerprintTable', () => {
  it('finds every fingerprint it holds and no other, through growth and near-collisions', () => {
    const table = new FingerprintTable();
    const truth = new Map<string, number>();
    const rng = new Rng(7);
    for (let i = 0; i < 80_000; i++) {
      const [lo, hi] = fpOf(rng.below(120_000));
      const found = table.find(lo, hi);
      expect(found).toBe(truth.get(`${lo}:${hi}`) ?? -1);
      if (found < 0) {
        table.insert(truth.size, lo, hi);
        truth.set(`${lo}:${hi}`, truth.size);
      }
    }
    expect(table.size).toBe(truth.size);
    for (const [key, id] of truth) {
      const [lo, hi] = key.split(':').map(Number);
      expect(table.find(lo, hi)).toBe(id);
    }
  });

  it('fills the slot a lookup of an absent fingerprint stopped at, through growth', () => {
    const table = new FingerprintTable();
    const truth = new Map<string, number>();
    const rng = new Rng(11);
    for (let i = 0; i < 80_000; i++) {
      const [lo, hi] = fpOf(rng.below(120_000));
      const found = table.lookup(lo, hi);
      const id = truth.get(`${lo}:${hi}`);
      if (id !== undefined) {
        expect(found).toBe(id);
        continue;
      }
      expect(found).toBeLessThan(0);
      expect(table.words[3 * (-1 - found)]).toBe(0);
      table.insert(truth.size, lo, hi, found);
      truth.set(`${lo}:${hi}`, truth.size);
    }
    expect(table.size).toBe(truth.size);
    for (const [key, id] of truth) expect(table.find(...(key.split(':').map(Number) as [number, number]))).toBe(id);
  });

  it('presizes so a known count of inserts never grows the table', () => {
    const table = new FingerprintTable(50_000);
    const words = table.words;
    for (let i = 0; i < 50_000; i++) table.insert(i, ...fpOf(i));
    expect(table.words).toBe(words);
    for (let i = 0; i < 50_000; i++) expect(table.find(...fpOf(i))).toBe(i);
  });
});
