"""Snapshots: how a game state travels. A pickle of the game object in which the levels not being
played, `_clean_levels`, the module's own sprites and levels and the engine's mutable defaults are shared (the host holds them, the
pickle names them), enum members go by name (combinations of flags by value) and local functions by their code and closure."""
import copyreg
import io
import pickle
import types
import zlib
from enum import Enum

import numpy as np

from .heldids import kept_objects, remap_ids
from .loader import PRISTINE_IDS

_NDARRAY = np.ndarray

PICKLE = 1
PICKLE_ZLIB = 2
# A pickle of (state, {id: object}): the objects whose ids the state holds (heldids), remapped on loading.
# (3 and 4 are the runtime's path kinds.)
PICKLE_IDS = 5
PICKLE_IDS_ZLIB = 6

_REGISTRY = {}  # key -> shared object, the same in every host process of a game
_CODE = {}  # code key -> code object of the game's module


def _shared(key):
    return _REGISTRY[key]


def _code(key):
    return _CODE[key]


def _new_function(code_key, module_name, name, cells):
    """`cells`: the function's closure cells, pickled as objects of their own (two functions that share
    one share it again)."""
    import sys
    return types.FunctionType(_CODE[code_key], sys.modules[module_name].__dict__, name, None, cells or None)


def _new_cell():
    return types.CellType()


def _view(root, offset, shape, strides, dtype, writeable):
    """A numpy view rebuilt over its (unpickled, memoised) root array: the memory they share stays shared."""
    v = np.ndarray(shape, dtype, buffer=root, offset=offset, strides=strides)
    if not writeable:
        v.flags.writeable = False
    return v


def _view_reduction(a):
    """How to pickle numpy view `a` as a view of the array that owns its memory (pickle copies each array
    alone: a game writing through `self.strip = self.board.reshape(-1)` wrote into a copy after a restore,
    the probe's pk01), or None when it is not one."""
    root = a.base
    if not isinstance(root, np.ndarray) or a.dtype.hasobject:
        return None
    while isinstance(root.base, np.ndarray):
        root = root.base
    if root.dtype.hasobject or not root.flags.c_contiguous:
        return None
    offset = a.__array_interface__['data'][0] - root.__array_interface__['data'][0]
    return (_view, (root, offset, a.shape, a.strides, a.dtype, bool(a.flags.writeable)))


def _set_cell(cell, state):
    cell.cell_contents = state[0]  # in a tuple: a state of None would not be set at all
    return cell


def _set_function_state(fn, state):
    defaults, kwdefaults, attrs = state
    fn.__defaults__ = defaults
    fn.__kwdefaults__ = kwdefaults
    fn.__dict__.update(attrs)
    return fn


def _code_key(code):
    return ('K', code.co_filename, code.co_qualname, code.co_firstlineno)


def _register_code(code):
    _CODE[_code_key(code)] = code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _register_code(const)


_MUTABLE = (list, dict, set, bytearray)


def engine_defaults():
    """(name, value) of the mutable default values of the engine's functions (`Sprite(tags=[])`: one
    list that every sprite made without tags holds), in a fixed order."""
    import sys
    found, seen = [], set()
    for module_name in sorted(m for m in list(sys.modules) if m == 'arcengine' or m.startswith('arcengine.')):
        module = sys.modules.get(module_name)
        if module is None:
            continue
        functions = []
        for _, value in sorted(vars(module).items()):
            if isinstance(value, type) and value.__module__ == module_name:
                for _, attr in sorted(vars(value).items()):
                    fn = getattr(attr, '__func__', attr)
                    if isinstance(fn, types.FunctionType):
                        functions.append(fn)
            elif isinstance(value, types.FunctionType) and value.__module__ == module_name:
                functions.append(value)
        for fn in functions:
            code = fn.__code__
            defaults = fn.__defaults__ or ()
            names = code.co_varnames[code.co_argcount - len(defaults):code.co_argcount]
            pairs = list(zip(names, defaults)) + sorted((fn.__kwdefaults__ or {}).items())
            for name, value in pairs:
                if isinstance(value, _MUTABLE) and id(value) not in seen:
                    seen.add(id(value))
                    found.append((f'{fn.__module__}.{fn.__qualname__}({name}=)', value))
    return found


