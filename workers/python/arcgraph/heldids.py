"""Object ids a game keeps: an int in the state equal to id() of an object of the same state (a registry
keyed by id(node), an undo record of (id(node), x, y, id(parent))). A snapshot restores new objects with
other ids, so such ints point at nothing, or, once their memory is reused, at other objects: the restored
game is not the game (the shared lf52's undo rebuilds its tree from such ids, and a copy's tree doubles
at each undo: 22 s steps). Looked for only to explain a difference already seen: a walk of the state."""
import gc
import types
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


def _slots(cls):
    names = []
    for c in cls.__mro__:
        declared = c.__dict__.get('__slots__', ())
        names += [declared] if isinstance(declared, str) else [n for n in declared if n not in ('__dict__', '__weakref__')]
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
