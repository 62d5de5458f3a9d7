"""State identity: a blake2b-128 digest of the settled frame and of a canonical walk of the game object
(IDENTITY.md says what is in, what is out and why). Equal states give equal digests in any process and
under any PYTHONHASHSEED. Over 300 lines on purpose: the one canonical walk, read and changed as a whole."""
from abc import ABC
import decimal
import functools
import gc
from itertools import chain, compress, islice
import json
import operator
import random
import re
import types
import warnings
import weakref
from enum import Enum
from hashlib import blake2b

import numpy as np

# Engine bookkeeping of ARCBaseGame left out of the walk (see IDENTITY.md).
GAME_SKIP = frozenset({'_action', '_action_count', '_full_reset', '_action_complete', '_clean_levels', '_levels', '_next_level'})
# Left out unless the game's source names them (Identity): games may read the action counter as a
# move budget and write a checkpoint into the clean levels.
SOURCE_READ = ('_action_count', '_clean_levels')
# Level's sort cache.
LEVEL_SKIP = frozenset({'_sorted_sprites', '_need_sort'})

_UUID = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}')
# CPython object addresses: 16-byte aligned, far above small counters, where the process's objects live.
_ADDRESS_MIN = 1 << 32
# In JSON text: a number long enough to be an address, or a uuid: the slow walk masks those.
_MASKED_IN_JSON = re.compile(r'\d{10,}|[0-9a-f]{8}-[0-9a-f]{4}-')
# The same test on ASCII text (the usual table), in parts: the pattern above tries both branches at
# every character (lp85's 7.8 KB level table: 330 us a search, twice a step; these: 80 us).
_TEN_DIGITS = re.compile(r'[0-9](?=[0-9]{9})')
_UUID_START = re.compile(r'[0-9a-f]{8}-[0-9a-f]{4}-')


def masked_in_json(text):
    """Whether JSON text holds what the walk masks: a number of 10 digits or more, or a uuid."""
    if not text.isascii():  # other digits are digits too (\d)
        return _MASKED_IN_JSON.search(text) is not None
    return _TEN_DIGITS.search(text) is not None or ('-' in text and _UUID_START.search(text) is not None)
_JSON = json.JSONEncoder(sort_keys=False, separators=(',', ':'), ensure_ascii=False, check_circular=False)
_STR = frozenset({str})
_INT = frozenset({int})
_CONTAINERS = frozenset({list, dict, tuple})
_MUTABLE = frozenset({list, dict})


def _plain_containers(kinds):
    """Whether container types `kinds` are all a plain table's: list, dict, tuple, named tuples (without
    attributes of their own: a subclass without __slots__ may hold some, which JSON has no place for)."""
    return kinds <= _CONTAINERS or all(t in _CONTAINERS or (issubclass(t, tuple) and hasattr(t, '_fields') and not t.__dictoffset__) for t in kinds)


def _tuple_token(t):
    return 't' if t is tuple else 'n' + t.__qualname__ + ';'
_SCALARS = frozenset({int, str, float, bool, type(None)})


def _plain_members(items):
    """Whether hashable `items` are plain scalars and tuples of them (those types themselves): what
    JSON tells apart exactly where no list can be (a tuple reads as a list)."""
    kinds = set(map(type, items))
    if kinds <= _SCALARS:
        return True
    if not kinds <= _SCALARS | {tuple}:
        return False
    tuples = [x for x in items if type(x) is tuple]
    # flat tuples (cells, pairs): all their items' types in one pass, in C
    if set(map(type, chain.from_iterable(tuples))) <= _SCALARS:
        return True
    return all(_plain_members(x) for x in tuples)
_LAYER = operator.attrgetter('layer')
_SPRITE_FIELDS = frozenset({'_name', '_tags', '_x', '_y', '_layer', 'rotation', '_scale', '_mirror_ud', '_mirror_lr', '_blocking', '_interaction', 'pixels'})


# How an object outside the kinds above is walked (decided once per type): by its attributes, or by
# its `__reduce_ex__(4)` (a type whose content lives in C, where no attribute shows it: deque,
# bytearray, array.array, functools.partial, itertools objects, range, complex, Decimal).
_BY_ATTRS, _BY_REDUCE = 0, 1
_OBJECT_MODE = {}
_HEX_ADDRESS = re.compile(r'0x[0-9a-fA-F]+')


def _object_mode(t):
    """By attributes when the instance's memory is `object`'s plus its __dict__, __weakref__ and
    __slots__ (a class written in Python), else by reduction: a C base holds more."""
    mode = _OBJECT_MODE.get(t)
    if mode is None:
        size = object.__basicsize__ + (8 if t.__dictoffset__ > 0 else 0) + (8 if t.__weakrefoffset__ > 0 else 0)
        for cls in t.__mro__:
            slots = cls.__dict__.get('__slots__', ())
            for slot in (slots,) if isinstance(slots, str) else slots:
                if slot not in ('__dict__', '__weakref__'):
                    size += 8
        mode = _BY_REDUCE if t.__basicsize__ > size or t.__itemsize__ else _BY_ATTRS
        _OBJECT_MODE[t] = mode
    return mode


# Objects pickle refuses whose referents are caches, no state: abc's `_abc_impl` (a class's cache of
# isinstance results, which a step's isinstance check fills: the module checks walk it).
_NO_STATE_REFERENTS = frozenset({type(ABC._abc_impl)})

_SUSPENDED = (types.GeneratorType, types.CoroutineType, types.AsyncGeneratorType)
_LOOPS = {}
_DEPTHS = {}
# Instructions after which the next one is not reached by falling through.
_NO_FALL = frozenset({'RETURN_VALUE', 'RETURN_CONST', 'RAISE_VARARGS', 'RERAISE', 'JUMP_FORWARD', 'JUMP_BACKWARD', 'JUMP_ABSOLUTE',
                      'JUMP', 'JUMP_BACKWARD_NO_INTERRUPT', 'JUMP_NO_INTERRUPT'})


def _loops(code):
    """The (start, end) offsets of a code object's for loops: suspended between them, a generator keeps
    the loop's iterator on its stack (the check where held_on_stack cannot tell)."""
    loops = _LOOPS.get(code)
    if loops is None:
        import dis
        loops = _LOOPS[code] = [(i.offset, i.argval) for i in dis.get_instructions(code) if i.opname == 'FOR_ITER']
    return loops


