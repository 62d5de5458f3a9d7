/**
 * The wire format of expansion batches and results between the coordinator and its workers: a
 * message's typed arrays back to back in one transferable buffer, 8-byte aligned, after a JSON
 * header that names them and carries the message's other fields. Unpacked as views of that
 * buffer, without a copy, except the arrays asked for: the frontier keeps successor bytes, and
 * a view would keep the whole message alive with them.
 */
const ARRAYS = { Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float64Array } as const;
type ArrayName = keyof typeof ARRAYS;
type AnyArray = InstanceType<(typeof ARRAYS)[ArrayName]>;

interface Header {
  /** The fields that are not typed arrays. */
  plain: Record<string, unknown>;
  /** Each typed array: field, type, byte offset in the buffer, element count. */
  arrays: [string, ArrayName, number, number][];
}

const align = (n: number): number => (n + 7) & ~7;

/** Packs an object's typed arrays and other fields into one new buffer, ready to transfer. */
export function packMessage(value: object): ArrayBuffer {
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
  const buffer = new ArrayBuffer(offset);
  new DataView(buffer).setUint32(0, text.length, true);
  new Uint8Array(buffer, 4, text.length).set(text);
  for (const [i, a] of arrays.entries()) new Uint8Array(buffer, header.arrays[i][2], a.byteLength).set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  return buffer;
}

/** The object packMessage packed: its typed arrays are views of `buffer`, or copies for the fields in `copy`. */
export function unpackMessage<T>(buffer: ArrayBuffer, copy: readonly string[] = []): T {
  const length = new DataView(buffer).getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 4, length))) as Header;
  const out: Record<string, unknown> = { ...header.plain };
  for (const [key, type, offset, count] of header.arrays) {
    const view = new ARRAYS[type](buffer, offset, count);
    out[key] = copy.includes(key) ? view.slice() : view;
  }
  return out as T;
}
