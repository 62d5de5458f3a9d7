/**
 * The wire format of expansion batches and results between the coordinator and its workers: a
 * message's typed arrays back to back in one SharedArrayBuffer, 8-byte aligned, then a JSON
 * header that names them and carries the message's other fields; the first two words give the
 * header's offset and length. Unpacked as views of that buffer, without a copy, except the
 * arrays asked for: the frontier keeps successor bytes, and a view would keep the whole message
 * alive with them.
 *
 * Shared, not transferred: transferring an ArrayBuffer detaches it in the sending thread, and
 * after the first detached buffer V8 checks every typed-array access of that thread for
 * detachment (its ArrayBufferDetaching protector is gone for good). The expand kernel ran 9%
 * slower after a single detach (bx19, interleaved fresh threads), and so did all game code.
 *
 * A message costs both threads a fixed time, paid once a batch: packing 13 us and unpacking 21
 * us (a result of 100 states, 11 arrays, its successor bytes copied) when the header was first
 * in the buffer (its length fixed the arrays' offsets: two encodings) and the fields were copied
 * into a new object (V8 then adds each array to it in its slow path); 7 and 7 us now.
 */
const ARRAYS = { Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float64Array } as const;
type ArrayName = keyof typeof ARRAYS;
type AnyArray = InstanceType<(typeof ARRAYS)[ArrayName]>;
/** The same constructors, typed as taking shared memory too. */
const VIEWS = ARRAYS as Record<ArrayName, new (buffer: ArrayBufferLike, byteOffset: number, length: number) => AnyArray>;

interface Header {
  /** The fields that are not typed arrays; unpacking adds the arrays to this object. */
  plain: Record<string, unknown>;
  /** Each typed array: field, type, byte offset in the buffer, element count. */
  arrays: [string, ArrayName, number, number][];
}

/** Words before the first array: the header's byte offset and length. */
const PREFIX = 8;
const align = (n: number): number => (n + 7) & ~7;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Packs an object's typed arrays and other fields into one shared buffer, to post as it is: into
 * `into` where it has room (a buffer used before: see BufferPool), else a new one with a quarter
 * more room than needed, so that a pooled buffer grows a few times and is then reused.
 */
export function packMessage(value: object, into?: SharedArrayBuffer): SharedArrayBuffer {
  const header: Header = { plain: {}, arrays: [] };
  const arrays: AnyArray[] = [];
  let offset = PREFIX;
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key];
    if (ArrayBuffer.isView(field) && field.constructor.name in ARRAYS) {
      const array = field as AnyArray;
      arrays.push(array);
      header.arrays.push([key, array.constructor.name as ArrayName, offset, array.length]);
      offset = align(offset + array.byteLength);
    } else if (field !== undefined) header.plain[key] = field;
  }
  const text = encoder.encode(JSON.stringify(header));
  const size = align(offset + text.length);
  const buffer = into && into.byteLength >= size ? into : new SharedArrayBuffer(into ? align(Math.ceil(size * 1.25)) : size);
  const words = new Uint32Array(buffer, 0, 2);
  words[0] = offset;
  words[1] = text.length;
  new Uint8Array(buffer, offset, text.length).set(text);
  for (let i = 0; i < arrays.length; i++) {
    const a = arrays[i];
    new Uint8Array(buffer, header.arrays[i][2], a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  return buffer;
}

/** The object packMessage packed: its typed arrays are views of `buffer`, or copies for the fields in `copy`. */
export function unpackMessage<T>(buffer: SharedArrayBuffer, copy: readonly string[] = []): T {
  const words = new Uint32Array(buffer, 0, 2);
  // A copy of the header's bytes: TextDecoder takes no view of shared memory.
  const header = JSON.parse(decoder.decode(new Uint8Array(buffer, words[0], words[1]).slice())) as Header;
  const out = header.plain;
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
