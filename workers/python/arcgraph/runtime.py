"""The host's game runtime: one loaded game, its shared registry, snapshots, identity, and stepping
one action with the engine's own perform_action under a time limit (a soft alarm)."""
import json
import mmap
import os
import random
import signal
import struct
import sys
import time
import traceback

import numpy as np

from .heldids import held_id, held_id_message, kept_objects
from .identity import Identity, changed_part, module_state, shared_levels
from .loader import Game
from .snapshot import Registry, Snapshots
from .speedups import remember_factory_checks

PLAYING, WON, LOST = 0, 1, 2
PATH = b'\x03'  # the snapshot kind of a game that cannot be pickled: its action path
PATH_FROM = b'\x04'  # of a state that cannot be pickled, of a game that can: a pickled snapshot and the path from it
_LENGTH = struct.Struct('<I')
RESET = 0
CLICK_BASE = 8
_NO_RNG = (None, None)
# The global Random's own setstate (random.setstate is wrapped: a game's call is a draw).
_PY_SETSTATE = random._inst.setstate


# Set by the wrapped functions of the global RNGs when a game draws from one: [0] numpy's
# (watch_numpy_rng), [1] Python's `random` module's (watch_python_rng).
RNG_USED = [False, False]
NUMPY, PYTHON = 0, 1


def watch_numpy_rng():
    """Wraps numpy.random's module functions (the global RandomState) to notice a game drawing from it:
    only such a game pays for carrying the RNG state in its snapshots (runtime.step)."""
    import numpy.random as npr
    glob = npr.mtrand._rand
    for name in dir(npr):
        fn = getattr(npr, name)
        # seed (a function of its own) and set_state too: a game that reseeds (per level, say) changes
        # the state as a draw does.
        if (getattr(fn, '__self__', None) is glob or name == 'seed') and name != 'get_state':
            setattr(npr, name, _watched(fn, NUMPY, 'numpy.random', name))


def watch_python_rng():
    """Wraps the `random` module's functions bound to its hidden global Random (random._inst: randint,
    choice, shuffle..., seed and setstate included) to notice a game drawing from it, as numpy's."""
    inst = random._inst
    for name in dir(random):
        fn = getattr(random, name)
        if getattr(fn, '__self__', None) is inst and name != 'getstate':
            setattr(random, name, _watched(fn, PYTHON, 'random', name))


def _watched(fn, which, module, name):
    reseed = which == PYTHON and name == 'seed'

    def draw(*args, **kwargs):
        RNG_USED[which] = True
        # random.seed() with no seed: the operating system's entropy (numpy's reaches watch_entropy's wrapper)
        if reseed and (args[0] if args else kwargs.get('a')) is None and ENTROPY_READ[0] is None:
            _drew('random.seed() with no seed')
        return fn(*args, **kwargs)
    # Named as the module attribute it replaces: a game object holding it (self.roll = random.randint)
    # pickles it by that name, and gets the wrapper back.
    draw.__module__, draw.__name__, draw.__qualname__, draw.__doc__ = module, name, name, fn.__doc__
    return draw


# Set by the wrapped clock functions of the `time` module (watch_clock) to the name of the first one
# the game's own code called since the step began (Runtime.run clears it): the step read the clock.
CLOCK_READ = [None]
# The loaded game's file: a clock read counts only when its caller's code is the game's (not the
# engine's, not arcgraph's: arcgraph reads time.perf_counter itself).
_GAME_FILE = [None]
# The `time` module's functions that read the clock, each with the position of its optional time
# argument (None: it takes none; given, and not None, that argument is the time, and nothing is read).
_CLOCK = {'time': None, 'time_ns': None, 'monotonic': None, 'monotonic_ns': None, 'perf_counter': None,
          'perf_counter_ns': None, 'process_time': None, 'process_time_ns': None, 'thread_time': None,
          'thread_time_ns': None, 'clock_gettime': None, 'clock_gettime_ns': None, 'localtime': 0, 'gmtime': 0,
          'ctime': 0, 'asctime': 0, 'strftime': 1}
_CLOCK_ARGUMENT = {'localtime': 'secs', 'gmtime': 'secs', 'ctime': 'secs', 'asctime': 't', 'strftime': 't'}


