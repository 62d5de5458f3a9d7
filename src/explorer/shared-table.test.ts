import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { Rng } from '../player/rng.js';
import { PACKAGE_ROOT } from '../suite/index.js';
import { CLAIMED, FOUND_TICKET, ID_BASE, RESERVE_BLOCK, SharedTable } from './shared-table.js';

/** Fingerprints with few distinct halves, so many share a home slot, a low half or a high half. */
function crowded(count: number, seed: number): [number, number][] {
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => [(rng.below(4096) * 0x100001) >>> 0, (rng.below(64) * 0x9e3779b1) >>> 0]);
}

describe('SharedTable', () => {
  it('claims each fingerprint once and finds it after, against a Map, through near-collisions and growth', () => {
    let table = SharedTable.create(5000);
    const truth = new Map<string, number>();
    let next = 0;
    for (const [lo, hi] of crowded(40_000, 3)) {
      const key = `${lo}:${hi}`;
      if (table.claims > 0.75 * table.capacity) table = table.grown(Math.ceil(table.capacity * 1.5));
      expect(table.reserve(1)).toBe(true);
      const got = table.claim(lo, hi, 3 * next);
      const known = truth.get(key);
      if (known === undefined) {
        expect(got).toBe(CLAIMED);
        expect(table.tag(table.slot)).toBe(-1 - 3 * next);
        truth.set(key, 3 * next++);
      } else {
        expect(got).toBe(FOUND_TICKET);
        expect(table.ticket).toBe(known);
      }
      expect(table.find(lo, hi)).toBe(table.slot);
    }
    table.release();
    expect(table.capacity).toBeGreaterThan(5000 * 1.5 ** 3);
    // Growing kept every tag as it was.
    for (const [key, ticket] of truth) {
      const [lo, hi] = key.split(':').map(Number);
      expect(table.tag(table.find(lo, hi))).toBe(-1 - ticket);
    }
    let entries = 0;
    table.forEach((lo, hi, tag) => {
      entries++;
      expect(truth.get(`${lo}:${hi}`)).toBe(-1 - tag);
    });
    expect(entries).toBe(truth.size);
    expect(table.find(12345, 678)).toBe(-1);
  });

  it('reports a fingerprint a thread claimed by its claimer\'s ticket, and one the coordinator inserted by its id', () => {
    const table = SharedTable.create(4096);
    table.reserve(3);
    const last = 2 ** 31 - 1;
    expect(table.claim(7, 8, last)).toBe(CLAIMED);
    expect(table.claim(7, 8, 5)).toBe(FOUND_TICKET);
    expect(table.ticket).toBe(last);
    expect(table.claim(9, 10, 0)).toBe(CLAIMED);
    expect(table.claim(9, 10, 3)).toBe(FOUND_TICKET);
    expect(table.ticket).toBe(0);
    table.insertAt(-1 - table.lookup(11, 12), 11, 12, 41);
    expect(table.claim(11, 12, 6)).toBe(41);
    expect(table.tag(table.find(11, 12))).toBe(41 + ID_BASE);
  });

  it('refuses reservations past its limit, so claims never fill it', () => {
    const table = SharedTable.create(10_000, 3000);
    expect(table.reserve(2500)).toBe(true);
    const other = new SharedTable(table.handle);
    expect(other.reserve(1000)).toBe(false);
    expect(other.reserve(400)).toBe(true);
    expect(table.claims).toBe(2500 + 400);
    table.release();
    other.release();
    expect(table.claims).toBe(0);
  });

  it('reserves at most 1/256 of a small table at a time, so blocks other threads hold do not fill it', () => {
    // 4,096 slots, refused past 3,686: three threads' blocks of 1,024 would leave no room for a batch of 700.
    const table = SharedTable.create(4096);
    const threads = [0, 1, 2].map(() => new SharedTable(table.handle));
    for (const thread of threads) expect(thread.reserve(1)).toBe(true);
    expect(table.claims).toBe(3 * 16);
    expect(table.reserve(700)).toBe(true);
    // A large table reserves whole blocks: one atomic add per 1,024 claims.
    const large = SharedTable.create(2 ** 20);
    expect(large.reserve(1)).toBe(true);
    expect(large.claims).toBe(RESERVE_BLOCK);
  });

  it('gives every fingerprint one claimer when threads claim the same ones at once', async () => {
    const table = SharedTable.create(200_000);
    const fps = crowded(60_000, 11);
    const lo = new Uint32Array(new SharedArrayBuffer(4 * fps.length));
    const hi = new Uint32Array(new SharedArrayBuffer(4 * fps.length));
    fps.forEach(([l, h], i) => ((lo[i] = l), (hi[i] = h)));
    // Each thread claims every fingerprint, from a different starting point, under a ticket that
    // is the fingerprint's index, and says which it claimed. Threads load the built module (npm test builds first), as the pool's workers do.
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      const { handle, lo, hi, start } = workerData;
      import(${JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist/src/explorer/shared-table.js')).href)}).then(({ SharedTable, CLAIMED }) => {
        const table = new SharedTable(handle);
        const a = new Uint32Array(lo), b = new Uint32Array(hi);
        const mine = [], found = [];
        for (let n = 0; n < a.length; n++) {
          const i = (start + n) % a.length;
          table.reserve(1);
          const got = table.claim(a[i], b[i], i);
          if (got === CLAIMED) mine.push(i);
          else found.push(i, table.ticket);
        }
        table.release();
        parentPort.postMessage({ mine, found });
      });`;
    const threads = [0, 15_000, 30_000, 45_000].map((start) => new Worker(code, { eval: true, workerData: { handle: table.handle, lo: lo.buffer, hi: hi.buffer, start } }));
    const replies = await Promise.all(threads.map((w) => new Promise<{ mine: number[]; found: number[] }>((resolve, reject) => w.once('message', resolve).once('error', reject))));
    await Promise.all(threads.map((w) => w.terminate()));
    const claimed = replies.map((r) => r.mine);
    const distinct = new Map<string, number>();
    fps.forEach(([l, h], i) => distinct.set(`${l}:${h}`, distinct.get(`${l}:${h}`) ?? i));
    const winners = claimed.flat().map((i) => `${lo[i]}:${hi[i]}`);
    expect(new Set(winners).size).toBe(winners.length);
    expect(new Set(winners)).toEqual(new Set(distinct.keys()));
    // Each slot holds its winner's ticket, whole (published after the fingerprint, once), and
    // every thread that found a fingerprint claimed read its winner's ticket.
    const winnerOf = new Map(claimed.flat().map((i) => [`${lo[i]}:${hi[i]}`, i]));
    let founds = 0;
    for (const { found } of replies) {
      for (let j = 0; j < found.length; j += 2, founds++) expect(found[j + 1]).toBe(winnerOf.get(`${lo[found[j]]}:${hi[found[j]]}`));
    }
    expect(founds).toBe(4 * fps.length - winnerOf.size);
    for (const key of distinct.keys()) {
      const [l, h] = key.split(':').map(Number);
      expect(table.tag(table.find(l, h))).toBe(-1 - winnerOf.get(key)!);
    }
  });

  it('estimates the bytes the system committed for its slots, sparse or full, as the resident set grows', () => {
    const rng = new Rng(11);
    // Each table is kept, so that none is freed while the next one's growth is measured.
    const tables: SharedTable[] = [];
    for (const claims of [2_000, 20_000, 400_000]) {
      const table = SharedTable.create(2 ** 23);
      tables.push(table);
      const before = process.memoryUsage.rss();
      for (let i = 0; i < claims; i++) {
        const lo = (rng.below(2 ** 16) * 2 ** 16 + rng.below(2 ** 16)) >>> 0;
        const found = table.lookup(lo, i);
        if (found < 0) table.insertAt(-1 - found, lo, i, i);
      }
      const grown = process.memoryUsage.rss() - before;
      // 2,000 claims touch ~8 MB of the 100 MB, 20,000 about half, 400,000 all of it. Where the
      // system backs memory with 2 MB pages unasked, a few claims commit it all: the estimate is
      // then low, which the budget can bear (it counts the table as memory the search will free).
      if (hugePagesAlways()) expect(table.residentBytes).toBeLessThan(grown + 0.1 * table.bytes);
      else expect(Math.abs(table.residentBytes - grown)).toBeLessThan(0.1 * table.bytes);
      expect(table.residentBytes).toBeLessThanOrEqual(table.bytes);
    }
  });
});

/** Whether Linux backs every large allocation with transparent huge pages (not only those that ask). */
function hugePagesAlways(): boolean {
  try {
    return readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8').includes('[always]');
  } catch {
    return false;
  }
}
