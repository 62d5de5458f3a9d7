import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../suite/index.js';
import { MAX_TICKET, TICKET_BLOCK, TICKETS_PER_CHUNK, TicketIds, TicketSource, TicketView } from './tickets.js';

describe('tickets', () => {
  it('resolve to the ids the coordinator wrote, in every view of them, and to -1 before', () => {
    const ids = new TicketIds();
    expect(ids.get(0)).toBe(-1);
    expect(ids.get(MAX_TICKET)).toBe(-1);
    ids.set(0, 0);
    ids.set(7, 41);
    // Past the first chunk of ids: a second one is added.
    ids.set(TICKETS_PER_CHUNK + 3, 9);
    // A worker's view, from a handle cloned as postMessage clones it.
    const view = new TicketView(structuredClone(ids.handle));
    for (const v of [ids, view]) {
      expect([v.get(0), v.get(7), v.get(8), v.get(TICKETS_PER_CHUNK + 3), v.get(TICKETS_PER_CHUNK + 2)]).toEqual([0, 41, -1, 9, -1]);
    }
    // A view taken before a chunk existed reads its tickets as not numbered yet.
    const early = new TicketView(structuredClone({ ...ids.handle, chunks: ids.handle.chunks.slice(0, 1) }));
    expect([early.get(7), early.get(TICKETS_PER_CHUNK + 3)]).toEqual([41, -1]);
  });

  it('are drawn a block at a time, each once, and a block of another exploration is not used', () => {
    const ids = new TicketIds();
    const source = new TicketSource(ids.handle);
    // A ticket not claimed under is offered again.
    expect([source.peek(), source.peek()]).toEqual([0, 0]);
    const drawn: number[] = [];
    for (let i = 0; i < TICKET_BLOCK + 10; i++) {
      drawn.push(source.peek());
      source.take();
    }
    expect(drawn).toEqual(Array.from({ length: TICKET_BLOCK + 10 }, (_, i) => i));
    expect(ids.drawn).toBe(2 * TICKET_BLOCK);
    expect(ids.bytes).toBe(8 * TICKET_BLOCK);
    // Another exploration in the same thread draws from its own counter; back here, a new block.
    const other = new TicketIds();
    expect(new TicketSource(other.handle).peek()).toBe(0);
    const again = new TicketSource(ids.handle);
    expect(again.peek()).toBe(2 * TICKET_BLOCK);
  });

  it('start over when renewed: the ids written are gone, and a block drawn before is not used', () => {
    const ids = new TicketIds();
    const source = new TicketSource(ids.handle);
    for (let i = 0; i < 5; i++) {
      source.peek();
      source.take();
    }
    ids.set(3, 12);
    ids.renew();
    expect([ids.get(3), ids.drawn, ids.bytes]).toEqual([-1, 0, 0]);
    const renewed = new TicketSource(ids.handle);
    expect(renewed.peek()).toBe(0);
    ids.set(0, 99);
    expect(new TicketView(structuredClone(ids.handle)).get(0)).toBe(99);
  });

  it('are not drawn past the most a tag names: the counter does not wrap around to tickets drawn before', () => {
    const ids = new TicketIds();
    new Uint32Array(ids.handle.counter)[0] = MAX_TICKET - TICKET_BLOCK - 5;
    const source = new TicketSource(ids.handle);
    // The last whole block below the most is drawn; then none.
    for (let i = 0; i < TICKET_BLOCK; i++) {
      expect(source.peek()).toBe(MAX_TICKET - TICKET_BLOCK - 5 + i);
      source.take();
    }
    expect(() => source.peek()).toThrow(RangeError);
    expect(() => source.peek()).toThrow(RangeError);
    expect(ids.drawn).toBe(MAX_TICKET);
  });

  it('never give two threads drawing at once the same ticket', async () => {
    const ids = new TicketIds();
    const per = 20_000;
    // Threads load the built module (npm test builds first), as the pool's workers do.
    const code = `
      const { parentPort, workerData } = require('node:worker_threads');
      import(${JSON.stringify(pathToFileURL(join(PACKAGE_ROOT, 'dist/src/explorer/tickets.js')).href)}).then(({ TicketSource }) => {
        const source = new TicketSource(workerData.handle);
        const mine = [];
        for (let i = 0; i < workerData.per; i++) {
          mine.push(source.peek());
          if (i % 3 !== 2) source.take();
        }
        parentPort.postMessage(mine);
      });`;
    const threads = [0, 1, 2, 3].map(() => new Worker(code, { eval: true, workerData: { handle: ids.handle, per } }));
    const replies = await Promise.all(threads.map((w) => new Promise<number[]>((resolve, reject) => w.once('message', resolve).once('error', reject))));
    await Promise.all(threads.map((w) => w.terminate()));
    // Each thread took two tickets in three peeks: the tickets it took are its own.
    const taken = replies.flatMap((mine) => mine.filter((_, i) => i % 3 !== 2));
    expect(new Set(taken).size).toBe(taken.length);
    expect(Math.max(...taken)).toBeLessThan(ids.drawn);
    expect(ids.drawn).toBeLessThanOrEqual(taken.length + 4 * TICKET_BLOCK);
  });
});