class Registry:
    """What every snapshot of this game shares: built the same way in every host process."""

    def __init__(self, loaded, base, action_input):
        self.ids = {}
        self.levels = []
        self.add(('A',), action_input)
        # The engine's mutable defaults: an object holding one (a sprite made without tags) holds it
        # again once restored, so a step that changes it changes it for all, as in the engine (the
        # explorer's module check walks them, and warns).
        self.defaults = engine_defaults()
        self.default_ids = {}
        for name, value in self.defaults:
            self.add(('E', name), value)
            self.default_ids[id(value)] = ('E', name)
        for i, level in enumerate(base._clean_levels):
            self.add(('C', i), level)
        for i, clean in enumerate(base._clean_levels):
            pristine = clean.clone()
            self.levels.append(pristine)
            self.add(('L', i), pristine)
            PRISTINE_IDS.add(id(pristine))
        level_type = type(base._clean_levels[0]) if base._clean_levels else None
        sprite_type = _sprite_type(base)
        shareable = tuple(t for t in (level_type, sprite_type) if t is not None)
        for name, value in sorted(vars(loaded.module).items()):
            if isinstance(value, shareable):
                self.add(('G', name), value)
            elif isinstance(value, dict):
                for k, v in value.items():
                    if isinstance(v, shareable) and isinstance(k, (str, int)):
                        self.add(('G', name, k), v)
            elif isinstance(value, (list, tuple)):
                for k, v in enumerate(value):
                    if isinstance(v, shareable):
                        self.add(('G', name, k), v)
            elif isinstance(value, types.FunctionType) and value.__module__ == loaded.module.__name__:
                _register_code(value.__code__)
        for value in vars(loaded.module).values():
            if isinstance(value, type) and value.__module__ == loaded.module.__name__:
                for attr in vars(value).values():
                    fn = getattr(attr, '__func__', attr)
                    if isinstance(fn, property):
                        for f in (fn.fget, fn.fset, fn.fdel):
                            if isinstance(f, types.FunctionType):
                                _register_code(f.__code__)
                    elif isinstance(fn, types.FunctionType):
                        _register_code(fn.__code__)

    def shared_levels(self):
        """(key, level) of the clean levels and the pristine copies: never to be changed by a step."""
        return [(key, _REGISTRY[key]) for key in sorted(self.ids.values()) if key[0] in ('C', 'L')]

    def add(self, key, obj):
        if id(obj) not in self.ids:
            self.ids[id(obj)] = key
            _REGISTRY[key] = obj

    def adopt(self, game):
        """Points the levels this state does not play at the shared pristine ones (games never touch them)."""
        current = game._current_level_index
        levels = game._levels
        for i in range(min(len(levels), len(self.levels))):
            if i != current:
                levels[i] = self.levels[i]


def _sprite_type(base):
    for level in base._clean_levels:
        for sprite in level.get_sprites():
            return type(sprite)
    return None


_HOLDERS = {}  # type -> whether it is (or derives from) one of the engine's classes


def _engine_type(t):
    holder = _HOLDERS.get(t)
    if holder is None:
        holder = _HOLDERS[t] = any(c.__module__ == 'arcengine' or c.__module__.startswith('arcengine.') for c in t.__mro__)
    return holder


class _Named:
    """Stands for a shared object in an object's state (pickle never asks reducer_override about a list)."""

    __slots__ = ('key',)

    def __init__(self, key):
        self.key = key

    def __reduce__(self):
        return (_shared, (self.key,))


# How the pickler treats each type (decided once per type): as pickle would; a function or code
# object of the game's (by code key); an enum member (by name); an engine object that may hold one of
# its mutable defaults; an exact named tuple (its items, without named tuples' Python __getnewargs__:
# lp85 holds 500 a state); or a type whose pickling hooks are the game's own code (its snapshots are
# loaded once to see they restore).
# A closure cell is an object of its own (pickle's memo keeps one cell for the functions that share
# it: make_counter's inc and get over one `n`).
_AS_IS, _FUNCTION, _CODE_OBJECT, _ENUM, _ENGINE, _NAMED_TUPLE, _HOOKED, _CELL = range(8)
_PICKLE_HOOKS = ('__reduce__', '__reduce_ex__', '__getstate__', '__setstate__', '__getnewargs__', '__getnewargs_ex__', '__new__')
_HOW = {}


def _code_file(fn):
    code = getattr(getattr(fn, '__func__', fn), '__code__', None)  # __new__ is a staticmethod
    return code.co_filename if code is not None else None


def _how(t, game_file):
    how = _HOW.get(t)
    if how is None:
        if t is types.FunctionType:
            how = _FUNCTION
        elif t is types.CodeType:
            how = _CODE_OBJECT
        elif t is types.CellType:
            how = _CELL
        elif issubclass(t, Enum):
            how = _ENUM
        elif game_file is not None and any(_code_file(c.__dict__.get(name)) == game_file for c in t.__mro__ for name in _PICKLE_HOOKS):
            how = _HOOKED
        elif _engine_type(t):
            how = _ENGINE
        elif t.__bases__ == (tuple,) and '_fields' in t.__dict__ and t.__dictoffset__ == 0:
            how = _NAMED_TUPLE
        else:
            how = _AS_IS
        _HOW[t] = how
    return how


