/** The pipe protocol's framing (workers/python/PROTOCOL.md): u32 length, u32 header length, JSON header, raw blobs. */

/** A request or reply: a JSON header and raw byte blobs (typed arrays travel as their bytes). */
export interface Message {
  header: Record<string, unknown>;
  blobs: Uint8Array[];
}

/** One frame: the header gets `blobs`, the byte length of each blob, so the reader can split them. */
export function encodeFrame(header: Record<string, unknown>, blobs: readonly Uint8Array[] = []): Buffer {
  const text = Buffer.from(JSON.stringify({ ...header, blobs: blobs.map((b) => b.byteLength) }), 'utf8');
  const total = 4 + text.length + blobs.reduce((n, b) => n + b.byteLength, 0);
  const head = Buffer.allocUnsafe(8);
  head.writeUInt32LE(total, 0);
  head.writeUInt32LE(text.length, 4);
  return Buffer.concat([head, text, ...blobs.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength))]);
}

/** Splits a byte stream into messages as chunks arrive. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private size = 0;

  /** Adds a chunk; returns the messages it completes. Blobs are copies, each in a buffer of its own (aligned for typed-array views). */
  push(chunk: Buffer): Message[] {
    this.chunks.push(chunk);
    this.size += chunk.length;
    const out: Message[] = [];
    for (;;) {
      if (this.size < 4) break;
      const head = this.peek(4);
      const total = head.readUInt32LE(0);
      if (this.size < 4 + total) break;
      const body = this.take(4 + total).subarray(4);
      const hlen = body.readUInt32LE(0);
      const header = JSON.parse(body.subarray(4, 4 + hlen).toString('utf8')) as Record<string, unknown>;
      const blobs: Uint8Array[] = [];
      let at = 4 + hlen;
      for (const n of (header.blobs as number[] | undefined) ?? []) {
        const blob = new Uint8Array(n);
        blob.set(body.subarray(at, at + n));
        blobs.push(blob);
        at += n;
      }
      if (at !== total) throw new Error(`python: a frame of ${total} bytes holds ${at}`);
      out.push({ header, blobs });
    }
    return out;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length >= n) return this.chunks[0];
    this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0];
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const taken = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
    return taken;
  }
}

/** A typed array over a blob's bytes (blobs are fresh buffers, so aligned). */
export const u32 = (b: Uint8Array): Uint32Array => new Uint32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
export const u16 = (b: Uint8Array): Uint16Array => new Uint16Array(b.buffer, b.byteOffset, b.byteLength >>> 1);
export const i32 = (b: Uint8Array): Int32Array => new Int32Array(b.buffer, b.byteOffset, b.byteLength >>> 2);
