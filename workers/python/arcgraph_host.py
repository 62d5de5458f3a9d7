"""arcgraph's Python host: one long-lived process holding ONE game, answering framed requests on
stdin/stdout (PROTOCOL.md). Standard library, numpy and the user's arcengine only.

Usage: python3 -u arcgraph_host.py --game PATH [--graph-builder] [--identity state|frame]
       [--compress] [--memory-mb N] [--seed N] [--unoffered stay|step]
"""
import signal

# A Ctrl-C (the terminal signals Node's children too) before the runtime installs its handler ends the
# process by the signal, which Node reads as the user's stop: as a KeyboardInterrupt inside an import
# (numpy's) it surfaced as "ImportError", a game that "crashed" (runtime._on_sigint takes over later).
signal.signal(signal.SIGINT, signal.SIG_DFL)

import argparse  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import traceback  # noqa: E402

# The real stdout carries the protocol alone: grab its descriptor, then point fd 1 and sys.stdout at
# stderr so a game's prints (or a library's) can never corrupt a frame.
_PROTOCOL_FD = os.dup(1)
os.dup2(2, 1)
sys.stdout = sys.stderr
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arcgraph import framing  # noqa: E402
from arcgraph.host import BrokenHost, Host  # noqa: E402
from arcgraph.loader import LoadError  # noqa: E402
from arcgraph.runtime import MEMORY_HIT, StartError  # noqa: E402


def write_all(data):
    view = memoryview(data)
    while view:
        n = os.write(_PROTOCOL_FD, view)
        view = view[n:]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--game', required=True)
    parser.add_argument('--graph-builder', action='store_true')
    parser.add_argument('--identity', choices=('state', 'frame'), default='state')
    parser.add_argument('--compress', action='store_true')
    parser.add_argument('--memory-mb', type=int, default=0)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--progress', default=None)
    parser.add_argument('--unoffered', choices=('stay', 'step'), default='stay')
    args = parser.parse_args()
    try:
        host = Host(args)
    except StartError as err:
        host = BrokenHost(err)
    except LoadError as err:
        write_all(framing.encode({'id': 0, 'ok': False, 'error': {'kind': 'load', 'message': str(err)}}))
        return 2
    except BaseException as err:  # arcgraph's own start failed
        tb = traceback.extract_tb(err.__traceback__)
        where = f' ({os.path.basename(tb[-1].filename)}:{tb[-1].lineno} in {tb[-1].name})' if tb else ''
        write_all(framing.encode({'id': 0, 'ok': False, 'error': {'kind': 'load', 'message': f'{args.game}: starting the game failed: {type(err).__name__}: {err}{where}'}}))
        return 2
    write_all(framing.encode({'id': 0, 'ok': True, 'info': host.hello()}))
    stdin = sys.stdin.buffer
    while True:
        frame = framing.read_frame(stdin)
        if frame is None:
            return 0
        header, blobs = frame
        reply, out = host.handle(header, blobs)
        if MEMORY_HIT[0]:
            reply['outOfMemory'] = True
        write_all(framing.encode(reply, out))


if __name__ == '__main__':
    sys.exit(main())