def held_on_stack(code, lasti):
    """How many values a generator suspended at the YIELD_VALUE at `lasti` holds on its frame's stack,
    its yielded value left out: a for loop's iterator, what an expression or call waiting on the yield
    computed so far (`a + (yield)`), a with block's exit, an except block's exception. The stack depth
    of each instruction by a walk of the byte code's flow (dis.stack_effect), once per code object.
    None where the layout is not one this knows (then the for-loop check stands alone)."""
    depths = _DEPTHS.get(code)
    if depths is None:
        try:
            depths = _stack_depths(code)
        except (ValueError, TypeError, AttributeError):
            depths = {}
        _DEPTHS[code] = depths
    return depths.get(lasti)


def _stack_depths(code):
    import dis
    ins = list(dis.get_instructions(code))
    at = {i.offset: k for k, i in enumerate(ins)}
    depth = {}
    work = [(0, 0)]
    # A handler starts with the depth the exception table gives, the last offset if it keeps it, and the exception.
    work += [(e.target, e.depth + (1 if e.lasti else 0) + 1) for e in getattr(dis, '_parse_exception_table', lambda c: [])(code)]
    while work:
        offset, d = work.pop()
        k = at.get(offset)
        while k is not None and ins[k].offset not in depth:
            i = ins[k]
            depth[i.offset] = d
            arg = i.arg if i.opcode >= dis.HAVE_ARGUMENT else None
            if i.opname == 'RETURN_GENERATOR':
                d += 1  # the value the first resume sends (None), popped next: dis counts it 0
            elif i.opcode in dis.hasjrel or i.opcode in dis.hasjabs:
                work.append((i.argval, d + dis.stack_effect(i.opcode, arg, jump=True)))
                if i.opname in _NO_FALL:
                    break
                d += dis.stack_effect(i.opcode, arg, jump=False)
            elif i.opname in _NO_FALL:
                break
            else:
                d += dis.stack_effect(i.opcode, arg)
            k += 1
    # only the depths at a yield are read: each less the value it yields
    return {i.offset: depth[i.offset] - 1 for i in ins if i.opname == 'YIELD_VALUE' and i.offset in depth}


def _address_regions():
    """The 2^40-byte regions this process's objects live in (its heap, its memory maps), each widened by
    two on either side: enough to hold every process's on this machine (address randomisation moves a
    heap or the maps by less than 2^40), so a state's walk is the same in all of them."""
    big = bytearray(1 << 20)  # a block of its own map, where the large allocations go
    regions = {id(o) >> 40 for o in gc.get_objects()} | {id(big) >> 40, id(object()) >> 40}
    return frozenset(r + d for r in regions for d in range(-2, 3) if r + d >= 0)


_REGIONS = _address_regions()


def note_objects():
    """Adds the regions of the objects alive now (the game's, once it is built) to those the mask accepts."""
    global _REGIONS
    _REGIONS = _REGIONS | _address_regions()


def _looks_like_address(v):
    """Whether an integer may be an object address (an `id()` value, which differs in every process):
    16-byte aligned, 2^32 and above, and in a region where this process's objects live. A number
    the game keeps (a bitboard, a counter) is hardly ever all three."""
    return v & 0xF == 0 and v >= _ADDRESS_MIN and (v >> 40) in _REGIONS


class _Tracking:
    """The walk's memo while a key is walked: records what the key adds, so it can be undone."""

    __slots__ = ('memo', 'added')

    def __init__(self, memo, added):
        self.memo = memo
        self.added = added

    def get(self, k):
        return self.memo.get(k)

    def __contains__(self, k):
        return k in self.memo

    def __len__(self):
        return len(self.memo)

    def __setitem__(self, k, v):
        self.memo[k] = v
        self.added.append(k)


# Keys whose hash cannot follow a change of their content: plain scalars, enum members (by name), and
# objects hashed by identity (object.__hash__: sprites, the game's plain classes); tuples, frozensets
# and named tuples of those. Any other key (a class with a __hash__ of its own) has its dict's or set's
# lookups checked (_lost_keys).
_STABLE_HASH = {int: True, str: True, float: True, bool: True, type(None): True, bytes: True}
_HASH_OF_MEMBERS = (tuple.__hash__, frozenset.__hash__)


_STABLE_KINDS = set(_STABLE_HASH)  # those found stable: a subset test, in C, for most dicts


def _stable_hash(t):
    stable = _STABLE_HASH.get(t)
    if stable is None:
        stable = _STABLE_HASH[t] = issubclass(t, Enum) or t.__hash__ is object.__hash__ or issubclass(t, (type, types.FunctionType))
        if stable:
            _STABLE_KINDS.add(t)
    return stable


# A key that is not equal to itself (a float NaN, an object whose __eq__ says so) is found only by
# identity: pickle writes floats by value, so a restored dict holds another NaN than the game's
# attribute, and the lookup that found the entry fails. Key types whose instances always equal
# themselves (equality by identity, or by a value that is reflexive: ints, strings, bytes, enum
# members, types, functions) and whose hash cannot change go in _SAFE_KINDS: the common dict is a
# subset test. Floats (NaN), complex and Decimal numbers, numpy floats and objects with an __eq__ of
# their own are looked at key by key (`k == k`); tuples' and frozensets' members, one level down.
UNEQUAL = 'unequal'
_SAFE_KINDS = {int, str, bool, type(None), bytes}
_REFLEXIVE_EQ = (object.__eq__, int.__eq__, str.__eq__, bytes.__eq__)
_REFLEXIVE = {}


def _reflexive(t):
    """Whether every instance of `t` equals itself (tuples and frozensets: as their members do)."""
    r = _REFLEXIVE.get(t)
    if r is None:
        if issubclass(t, (float, complex, decimal.Decimal, np.inexact)):
            r = False
        else:
            r = t.__hash__ in _HASH_OF_MEMBERS or t.__eq__ in _REFLEXIVE_EQ
        _REFLEXIVE[t] = r
        if r and t.__hash__ not in _HASH_OF_MEMBERS and _stable_hash(t):
            _SAFE_KINDS.add(t)
    return r


def _unequal(keys, kinds):
    """The type of one of `keys` (of types `kinds`) that is not equal to itself, else None."""
    odd = [t for t in kinds if not _reflexive(t)]
    for t in odd:
        for k in keys:
            if type(k) is t:
                try:
                    if not (k == k):
                        return t
                except Exception:  # noqa: BLE001 - the game's __eq__ raised: pickle is no wiser
                    pass
    return None


