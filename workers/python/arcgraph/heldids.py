"""Object ids a game keeps: an int in the state equal to id() of an object of the same state (a registry
keyed by id(node), an undo record of (id(node), x, y, id(parent))). A snapshot restores new objects with
other ids, so such ints would point at nothing, or, once their memory is reused, at other objects: the
restored game would not be the game (the shared lf52's undo rebuilds its tree from such ids, and a copy's
tree doubled at each undo: 22 s steps). So a snapshot of such a state carries the objects whose ids it
holds (kept_objects), and its loading rewrites those ints to the new objects' ids (remap_ids). held_id
names where an id is kept, to explain a difference that remains."""
import gc
import types
from collections import deque
from itertools import islice

import numpy as np

# Not walked into: what no game state owns (classes, modules, code) and what holds no object ids.
_LEAVES = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
           types.CodeType, str, bytes, bytearray, float, complex, bool, np.ndarray, np.generic)
_SMALLEST = 1 << 16  # ids are addresses: no object lives below this


def held_id(root, limit=300_000):
    """Where the first int equal to the id() of an object reachable from `root` is found, as
    (where the int is, where the object is), or None. Walks at most `limit` objects."""
    seen = {id(root): 'game'}
    ints = {}
    stack = [(root, 'game')]
    while stack and len(seen) < limit:
        obj, where = stack.pop()
        try:
            items = _items(obj, where)
        except Exception:  # noqa: BLE001 - an object whose attributes raise: not looked into
            continue
        for v, w in items:
            if type(v) is int:
                if v >= _SMALLEST and v not in ints:
                    ints[v] = w
            elif v is not None and not issubclass(type(v), _LEAVES) and id(v) not in seen:
                seen[id(v)] = w
                stack.append((v, w))
    for value, where in ints.items():
        if value in seen:
            return where, seen[value]
    return None


def kept_objects(root, shared=(), limit=300_000):
    """{id: object} of the objects reachable from `root` whose id() equals an int the state holds
    (walks at most `limit` objects; `seen` holds each object, so no id is reused meanwhile). Objects
    whose id is in `shared` (the snapshots' registry: never changed by a step) are not walked into."""
    seen = {id(root): root}
    ints = set()
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        try:
            values = _values(obj)
        except Exception:  # noqa: BLE001 - an object whose attributes raise: not looked into
            continue
        for v in values:
            if type(v) is int:
                if v >= _SMALLEST:
                    ints.add(v)
            elif v is not None and not issubclass(type(v), _LEAVES) and id(v) not in seen:
                seen[id(v)] = v
                if id(v) not in shared:
                    stack.append(v)
    return {v: seen[v] for v in ints if v in seen}


def remap_ids(root, new_ids, shared=()):
    """Rewrites in place each int reachable from `root` that is a key of `new_ids` to its value: in
    attributes, slots, lists and dict values where it is; a dict or set holding one as a key or member
    is rebuilt in its order, a tuple (or named tuple) or frozenset is replaced by a new one where it is
    held. Returns how many such ints it could not rewrite (held where only C reaches: a walk of
    gc.get_referents, a tuple type without _make). Objects whose id is in `shared` are not walked into."""
    seen = {id(root)}
    replaced = {}  # id of an immutable container -> (it, its rewrite): kept alive, so no id is reused
    stuck = [0]
    stack = [root]

    def fixed(v):
        """`v` rewritten: a new int, a new tuple or frozenset, or `v` (a mutable container is queued)."""
        t = type(v)
        if t is int:
            return new_ids.get(v, v)
        if v is None or issubclass(t, _LEAVES):
            return v
        if issubclass(t, (tuple, frozenset)):
            done = replaced.get(id(v))
            if done is not None:
                return done[1]
            replaced[id(v)] = (v, v)  # a tuple holding itself (through a list) stops here
            items = [fixed(x) for x in islice(v, _ITEMS)]
            new = v
            if len(v) <= _ITEMS and any(a is not b for a, b in zip(items, v)):
                if t is tuple or t is frozenset:
                    new = t(items)
                elif hasattr(t, '_make'):
                    new = t._make(items)
                else:
                    stuck[0] += 1
            replaced[id(v)] = (v, new)
            return new
        if id(v) not in seen and id(v) not in shared:
            seen.add(id(v))
            stack.append(v)
        return v

    while stack:
        obj = stack.pop()
        kind = type(obj)
        try:
            if issubclass(kind, dict):
                pairs = list(islice(obj.items(), _ITEMS))
                new = [(fixed(k), fixed(v)) for k, v in pairs]
                if any(a[0] is not b[0] for a, b in zip(new, pairs)):
                    obj.clear()
                    obj.update(new)
                else:
                    for (k, v), (_, old) in zip(new, pairs):
                        if v is not old:
                            obj[k] = v
            elif issubclass(kind, (list, deque)):
                for i, v in enumerate(islice(obj, _ITEMS)):
                    w = fixed(v)
                    if w is not v:
                        obj[i] = w
            elif issubclass(kind, set):
                items = list(islice(obj, _ITEMS))
                new = [fixed(v) for v in items]
                if any(a is not b for a, b in zip(new, items)):
                    obj.clear()
                    obj.update(new)
            else:
                attrs = getattr(obj, '__dict__', None)
                if type(attrs) is dict and id(attrs) not in seen:
                    seen.add(id(attrs))
                    stack.append(attrs)
                slots = _slots(kind)
                for name in slots:
                    v = getattr(obj, name, None)
                    w = fixed(v)
                    if w is not v:
                        object.__setattr__(obj, name, w)
                if attrs is None and not slots:
                    for v in islice(gc.get_referents(obj), _ITEMS):
                        if type(v) is not type and fixed(v) is not v:
                            stuck[0] += 1
        except Exception:  # noqa: BLE001 - an object that refuses: its ints stay as they are
            stuck[0] += 1
    return stuck[0]