def watch_clock():
    """Wraps the `time` module's clock reads (time, monotonic, perf_counter, localtime, strftime with no
    time...) to notice the game's code reading the clock in a step: its successors then depend on when
    the step runs, which no snapshot or identity holds (the explorer's identity warning). The wrappers
    return what the functions return. Once a process (a wrapped function is not wrapped again)."""
    for name, at in _CLOCK.items():
        fn = getattr(time, name, None)
        if fn is None or getattr(fn, '__wrapped_clock__', None) is not None:
            continue
        setattr(time, name, _clock(fn, name, at))


def _clock(fn, name, at):
    keyword = _CLOCK_ARGUMENT.get(name)

    def read(*args, **kwargs):
        if CLOCK_READ[0] is None and (at is None or ((len(args) <= at or args[at] is None) and kwargs.get(keyword) is None)):
            if sys._getframe(1).f_code.co_filename == _GAME_FILE[0]:
                CLOCK_READ[0] = name
        return fn(*args, **kwargs)
    # Named as the module attribute it replaces, as _watched's: a game object holding it (self.now =
    # time.time) pickles it by that name, and gets the wrapper back.
    read.__module__, read.__name__, read.__qualname__, read.__doc__ = 'time', name, name, fn.__doc__
    read.__wrapped_clock__ = fn
    return read


# Set by the wrapped Sprite.set_layer (watch_layers) when code outside the engine calls it in a step of
# a game whose source names neither `set_layer` nor `_layer` (Identity.layers_change is False).
LAYER_SET = [False]
_LAYER_WATCH = [False]  # whether set_layer calls count (the loaded game's identity leaves a valid sort cache out)


def watch_layers():
    """Wraps the engine's Sprite.set_layer (when it has one) to notice a step changing a layer in a game
    whose source never names it (getattr(sprite, 'set_' + name)): the identity walks a level's valid
    sort cache only in games whose source names `set_layer` or `_layer`, and set_layer leaves the cache
    in use, so such a game's graph may merge states that get_sprite_at tells apart (the explorer's
    identity warning). Calls from the engine's own code (a merged sprite put on its layer) do not
    count. Once a process."""
    engine = sys.modules.get('arcengine')
    sprite = getattr(engine, 'Sprite', None)
    fn = getattr(sprite, 'set_layer', None) if isinstance(sprite, type) else None
    if fn is None or getattr(fn, '__wrapped_layer__', None) is not None:
        return
    engine_dir = os.path.dirname(engine.__file__) + os.sep

    def set_layer(self, *args, **kwargs):
        if _LAYER_WATCH[0] and not LAYER_SET[0] and not sys._getframe(1).f_code.co_filename.startswith(engine_dir):
            LAYER_SET[0] = True
        return fn(self, *args, **kwargs)
    set_layer.__module__, set_layer.__name__, set_layer.__qualname__, set_layer.__doc__ = fn.__module__, fn.__name__, fn.__qualname__, fn.__doc__
    set_layer.__wrapped_layer__ = fn
    sprite.set_layer = set_layer


class LossySnapshot(Exception):
    """A snapshot that loads as another state than the one pickled (Runtime._check_loaded)."""


# Set by the wrapped entropy sources (watch_entropy) to what the game's own code drew from the operating
# system's entropy since the step began (Runtime.run clears it): an unseeded random.Random(), os.urandom...
ENTROPY_READ = [None]
# The files of the modules whose functions reach the entropy for their caller (random.Random() seeds
# itself from it, uuid.uuid4 and secrets call os.urandom), and the wrappers' code: a read counts when
# the first frame outside them is the game's.
_ENTROPY_FILES = set()
_ENTROPY_CODES = set()


def _drew(label):
    """Notes `label` when the caller of the wrapper calling this (past the library frames above) is the game's code."""
    if ENTROPY_READ[0] is None:
        f = sys._getframe(2)
        while f is not None and (f.f_code in _ENTROPY_CODES or f.f_code.co_filename in _ENTROPY_FILES):
            f = f.f_back
        if f is not None and f.f_code.co_filename == _GAME_FILE[0]:
            ENTROPY_READ[0] = label