class _Pickler(pickle.Pickler):
    def __init__(self, file, shared, defaults=None, game_file=None):
        super().__init__(file, protocol=5)
        self.shared = shared
        self.defaults = defaults or {}
        self.game_file = game_file
        self.hooked = False  # met an object whose pickling the game's code decides
        self.hooked_type = None  # the first such object's type

    def reducer_override(self, obj):
        key = self.shared.get(id(obj))
        if key is not None:
            return (_shared, (key,))
        t = type(obj)
        if t is _NDARRAY and obj.base is not None:
            rv = _view_reduction(obj)
            if rv is not None:
                return rv
        how = _HOW.get(t)
        if how is None:
            how = _how(t, self.game_file)
        if how == _AS_IS:
            return NotImplemented
        if how == _NAMED_TUPLE:
            return (copyreg.__newobj__, (t, *obj))
        if how == _FUNCTION:
            qualname = obj.__qualname__
            if '<locals>' not in qualname and '<lambda>' not in qualname:
                return NotImplemented
            code_key = _code_key(obj.__code__)
            if code_key not in _CODE:
                _register_code(obj.__code__)
            # The cells themselves (each made empty, memoised, then filled: a function whose own cell
            # holds it, a recursive closure, finds itself in the memo).
            state = (obj.__defaults__, obj.__kwdefaults__, dict(obj.__dict__))
            return (_new_function, (code_key, obj.__module__, obj.__name__, obj.__closure__ or ()), state, None, None, _set_function_state)
        if how == _CELL:
            try:
                value = obj.cell_contents
            except ValueError:  # an empty cell (a name the function has not bound yet)
                return (_new_cell, ())
            return (_new_cell, (), (value,), None, None, _set_cell)
        if how == _CODE_OBJECT:
            key = _code_key(obj)
            _CODE.setdefault(key, obj)
            return (_code, (key,))
        if how == _ENUM:
            # A member by its name; one without a name of its own (a Flag combination such as
            # RED|BLUE, a pseudo-member, Flag(0)) by its value: the class rebuilds it.
            name = obj.name
            if name is not None and t.__members__.get(name) is obj:
                return (getattr, (t, name))
            return (t, (obj.value,))
        if how == _HOOKED:
            self.hooked = True
            if self.hooked_type is None:
                self.hooked_type = t
            if not _engine_type(t):
                return NotImplemented
        if self.defaults:  # an engine object
            d = getattr(obj, '__dict__', None)
            if d and not self.defaults.keys().isdisjoint(map(id, d.values())):
                rv = obj.__reduce_ex__(5)
                if type(rv) is tuple and len(rv) >= 3 and type(rv[2]) is dict:
                    defaults = self.defaults
                    state = {k: _Named(defaults[id(v)]) if id(v) in defaults else v for k, v in rv[2].items()}
                    return rv[:2] + (state,) + rv[3:]
        return NotImplemented


class Snapshots:
    """Pickles and unpickles game states against the registry; `compress` adds zlib level 1."""

    def __init__(self, registry, compress=False, game_file=None):
        self.registry = registry
        self.compress = compress
        self.game_file = game_file
        self.shared_action = _REGISTRY[('A',)]
        # Whether the last dumps met an object whose pickling hooks are the game's own code, and the
        # first such object's type.
        self.hooked = False
        self.hooked_type = None
        # Whether the game may keep id() of its objects (set by the runtime once a state held an int that
        # looks like an address): each snapshot then looks for them and carries their objects.
        self.keeps_ids = False
        # How many kept ids the last loads could not rewrite (heldids.remap_ids).
        self.unmapped = 0

    def dumps(self, game, extra=None):
        """The game object, or (game, extra) when extra is not None."""
        # The last action is engine bookkeeping, set again before every step: never worth its bytes.
        action = game._action
        game._action = self.shared_action
        self.hooked = False
        self.hooked_type = None
        try:
            payload = game if extra is None else (game, extra)
            kept = kept_objects(payload, self.registry.ids) if self.keeps_ids else None
            if kept:
                payload = (payload, kept)
            buf = io.BytesIO()
            buf.write(bytes((PICKLE_IDS if kept else PICKLE,)))
            pickler = _Pickler(buf, self.registry.ids, self.registry.default_ids, self.game_file)
            pickler.dump(payload)
            self.hooked = pickler.hooked
            self.hooked_type = pickler.hooked_type
        finally:
            game._action = action
        data = buf.getvalue()
        if self.compress:
            return bytes((data[0] + 1,)) + zlib.compress(memoryview(data)[1:], 1)
        return data

    def loads(self, data):
        kind = data[0]
        body = memoryview(data)[1:]
        if kind in (PICKLE_ZLIB, PICKLE_IDS_ZLIB):
            body = zlib.decompress(body)
        elif kind not in (PICKLE, PICKLE_IDS):
            raise ValueError(f'not a pickled snapshot (kind {kind})')
        obj = pickle.loads(body)
        self.unmapped = 0
        if kind >= PICKLE_IDS:
            self.keeps_ids = True  # this process's snapshots of it carry them too
            obj, kept = obj
            new_ids = {old: id(o) for old, o in kept.items() if id(o) != old}
            if new_ids:
                self.unmapped = remap_ids(obj, new_ids, self.registry.ids)
        return obj