_ITEMS = 100_000  # of one container: a list grown without bound (a copy's doubling tree) is not read to its end


def _items(obj, where):
    """(value, where it is) for what `obj` holds, at most _ITEMS of them."""
    kind = type(obj)  # not isinstance: it reads __class__, which a game's object may answer otherwise
    if issubclass(kind, dict):
        keys = list(islice(obj, _ITEMS))
        return [(k, f'{where} key') for k in keys] + [(obj[k], f'{where}[{_key(k)}]') for k in keys]
    if issubclass(kind, (list, tuple)):
        return [(v, f'{where}[{i}]') for i, v in enumerate(islice(obj, _ITEMS))]
    if issubclass(kind, (set, frozenset)):
        return [(v, f'{where} item') for v in islice(obj, _ITEMS)]
    attrs = getattr(obj, '__dict__', None)
    items = [(v, f'{where}.{k}') for k, v in islice(attrs.items(), _ITEMS)] if type(attrs) is dict else []
    slots = _slots(kind)
    if slots:
        return items + [(getattr(obj, n, None), f'{where}.{n}') for n in slots]
    if items:
        return items
    return [(v, f'{where}.<{type(obj).__name__} field>') for v in islice(gc.get_referents(obj), _ITEMS) if type(v) is not type]


def _values(obj):
    """What `obj` holds (_items without the places)."""
    kind = type(obj)
    if issubclass(kind, dict):
        keys = list(islice(obj, _ITEMS))
        return keys + [obj[k] for k in keys]
    if issubclass(kind, (list, tuple, set, frozenset, deque)):
        return list(islice(obj, _ITEMS))
    attrs = getattr(obj, '__dict__', None)
    values = list(islice(attrs.values(), _ITEMS)) if type(attrs) is dict else []
    slots = _slots(kind)
    if slots:
        return values + [getattr(obj, n, None) for n in slots]
    if values:
        return values
    return [v for v in islice(gc.get_referents(obj), _ITEMS) if type(v) is not type]


_SLOTS = {}  # type -> the slot names of its classes


def _slots(cls):
    names = _SLOTS.get(cls)
    if names is not None:
        return names
    names = []
    for c in cls.__mro__:
        declared = c.__dict__.get('__slots__', ())
        names += [declared] if isinstance(declared, str) else [n for n in declared if n not in ('__dict__', '__weakref__')]
    _SLOTS[cls] = names
    return names


def _key(k):
    text = repr(k)
    return text if len(text) <= 40 else text[:37] + '...'


def held_id_message(game):
    """Why a restored copy of `game` is not the game, when it keeps ids of its objects; else None."""
    try:
        found = held_id(game)
    except Exception:  # noqa: BLE001 - a check that explains: it never fails the game's run
        found = None
    if found is None:
        return None
    where, target = found
    return (f'the game keeps id() of its own objects ({where} is the id of {target}): a restored snapshot\'s objects have '
            'other ids, so the ids it holds point at nothing or at other objects, and the restored game acts unlike the '
            'game (keep the objects themselves, or an index or a name, instead of their id())')
