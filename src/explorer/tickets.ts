/**
 * Tickets: the provisional names under which workers claim new states in the shared fingerprint
 * table, until the coordinator numbers them (a claimed slot's tag holds its ticket until then,
 * its node id after). A ticket is the claiming batch's ring entry and the claim's index among
 * that batch's pending successors, so the coordinator resolves a ticket a batch found with one
 * read in a small array of a recent batch: no map of early-numbered states, no read of a table
 * slot that another core has just written.
 *
 * A ring entry is given to a new batch only once no batch can still report its tickets: every
 * batch sent before the entry's batch was merged (merging numbers its claims and writes their ids
 * in the table; a batch sent after it reads the ids) must have been merged too. What is left of a
 * batch that found the table full goes on with the tickets after the batch's own, in its entry:
 * it never waits for an entry, so it cannot wait on batches that wait for it to be merged.
 */
export const TICKET_BITS = 20;
/** Pending successors a batch that claims may have (the coordinator sizes such batches below it). */
export const TICKETS_PER_BATCH = 2 ** TICKET_BITS;
const MASK = TICKETS_PER_BATCH - 1;
/** Ring entries: a ticket is entry << TICKET_BITS | index, below 2^31 (a tag holds -1 - ticket). */
export const RING = 2 ** (31 - TICKET_BITS);

export class Tickets {
  /** Node ids by ticket index (-1: not numbered yet), per ring entry in use. */
  private readonly ids: (Int32Array | undefined)[];
  /** Elements of each entry's array in use (the rest is stale). */
  private readonly used: Int32Array;
  private readonly busy: Uint8Array;
  /** Entries merged and not yet free, in merge order, with the last batch sent when each was merged. */
  private readonly retiring: { entry: number; lastSent: number }[] = [];
  /** Arrays of freed entries, for the next ones. */
  private readonly spare: Int32Array[] = [];

  /** `ring` entries (at most RING; tests use a few, to make batches wait for one). */
  constructor(private readonly ring = RING) {
    if (ring < 1 || ring > RING) throw new RangeError(`a ticket ring has 1 to ${RING} entries, not ${ring}`);
    this.ids = new Array(ring).fill(undefined);
    this.used = new Int32Array(ring);
    this.busy = new Uint8Array(ring);
  }

  /** Bytes held by the arrays. */
  get bytes(): number {
    let total = 0;
    for (const a of this.ids) total += a?.byteLength ?? 0;
    for (const a of this.spare) total += a.byteLength;
    return total;
  }

  /** The first ticket of batch `seq` (batches are sent in increasing order), or -1 while its ring entry is still in use. */
  open(seq: number): number {
    const entry = seq % this.ring;
    if (this.busy[entry]) return -1;
    this.busy[entry] = 1;
    this.used[entry] = 0;
    this.ids[entry] ??= this.spare.pop();
    return entry * TICKETS_PER_BATCH;
  }

  /** The ids of an entry's tickets, with room (and -1 where nothing is numbered) for at least the first `count`. */
  of(entry: number, count: number): Int32Array {
    let a = this.ids[entry];
    const used = this.used[entry];
    if (a && count <= used) return a;
    if (!a || a.length < count) {
      const next = new Int32Array(Math.max(count, 2 * (a?.length ?? 0), 1024));
      if (a) next.set(a.subarray(0, used));
      this.ids[entry] = a = next;
    }
    a.fill(-1, used, count);
    this.used[entry] = count;
    return a;
  }

  /** The ids of tickets first .. first + count - 1, all of one entry (a view: valid until that entry grows). */
  range(first: number, count: number): Int32Array {
    const at = first & MASK;
    return this.of(first >>> TICKET_BITS, at + count).subarray(at, at + count);
  }

  /** The node id of a ticket, or -1 while its state is not numbered. */
  get(ticket: number): number {
    return this.of(ticket >>> TICKET_BITS, (ticket & MASK) + 1)[ticket & MASK];
  }

  set(ticket: number, id: number): void {
    this.of(ticket >>> TICKET_BITS, (ticket & MASK) + 1)[ticket & MASK] = id;
  }

  /** The batch with this ticket is merged (the last of it, if it was cut short); `lastSent` is the last batch sent so far. */
  merged(ticket: number, lastSent: number): void {
    this.retiring.push({ entry: ticket >>> TICKET_BITS, lastSent });
  }

  /** Frees the entries no batch can report tickets of any more: `oldest` is the oldest batch not merged (Infinity: none). */
  retire(oldest: number): void {
    while (this.retiring.length > 0 && this.retiring[0].lastSent < oldest) {
      const { entry } = this.retiring.shift()!;
      const a = this.ids[entry];
      if (a) this.spare.push(a);
      this.ids[entry] = undefined;
      this.busy[entry] = 0;
    }
  }
}