def _lost_keys(d):
    """The type of a key of dict or set `d` that its own lookup no longer finds, or that an equal key's
    lookup finds (two keys now equal): a key whose hash changed after it was put in (an object hashed
    by a field the game then changed). (UNEQUAL, type) for a key, or a tuple key's member, that is not
    equal to itself (a NaN: found only by identity, which no snapshot keeps). None when every key is
    where its hash says, or when no key's hash can change (the types above: one pass in C over the
    keys' types, two over tuples' members)."""
    kinds = set(map(type, d))
    if kinds <= _SAFE_KINDS:
        return None
    if not all(map(_reflexive, kinds)):
        t = _unequal(d, kinds)
        if t is not None:
            return (UNEQUAL, t)
    if kinds <= _STABLE_KINDS or all(map(_stable_hash, kinds)):
        return None
    unstable = [t for t in kinds if not _stable_hash(t)]
    if all(t.__hash__ in _HASH_OF_MEMBERS for t in unstable):
        tuples = chain.from_iterable(d if len(unstable) == len(kinds) else (k for k in d if not _stable_hash(type(k))))
        members = set(map(type, tuples))
        if not all(map(_reflexive, members)):
            t = _unequal(list(chain.from_iterable(k for k in d if type(k).__hash__ in _HASH_OF_MEMBERS)), members)
            if t is not None:
                return (UNEQUAL, t)
        if all(map(_stable_hash, members)):
            return None
    try:
        # every key found by its own lookup, and none equal to another (a rebuild would merge them)
        if all(map(d.__contains__, d)) and len(set(list(d))) == len(d):
            return None
    except Exception:  # noqa: BLE001 - the game's __hash__ or __eq__ raised: pickle would fail too
        return None
    for k in d:
        try:
            if k not in d:
                return type(k)
        except Exception:  # noqa: BLE001
            break
    return unstable[0]


# How each type is walked (decided once per type). SUB: a subclass of int, str, list, tuple, dict, set
# or frozenset (class Deck(list) with a cursor, class Left(str)), walked as its class, its builtin value
# and its instance attributes; named tuples and collections' dicts (defaultdict, OrderedDict, Counter)
# stay SEQ and DICT (their attributes, when an instance has any, follow their value).
INT, STR, NONE, BOOL, FLOAT, BYTES, SEQ, DICT, SET, ARRAY, ENUM, NPINT, NPFLOAT, OBJECT, SUB = range(15)
_KIND_CACHE = {int: INT, str: STR, type(None): NONE, bool: BOOL, float: FLOAT, bytes: BYTES, list: SEQ, tuple: SEQ, dict: DICT, set: SET, frozenset: SET, np.ndarray: ARRAY}


def _kind(t):
    k = _KIND_CACHE.get(t)
    if k is None:
        if issubclass(t, Enum):
            k = ENUM
        elif issubclass(t, bool):
            k = BOOL
        elif issubclass(t, (np.integer, np.bool_)):
            k = NPINT
        elif issubclass(t, np.floating):
            k = NPFLOAT
        elif issubclass(t, dict):
            k = DICT if t.__module__ == 'collections' else SUB
        elif issubclass(t, tuple) and hasattr(t, '_fields'):
            k = SEQ  # a named tuple
        elif issubclass(t, (list, tuple, set, frozenset, int, str)):
            k = SUB
        else:
            k = OBJECT
        _KIND_CACHE[t] = k
    return k


