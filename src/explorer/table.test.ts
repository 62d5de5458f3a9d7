import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../engine/loader.js';
import { Rng } from '../random/rng.js';
import { FingerprintTable, lookupShared } from './table.js';

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
      expect(lookupShared(table.words, lo, hi)).toBe(found);
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

  it('inserts without a preceding find, and presizes so a known count never grows', () => {
    const table = new FingerprintTable(50_000);
    const words = table.words;
    for (let i = 0; i < 50_000; i++) table.insert(i, ...fpOf(i));
    expect(table.words).toBe(words);
    for (let i = 0; i < 50_000; i++) expect(table.find(...fpOf(i))).toBe(i);
  });

  it('never gives a reader in another thread a wrong id while the coordinator inserts and grows', async () => {
    // The reader looks up fingerprints 0..N-1 over and over in whatever table it was last sent;
    // every hit must be the id the writer gives fingerprint i (i itself), however the writes interleave.
    const N = 200_000;
    const source = `
      const { parentPort } = require('node:worker_threads');
      import(${JSON.stringify(join(PACKAGE_ROOT, 'dist/src/explorer/table.js'))}).then(({ lookupShared }) => {
        const fpOf = ${fpOf.toString()};
        let table = null, done = false, hits = 0, wrong = 0, lookups = 0;
        parentPort.on('message', (m) => { if (m === 'stop') done = true; else table = new Uint32Array(m); });
        const spin = () => {
          for (let k = 0; k < 20000 && table; k++, lookups++) {
            const i = (lookups * 7919) % ${N};
            const [lo, hi] = fpOf(i);
            const id = lookupShared(table, lo, hi);
            if (id >= 0) { hits++; if (id !== i) wrong++; }
          }
          if (done) parentPort.postMessage({ hits, wrong, lookups });
          else setImmediate(spin);
        };
        parentPort.postMessage('ready');
        spin();
      });`;
    const worker = new Worker(source, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    const table = new FingerprintTable();
    let sent = table.words;
    worker.postMessage(sent.buffer);
    for (let i = 0; i < N; i++) {
      table.insert(i, ...fpOf(i));
      if (table.words !== sent) {
        sent = table.words;
        worker.postMessage(sent.buffer);
      }
      // Give the reader time to run between bursts of writes.
      if (i % 20_000 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    worker.postMessage('stop');
    const report = await new Promise<{ hits: number; wrong: number; lookups: number }>((resolve) => worker.once('message', resolve));
    await worker.terminate();
    expect(report.wrong).toBe(0);
    expect(report.hits).toBeGreaterThan(0);
  });
});
