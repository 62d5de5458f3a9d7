/** The msgpack wire format of expansion batches and results between the coordinator and its workers. */
import { Packr } from 'msgpackr';

/**
 * Messages between coordinator and workers: msgpack with typed arrays kept as typed arrays. Byte
 * arrays are unpacked as copies, not views of the message, so keeping one (the frontier keeps
 * successor bytes) does not keep the whole message alive.
 */
const packr = new Packr({ moreTypes: true, useRecords: false, copyBuffers: true });

/** Packs into a buffer of its own (never the packer's shared one), ready to transfer. */
export function packMessage(value: unknown): ArrayBuffer {
  const packed = packr.pack(value);
  const out = new Uint8Array(packed.length);
  out.set(packed);
  return out.buffer;
}

export function unpackMessage<T>(buffer: ArrayBuffer | Uint8Array): T {
  return packr.unpack(buffer instanceof Uint8Array ? buffer : new Uint8Array(buffer)) as T;
}
