import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, i32, u16, u32 } from './protocol.js';

describe('the pipe framing', () => {
  it('round-trips headers and blobs however the bytes are split into chunks', () => {
    const blobs = [Uint8Array.of(1, 2, 3), new Uint8Array(0), new Uint8Array(new Uint32Array([7, 0xffffffff]).buffer)];
    const frames = Buffer.concat([encodeFrame({ op: 'a', n: 1 }, blobs), encodeFrame({ op: 'b' }), encodeFrame({ op: 'c', text: 'é' }, [Uint8Array.of(9)])]);
    for (const size of [1, 2, 3, 7, 64, frames.length]) {
      const reader = new FrameReader();
      const got = [];
      for (let at = 0; at < frames.length; at += size) got.push(...reader.push(frames.subarray(at, at + size)));
      expect(got.map((m) => m.header.op)).toEqual(['a', 'b', 'c']);
      expect(got[0].header).toMatchObject({ n: 1, blobs: [3, 0, 8] });
      expect(got[0].blobs.map((b) => [...b])).toEqual([[1, 2, 3], [], [...blobs[2]]]);
      expect([...u32(got[0].blobs[2])]).toEqual([7, 0xffffffff]);
      expect(got[2].header.text).toBe('é');
    }
  });

  it('gives each blob an aligned buffer of its own for typed-array views', () => {
    const reader = new FrameReader();
    const [m] = reader.push(encodeFrame({}, [Uint8Array.of(1), new Uint8Array(new Int32Array([-5, 6]).buffer), new Uint8Array(new Uint16Array([9]).buffer)]));
    expect([...i32(m.blobs[1])]).toEqual([-5, 6]);
    expect([...u16(m.blobs[2])]).toEqual([9]);
    expect(m.blobs[1].byteOffset).toBe(0);
  });

  it('rejects a frame whose blobs do not add up to its length', () => {
    const bad = encodeFrame({ op: 'x' }, [Uint8Array.of(1, 2)]);
    const text = Buffer.from(JSON.stringify({ op: 'x', blobs: [5] }));
    const forged = Buffer.concat([Buffer.from(new Uint32Array([4 + text.length + 2, text.length]).buffer), text, Uint8Array.of(1, 2)]);
    expect(new FrameReader().push(bad)).toHaveLength(1);
    expect(() => new FrameReader().push(forged)).toThrow(/holds/);
  });
});
