import { describe, expect, it } from 'vitest';
import { packMessage, unpackMessage } from './wire.js';

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
});
