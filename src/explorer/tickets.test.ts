import { describe, expect, it } from 'vitest';
import { RING, TICKETS_PER_BATCH, Tickets } from './tickets.js';

describe('Tickets', () => {
  it('names each batch by its ring entry, and resolves its tickets to the ids set, from any view', () => {
    const tickets = new Tickets();
    expect(tickets.open(0)).toBe(0);
    expect(tickets.open(1)).toBe(TICKETS_PER_BATCH);
    expect(tickets.open(RING - 1)).toBe((RING - 1) * TICKETS_PER_BATCH);
    // The last ticket of the last entry is the largest a table's tag can hold (-1 - ticket is an Int32).
    expect(RING * TICKETS_PER_BATCH - 1).toBe(2 ** 31 - 1);
    const mine = tickets.range(TICKETS_PER_BATCH, 5000);
    expect([...mine.subarray(0, 3)]).toEqual([-1, -1, -1]);
    mine[4] = 17;
    expect(tickets.get(TICKETS_PER_BATCH + 4)).toBe(17);
    // Another batch numbers a claim of this one far past what it has asked for: the entry grows.
    tickets.set(TICKETS_PER_BATCH + 300_000, 9);
    expect(tickets.get(TICKETS_PER_BATCH + 300_000)).toBe(9);
    expect(tickets.get(TICKETS_PER_BATCH + 4)).toBe(17);
    expect(tickets.get(TICKETS_PER_BATCH + 299_999)).toBe(-1);
    // A remainder goes on after its batch's tickets, in the same entry.
    const rest = tickets.range(TICKETS_PER_BATCH + 5000, 10);
    rest[0] = 23;
    expect(tickets.get(TICKETS_PER_BATCH + 5000)).toBe(23);
    expect(tickets.range(TICKETS_PER_BATCH, 5)[4]).toBe(17);
  });

  it('gives an entry to a new batch only once every batch sent before its own was merged is merged', () => {
    const tickets = new Tickets(3);
    expect([0, 1, 2].map((seq) => tickets.open(seq))).toEqual([0, 1, 2].map((e) => e * TICKETS_PER_BATCH));
    tickets.range(0, 4).fill(5);
    // Entry 0 is still in use by batch 0.
    expect(tickets.open(3)).toBe(-1);
    // Batch 0 is merged while batches up to 2 had been sent: they may still report its tickets.
    tickets.merged(0, 2);
    tickets.retire(1);
    expect(tickets.open(3)).toBe(-1);
    tickets.merged(TICKETS_PER_BATCH, 2);
    tickets.retire(2);
    expect(tickets.open(3)).toBe(-1);
    tickets.merged(2 * TICKETS_PER_BATCH, 2);
    tickets.retire(Infinity);
    expect(tickets.open(3)).toBe(0);
    // A new owner sees none of the old one's ids.
    expect([...tickets.range(0, 4)]).toEqual([-1, -1, -1, -1]);
    expect(tickets.open(4)).toBe(TICKETS_PER_BATCH);
    expect(() => new Tickets(RING + 1)).toThrow(RangeError);
  });
});
