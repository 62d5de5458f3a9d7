"""Length-prefixed binary framing of the pipe protocol (PROTOCOL.md): a JSON header, then raw blobs."""
import json
import struct

_U32 = struct.Struct('<I')
_TWO = struct.Struct('<II')


class ProtocolError(Exception):
    pass


def encode(header, blobs=()):
    """One frame: u32 length of the rest, u32 header length, the header (UTF-8 JSON), the blobs.

    The header's `blobs` lists the byte length of each blob, in order.
    """
    header = dict(header)
    header['blobs'] = [len(b) for b in blobs]
    text = json.dumps(header, separators=(',', ':')).encode('utf-8')
    total = 4 + len(text) + sum(header['blobs'])
    return b''.join([_TWO.pack(total, len(text)), text, *blobs])


def read_exact(stream, n):
    chunks = []
    while n > 0:
        chunk = stream.read(n)
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b''.join(chunks)


def read_frame(stream):
    """The next frame as (header, [memoryview blobs]), or None at end of input."""
    head = read_exact(stream, 4)
    if head is None:
        return None
    (total,) = _U32.unpack(head)
    body = read_exact(stream, total)
    if body is None or total < 4:
        raise ProtocolError('truncated frame')
    (hlen,) = _U32.unpack_from(body, 0)
    header = json.loads(bytes(body[4:4 + hlen]))
    view = memoryview(body)
    blobs = []
    at = 4 + hlen
    for n in header.get('blobs', []):
        blobs.append(view[at:at + n])
        at += n
    if at != total:
        raise ProtocolError(f'frame of {total} bytes holds {at}')
    return header, blobs
