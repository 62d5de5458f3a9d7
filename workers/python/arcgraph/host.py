"""Request dispatch of the host process: each op reads its header and blobs and answers a header and
blobs (PROTOCOL.md lists the ops)."""
import os
import resource
import sys
import traceback
from array import array

from .expand import SMALL_GRID, Expander, unoffered_acting
from .levels import level_start
from .rng import Rng, draw_action
from .runtime import LOST, MEMORY_HIT, PLAYING, GameError, Runtime, offered_of, settled
from .session import Session
from .walks import Timing, code_of, run_walks


def _u32(blob):
    a = array('I')
    a.frombytes(bytes(blob))
    return a


def _split(data, ends):
    out = []
    start = 0
    for end in ends:
        out.append(data[start:end])
        start = end
    return out


def _frames(fd):
    return b''.join(bytes(layer.astype('uint8', copy=False).tobytes()) for layer in fd.frame)


def _fuzz_start_failed(level, err):
    """The fuzz reply of a level whose start raised (GameError `err`): a fault of the reset state, no walk."""
    return {'steps': 0, 'walks': 0, 'wins': 0, 'faults': [], 'resetFaults': [{'check': 'exception', 'message': f'starting level {level} threw: {err.describe()}'}], 'timing': None, 'samples': []}



def _unoffered_acting(rt, snapshot):
    """The actions the game does not offer (of ACTION1..7) that change its level's start: the engine
    steps a game with any action and the reference agent sends them, while the graph (and the
    reference policy over it) takes them as staying put unless they are stepped (--unoffered step)."""
    mask = unoffered_acting(rt, snapshot, [a for a in range(1, 8) if a not in rt.offered])
    return [a for a in range(1, 8) if mask & (1 << a)]


class BrokenHost:
    """The host of a game whose constructor (or first RESET) raised: its hello gives what the module and
    metadata say, and every request fails with that error, a game fault at every level's start."""

    def __init__(self, err):
        self.error = err.error
        self.loaded = err.loaded

    def hello(self):
        info = self.loaded.info(None)
        info['python'] = sys.version.split()[0]
        info['engine'] = '?'
        info['snapshots'] = 'none (the game cannot be built)'
        info['broken'] = self.error.describe()
        return info

    def handle(self, header, blobs):
        rid = header.get('id', 0)
        if header.get('op') == 'ping':
            return {'id': rid, 'ok': True}, []
        if header.get('op') == 'fuzz':
            return {**_fuzz_start_failed(int(header['level']), self.error), 'id': rid, 'ok': True}, []
        message = f'starting the game threw: {self.error.describe()}'
        return {'id': rid, 'ok': False, 'error': {'kind': self.error.kind, 'message': message}}, []