def watch_entropy():
    """Wraps what draws from the operating system's entropy (random.Random() or Random.seed() with no
    seed, random.seed() with none, random.SystemRandom, secrets, os.urandom, os.getrandom, uuid.uuid4,
    uuid.uuid1, numpy's SeedSequence made without one: default_rng(), a BitGenerator or RandomState
    with no seed, numpy.random.seed()), to notice the game's code drawing from it in a step: its
    successors then differ from run to run (the explorer's identity warning). Only the game's own calls
    count: the engine names its sprites with uuid4, and restoring a snapshot makes Random objects.
    The wrappers return what the functions return. Once a process."""
    import secrets
    import uuid
    import numpy.random.bit_generator as bit_generator
    if getattr(random.Random.seed, '__wrapped_entropy__', None) is not None:
        return
    _ENTROPY_FILES.update(m.__file__ for m in (random, secrets, uuid))
    _ENTROPY_CODES.add(_watched(len, 0, 'random', 'len').__code__)

    original_seed = random.Random.seed
    init_code = random.Random.__init__.__code__

    def seed(self, a=None, *args, **kwargs):
        if a is None and ENTROPY_READ[0] is None:
            _drew('random.Random() with no seed' if sys._getframe(1).f_code is init_code else 'random.Random.seed() with no seed')
        return original_seed(self, a, *args, **kwargs)
    seed.__module__, seed.__name__, seed.__qualname__, seed.__doc__ = 'random', 'seed', 'Random.seed', original_seed.__doc__
    seed.__wrapped_entropy__ = original_seed
    random.Random.seed = seed
    _ENTROPY_CODES.add(seed.__code__)
    for module, name, label in ((random, '_urandom', 'random.SystemRandom'), (os, 'urandom', 'os.urandom'),
                                (os, 'getrandom', 'os.getrandom'), (uuid, 'uuid4', 'uuid.uuid4'),
                                (uuid, 'uuid1', 'uuid.uuid1'), (bit_generator, 'randbits', 'numpy.random with no seed: '
                                'default_rng(), SeedSequence(), a BitGenerator or RandomState made without one')) + tuple(
            (secrets, name, f'secrets.{name}') for name in ('token_bytes', 'token_hex', 'token_urlsafe', 'randbits', 'choice', 'randbelow')):
        fn = getattr(module, name, None)
        if fn is not None:
            setattr(module, name, _entropy(fn, label, module.__name__, name))


def _entropy(fn, label, module, name):
    def draw(*args, **kwargs):
        if ENTROPY_READ[0] is None:
            _drew(label)
        return fn(*args, **kwargs)
    # Named as the module attribute it replaces, as _clock's (self.token = secrets.token_hex pickles by name).
    draw.__module__, draw.__name__, draw.__qualname__, draw.__doc__ = module, name, name, fn.__doc__
    draw.__wrapped_entropy__ = fn
    _ENTROPY_CODES.add(draw.__code__)
    return draw


class StepTimeout(BaseException):
    """Raised by the alarm inside a step that runs past its limit (BaseException: games catch Exception)."""


class GameError(Exception):
    """A game raised: `where` is the traceback's last frame in the game's file (else the last frame)."""

    def __init__(self, kind, message, where):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.where = where

    def describe(self):
        return f'{self.message} ({self.where})' if self.where else self.message


class StartError(Exception):
    """The game's constructor or its first RESET raised (`error`, a GameError); `loaded` is the module."""

    def __init__(self, loaded, error):
        super().__init__(error.describe())
        self.loaded = loaded
        self.error = error


def _on_alarm(signum, frame):
    raise StepTimeout()


