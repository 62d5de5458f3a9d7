import { describe, expect, it } from 'vitest';
import { BufferPool, packMessage, unpackMessage } from './wire.js';

describe('wire', () => {
  it('round-trips typed arrays (views of larger ones too) and plain fields, as views or copies', () => {
    const big = new Uint32Array([7, 8, 9, 10, 11]);
    const message = {
      module: 'games/x.js',
      level: 4,
      error: { state: 2, action: 8 + 130, message: 'boom' },
      bytes: new Uint8Array([1, 2, 3]),
      node: new Int32Array([-5, 0, 2 ** 31 - 1]),
      cells: new Uint16Array([65535, 1]),
      ends: big.subarray(1, 4),
      empty: new Int8Array(0),
      wide: new Float64Array([0.5, -1e300]),
      gone: undefined,
    };
    const buffer = packMessage(message);
    // Shared memory, posted as it is: transferring would detach a buffer in the sending thread (see wire.ts).
    expect(buffer).toBeInstanceOf(SharedArrayBuffer);
    const back = unpackMessage<typeof message>(buffer, ['bytes']);
    expect(back).toEqual({ ...message, gone: undefined });
    expect('gone' in back).toBe(false);
    expect(back.ends).toBeInstanceOf(Uint32Array);
    expect([...back.ends]).toEqual([8, 9, 10]);
    // Views share the message's buffer, aligned for their type; copies do not.
    expect(back.node.buffer).toBe(buffer);
    expect(back.wide.byteOffset % 8).toBe(0);
    expect(back.bytes.buffer).not.toBe(buffer);
  });

  it('packs into a buffer used before where it has room, else into a larger new one, and pools a bounded number', () => {
    const small = { level: 1, node: new Int32Array([1, 2, 3]) };
    const large = { level: 2, node: new Int32Array(1000).fill(7) };
    const first = packMessage(large);
    // Garbage from the earlier message is left behind the new one's header and arrays: unpacking reads only those.
    expect(packMessage(small, first)).toBe(first);
    expect(unpackMessage<typeof small>(first)).toEqual(small);
    const grown = packMessage(large, packMessage(small));
    expect(grown.byteLength).toBeGreaterThanOrEqual(first.byteLength * 1.2);
    expect(unpackMessage<typeof large>(grown)).toEqual(large);
    const pool = new BufferPool(2);
    const buffers = [first, grown, packMessage(small)];
    for (const b of buffers) pool.give(b);
    expect(pool.take()).toBe(grown);
    expect(pool.take()).toBe(first);
    expect(pool.take()).toBeUndefined();
  });
});
