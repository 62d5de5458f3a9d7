/**
 * Tickets: the names under which workers claim new states in the shared fingerprint table. A
 * worker draws a fresh ticket for each claim from a shared counter and writes -1 - ticket in the
 * slot's tag, which keeps it; the coordinator numbers the state when it merges the first record
 * that reaches it and writes the id under the ticket, in an array of its own that the workers
 * read (TicketIds). So the coordinator never writes the table: the ids of a batch's claims sit
 * side by side (its worker drew them in a row), where the table's slots are scattered over tens
 * of megabytes, each a cache miss on a line another core wrote last.
 *
 * The ids take 4 bytes a ticket, in shared chunks that the system commits only where written.
 * When the table grows with every claim numbered, its tags take the ids and the tickets start
 * over (TicketIds.renew): then only the claims since the last growth hold tickets.
 */
/**
 * Tickets a chunk of ids holds: a chunk is a SharedArrayBuffer of 64 MB, committed as written;
 * 2^31 tickets take 128 chunks, which each batch's message clones (about a microsecond each).
 */
const CHUNK_BITS = 24;
export const TICKETS_PER_CHUNK = 2 ** CHUNK_BITS;
const CHUNK_MASK = TICKETS_PER_CHUNK - 1;
/** A table's tag holds -1 - ticket as an Int32: no ticket may pass this. */
export const MAX_TICKET = 2 ** 31 - 1;
/** Tickets a worker thread draws from the shared counter at a time (one atomic add per block, not per claim). */
export const TICKET_BLOCK = 256;

/** What a worker needs to draw tickets and read ids: plain data and SharedArrayBuffers, cloned by postMessage. */
export interface TicketsHandle {
  /** The ids' chunks so far (id + 1 by ticket, 0 where not numbered yet). */
  chunks: SharedArrayBuffer[];
  /** Word 0: the next ticket to draw. */
  counter: SharedArrayBuffer;
  /** Tells one exploration's counter from another's in a thread that serves several (see TicketSource). */
  serial: number;
}

let serials = 0;

const freshHandle = (): TicketsHandle => ({ chunks: [], counter: new SharedArrayBuffer(4), serial: ++serials });

/** Reads the ids of tickets; numbers that are not there yet read -1. */
export class TicketView {
  protected chunks: Int32Array[];

  constructor(public handle: TicketsHandle) {
    this.chunks = handle.chunks.map((b) => new Int32Array(b));
  }

  /** The node id of a ticket, or -1 while its state is not numbered. */
  get(ticket: number): number {
    const chunk = this.chunks[ticket >>> CHUNK_BITS];
    return chunk === undefined ? -1 : chunk[ticket & CHUNK_MASK] - 1;
  }
}

/** The coordinator's side: the ids it writes, and the tickets drawn so far. */
export class TicketIds extends TicketView {
  private counter: Uint32Array;

  constructor() {
    const handle = freshHandle();
    super(handle);
    this.counter = new Uint32Array(handle.counter);
  }

  /**
   * Starts the tickets over, the ids written so far dropped: only once no tag, batch or worker
   * names a ticket drawn so far. A worker's block of old tickets is dropped with them (the serial
   * changes).
   */
  renew(): void {
    this.handle = freshHandle();
    this.chunks = [];
    this.counter = new Uint32Array(this.handle.counter);
  }

  /** Writes a ticket's node id (plain stores: a worker that still reads 0 reports the ticket, which merging resolves anyway). */
  set(ticket: number, id: number): void {
    const c = ticket >>> CHUNK_BITS;
    while (this.chunks.length <= c) {
      const buffer = new SharedArrayBuffer(4 * TICKETS_PER_CHUNK);
      this.handle.chunks.push(buffer);
      this.chunks.push(new Int32Array(buffer));
    }
    this.chunks[c][ticket & CHUNK_MASK] = id + 1;
  }

  /** Tickets drawn by every worker (blocks they hold included). */
  get drawn(): number {
    return Math.min(Atomics.load(this.counter, 0), MAX_TICKET);
  }

  /** Bytes of the ids the tickets drawn so far can use (the rest of a chunk is not committed). */
  get bytes(): number {
    return 4 * this.drawn;
  }
}

/** This thread's block of tickets, of the exploration `serial`. */
const block = { serial: 0, next: 0, end: 0 };

/** A worker's side: fresh tickets, drawn a block at a time, and the ids the coordinator has written. */
export class TicketSource extends TicketView {
  // Unsigned: drawing past MAX_TICKET must not wrap around to tickets already drawn.
  private readonly counter: Uint32Array;

  constructor(handle: TicketsHandle) {
    super(handle);
    this.counter = new Uint32Array(handle.counter);
    // A block drawn for another exploration is no use here (its tickets are left unused).
    if (block.serial !== handle.serial) Object.assign(block, { serial: handle.serial, next: 0, end: 0 });
  }

  /** The ticket the next claim is made under (drawn only once `take` says it was used). */
  peek(): number {
    if (block.next === block.end) {
      const first = Atomics.add(this.counter, 0, TICKET_BLOCK);
      // The coordinator stops dispatching well before (Coordinator.dispatch).
      if (first > MAX_TICKET - TICKET_BLOCK) throw new RangeError(`more than ${MAX_TICKET} tickets drawn: a graph numbers at most that many states`);
      block.next = first;
      block.end = first + TICKET_BLOCK;
    }
    return block.next;
  }

  /** The ticket `peek` gave was claimed under. */
  take(): void {
    block.next++;
  }
}