def _on_sigint(signum, frame):
    """A real Ctrl-C (the terminal signals Node's children too) ends the host as SIGINT always did, so
    a KeyboardInterrupt caught in a step can only be the game's own."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGINT)


# Set once a game ran this process out of memory: its heap stays bloated (CPython keeps what it
# took), so every reply from then on says so and the Node side ends the process once it is idle.
MEMORY_HIT = [False]


def game_error(err, game_file, seconds=0):
    """A GameError for an exception a game step raised."""
    if isinstance(err, StepTimeout):
        return GameError('timeout', f'a step did not return within {seconds:g} s (stopped by its alarm)', _last_frame(err, game_file))
    if isinstance(err, MemoryError):
        MEMORY_HIT[0] = True
        return GameError('memory', 'out of memory (MemoryError)', _last_frame(err, game_file))
    if isinstance(err, SystemExit):
        code = err.code if err.code is None or isinstance(err.code, int) else repr(err.code)
        return GameError('exception', f'SystemExit: the game tried to end its Python process (exit code {code})', _last_frame(err, game_file))
    if isinstance(err, RecursionError):
        return GameError('exception', f'RecursionError: {err}', _last_frame(err, game_file))
    text = str(err)
    return GameError('exception', f'{type(err).__name__}: {text}' if text else type(err).__name__, _last_frame(err, game_file))


def _last_frame(err, game_file):
    frames = traceback.extract_tb(err.__traceback__)
    if not frames:
        return ''
    own = [f for f in frames if f.filename == game_file]
    f = (own or frames)[-1]
    return f'{os.path.basename(f.filename)}:{f.lineno} in {f.name}'


_PROGRESS = struct.Struct('<IIII')


class Progress:
    """A heartbeat the Node side reads from a file: steps begun, and where the current one is (the batch
    item, a step within it) and its action, so a step that never returns (even with the alarm blocked)
    is named when its process is killed."""

    def __init__(self, path):
        self.map = None
        self.ticks = 0
        self.item = 0
        self.sub = 0
        if path:
            with open(path, 'r+b') as f:
                self.map = mmap.mmap(f.fileno(), _PROGRESS.size)

    def step(self, code):
        self.ticks += 1
        if self.map is not None:
            _PROGRESS.pack_into(self.map, 0, self.ticks & 0xFFFFFFFF, self.item, self.sub, code)


class Runtime:
    def __init__(self, path, graph_builder=False, identity='state', compress=False, seed=0, progress=None, unoffered='stay'):
        # First: a Ctrl-C while the game loads or builds is no fault of the game's (StartError below).
        signal.signal(signal.SIGINT, _on_sigint)
        watch_numpy_rng()
        watch_python_rng()
        watch_clock()
        watch_entropy()
        remember_factory_checks()
        self.progress = Progress(progress)
        self.loaded = Game(path, graph_builder=graph_builder, seed=seed)
        L = self.loaded
        _GAME_FILE[0] = L.file
        # The clock function the game's code read in the last step (run), else None.
        self.clock_read = None
        # What the game's code drew from the operating system's entropy in the last step (run), else None.
        self.entropy_read = None
        self.GameAction, self.ActionInput, self.GameState = L.GameAction, L.ActionInput, L.GameState
        # Both global RNGs were seeded with --seed before the module loaded (loader.Game).
        self.rng_construct = np.random.get_state()
        self.py_construct = random.getstate()
        try:
            base = L.new()
            fd = base.perform_action(L.ActionInput(id=L.GameAction.RESET), raw=True)
        except BaseException as err:  # the game's own fault, not a load error: its levels start crashed
            raise StartError(L, game_error(err, L.file)) from None
        # The global RNGs (numpy's, and the `random` module's) are part of the state: every step starts
        # from the state's own (PROTOCOL.md), level 1's start from where the game's construction and RESET
        # left them (a game may seed them there).
        self.rng_start = np.random.get_state()
        self.py_start = random.getstate()
        # Object ids the game keeps, looked for in its first construction, never copied: a snapshot
        # carries their objects, and a restored copy its own objects' ids (fixture id01).
        holds_ids = held_id(base) is not None
        self.registry = Registry(L, base, L.ActionInput())
        self.registry.adopt(base)
        self.snapshots = Snapshots(self.registry, compress=compress, game_file=L.file)
        self.snapshots.keeps_ids = holds_ids
        self.identity = Identity(self.registry, base, identity, source=L.source)
        watch_layers()
        _LAYER_WATCH[0] = not self.identity.layers_change
        # Whether the last step (run) called Sprite.set_layer where the identity leaves valid sort caches out.
        self.layer_set = False
        self.shared_reference = shared_levels(self.identity, self.registry)
        self.info = L.info(base)
        # `offered`: the game's available actions; `actions`: those the graph and the walks step. Under
        # unoffered='step' all seven, as the engine steps a game with any action the reference agent sends.
        # RESET (0) is never one: ARC's available_actions never lists it (RESET is always there, and
        # only after GAME_OVER or to restart), so a game that lists it is explored without it, and says so.
        self.lists_reset = RESET in self.info['actions']
        self.offered = offered_of(self.info['actions'])
        self.actions = list(range(1, 8)) if unoffered == 'step' else self.offered
        self.info['offered'] = self.offered
        self.info['actions'] = self.actions
        if self.lists_reset:
            self.info['listsReset'] = LISTS_RESET
        self.levels = self.info['levels']
        np.random.set_state(self.rng_start)
        _PY_SETSTATE(self.py_start)
        self.np_at_start = self.py_at_start = True
        self.base_frame = np.ascontiguousarray(fd.frame[-1], dtype=np.int8)
        # A game that cannot be pickled travels as the action path from its level's start (PROTOCOL.md).
        try:
            self.base = self._pack(base, None)
            if self.snapshots.hooked:
                self._check_loaded(base, self.base)
            self.restore(self.base)
            self.pickling = True
            self.unpicklable = None
        except Exception as err:  # noqa: BLE001 - any pickling failure means the fallback
            self.base = None
            self.pickling = False
            self.unpicklable = f'{type(err).__name__}: {err}'
        # Why the first state of a pickling game that would not pickle (sent as a path) would not.
        self.unpicklable_later = None
        self.held_ids = self.lost_ids(base) if holds_ids else None
        self._start_warning = False  # not checked yet (start_warning)
        self._first = base  # the first construction, never stepped: start_warning compares a second with it
        self.step_limit = 0.0
        signal.signal(signal.SIGALRM, _on_alarm)

    def start_warning(self):
        """Why no graph of this game can be trusted, found once (the first exploration's root asks): a
        method of the game's classes cached by functools (its cache is keyed by the game object), or a
        level start that two constructions give apart (the game draws from a source arcgraph does not
        seed). None for a game with neither."""
        if self._start_warning is False:
            self._start_warning = cached_methods(self.loaded) or self.held_ids or self._start_differs()
        return self._start_warning

    def _start_differs(self):
        """Constructs the game and RESETs it a second time, both global RNGs set back to where the first
        construction began, and compares the two starts (game object, frame and the RNGs' states)."""
        L = self.loaded
        np.random.set_state(self.rng_construct)
        _PY_SETSTATE(self.py_construct)
        self.np_at_start = self.py_at_start = False
        first, self._first = self._first, None
        # The module's state around the second construction: one that construction changes (a count of
        # the games built, on the class) makes what the game does depend on how many the process built.
        module_before = module_state(self.identity, L.module)
        try:
            second = L.new()
            fd = second.perform_action(L.ActionInput(id=L.GameAction.RESET), raw=True)
            rngs = np.random.get_state(), random.getstate()
        except BaseException as err:  # noqa: BLE001 - the first construction did not raise: not deterministic either
            return (f'a second construction of the game raised ({game_error(err, L.file).describe()}) where the first '
                    'did not: the level start is not deterministic, so this graph is one run\'s')
        # second's levels not being played stay its own clones: the first's are clones of its clean levels
        # (Registry), each sharing what Level.clone shares (placeable_areas) with its own game's levels;
        # the first's pristine copies in the second would share nothing there (probe L's pl15: a false warning)
        self.registry.adopt(first)
        module_after = module_state(self.identity, L.module)
        changed = changed_part(module_before, module_after)
        if changed is not None:
            return (f'constructing the game (and its RESET) changed {changed} outside the game object (a second '
                    'construction, which arcgraph makes to check the level start, changed it again): what the game '
                    'does may depend on how many games the process built before it, which no snapshot holds and the '
                    'identity does not see, so this graph is that of one process\'s history (keep such counts in the game object)')
        walk = self.identity.walk_unshared
        frame = np.ascontiguousarray(fd.frame[-1], dtype=np.int8)
        same = (walk(first) == walk(second) and np.array_equal(frame, self.base_frame)
                and _same_rng(rngs[0], self.rng_start) and rngs[1] == self.py_start)
        if same:
            return None
        return ('two constructions of the game, each followed by RESET with both global RNGs seeded alike, gave '
                'two level starts: the level start is not deterministic (the game draws from a source arcgraph '
                'does not seed: an unseeded random.Random(), time, os.urandom), so this graph is one draw\'s')

    # -- snapshots: the game object and the global RNG states it holds: None (both at the start state),
    # or (numpy's state or None, random's state or None), each once the game drew from that RNG

    def _pack(self, game, rng):
        if self.identity.addresses:  # a walk met what may be an id() the game keeps
            self.snapshots.keeps_ids = True
        return self.snapshots.dumps(game, rng)

    def lost_ids(self, game):
        """Why a restored copy of `game` is not the game (heldids.held_id_message) when it keeps id() of
        its objects and a snapshot's round trip does not give the copy's own objects' ids back in their
        place (an id held where only C reaches); None when it keeps none, or they survive. A game that
        travels as its action path rebuilds its objects, and their ids, by playing."""
        message = held_id_message(game)
        if message is None or not self.pickling:
            return None
        shared = self.registry.ids
        snapshots = self.snapshots
        snapshots.keeps_ids = True
        try:
            held = len(kept_objects(game, shared))
            copy = snapshots.loads(snapshots.dumps(game))
            if snapshots.unmapped == 0 and len(kept_objects(copy, shared)) >= held:
                return None
        except Exception:  # noqa: BLE001 - a check that explains: the message stands
            pass
        return message

    def pack(self, live):
        if self.pickling:
            try:
                data = self._pack(live[0], live[1])
                if self.snapshots.hooked:
                    # The game's own __reduce__ or __getstate__ decided how part of it pickles: a
                    # snapshot that will not load, or loads as another state (a field its
                    # __getstate__ leaves out, which the game reads), travels as a path too (loaded
                    # once, here, and walked).
                    self._check_loaded(live[0], data)
                return data
            except LossySnapshot as err:
                if self.unpicklable_later is None:
                    self.unpicklable_later = str(err)
            except Exception as err:  # noqa: BLE001 - this state will not pickle: it travels as a path
                if self.unpicklable_later is None:
                    self.unpicklable_later = f'{"its pickle would not load: " if self.snapshots.hooked else ""}{type(err).__name__}: {err}'
        return self._path(live)

    def _check_loaded(self, game, data):
        """Loads a snapshot whose pickling the game's own hooks decided, and raises LossySnapshot when
        the loaded game's identity walk is not the live one's. The walks' notes (a generator, a stale
        key) are the live state's digest's, which the explorer reads after the step: kept."""
        hooked = self.snapshots.hooked_type
        obj = self.snapshots.loads(data)
        loaded = obj[0] if type(obj) is tuple else obj
        identity = self.identity
        notes = identity.last_hidden, identity.last_stale
        try:
            same = identity.walk_bytes(loaded) == identity.walk_bytes(game)
        finally:
            identity.last_hidden, identity.last_stale = notes
        if not same:
            name = hooked.__qualname__ if hooked is not None else 'an object'
            raise LossySnapshot(f'its pickle loads as another state: {name}\'s own pickling (__getstate__, __reduce__) leaves part of it out')

    def _path(self, live):
        """The state as the actions that lead to it: from its level's start (a recipe), or from the last
        snapshot it was restored from that pickled (a state that gained something pickle refuses, a
        weakref, say, after the game's start pickled)."""
        start, path = live[3], live[2]
        if isinstance(start, dict):
            return PATH + json.dumps({'start': start, 'path': path}, separators=(',', ':')).encode()
        return PATH_FROM + _LENGTH.pack(len(start)) + start + json.dumps(path, separators=(',', ':')).encode()

    def restore(self, snapshot):
        if snapshot[0] == PATH[0]:
            # Replayed from the level's start: a fresh game, the start rebuilt, then the path.
            from .levels import level_start
            recipe = json.loads(bytes(snapshot[1:]))
            start = recipe['start']
            live = level_start(self, start['level'], start.get('path'))[0]
            for code in recipe['path']:
                self.step(live, code)
            return live
        if snapshot[0] == PATH_FROM[0]:
            # A pickled snapshot, then the path from it.
            n = _LENGTH.unpack_from(snapshot, 1)[0]
            live = self.restore(bytes(snapshot[5:5 + n]))
            for code in json.loads(bytes(snapshot[5 + n:])):
                self.step(live, code)
            return live
        try:
            obj = self.snapshots.loads(snapshot)
        except Exception as err:  # noqa: BLE001 - pickled, but something in it will not load
            text = f'{type(err).__name__}: {err}'
            raise GameError('exception', f'arcgraph could not restore the state before the last action from its snapshot (pickle): {text}', _last_frame(err, self.loaded.file)) from None
        game, rng = obj if type(obj) is tuple else (obj, None)
        # The path from this snapshot is kept, so a successor that will not pickle can travel as it.
        return [game, rng, [], snapshot if type(snapshot) is bytes else bytes(snapshot)]

    def fresh(self):
        """A live state at level 1's start (after RESET)."""
        if self.pickling:
            return self.restore(self.base)
        np.random.set_state(self.rng_construct)
        _PY_SETSTATE(self.py_construct)
        game = self.loaded.new()
        game.perform_action(self.ActionInput(id=self.GameAction.RESET), raw=True)
        self.np_at_start = self.py_at_start = False
        return [game, None, [], {'level': 1}]

    def action_input(self, code):
        """A new ActionInput for every step, as the engine gets one for every request: a game may rewrite
        its `data` (display to grid coordinates, say), and a shared one would carry that to the next step."""
        if code < CLICK_BASE:
            return self.ActionInput(id=self.GameAction.from_id(code))
        cell = code - CLICK_BASE
        return self.ActionInput(id=self.GameAction.ACTION6, data={'x': cell % 64, 'y': cell // 64})

    def step(self, live, code, limit=None):
        """Plays action `code` on live state [game, rng, path, start] in place (the path from `start`, a
        level's recipe or a pickled snapshot, grows by `code`); returns the engine's FrameDataRaw.
        Raises GameError for an exception, a timeout or running out of memory."""
        fd = self.run(live, lambda game: game.perform_action(self.action_input(code), raw=True), code, limit)
        if len(live) > 2:
            live[2].append(code)
        return fd

    def run(self, live, call, code, limit=None):
        """Runs call(game) on live state [game, rng] as a step runs (`code` for the progress line): under
        the global RNG states it carries, within the step's time limit, a fault raised as GameError."""
        rng = live[1]
        np_state, py_state = _NO_RNG if rng is None else rng
        if np_state is not None:
            np.random.set_state(np_state)
            self.np_at_start = False
        elif not self.np_at_start:
            np.random.set_state(self.rng_start)
            self.np_at_start = True
        if py_state is not None:
            _PY_SETSTATE(py_state)
            self.py_at_start = False
        elif not self.py_at_start:
            _PY_SETSTATE(self.py_start)
            self.py_at_start = True
        RNG_USED[0] = RNG_USED[1] = False
        CLOCK_READ[0] = None
        LAYER_SET[0] = False
        ENTROPY_READ[0] = None
        self.progress.step(code)
        seconds = self.step_limit if limit is None else limit
        if seconds > 0:
            signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            result = call(live[0])
        except BaseException as err:  # a game's sys.exit or KeyboardInterrupt is its fault too (a real Ctrl-C: _on_sigint)
            raise game_error(err, self.loaded.file, seconds) from None
        finally:
            if seconds > 0:
                signal.setitimer(signal.ITIMER_REAL, 0)
            self.clock_read = CLOCK_READ[0]
            self.layer_set = LAYER_SET[0]
            self.entropy_read = ENTROPY_READ[0]
        if RNG_USED[0] or RNG_USED[1]:
            if RNG_USED[0]:
                np_state = np.random.get_state()
                self.np_at_start = False
            if RNG_USED[1]:
                py_state = random.getstate()
                self.py_at_start = False
            live[1] = (np_state, py_state)
        return result

    def status(self, game, fd, level):
        """Of a successor while exploring `level`: won once levels_completed passes level-1 (or WIN)."""
        state = fd.state
        if state == self.GameState.GAME_OVER:
            return LOST
        if state == self.GameState.WIN or game._score > level - 1:
            return WON
        return PLAYING

    def start_status(self, game, level):
        """Of a level's start: the engine calls step() for RESET too, so a level can start lost, or won
        (the whole game, or this level: RESET's step completed it and the game is already on the next)."""
        if game._state == self.GameState.GAME_OVER:
            return LOST
        return WON if game._state == self.GameState.WIN or game._score > level - 1 else PLAYING

    def canonical_levels(self, game):
        """A level the game played and left (the engine's set_level) is its own object, walked by content
        and carried whole by snapshots; one whose content is the pristine copy's again (the game left
        it as it found it) becomes the shared pristine copy, as it was before the game went there: the
        two behave alike (set_level plays a clone of the clean level either way), and are one state."""
        levels = game._levels
        current = game._current_level_index
        pristine = self.registry.levels
        for i in range(min(len(levels), len(pristine))):
            level = levels[i]
            if i == current or level is pristine[i] or id(level) in self.registry.ids or type(level) is not type(pristine[i]):
                continue
            if not _held_outside(level) and self.identity.walk_unshared(level) == self.shared_reference.get(('L', i)):
                levels[i] = pristine[i]

    def digest(self, live, frame, dict_order=True):
        """The state's identity; `dict_order` False: its dicts' entries taken in key order (the hash-seed check's)."""
        game, rng = live[0], live[1]
        if self.identity.mode == 'state':
            self.canonical_levels(game)
        d = self.identity.digest(game, frame, dict_order)
        if rng is not None:
            from hashlib import blake2b
            h = blake2b(d, digest_size=16)
            np_state, py_state = rng
            if np_state is not None:
                h.update(np.asarray(np_state[1]).tobytes())
                h.update(b'%d' % np_state[2])
                if np_state[3]:  # a cached second gaussian (normal() draws two at a time)
                    h.update(b'g%r' % np_state[4])
            if py_state is not None:
                # the Mersenne Twister's 624 words and position, and a cached gauss() value
                h.update(b'random')
                h.update(np.asarray(py_state[1], dtype=np.uint32).tobytes())
                h.update(repr(py_state[2]).encode())
            d = h.digest()
        return d


# Why a game listing RESET in its available actions is explored without it (the explorer's note, qualify's finding).
LISTS_RESET = ('the game lists RESET (0) in available_actions, which an ARC game never does (RESET is always available, '
               'and the engine echoes the list on every frame: an agent drawing from it would restart mid-attempt): '
               'arcgraph explores and plays the other actions, RESET only as the engine takes it after GAME_OVER')


def offered_of(actions):
    """The actions a game offers, sorted, as the graph and the walks step them: its available_actions less RESET."""
    return sorted(int(a) for a in actions if int(a) != RESET)


def _same_rng(a, b):
    return a[0] == b[0] and np.array_equal(a[1], b[1]) and a[2:] == b[2:]


def cached_methods(loaded):
    """The identity warning of a game whose classes cache a method with functools.lru_cache or
    functools.cache (a _lru_cache_wrapper as a class attribute), else None."""
    import functools
    own = loaded.module.__name__
    for key, value in vars(loaded.module).items():
        if isinstance(value, type) and value.__module__ == own:
            for attr, v in vars(value).items():
                if isinstance(v, functools._lru_cache_wrapper):
                    return (f'{value.__qualname__}.{attr} is a method cached by functools.lru_cache (or functools.cache): '
                            'its cache is keyed by the game object, which every restored state rebuilds, so restored '
                            'states never hit it and what it holds cannot travel in a snapshot: this graph is that of '
                            'the game without the cache (keep what it remembers in an attribute of the game instead)')
    return None


def _held_outside(level):
    """Whether the level, or an object in its lists and dicts (its sprites), is referenced from anywhere
    else (the game keeps the level, or one of its sprites, in an attribute): such a level stays, as
    the pristine copy in its place would leave the game's reference pointing at another object."""
    import sys
    # the caller's variable, this parameter, getrefcount's argument, and the _levels list
    if sys.getrefcount(level) > 4:
        return True
    occurrences = {}
    containers = [v if type(v) is list else v.values() for v in vars(level).values() if type(v) is list or type(v) is dict]
    for seq in containers:
        for x in seq:
            occurrences[id(x)] = occurrences.get(id(x), 0) + 1
    for seq in containers:
        for x in seq:
            # the loop's variable and getrefcount's argument besides the level's own containers
            if type(x).__module__ != 'builtins' and sys.getrefcount(x) - 2 > occurrences[id(x)]:
                return True
    return False


def settled(fd):
    """The settled frame of a step: the last layer (an animation's earlier layers are in between)."""
    if not fd.frame:
        # The engine answers an action with no frame only when the game is over already.
        raise GameError('exception', f'the step returned no frame: the engine says the game was over ({fd.state.name}) before it, though this '
                        'state was playing where it was found (a state restored from its snapshot behaves unlike the game?)', '')
    return fd.frame[-1]