class Walker:
    """One canonical walk: appends tokens to `out`; objects seen before become back references."""

    __slots__ = ('out', 'seen', 'cells', 'uuids', 'keep', 'shared', 'game_type', 'level_type', 'sprite_type', 'game_skip', 'layers_change', 'hidden', 'stale', 'dict_order', 'addresses')

    def __init__(self, shared, game_type, level_type, sprite_type, game_skip=None, layers_change=False, dict_order=True):
        self.game_skip = GAME_SKIP if game_skip is None else game_skip
        self.layers_change = layers_change
        # False: a dict's entries walked sorted by their keys' bytes, so dicts of equal content built
        # in another order walk alike (the hash-seed check's comparison, not the identity: IDENTITY.md)
        self.dict_order = dict_order
        self.out = []
        self.seen = {}
        # Closure cells met, numbered apart from `seen` (a cell met again is a back reference `k`: two
        # functions over one cell are not two over equal cells), so a walk without shared cells is as before.
        self.cells = {}
        # uuid strings met, numbered in the order first met (walk: STR).
        self.uuids = {}
        # What `seen` numbers, alive till the walk ends: a temporary freed mid-walk could hand its id
        # to another, which would read as a back reference.
        self.keep = []
        self.shared = shared
        self.game_type = game_type
        self.level_type = level_type
        self.sprite_type = sprite_type
        # A generator met suspended with values on its stack (held_on_stack): not walked (the explorer warns).
        self.hidden = None
        # The type of a dict key or set member whose lookup fails (its hash changed after it was put in):
        # a snapshot rebuilds the dict and finds it again (the explorer warns).
        self.stale = None
        # Whether an int that looks like an object address was met (masked): the game may keep id()s.
        self.addresses = False

    def key_bytes(self, value):
        """A dict key or set member on its own (for sorting). Objects met inside it get back references
        numbered after the walk's own, forgotten afterwards, so the bytes do not depend on the sort."""
        k = _kind(type(value))
        if k <= FLOAT or (type(value) is tuple and all(_kind(type(x)) <= FLOAT for x in value)):
            out = self.out
            mark = len(out)
            known = len(self.uuids)
            self.walk(value)
            if len(self.uuids) != known:  # a uuid first met here: its number is forgotten too
                self.uuids = dict(islice(self.uuids.items(), known))
            b = out.pop() if len(out) == mark + 1 else b''.join(out[mark:])
            del out[mark:]
            return b
        out = self.out
        mark = len(out)
        added = []
        saved = self.seen
        saved_cells, saved_uuids = self.cells, self.uuids
        self.seen = _Tracking(saved, added)
        self.cells, self.uuids = dict(saved_cells), dict(saved_uuids)
        try:
            self.walk(value)
        finally:
            self.seen = saved
            self.cells, self.uuids = saved_cells, saved_uuids
            for key in added:
                del saved[key]
        b = b''.join(out[mark:])
        del out[mark:]
        return b

    def walk(self, v):
        out = self.out
        t = type(v)
        k = _kind(t)
        if k == INT:
            v = int(v)
            if _looks_like_address(v):
                out.append(b'i?;')
                self.addresses = True
            else:
                out.append(b'i%d;' % v)
        elif k == STR:
            if len(v) == 36 and _UUID.fullmatch(v):
                # A uuid (the engine names an unnamed sprite with a fresh one: another in every process)
                # by the order it is first met in: a game holding a sprite's name holds which sprite.
                uuids = self.uuids
                n = uuids.get(v)
                if n is None:
                    n = uuids[v] = len(uuids)
                out.append(b'u%d;' % n)
            else:
                b = str(v).encode('utf-8', 'surrogatepass')
                out.append(b's%d:' % len(b))
                out.append(b)
        elif k == NONE:
            out.append(b'N')
        elif k == BOOL:
            out.append(b'T' if v else b'F')
        elif k == FLOAT:
            out.append(b'f' + repr(float(v)).encode() + b';')
        elif k == SEQ or k == DICT:
            # A list or dict met again is a back reference: two names for one list and two equal
            # lists are two states (a change through one name shows through the other). Tuples are
            # values: one met twice is walked twice.
            if not isinstance(v, tuple) and not self.first_visit(v):
                return
            # A named tuple or collections' dict with attributes of its own (a subclass without __slots__):
            # those follow, and the JSON text, which has no place for them, is not tried.
            attrs = None if t is list or t is tuple or t is dict or not t.__dictoffset__ else v.__dict__
            # (the JSON text keeps a dict's insertion order)
            if attrs or not self.dict_order or not self.json(v):
                if t is not list and t is not tuple and t is not dict:
                    out.append(b'/' + t.__qualname__.encode() + b';')
                if k == DICT:
                    self.walk_dict(v)
                else:
                    out.append(b'[%d:' % len(v) if isinstance(v, list) else b'(%d:' % len(v))
                    for item in v:
                        self.walk(item)
            if attrs:
                self.walk_attrs(v, t, attrs, ())
        elif k == SUB:
            self.walk_subclass(v, t)
        elif k == ARRAY:
            if self.first_visit(v):
                self.walk_array(v)
        elif k == SET:
            if t is not frozenset and not self.first_visit(v):
                return
            self.walk_set(v)
        elif k == ENUM:
            name = v.name
            if name is not None:
                out.append(b'e' + t.__qualname__.encode() + b'.' + name.encode() + b';')
            else:  # a Flag's empty value or a combination without a name of its own: by value
                out.append(b'e' + t.__qualname__.encode() + b'=')
                self.walk(v._value_)
        elif k == NPINT or k == NPFLOAT:
            # A numpy scalar with its dtype: np.int8(9) * 20 wraps where 9 * 20 does not.
            out.append(b'n' + v.dtype.str.encode() + b':')
            self.walk(v.item())
        elif k == BYTES:
            out.append(b'b%d:' % len(v))
            out.append(bytes(v))
        else:
            self.walk_object(v, t)

    def walk_set(self, v):
        out = self.out
        # Plain values in their own sorted order, as JSON (canonical, and fast); else each member
        # on its own, sorted by its bytes.
        try:
            plain = sorted(v)
        except TypeError:
            plain = None
        if plain is not None and len(plain) >= 8:
            out.append(b'{')
            if self.json(plain, members=True):
                return  # plain members: no hash of theirs can change
            out.pop()
        if self.stale is None:
            self.stale = _lost_keys(v)
        items = sorted(self.key_bytes(x) for x in v)
        out.append(b'{%d:' % len(items))
        out.extend(items)

    def walk_subclass(self, v, t):
        """A subclass of a builtin (class Deck(list) with a cursor, class Left(str), class Charge(int)
        with an `armed` flag): its class, as walk_object writes it, its builtin value, then its instance
        attributes (`__dict__`, `__slots__`). Its type is state (a game may branch on isinstance), and so
        are its attributes. An instance met again is a back reference, as an object's."""
        if not self.first_visit(v):
            return
        out = self.out
        out.append(b'B' + t.__module__.encode() + b'.' + t.__qualname__.encode() + b';')
        if isinstance(v, int):
            self.walk(int.__index__(v))
        elif isinstance(v, str):
            self.walk(str.__str__(v))
        elif isinstance(v, dict):
            self.walk_dict(v)
        elif isinstance(v, (set, frozenset)):
            self.walk_set(v)
        else:  # list, tuple
            out.append(b'[%d:' % len(v) if isinstance(v, list) else b'(%d:' % len(v))
            for item in (list.__iter__(v) if isinstance(v, list) else tuple.__iter__(v)):
                self.walk(item)
        self.walk_attrs(v, t, getattr(v, '__dict__', None), ())

    def first_visit(self, v):
        """Numbers a mutable container at its first visit and returns True; else writes its back
        reference (or its registry key: one the host shares)."""
        key = self.shared.get(id(v))
        if key is not None:
            self.out.append(b'S' + repr(key).encode() + b';')
            return False
        seen = self.seen
        ref = seen.get(id(v))
        if ref is not None:
            self.out.append(b'r%d;' % ref)
            return False
        seen[id(v)] = len(seen)
        self.keep.append(v)
        return True

    def json(self, v, members=False):
        """Plain data as JSON text, in C: the fast path of big tables. Plain: lists, tuples (named ones
        too), dicts whose keys are all strings or all ints, holding those or strings, numbers,
        booleans and None (those types themselves). JSON text writes a tuple as a list and an int key
        as a string: a schema of the containers in walk order (their types, a dict's key type) goes
        with it, so the text is exact. False when `v` holds anything else, a masked value, or a list
        or dict met before in this walk (or twice inside it). Tried only on larger containers whose
        first item is plain data (a failed try costs more than it saves). The lists and dicts inside
        are numbered as the slow walk would, so a later name for one is a back reference."""
        if len(v) < 8:
            return False
        first = next(iter(v.values())) if isinstance(v, dict) else v[0]
        if _kind(type(first)) > SEQ and _kind(type(first)) != DICT:
            return False
        inner = []
        schema = []
        if members:  # a set's members, sorted: hashable, so no list or dict inside
            if not _plain_members(v):
                return False
        elif not self.plain(v, inner, set(), schema):
            return False
        try:
            text = _JSON.encode(v)
        except (TypeError, ValueError):
            return False
        if masked_in_json(text):
            return False
        for x in inner:
            self.seen[id(x)] = len(self.seen)
            self.keep.append(x)
        b = text.encode('utf-8', 'surrogatepass')
        shape = ''.join(schema).encode()
        self.out.append(b'J%d:%d:' % (len(shape), len(b)))
        self.out.append(shape)
        self.out.append(b)
        return True

    def plain(self, v, inner, ids, schema):
        """Whether `v` holds plain data alone and no list or dict seen before; collects the lists and
        dicts inside, and the schema of its containers. A level of the tree at a time, breadth first:
        where a level's containers are all of one kind (a table's rows, its records) their types, keys
        and items are checked in a few passes in C, and the schema says the kind once for the level;
        a level of mixed kinds goes container by container (plain_one). Either way the schema and the
        order are a function of the value alone."""
        level = [v]
        kinds = {type(v)}
        seen_ids = (self.seen.memo if isinstance(self.seen, _Tracking) else self.seen).keys()
        while True:
            if len(kinds) != 1:
                return all(self.plain_one(c, inner, ids, schema) for c in level)
            t = next(iter(kinds))
            if t is dict or (len(level) == 1 and isinstance(v, dict) and level[0] is v):
                keys = set(map(type, chain.from_iterable(level)))
                if keys <= _STR:
                    schema.append('d*%d' % len(level))
                elif keys == _INT:
                    schema.append('i*%d' % len(level))
                else:  # some dicts keyed by ints, others by strings, or neither
                    return all(self.plain_one(c, inner, ids, schema) for c in level)
                items = list(chain.from_iterable(map(dict.values, level)))
            elif t is list or issubclass(t, tuple):
                schema.append('%s*%d' % ('l' if t is list else _tuple_token(t), len(level)))
                items = list(chain.from_iterable(level))
            else:
                return False
            kinds = set(map(type, items))
            if kinds <= _SCALARS:
                return True
            others = kinds - _SCALARS
            if not _plain_containers(others):
                return False
            # the next level: the containers among the items, in order (filtered in C), of kinds `others`
            level = items if others == kinds else list(compress(items, map(others.__contains__, map(type, items))))
            kinds = others
            if list in others or dict in others:
                mutable = list(compress(level, map(_MUTABLE.__contains__, map(type, level))))
                marks = list(map(id, mutable))
                if len(set(marks)) != len(marks) or not ids.isdisjoint(marks) or not seen_ids.isdisjoint(marks):
                    return False
                ids.update(marks)
                inner.extend(mutable)

    def plain_one(self, v, inner, ids, schema):
        """plain for one container, depth first: its schema token, then its items'."""
        if isinstance(v, dict):
            keys = set(map(type, v))
            if keys <= _STR:
                schema.append('d')
            elif keys == _INT:
                schema.append('i')
            else:
                return False
            items = v.values()
        else:
            t = type(v)
            schema.append('l' if t is list else _tuple_token(t))
            items = v
        kinds = set(map(type, items))
        if kinds <= _SCALARS:
            return True
        others = kinds - _SCALARS
        if not _plain_containers(others):
            return False
        if len(kinds) == 1 and list not in kinds and dict not in kinds:
            # a table of records (tuples of one class): their scalars' types in one pass, in C
            if set(map(type, chain.from_iterable(items))) <= _SCALARS:
                schema.append('%s*%d' % (_tuple_token(next(iter(kinds))), len(items)))
                return True
        seen = self.seen
        for x in items:
            tx = type(x)
            if tx in _SCALARS:
                continue
            if tx is list or tx is dict:
                i = id(x)
                if i in ids or i in seen:
                    return False
                ids.add(i)
                inner.append(x)
            if not self.plain_one(x, inner, ids, schema):
                return False
        return True

    def walk_dict(self, d):
        # In insertion order, which pickle keeps and a game may act on (the first of its pending events
        # goes first): two dicts of equal content built in another order are two states.
        out = self.out
        out.append(b'<%d:' % len(d))
        if self.stale is None:
            self.stale = _lost_keys(d)
        if self.dict_order:
            items = d.items()
        else:
            # by the keys' own bytes (insertion order between equal ones): the key is walked again in place
            items = [(k, v) for _, _, k, v in sorted(((self.key_bytes(k), i, k, v) for i, (k, v) in enumerate(d.items())), key=lambda e: e[:2])]
        for k, v in items:
            self.walk(k)
            self.walk(v)

    def walk_array(self, a):
        out = self.out
        if a.dtype.kind == 'O':
            out.append(b'Ao' + repr(a.shape).encode() + b':')
            for x in a.ravel().tolist():
                self.walk(x)
        else:
            # dtype, shape, bytes: an int8 and an int64 array of equal values are two states (one
            # wraps at 127), as are a bool and an int array of 0s and 1s.
            out.append(b'A' + a.dtype.str.encode() + repr(a.shape).encode() + b':')
            out.append(np.ascontiguousarray(a).tobytes())

    def walk_object(self, v, t):
        out = self.out
        key = self.shared.get(id(v))
        if key is not None:
            out.append(b'S' + repr(key).encode() + b';')
            return
        ref = self.seen.get(id(v))
        if ref is not None:
            out.append(b'r%d;' % ref)
            return
        self.seen[id(v)] = len(self.seen)
        self.keep.append(v)
        if t is self.sprite_type:
            self.walk_sprite(v)
            return
        if isinstance(v, weakref.ref):
            # what it refers to (None once that is gone), not its address
            out.append(b'W')
            self.walk(v())
            return
        if isinstance(v, (types.FunctionType, types.MethodType, types.BuiltinFunctionType, type, types.ModuleType)):
            self.walk_callable(v)
            return
        if isinstance(v, random.SystemRandom):
            out.append(b'R?')  # the operating system's entropy: no state (getstate raises)
            return
        if isinstance(v, random.Random):
            out.append(b'R')
            self.walk(v.getstate())
            return
        if isinstance(v, np.random.Generator):
            v = v.bit_generator
        if isinstance(v, np.random.BitGenerator):
            out.append(b'G')
            self.walk(v.state)
            return
        if isinstance(v, np.random.RandomState):
            out.append(b'M')
            self.walk(v.get_state(legacy=False))
            return
        out.append(b'O' + t.__module__.encode() + b'.' + t.__qualname__.encode() + b';')
        if _object_mode(t) == _BY_REDUCE:
            self.walk_reduced(v, t)
            return
        if isinstance(v, self.game_type):
            skip = self.game_skip
            out.append(b'L')
            levels, current = v._levels, v._current_level_index
            self.walk(levels[current])
            # The others: a pristine shared one adds nothing (every state shares it); one the game
            # played and left (set_level) or put there keeps its own state, walked by content.
            for i, level in enumerate(levels):
                if i != current and id(level) not in self.shared:
                    out.append(b'L%d' % i)
                    self.walk(level)
        elif t is self.level_type:
            skip = LEVEL_SKIP
        else:
            skip = ()
        attrs = getattr(v, '__dict__', None)
        self.walk_attrs(v, t, attrs, skip)
        if skip is LEVEL_SKIP and attrs is not None:
            self.walk_stale_sort(attrs)

    def walk_attrs(self, v, t, attrs, skip):
        """An object's attributes: its `__dict__` (`attrs`) sorted by name, then its `__slots__`, less `skip`."""
        out = self.out
        names = sorted(attrs) if attrs is not None else []
        for cls in t.__mro__:
            slots = cls.__dict__.get('__slots__', ())
            for slot in (slots,) if isinstance(slots, str) else slots:
                if slot not in ('__dict__', '__weakref__'):
                    names.append(slot)
        for name in names:
            if name in skip:
                continue
            try:
                value = attrs[name] if attrs is not None and name in attrs else getattr(v, name)
            except AttributeError:
                continue
            out.append(b'.' + name.encode() + b'=')
            self.walk(value)

    def walk_stale_sort(self, attrs):
        """The engine's set_layer does not mark a level's sort cache stale, so get_sprite_at goes on
        using the old order: when the cache would be used (not marked stale, as long as the sprites) that
        order is state, walked as indices into the level's sprites. In a game whose code changes layers
        (`set_layer`, `_layer`) a valid cache is state too (a later set_layer leaves it in use); in
        others it is walked only when it differs from a fresh sort (a cache no step can make stale)."""
        cache = attrs.get('_sorted_sprites')
        sprites = attrs.get('_sprites')
        if cache is None or attrs.get('_need_sort') or type(sprites) is not list or len(cache) != len(sprites):
            return
        if not self.layers_change:
            try:
                fresh = sorted(sprites, key=_LAYER, reverse=True)
            except Exception:  # noqa: BLE001 - not the engine's sprites: nothing to compare
                return
            if all(a is b for a, b in zip(cache, fresh)):
                return
        where = {id(s): i for i, s in enumerate(sprites)}
        self.out.append(b'.~sorted=')
        for s in cache:
            i = where.get(id(s))
            if i is None:
                self.walk(s)
            else:
                self.out.append(b'#%d;' % i)

    def walk_reduced(self, v, t):
        """An object whose content is held in C: its pickle reduction (constructor, arguments, state,
        items), iterators of items as lists. One that cannot be reduced: its repr, addresses masked."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')  # itertools' reductions are deprecated (3.12)
                r = v.__reduce_ex__(4)
                if type(r) is tuple:
                    r = tuple(list(x) if i in (3, 4) and x is not None else x for i, x in enumerate(r))
        except Exception:  # noqa: BLE001 - an object pickle refuses
            if isinstance(v, _SUSPENDED):
                self.walk_generator(v)
                return
            if isinstance(v, memoryview):
                self.walk_memoryview(v)
                return
            # Its repr, addresses masked, then what it holds (gc.get_referents: the objects its C code
            # keeps, in the order it visits them: a dict view's dict, a managed buffer's exporter), which
            # its repr may not show.
            out = self.out
            out.append(b'?')
            self.walk(_HEX_ADDRESS.sub('0x?', repr(v)))
            refs = gc.get_referents(v) if t not in _NO_STATE_REFERENTS else None
            if refs:
                out.append(b'>%d:' % len(refs))
                for x in refs:
                    self.walk(x)
            return
        self.out.append(b'~')
        self.walk(r)

    def walk_memoryview(self, m):
        """A memoryview (pickle refuses it): its format, shape, strides and bytes, then the object it
        views (a bytearray another attribute may hold too: a change through one shows through the other)."""
        out = self.out
        try:
            head = b'%s;%r;%r;%d;' % (m.format.encode(), m.shape, m.strides, m.readonly)
            data = m.tobytes()
            obj = m.obj
        except ValueError:  # released
            out.append(b'V-')
            return
        out.append(b'V' + head + b'%d:' % len(data))
        out.append(data)
        self.walk(obj)

    def walk_generator(self, g):
        """A generator or coroutine: its code, the instruction it is suspended at, its local variables and
        what it delegates to (`yield from`). Values it holds on its frame's stack (a loop's iterator, an
        expression waiting on the yield), which nothing shows: noted in `hidden`."""
        code = getattr(g, 'gi_code', None) or getattr(g, 'cr_code', None) or g.ag_code
        frame = getattr(g, 'gi_frame', None) or getattr(g, 'cr_frame', None) or getattr(g, 'ag_frame', None)
        self.out.append(b'G' + code.co_qualname.encode() + b';')
        if frame is None:
            self.out.append(b'-')  # finished
            return
        self.out.append(b'%d;' % frame.f_lasti)
        self.walk_dict(frame.f_locals)
        inner = getattr(g, 'gi_yieldfrom', None) or getattr(g, 'cr_await', None)
        self.walk(inner)
        held = held_on_stack(code, frame.f_lasti)
        if held is None:
            held = 1 if any(start < frame.f_lasti < end for start, end in _loops(code)) else 0
        elif inner is not None:
            held -= 1  # the iterator it delegates to: walked above
        if held > 0:
            self.hidden = code.co_qualname

    def walk_sprite(self, s):
        # The engine's Sprite: its fields in a fixed order (uuid names masked), pixels by value.
        d = s.__dict__
        self.out.append(b'P')
        self.walk(d.get('_name'))
        self.walk(d.get('_tags'))
        self.out.append(b'%r;%r;%r;%r;%r;%r;%r;' % (d.get('_x'), d.get('_y'), d.get('_layer'), d.get('rotation'), d.get('_scale'), d.get('_mirror_ud'), d.get('_mirror_lr')))
        self.walk(d.get('_blocking'))
        self.walk(d.get('_interaction'))
        self.walk(d.get('pixels'))
        for k in sorted(k for k in d if k not in _SPRITE_FIELDS):
            self.out.append(b'.' + k.encode() + b'=')
            self.walk(d[k])

    def walk_callable(self, v):
        out = self.out
        if isinstance(v, types.MethodType):
            out.append(b'm' + v.__func__.__qualname__.encode() + b';')
            self.walk(v.__self__)
        elif isinstance(v, types.FunctionType):
            out.append(b'c' + v.__module__.encode() + b'.' + v.__qualname__.encode() + b':%d;' % v.__code__.co_firstlineno)
            cells = self.cells
            for cell in v.__closure__ or ():
                ref = cells.get(id(cell))
                if ref is not None:
                    out.append(b'k%d;' % ref)
                    continue
                cells[id(cell)] = len(cells)
                try:
                    value = cell.cell_contents
                except ValueError:
                    out.append(b'-')
                    continue
                self.walk(value)
            # Default values are state too: a mutable default (acc=[]) changes with every call.
            if v.__defaults__ is not None or v.__kwdefaults__ is not None or v.__dict__:
                out.append(b'd')
                self.walk(v.__defaults__)
                self.walk(v.__kwdefaults__)
                self.walk(v.__dict__)
        else:
            out.append(b'c' + str(getattr(v, '__module__', '?')).encode() + b'.' + str(getattr(v, '__qualname__', type(v).__name__)).encode() + b';')
            bound = getattr(v, '__self__', None)
            if bound is not None and not isinstance(v, (type, types.ModuleType)) and not isinstance(bound, types.ModuleType):
                out.append(b'@')  # a builtin method bound to an object (a list's append): that object
                self.walk(bound)


# What the module checks never walk as state: code (a plain function, a class, a module, a descriptor
# of the class's own functions), and functools' caches (of a method: an identity warning at load,
# Runtime.start_warning; of a module function: values by arguments, left alone).
_CODE_LIKE = (types.FunctionType, type, types.ModuleType, staticmethod, classmethod, property, functools._lru_cache_wrapper)


def _holds_state(v):
    """Whether a global or class attribute may hold state: any value but code; a callable that is not
    a plain function is walked too (`ticket = itertools.count().__next__`: the count it is bound to), a
    builtin bound to a module (`from math import floor`) is not."""
    if isinstance(v, _CODE_LIKE):
        return False
    if isinstance(v, types.BuiltinFunctionType):
        bound = getattr(v, '__self__', None)
        return bound is not None and not isinstance(bound, (types.ModuleType, type))
    return True


# Class attributes that are no state: abc's cache of subclass checks (its walk is a masked repr anyway).
_NO_STATE_ATTRS = frozenset({'_abc_impl'})
# Descriptors of a class written in C or with __slots__: code, as functions are.
_DESCRIPTORS = (types.GetSetDescriptorType, types.MemberDescriptorType, types.WrapperDescriptorType,
                types.MethodDescriptorType, types.ClassMethodDescriptorType)


def _function_holds(fn):
    """Whether a Python function has parts that can hold state: an attribute (`charge.level`), a
    keyword-only default, a default that is not a plain scalar (`acc=[0]`), a closure cell (but the
    `__class__` cell of a method that calls super()). A function with none of those is code alone
    (one that gains an attribute later is then a new name of the module's state: a change too)."""
    if fn.__dict__ or fn.__kwdefaults__:
        return True
    d = fn.__defaults__
    if d and not set(map(type, d)) <= _SCALARS:
        return True
    return fn.__closure__ is not None and fn.__code__.co_freevars != ('__class__',)


def _functions_of(v):
    """The Python functions behind a class attribute (a method, a staticmethod's or classmethod's, a
    property's accessors), or None for an attribute that is not code."""
    if isinstance(v, types.FunctionType):
        return (v,)
    if isinstance(v, (staticmethod, classmethod)):
        fn = v.__func__
        return (fn,) if isinstance(fn, types.FunctionType) else ()
    if isinstance(v, property):
        return tuple(fn for fn in (v.fget, v.fset, v.fdel) if isinstance(fn, types.FunctionType))
    return None


def _class_parts(identity, cls, prefix, own, only, parts, seen):
    """The state a class of the game's module holds (`prefix.attr` names): its attributes but code, its
    functions' mutable parts, and the classes nested in it."""
    seen.add(id(cls))
    internal = issubclass(cls, Enum)
    for attr, v in vars(cls).items():
        if attr.startswith('__') or attr in _NO_STATE_ATTRS:
            continue
        # An Enum's own bookkeeping (_value2member_map_ caches a Flag combination once it is made) is no state.
        if internal and attr.startswith('_') and attr.endswith('_'):
            continue
        if isinstance(v, type):
            if v.__module__ == own and id(v) not in seen:
                _class_parts(identity, v, f'{prefix}.{attr}', own, only, parts, seen)
            continue
        name = f'{prefix}.{attr}'
        if only is not None and name not in only:
            continue
        fns = (v,) if type(v) is types.FunctionType else _functions_of(v)
        if fns is not None:
            if any(map(_function_holds, fns)):
                parts[name] = identity.walk_unshared(fns[0] if len(fns) == 1 else fns)
        elif _holds_state(v):
            parts[name] = identity.walk_unshared(v)


# Of a class outside the game's module (the engine's, a base class): (the size of its dict, the names
# of its attributes that may hold state), found again when the size changes (a game adds Sprite.charge).
_LIBRARY_ATTRS = {}


def _library_parts(identity, cls, only, parts):
    """The attributes of a class outside the game's module but code (its methods, slots, an Enum's
    members and bookkeeping), named by module and class."""
    d = vars(cls)
    known = _LIBRARY_ATTRS.get(cls)
    if known is None or known[0] != len(d):
        internal = issubclass(cls, Enum)
        names = tuple(attr for attr, v in d.items() if not (
            attr.startswith('__') or attr in _NO_STATE_ATTRS or (internal and attr.startswith('_') and attr.endswith('_'))
            or isinstance(v, (type, _DESCRIPTORS)) or _functions_of(v) is not None or (internal and type(v) is cls)
            or not _holds_state(v)))
        known = _LIBRARY_ATTRS[cls] = (len(d), names, f'{cls.__module__}.{cls.__qualname__}.')
    prefix = known[2]
    for attr in known[1]:
        name = prefix + attr
        if (only is None or name in only) and attr in d:
            parts[name] = identity.walk_unshared(d[attr])


_ENGINE_CLASSES = []


def _engine_classes():
    """The classes the engine's modules define (arcengine and arcengine.*), in a fixed order: found once."""
    if not _ENGINE_CLASSES:
        import sys
        for module_name in sorted(m for m in list(sys.modules) if m == 'arcengine' or m.startswith('arcengine.')):
            module = sys.modules.get(module_name)
            for _, value in sorted(vars(module).items()) if module is not None else ():
                if isinstance(value, type) and value.__module__ == module_name:
                    _ENGINE_CLASSES.append(value)
    return _ENGINE_CLASSES


_LIBRARY = {}


def _library_class(cls):
    """A class of Python itself (builtins, the standard library): no game state is looked for there."""
    library = _LIBRARY.get(cls)
    if library is None:
        import sys
        top = cls.__module__.partition('.')[0]
        library = _LIBRARY[cls] = top == 'builtins' or top in sys.stdlib_module_names
    return library


def _environ():
    """The process's environment variables as bytes (os.environ: a game may keep state there)."""
    import os
    data = getattr(os.environ, '_data', None)
    if type(data) is dict and all(type(k) is bytes for k in data):
        return b'\0'.join(chain.from_iterable(data.items()))
    return repr(sorted(os.environ.items())).encode()


def changed_part(before, after):
    """The first name of two module_state walks whose walk differs (or that came or went), else None."""
    return next((name for name in after if after[name] != before.get(name)), None) or next((name for name in before if name not in after), None)


def module_state(identity, module, only=None):
    """The walk of what the game's module holds besides code, name by name: its globals, its functions'
    mutable parts (defaults, attributes, closure cells), its classes' attributes and their methods'
    mutable parts, the classes nested in them, the attributes of the engine's classes and of the game's
    other base classes, the engine's mutable defaults and os.environ, shared objects by their content
    (`only`: of those names alone). A snapshot of the game object does not hold them, so a step that
    changes them keeps state the graph cannot see."""
    own = module.__name__
    parts = {}
    seen = set()
    bases = []
    for key, value in vars(module).items():
        if key.startswith('__'):
            continue
        if isinstance(value, type):
            if value.__module__ == own and id(value) not in seen:
                _class_parts(identity, value, key, own, only, parts, seen)
                bases.extend(value.__mro__[1:])
            continue
        if isinstance(value, types.FunctionType):
            # a module function's mutable default (acc=[0]), attribute (charge.level), closure (counter = make_counter())
            if value.__module__ == own and _function_holds(value) and (only is None or key in only):
                parts[key] = identity.walk_unshared(value)
            continue
        if not _holds_state(value):
            continue
        # By content: the module's own sprites and levels are shared (snapshots name them), so a step
        # that moves one changes no snapshot and no identity.
        if only is None or key in only:
            parts[key] = identity.walk_unshared(value)
    # The engine's classes (a game may set Sprite.charge) and the game's other base classes: their
    # attributes but code, named by module and class.
    for cls in chain(_engine_classes(), bases):
        if id(cls) not in seen:
            seen.add(id(cls))
            if cls.__module__ != own and not _library_class(cls):
                _library_parts(identity, cls, only, parts)
    # The engine's mutable defaults (a Sprite made without tags holds Sprite.__init__'s list): one
    # object for the whole process, which snapshots name and no identity holds.
    for name, value in identity.engine_defaults:
        if only is None or name in only:
            parts[name] = identity.walk_unshared(value)
    if only is None or 'os.environ' in only:
        parts['os.environ'] = _environ()
    return parts


def shared_levels(identity, registry):
    """The walk of the levels every state shares (`_clean_levels`, and the pristine levels put in
    place of those not being played), by registry key: a game that edits one in place (a level it
    is not playing yet: self._levels[i]) changes every state, and no snapshot holds the edit."""
    return {key: identity.walk_unshared(obj) for key, obj in registry.shared_levels()}


class Identity:
    """Digests of states: `mode` 'state' (frame and game object) or 'frame' (the frame alone)."""

    def __init__(self, registry, game, mode='state', source=''):
        from arcengine import ARCBaseGame
        note_objects()
        # The generator the last walk met suspended in a loop (Walker.hidden), for the explorer's check.
        self.last_hidden = None
        # The type of a dict key or set member the last walk found stale (Walker.stale), for the explorer.
        self.last_stale = None
        # Whether any walk met an int that looks like an object address (Walker.addresses): the runtime's
        # snapshots then carry the objects whose ids a state keeps.
        self.addresses = False
        self.shared = registry.ids
        self.engine_defaults = getattr(registry, 'defaults', [])
        self.mode = mode
        # Engine bookkeeping the game's own code reads is state of the game (IDENTITY.md): a move
        # budget in `_action_count`, a checkpoint written to `_clean_levels`.
        self.game_skip = GAME_SKIP - {name for name in SOURCE_READ if name in source}
        self.layers_change = 'set_layer' in source or '_layer' in source
        self.game_type = ARCBaseGame
        self.level_type = type(game._clean_levels[0]) if game._clean_levels else None
        self.sprite_type = None
        for level in game._clean_levels:
            for sprite in level.get_sprites():
                self.sprite_type = type(sprite)
                break
            if self.sprite_type:
                break

    def walk_bytes(self, game, dict_order=True):
        """The canonical walk of the game object (or of any value: objects in the shared registry by their key)."""
        w = Walker(self.shared, self.game_type, self.level_type, self.sprite_type, self.game_skip, self.layers_change, dict_order)
        w.walk(game)
        self.last_hidden = w.hidden
        self.last_stale = w.stale
        if w.addresses:
            self.addresses = True
        return b''.join(w.out)

    def walk_unshared(self, value):
        """The walk of `value` with shared objects walked by content, not by their registry key: what the
        checks compare before and after a step (a step that changed a shared object changed them all)."""
        w = Walker({}, self.game_type, self.level_type, self.sprite_type, self.game_skip, self.layers_change)
        w.walk(value)
        return b''.join(w.out)

    def digest(self, game, frame, dict_order=True):
        h = blake2b(digest_size=16)
        h.update(np.ascontiguousarray(frame, dtype=np.int8).tobytes())
        if self.mode == 'state':
            h.update(self.walk_bytes(game, dict_order))
        return h.digest()