class Host:
    def __init__(self, args):
        self.rt = Runtime(args.game, graph_builder=args.graph_builder, identity=args.identity, compress=args.compress, seed=args.seed, progress=args.progress, unoffered=args.unoffered)
        self.expander = Expander(self.rt)
        self.sessions = {}
        if args.memory_mb > 0:
            limit = args.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def hello(self):
        info = dict(self.rt.info)
        info['python'] = sys.version.split()[0]
        import arcengine
        info['engine'] = getattr(arcengine, '__file__', '?')
        if not self.rt.pickling:
            info['snapshots'] = f'path (the game cannot be pickled: {self.rt.unpicklable})'
        else:
            live = self.rt.fresh()
            same = self.rt.digest(live, self.rt.base_frame) == self.rt.digest(self.rt.restore(self.rt.pack(live)), self.rt.base_frame)
            info['snapshots'] = 'pickle' if same else 'pickle (a restored start state has another identity)'
        return info

    def handle(self, header, blobs):
        op = header.get('op')
        rid = header.get('id', 0)
        self.rt.step_limit = float(header.get('stepSeconds') or 0)
        try:
            fn = getattr(self, 'op_' + str(op), None)
            if fn is None:
                return {'id': rid, 'ok': False, 'error': {'kind': 'protocol', 'message': f'unknown op {op!r}'}}, []
            reply, out = fn(header, blobs)
            reply['id'] = rid
            reply['ok'] = True
            return reply, out
        except GameError as err:
            return {'id': rid, 'ok': False, 'error': {'kind': err.kind, 'message': err.describe()}}, []
        except MemoryError:
            MEMORY_HIT[0] = True
            return {'id': rid, 'ok': False, 'error': {'kind': 'memory', 'message': 'out of memory (MemoryError)'}}, []
        except Exception as err:  # noqa: BLE001 - the Node side reports it
            tb = traceback.extract_tb(err.__traceback__)
            where = f'{tb[-1].filename}:{tb[-1].lineno} in {tb[-1].name}' if tb else ''
            return {'id': rid, 'ok': False, 'error': {'kind': 'host', 'message': f'{type(err).__name__}: {err} ({where})'}}, []

    def op_ping(self, header, blobs):
        return {}, []

    def op_root(self, header, blobs):
        rt = self.rt
        level = int(header['level'])
        live, frame, how, note = level_start(rt, level, header.get('path'))
        game = live[0]
        offered = offered_of(game._available_actions)
        if level > 1 and offered != rt.offered:
            raise GameError('exception', f'level {level} offers {offered} at its start, not {rt.offered} as the game did when loaded: arcgraph '
                            'explores one set of actions for a game (ARC games keep available_actions fixed), so it cannot explore this level', '')
        reply = {'levelStart': how, 'score': game._score, 'status': rt.start_status(game, level)}
        digest = rt.digest(live, frame)  # first: a walk that meets a kept id() makes the pack carry its object
        blobs = [rt.pack(live), digest, frame.astype('uint8').tobytes()]
        if header.get('orderFree'):
            # the start's identity with its dicts' entries in key order (the hash-seed check's)
            blobs.append(rt.digest(live, frame, dict_order=False))
        moves = len([a for a in rt.actions if a != 6])
        if 6 in rt.actions:
            # After the start is packed: partition runs the camera's interfaces, which may change the game.
            from .clicks import partition
            moves += len(partition(game))
        reply['moves'] = moves
        if note:
            reply['note'] = note
        # A start already won or lost takes no action (the engine answers any with an empty frame).
        reply['unofferedActs'] = _unoffered_acting(rt, blobs[0]) if reply['status'] == PLAYING else []
        return reply, blobs

    def op_expand(self, header, blobs):
        snaps = _split(blobs[0], _u32(blobs[1]))
        self.expander.small_grid = int(header.get('smallGrid', SMALL_GRID))
        rec, steps, ends, error, totals = self.expander.run(int(header['level']), snaps, header.get('clicks', 'classes'), int(header.get('verify', 1)), header.get('exploration'), int(header.get('check', 0)), bool(header.get('root')), header.get('startPath'))
        reply = {'count': len(steps)}
        if self.expander.identity_fault:
            reply['identity'] = self.expander.identity_fault
        if self.expander.attempts_fault:
            reply['attempts'] = self.expander.attempts_fault
        if self.expander.collisions is not None:
            reply['frameCollisions'] = self.expander.collisions.report()
            reply['pid'] = os.getpid()
        if error:
            reply['error'] = error
        if self.rt.unpicklable_later is not None:
            reply['paths'] = self.rt.unpicklable_later
        return reply, [steps.tobytes(), ends.tobytes(), b''.join(rec.digests), rec.keys.tobytes(), rec.cells.tobytes(), rec.action.tobytes(), rec.outcome.tobytes(), rec.node.tobytes(), b''.join(rec.bytes), rec.bytes_end.tobytes(), totals.tobytes()]

    def op_walks(self, header, blobs):
        timing = Timing()
        steps, end, error, carried, kept = run_walks(self.rt, blobs[0], int(header['level']), int(header['seed']), int(header['first']), int(header['count']), int(header['maxSteps']), list(header['choices']), timing)
        reply = {'timing': timing.report()}
        if carried is not None:
            reply['carried'] = carried
        if kept is not None:
            reply['kept'] = kept
        if error:
            reply['error'] = error
        return reply, [steps.tobytes(), end.tobytes()]

    def op_step(self, header, blobs):
        rt = self.rt
        live = rt.restore(blobs[0])
        fd = rt.step(live, int(header['action']))
        status = rt.status(live[0], fd, int(header['level']))
        digest = rt.digest(live, settled(fd))  # before the pack, as in op_level
        return {'status': status, 'layers': len(fd.frame), 'score': live[0]._score, 'state': fd.state.name}, [rt.pack(live), digest, _frames(fd)]

    def op_session(self, header, blobs):
        """`open` a session at a level, `act` one action in it, or take its `state` (snapshot and identity)."""
        sid = int(header['sid'])
        what = header['what']
        if what == 'open':
            s = Session(self.rt, int(header['level']), header.get('path'))
            self.sessions[sid] = s
            reply = {'levelStart': s.level_start, 'score': s.start_score}
            if s.note:
                reply['note'] = s.note
            return reply, []
        s = self.sessions[sid]
        if what == 'act':
            reply, frames = s.act(int(header['action']))
            return reply, [frames]
        if what == 'state':
            snap, digest = s.snapshot()
            return {}, [snap, digest]
        if what == 'close':
            self.sessions.pop(sid, None)
            return {}, []
        raise ValueError(f'unknown session request {what!r}')

    def op_fuzz(self, header, blobs):
        from .fuzz import run_fuzz
        from .levels import level_start
        rt = self.rt
        level = int(header['level'])
        try:
            live, frame, _, _ = level_start(rt, level, header.get('path'))
        except GameError as err:
            return _fuzz_start_failed(level, err), []
        status = rt.start_status(live[0], level)
        if status != PLAYING:
            # The engine ignores actions once the game is over: walks from here would only report empty frames.
            name = 'lost' if status == LOST else 'won'
            return {'steps': 0, 'walks': 0, 'wins': 0, 'faults': [], 'resetFaults': [{'check': 'malformed-transition', 'message': f'the reset state of level {level} has status "{name}", not playing'}], 'timing': None, 'samples': []}, []
        result, samples = run_fuzz(rt, rt.pack(live), frame, level, int(header['seed']), int(header['firstStream']), int(header['steps']), int(header['maxWalkSteps']), float(header['stepLimitMs']), int(header['restepEvery']), int(header['crossEvery']))
        result['samples'] = [{'walk': w, 'step': n, 'action': c} for w, n, c, _, _ in samples]
        return result, [blob for _, _, _, pre, d in samples for blob in (pre, d)]

    def op_restep(self, header, blobs):
        """Identities of (snapshot, action) pairs stepped here (the fuzz's samples, in another process);
        one snapshot for every action when one is given. `orderFree`: identities with dicts' entries in
        key order (the hash-seed check's)."""
        rt = self.rt
        order = not header.get('orderFree')
        actions = header['actions']
        snaps = blobs if len(blobs) != 1 else blobs * len(actions)
        out = []
        for snap, code in zip(snaps, actions):
            live = rt.restore(snap)
            try:
                fd = rt.step(live, int(code))
                out.append(rt.digest(live, settled(fd), order) if fd.frame else b'')
            except GameError:
                out.append(b'')
        return {}, out

    def op_digest(self, header, blobs):
        rt = self.rt
        live = rt.restore(blobs[0])
        frame = blobs[1]
        import numpy as np
        return {}, [rt.digest(live, np.frombuffer(bytes(frame), dtype=np.int8).reshape(64, 64), not header.get('orderFree'))]

    def op_bfs(self, header, blobs):
        """The benchmark's single-process baseline (baseline.py)."""
        from .baseline import bfs
        return bfs(self.rt, int(header['level']), int(header['maxStates']), float(header['maxSeconds'])), []

    def op_draws(self, header, blobs):
        """Draws of the seeded player (tests compare them with src/player)."""
        rng = Rng(int(header['seed']), int(header['stream']))
        available = set(header['available'])
        out = []
        for _ in range(int(header['count'])):
            move = draw_action(rng, list(header['choices']), available)
            out.append(-1 if move is None else code_of(move))
        return {'codes': out}, []
