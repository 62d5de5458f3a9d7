/**
 * The wire format of expansion batches and results between the coordinator and its workers: a
 * message's typed arrays back to back in one SharedArrayBuffer, 8-byte aligned, after a JSON
 * header that names them and carries the message's other fields. Unpacked as views of that
 * buffer, without a copy, except the arrays asked for: the frontier keeps successor bytes, and
 * a view would keep the whole message alive with them.
 *
 * Shared, not transferred: transferring an ArrayBuffer detaches it in the sending thread, and
 * after the first detached buffer V8 checks every typed-array access of that thread for
 * detachment (its ArrayBufferDetaching protector is gone for good). The expand kernel ran 9%
 * slower after a single detach (bx19, interleaved fresh threads), and so did all game code.
 */
const ARRAYS = { Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float64Array } as const;
type ArrayName = keyof typeof ARRAYS;
type AnyArray = InstanceType<(typeof ARRAYS)[ArrayName]>;
/** The same constructors, typed as taking shared memory too. */
const VIEWS = ARRAYS as Record<ArrayName, new (buffer: ArrayBufferLike, byteOffset: number, length: number) => AnyArray>;

interface Header {
  /** The fields that are not typed arrays. */
  plain: Record<string, unknown>;
  /** Each typed array: field, type, byte offset in the buffer, element count. */
  arrays: [string, ArrayName, number, number][];
}

const align = (n: number): number => (n + 7) & ~7;

/**
 * Packs an object's typed arrays and other fields into one shared buffer, to post as it is: into
 * `into` where it has room (a buffer used before: see BufferPool), else a new one with a quarter
 * more room than needed, so that a pooled buffer grows a few times and is then reused.
 */
export function packMessage(value: object, into?: SharedArrayBuffer): SharedArrayBuffer {
  const header: Header = { plain: {}, arrays: [] };
  const arrays: AnyArray[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (ArrayBuffer.isView(field) && field.constructor.name in ARRAYS) arrays.push(field as AnyArray), header.arrays.push([key, field.constructor.name as ArrayName, 0, (field as AnyArray).length]);
    else if (field !== undefined) header.plain[key] = field;
  }
  // The offsets depend on the header's length, which depends on the offsets' digits: fix them from a bound.
  const estimate = new TextEncoder().encode(JSON.stringify(header)).length + 16 * arrays.length + 64;
  let offset = align(4 + estimate);
  for (const [i, a] of arrays.entries()) {
    header.arrays[i][2] = offset;
    offset = align(offset + a.byteLength);
  }
  const text = new TextEncoder().encode(JSON.stringify(header));
  if (4 + text.length > estimate + 4) throw new Error('message header longer than estimated');
  const buffer = into && into.byteLength >= offset ? into : new SharedArrayBuffer(into ? align(Math.ceil(offset * 1.25)) : offset);
  new DataView(buffer).setUint32(0, text.length, true);
  new Uint8Array(buffer, 4, text.length).set(text);
  for (const [i, a] of arrays.entries()) new Uint8Array(buffer, header.arrays[i][2], a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return buffer;
}

/** The object packMessage packed: its typed arrays are views of `buffer`, or copies for the fields in `copy`. */
export function unpackMessage<T>(buffer: SharedArrayBuffer, copy: readonly string[] = []): T {
  const length = new DataView(buffer).getUint32(0, true);
  // A copy of the header's bytes: TextDecoder takes no view of shared memory.
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, length).slice())) as Header;
  const out: Record<string, unknown> = { ...header.plain };
  for (const [key, type, offset, count] of header.arrays) {
    const view = new VIEWS[type](buffer, offset, count);
    out[key] = copy.includes(key) ? view.slice() : view;
  }
  return out as T;
}

/**
 * Message buffers to use again. A batch's buffers are garbage once merged, but V8 frees a buffer's
 * memory only when it collects its object, and glibc's malloc then keeps what it freed: an
 * exploration's stream of fresh buffers held 1.5 GB more resident memory at 30M states (bx19
 * level 3, 2 workers) than the graph needed. Buffers given back here are handed out again instead.
 */
export class BufferPool {
  private readonly free: SharedArrayBuffer[] = [];

  /** Keeps at most `limit` buffers (as many as are in flight at once). */
  constructor(private readonly limit: number) {}

  /** A buffer given back earlier, if any (packMessage fills it, or makes a larger one). */
  take(): SharedArrayBuffer | undefined {
    return this.free.pop();
  }

  /** Gives a buffer back: nothing may read or write it any more. */
  give(buffer: SharedArrayBuffer): void {
    if (this.free.length < this.limit) this.free.push(buffer);
  }
}
