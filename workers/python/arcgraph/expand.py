"""The expand kernel: a batch of snapshots, each stepped through every move (clicks over verified
classes), successors identified and merged in the record layout of src/explorer/expand.ts."""
import zlib
from array import array

import numpy as np

from .attempts import attempt_start, game_digest, reset_fault
from .clicks import partition
from .identity import changed_part, module_state
from .runtime import CLICK_BASE, LOST, PLAYING, RESET, GameError, offered_of, settled

CELLS = 4096
STAT_KEYS = ('classes', 'samples', 'split', 'splitCells', 'unoffered')
HELD_WALKS = 64  # a process's walks for kept object ids: a root's successors, about 3 ms each on lf52
SMALL_PART = 2048  # bytes of walk: a part of the module's state walked around every checked step


class Records:
    """One record per distinct successor of each state, as ExpandResult (src/explorer/expand.ts)."""

    def __init__(self):
        self.latest = {}  # digest -> latest record index
        self.digests = []
        self.keys = array('B')
        self.cells = array('H')
        self.action = array('H')
        self.outcome = array('B')
        self.node = array('i')
        self.bytes = []
        self.bytes_end = array('I')
        self.length = 0

    def add(self, digest, keys, cells, action, outcome, node, data):
        self.latest[digest] = len(self.digests)
        self.digests.append(digest)
        self.keys.append(keys)
        self.cells.append(cells)
        self.action.append(action)
        self.outcome.append(outcome)
        self.node.append(node)
        if data is not None:
            self.bytes.append(data)
            self.length += len(data)
        self.bytes_end.append(self.length)


def fixed_actions(rt, fd):
    """The graph steps the actions the game offered when loaded, in every state: a game that offers
    others later would have moves the graph misses (and a 'no win is reachable' that is false). Not
    checked on a step that won or lost the level: its frame may be the next level's already."""
    offered = fd.available_actions
    if offered != rt.offered and offered_of(offered) != rt.offered:
        raise GameError('exception', f"the game's available actions became {offered_of(offered)}, not {rt.offered} as when it was loaded: "
                        'arcgraph explores one set of actions for every state, so this graph would miss moves', '')


def unoffered_acting(rt, snap, unoffered):
    """A bit (1 << a) for each action `a` of `unoffered` (ACTION6 on the grid's centre) that changes the
    state of `snap` when sent (the engine steps a game with any action) or throws. The state before and
    after are identified over the same frame, the step's: what differs is the game's own state."""
    mask = 0
    before = rt.restore(snap)  # never stepped: only identified, over each step's frame
    for a in unoffered:
        try:
            live = rt.restore(snap)
            fd = rt.step(live, CLICK_BASE + 32 * 64 + 32 if a == 6 else a)
            frame = settled(fd)
            if rt.digest(live, frame) == rt.digest(before, frame):
                continue
        except GameError:
            pass
        mask |= 1 << a
    return mask


FEW_GRID_CELLS = 9  # a class covering at most this many grid cells (a 3x3 button): one cell of each stepped


def samples(cells, count, verify, salt, scale, x_off=0, y_off=0):
    """The cells of a class stepped besides its first (row-major: its topmost): its last (bottommost,
    the farthest from the first); for a class wider than a grid cell (`scale` display cells) its
    leftmost and rightmost too: a region the game reads the click's position in (a click-to-move game
    steps toward it) behaves differently at its edges; for a class three grid cells wide or tall or more
    its middle (a button that reacts at its centre alone); for a class that covers few grid cells
    (FEW_GRID_CELLS; the grid's cells start at display `x_off`, `y_off`) one cell (the first) of each
    grid cell none of those fell in, as a game that reads the grid cell clicked tells them apart (a
    button that reacts at one corner: fixture bt02); then `verify` - 1 pseudo-random ones chosen by
    `salt` (the state's bytes and the class). The same cells at any worker count: a function of the
    class and the state alone. Cells of one grid cell are not told apart (a game that reads the display
    pixel clicked inside a grid cell needs --clicks all)."""
    if count < 2:
        return []
    first = int(cells[0])
    out = [int(cells[-1])]
    seen = {first, out[0]}

    def add(cell):
        cell = int(cell)
        if cell not in seen:
            seen.add(cell)
            out.append(cell)

    xs = cells % 64
    left, right = int(xs.argmin()), int(xs.argmax())
    if int(xs[right]) - int(xs[left]) >= scale:
        add(cells[left])
        add(cells[right])
    ys = cells // 64
    if int(xs[right]) - int(xs[left]) >= 2 * scale or int(ys[-1]) - int(ys[0]) >= 2 * scale:
        # three grid cells across or more: its middle too (the cell nearest its centroid), which none
        # of those is: a button that reacts at its centre alone
        add(cells[int(((xs - xs.mean()) ** 2 + (ys - ys.mean()) ** 2).argmin())])
    if count <= FEW_GRID_CELLS * scale * scale:
        # the grid cell of each display cell (the letterbox's cells fall in none: indices off the grid,
        # told apart all the same); np.unique's first index is the grid cell's first cell (row-major)
        grid = ((ys - y_off) // scale) * 4096 + (xs - x_off) // scale
        keys, index = np.unique(grid, return_index=True)
        if len(keys) <= FEW_GRID_CELLS:
            covered = {int(g) for g, cell in zip(grid.tolist(), cells.tolist()) if cell in seen}
            for k in np.sort(index).tolist():
                if int(grid[k]) not in covered:
                    add(cells[k])
    for j in range(1, min(verify, count - 1)):
        add(cells[1 + (salt + 104729 * j) % (count - 1)])
    return out


def ring(classes, scale, x_off, y_off):
    """Cells to step for the classes around small ones, by class index: for each class covering at most
    FEW_GRID_CELLS grid cells (a player, a gem, a button), one display cell (the first) of the grid cell
    just above, below, left and right of the middle of each side of its box, where a larger class lies
    there. A game's hit area may reach cells nothing draws (a floor cell the player is clicked onto, a
    forgiving hitbox around a gem): they show the background, whose samples far away all agree (the
    probe's pk25: "no win is reachable"; pk21: 1/83,521 where the truth is 1/60). Four cells a small
    class (all eight around it cost 1.1x to 2.6x the samples of the shared click games' level 1), at
    most RING_LIMIT a state, the smallest classes first."""
    if not classes:
        return {}
    label = np.empty(CELLS, dtype=np.int32)
    for k, (_, _, cells) in enumerate(classes):
        label[cells] = k
    small = []
    for k, (_, count, cells) in enumerate(classes):
        if count > FEW_GRID_CELLS * scale * scale:
            continue
        xs, ys = cells % 64, cells // 64
        inside = (xs >= x_off) & (ys >= y_off)  # the letterbox's cells are on no grid cell
        gx, gy = (xs[inside] - x_off) // scale, (ys[inside] - y_off) // scale
        if 0 < len(set(zip(gx.tolist(), gy.tolist()))) <= FEW_GRID_CELLS:
            small.append((count, int(cells[0]), k, int(gx.min()), int(gx.max()), int(gy.min()), int(gy.max())))
    small.sort()
    # Cells of the larger classes only: every grid cell of a small class is stepped already (samples)
    few = {s[2] for s in small}
    out, seen = {}, set()
    for _, _, k, x0, x1, y0, y1 in small:
        mx, my = (x0 + x1) // 2, (y0 + y1) // 2
        for gx, gy in ((mx, y0 - 1), (x0 - 1, my), (x1 + 1, my), (mx, y1 + 1)):
            x, y = x_off + gx * scale, y_off + gy * scale
            if not (0 <= x < 64 and 0 <= y < 64):
                continue
            cell = y * 64 + x
            j = int(label[cell])
            if j in few or cell in seen:
                continue
            if len(seen) == RING_LIMIT:
                return out
            seen.add(cell)
            out.setdefault(j, []).append(cell)
    return out


RING_LIMIT = 64
# A camera showing at most this many grid cells (an 8x8 board): every class is stepped once per grid cell.
SMALL_GRID = 64


def grid_groups(cells, scale, x_off, y_off):
    """A class's cells by grid cell (display cells the game reads as one grid cell), in the order of
    their first cell: a split class is stepped once a grid cell, not once a display cell (64 times
    fewer at scale 8). The letterbox's cells fall in blocks of `scale` off the grid."""
    if scale == 1:
        return [cells[i:i + 1] for i in range(len(cells))]
    xs, ys = cells % 64, cells // 64
    grid = ((ys - y_off) // scale) * 4096 + (xs - x_off) // scale
    order = np.argsort(grid, kind='stable')
    keyed = grid[order]
    starts = np.flatnonzero(np.concatenate(([True], keyed[1:] != keyed[:-1])))
    groups = np.split(cells[order], starts[1:])
    groups.sort(key=lambda g: int(g[0]))
    return groups


def _module_message(name, pinned=True):
    what = 'the step' if pinned else 'a step of this batch (taken again, none did: the first is named)'
    if type(name) is tuple:  # a shared level's registry key (Expander.batch_state)
        where = f'_clean_levels[{name[1]}] in place' if name[0] == 'C' else f'level {name[1] + 1} (self._levels[{name[1]}]) while not playing it'
        return (f'{what} changed {where}: arcgraph shares the clean levels and the levels not being '
                'played between all states (no snapshot holds them, the identity does not see them), so '
                'this graph is not the game\'s (a game that prepares a later level or edits its clean copy '
                'in place is not supported; assigning a new level to _clean_levels[i] is)')
    if name.startswith('arcengine') and name.endswith('=)'):
        return (f'{what} changed the engine\'s default value {name}: one object that every call not passing it '
                'shares (each sprite made without tags holds the same list), so the change reaches every such '
                'object, and those made later in the process; this graph does not follow it (give the objects '
                'their own: Sprite(..., tags=[...]))')
    if name == 'os.environ':
        where = 'os.environ, the process\'s environment variables'
    elif name.startswith('arcengine'):
        where = f'{name}, an attribute of the engine\'s class'
    else:
        where = f'{name} in the game\'s module'
    return (f'{what} changed {where}: the game keeps state in module globals or class attributes (or function '
            'defaults, closures, the environment), which its snapshot does not hold and its identity does not see')


def _stale_message(t):
    if isinstance(t, tuple):  # (identity.UNEQUAL, type): a key not equal to itself
        t = t[1]
        return (f'a dict key (or set member) that equals nothing, not even itself (a {t.__qualname__}'
                f'{" NaN" if issubclass(t, float) else ""}): only the same object finds it, which no snapshot keeps '
                '(pickle writes a float by value), so restored states no longer find that entry, behave unlike the '
                'game, and this graph cannot be trusted (key it by a value equal to itself: None, a string)')
    return (f'a dict key\'s hash changed after it was inserted (a {t.__qualname__}, hashed by what the '
            'game then changed: its lookup fails, or finds another key): the game no longer finds that entry, but '
            'snapshots rebuild the dict (or set) and find it again, so restored states behave unlike the game and '
            'this graph cannot be trusted (hash such keys by what never changes, or do not change them while they are keys)')


def _clock_message(name):
    return (f'the step read the clock (time.{name}) in the game\'s code: its successors depend on when it runs, '
            'which no snapshot holds and the identity does not see, so this graph is one run\'s')


_LAYER_MESSAGE = ('the step changed a sprite\'s layer (Sprite.set_layer) where the game\'s code names neither set_layer '
                  'nor _layer (a generic setter: getattr): set_layer leaves a level\'s sort cache in use, and '
                  'arcgraph walks a valid cache only in games whose source names those, so this graph may merge '
                  'states that get_sprite_at tells apart')


def _entropy_message(label):
    return (f'the step drew from the operating system\'s entropy ({label}) in the game\'s code: its successors '
            'differ from run to run, which no snapshot holds and the identity does not see, so this graph is one '
            'run\'s (seed the generator: random.Random(seed), numpy.random.default_rng(seed))')


class Expander:
    def __init__(self, rt):
        self.rt = rt
        self.current = CLICK_BASE  # the action being stepped (named when a step fails)
        # Successors this process already sent in this exploration: the explorer merges batches in
        # order, so it knows them by the time it merges a later batch of this process, and their
        # snapshots need not be made or sent again.
        self.exploration = None
        self.sent = set()
        self.collisions = None
        self.identity_fault = None
        self.held_walks = 0  # walks of a root's successors for object ids the game keeps (check_identity)
        self.attempts_fault = None
        # A camera showing at most this many grid cells: every click class split by grid cell (click_classes).
        self.small_grid = SMALL_GRID
        # The exploration whose module change this process has reported: its later batches skip the walk.
        self.module_warned = None
        self.module_cache = None  # (steps begun in this process, the module's walk then)
        self.small = None  # small_parts()
        self.shared = None  # the registry's shared levels: (key, level)
        # attempt_start's: ((exploration, level, start path), (game, frame, digest) or None) and, of
        # that exploration, each lost state's reset_fault by its digest (the same answer in any process).
        self.attempts = None
        self.resets = {}

    def run(self, level, snapshots, clicks='classes', verify=1, exploration=None, check=0, root=False, start_path=None):
        """Expands the batch. Every transition of its first `check` states, and about 1 in 256 of
        the others (by their successor's digest, so the same ones at any worker count), is taken
        again from the restored state: the first that gives another successor or status is left in
        `identity_fault` (state, action, message). The steps of the level's root (the batch's first state
        when `root`) and of the sample also walk the game module around them, and the whole batch is
        walked around too (once a change is reported, not again in this exploration): a change
        anywhere in it is pinned to its step by `module_step`. Given the path from RESET to the level's
        start (`start_path`, [] for none: level 1, a set-level start), every lost successor is stepped
        on with RESET, as an ARC agent goes on after GAME_OVER: the first whose RESET does not lead
        where a fresh attempt starts is left in `attempts_fault` (reset_fault)."""
        rt = self.rt
        self.identity_fault = None
        # The first lost successor of the batch whose RESET does not lead where a fresh attempt starts.
        self.attempts_fault = None
        if root:
            # Found at load, once a process: a warning of every exploration of the game (RESET: from its start).
            warning = rt.start_warning()
            if warning is not None:
                self.identity_fault = {'state': 0, 'action': 0, 'message': warning}
            self.module_cache = None  # a second construction may have changed the module: walked again
            self.held_walks = 0
        if exploration != self.exploration or len(self.sent) > 4_000_000:
            self.exploration = exploration
            self.sent = set()
            if rt.identity.mode == 'frame':
                from .markov import Collisions
                self.collisions = Collisions(rt)
        sent = self.sent if exploration is not None else None
        attempts = self.attempt_start(level, start_path, exploration) if start_path is not None else None
        lost = []  # (state, action, live, digest) of the batch's new lost successors
        rec = Records()
        steps = array('I')
        record_ends = array('I')
        stats = dict.fromkeys(STAT_KEYS, 0)
        # The click stats so far after each state (STAT_KEYS order): the explorer counts those of
        # the states it merged alone, so the numbers are the same at any worker count.
        totals = array('I')
        error = None
        keys = [a for a in rt.actions if a != 6]
        has_clicks = 6 in rt.actions
        unoffered = [a for a in range(1, 8) if a not in rt.actions]
        # The module's state (globals, class attributes, the engine's mutable defaults) and the shared
        # levels around the whole batch: a step anywhere in it that changes what no snapshot holds is
        # found below. The walk costs a few steps (0.3 to 7 ms on the shared games): the previous
        # batch's closing walk stands for this one's opening one when no step ran in this process in
        # between. A change made before (by another exploration in this process) is none of this batch's.
        watch = self.module_warned is None or self.module_warned != exploration
        module_before = None
        if watch:
            cached = self.module_cache
            module_before = cached[1] if cached is not None and cached[0] == rt.progress.ticks else self.batch_state()
        done = 0
        for s, snap in enumerate(snapshots):
            done = s + 1
            rt.progress.item = s
            first = len(rec.digests)
            taken = 0
            self.current = keys[0] if keys else CLICK_BASE

            # The short parts of the module's state are walked around every step of a checked state
            # (the first time a step changes one, a counter that stops at its cap, it is seen).
            watched = self.small_parts() if s < check else None

            def outcome_of(code):
                self.current = code
                live = rt.restore(snap)
                before = module_state(rt.identity, rt.loaded.module, watched) if watched and self.identity_fault is None else None
                # The shared levels' outline too (a level the game is not playing, edited in place: nl01);
                # the batch's walk of their content finds any change the outline misses.
                outline = self.shared_outline() if s < check and self.identity_fault is None else None
                fd = rt.step(live, code)
                if before is not None:
                    name = changed_part(before, module_state(rt.identity, rt.loaded.module, watched))
                    if name is not None:
                        self.identity_fault = {'state': s, 'action': code, 'message': _module_message(name)}
                if outline is not None and self.identity_fault is None:
                    name = changed_part(outline, self.shared_outline())
                    if name is not None:
                        self.identity_fault = {'state': s, 'action': code, 'message': _module_message(name)}
                if rt.status(live[0], fd, level) == PLAYING:
                    fixed_actions(rt, fd)
                d = rt.digest(live, settled(fd))
                # From every step's walk, not the checked ones alone: the walk meets every key anyway.
                if rt.identity.last_stale is not None and self.identity_fault is None:
                    self.identity_fault = {'state': s, 'action': code, 'message': _stale_message(rt.identity.last_stale)}
                # From every step too: a read of the clock (runtime.watch_clock) by the game's own code.
                if rt.clock_read is not None and self.identity_fault is None:
                    self.identity_fault = {'state': s, 'action': code, 'message': _clock_message(rt.clock_read)}
                # And a layer set where the game's source never names it (runtime.watch_layers).
                if rt.layer_set and self.identity_fault is None:
                    self.identity_fault = {'state': s, 'action': code, 'message': _LAYER_MESSAGE}
                # and a draw from the operating system's entropy (runtime.watch_entropy) by the game's own code.
                if rt.entropy_read is not None and self.identity_fault is None:
                    self.identity_fault = {'state': s, 'action': code, 'message': _entropy_message(rt.entropy_read)}
                return live, fd, d

            def record(code, bit, cells, result):
                live, fd, d = result
                if self.identity_fault is None and (s < check or d[0] == 0):
                    # the module's own state is walked around the checked steps too (the level's first
                    # states' and the sample's); the batch is walked around as a whole besides
                    self.check_identity(s, level, code, result, outcome_of, True if root and s == 0 else self.small_parts())
                if self.collisions is not None:
                    self.collisions.see(d, live, settled(fd))
                r = rec.latest.get(d, -1)
                if r >= first:
                    if cells:
                        rec.cells[r] += cells
                    else:
                        rec.keys[r] |= bit
                    return
                if r >= 0:
                    node = -2 - r if rec.node[r] == -1 else rec.node[r]
                    rec.add(d, bit, cells, code, rec.outcome[r], node, None)
                    return
                o = rt.status(live[0], fd, level)
                if o != PLAYING or sent is None:
                    rec.add(d, bit, cells, code, o, -1, rt.pack(live) if o == PLAYING else None)
                    if o == LOST and attempts is not None:
                        # stepped on with RESET after the batch (and its closing walk: a RESET, whose
                        # on_set_level may put a shared level back, must not hide a step's change of it)
                        lost.append((s, code, live, d))
                elif d in sent:
                    rec.add(d, bit, cells, code, o, -1, b'')
                else:
                    sent.add(d)
                    rec.add(d, bit, cells, code, o, -1, rt.pack(live))

            try:
                for a in keys:
                    taken += 1
                    record(a, 1 << a, 0, outcome_of(a))
                if has_clicks:
                    if clicks == 'all':
                        for cell in range(CELLS):
                            taken += 1
                            record(CLICK_BASE + cell, 0, 1, outcome_of(CLICK_BASE + cell))
                    else:
                        taken += self.click_classes(snap, record, outcome_of, verify, stats)
            except GameError as err:
                error = {'state': s, 'action': self.current, 'message': err.describe(), 'kind': err.kind}
                break
            # The checked states (as above, by their first successor's digest) are also sent the actions
            # the game does not offer, which the graph takes as staying put: a bit for each that acts.
            if unoffered and len(rec.digests) > first and (s < check or rec.digests[first][0] == 0):
                stats['unoffered'] |= unoffered_acting(rt, snap, unoffered)
            steps.append(taken)
            record_ends.append(len(rec.digests))
            totals.extend(stats[k] for k in STAT_KEYS)
        if module_before is not None:
            module_after = self.batch_state()
            self.module_cache = (rt.progress.ticks, module_after)
            changed = changed_part(module_before, module_after)
            if changed is not None and self.identity_fault is None:
                self.identity_fault = self.module_step(snapshots[:done], keys, has_clicks, changed)
                self.module_warned = exploration
        for s, code, live, d in lost:
            try:
                message = self.reset_fault(level, live, d, attempts)
            except GameError as err:
                # the agent's RESET after this loss crashes or hangs the game: a fault of the level, as a
                # step's, its actions the lost state's and RESET (probe L's pl32b, pl33)
                if error is None or s < error['state']:
                    error = {'state': s, 'action': code, 'after': RESET, 'message': err.describe(), 'kind': err.kind}
                break
            if message is not None:
                self.attempts_fault = {'state': s, 'action': code, 'message': message}
                break
        return rec, steps, record_ends, error, totals

    def attempt_start(self, level, path, exploration):
        """attempts.attempt_start of the level's start as the root op makes it (played along `path`,
        else set_level), once an exploration in each process."""
        key = (exploration, level, tuple(path))
        if self.attempts is not None and self.attempts[0] == key:
            return self.attempts[1]
        from .levels import level_start
        self.resets = {}
        try:
            # the explored start itself (game, frame, digest): attempts after the first may start apart from it
            live, frame = level_start(self.rt, level, path or None)[:2]
            first = (live[0], frame, game_digest(self.rt, live, frame))
            # a copy of it (its snapshot): a later level's start is a replay of every earlier level's win
            reference = attempt_start(self.rt, self.rt.restore(self.rt.pack(live)), level)
            reference = reference and (reference, first)
        except GameError:
            reference = None
        self.attempts = (key, reference)
        return reference

    def reset_fault(self, level, live, digest, reference):
        """attempts.reset_fault of lost state `live`, kept by its identity `digest` for the exploration
        (`reference`: attempt_start's, and the explored start)."""
        known = self.resets.get(digest, False)
        if known is False:
            known = self.resets[digest] = reset_fault(self.rt, level, live, reference[0], first=reference[1]) if reference else None
        return known

    def module_step(self, snapshots, keys, has_clicks, changed):
        """The fault of a batch whose steps changed the game module's state: the first step that changes
        it when the batch's steps are taken again, each walked around (the offered keys, one click of each
        class), else (the change does not come again: a counter that stops at a cap) the batch's first."""
        rt = self.rt
        only = frozenset((changed,))
        for s, snap in enumerate(snapshots):
            codes = [CLICK_BASE + first for first, _, _ in partition(rt.restore(snap)[0])] if has_clicks else []
            for code in keys + codes:
                before = self.batch_state(only)
                try:
                    rt.step(rt.restore(snap), code)
                except GameError:
                    continue
                name = changed_part(before, self.batch_state(only))
                if name is not None:
                    return {'state': s, 'action': code, 'message': _module_message(name)}
        return {'state': 0, 'action': keys[0] if keys else CLICK_BASE, 'message': _module_message(changed, pinned=False)}

    def batch_state(self, only=None):
        """What no snapshot holds and a step may change, part by part: the module's state (module_state:
        names), and the walk of each shared level (the clean levels and the pristine copies of those
        not being played, by content: registry keys) (`only`: of those parts alone)."""
        rt = self.rt
        if only is None or any(type(name) is str for name in only):
            parts = module_state(rt.identity, rt.loaded.module, only)
        else:
            parts = {}
        walk = rt.identity.walk_unshared
        for key, level in rt.registry.shared_levels():
            if only is None or key in only:
                parts[key] = walk(level)
        return parts

    def shared_outline(self):
        """Of each shared level (by registry key), what a step that edits it in place most likely changes,
        cheaply (no walk): its sprite list and data dict (identity, length), each sprite's identity,
        position, layer and pixel array, each data value (a sized one by identity and length: a list
        appended to). Content edited deeper (pixels written in place) is left to the batch's walk."""
        if self.shared is None:
            self.shared = self.rt.registry.shared_levels()
        out = {}
        for key, level in self.shared:
            attrs = getattr(level, '__dict__', {})
            sprites = attrs.get('_sprites')
            data = attrs.get('_data')
            parts = [id(sprites), id(data)]
            if type(sprites) is list:
                try:
                    parts.append(tuple((id(x), x._x, x._y, x._layer, id(x.pixels)) for x in sprites))
                except AttributeError:
                    parts.append(tuple(map(id, sprites)))
            if type(data) is dict:
                parts.append(tuple((k, id(v), len(v)) if hasattr(v, '__len__') else (k, v) for k, v in data.items()))
            out[key] = parts
        return out

    def small_parts(self):
        """The names of the module's state whose walk was short at load (class attributes, counters, flags:
        not the module's level tables), walked around every checked step; the batch walks them all."""
        if self.small is None:
            self.small = frozenset(name for name, walk in module_state(self.rt.identity, self.rt.loaded.module).items() if len(walk) <= SMALL_PART)
        return self.small

    def check_identity(self, s, level, code, result, outcome_of, module):
        """`module`: True (the whole module's state is walked around the step), or the names to walk."""
        rt = self.rt
        live, fd, d = result
        status = rt.status(live[0], fd, level)
        only = None if module is True else module
        before = module_state(rt.identity, rt.loaded.module, only) if module else None
        again_live, again_fd, again = outcome_of(code)
        changed = None
        if before is not None:
            changed = changed_part(before, module_state(rt.identity, rt.loaded.module, only))
        if changed is not None:
            message = _module_message(changed)
        elif again != d:
            message = rt.lost_ids(live[0]) or (
                'the same step taken again from the restored state gave another successor: the game is not '
                'deterministic, or keeps state its snapshot does not hold (module globals, class attributes)')
        elif rt.status(again_live[0], again_fd, level) != status:
            message = 'the same step taken again from the restored state gave a successor with another status'
        elif rt.identity.last_hidden is not None:
            message = (f'the state holds a generator ({rt.identity.last_hidden}) suspended with values on its stack (inside a for '
                       'loop: its iterator; or in an expression, call, with or except block waiting on the yield), which the identity '
                       'cannot walk, so states that differ only there are merged (keep them in local variables or attributes instead)')
        elif self.held_walks < HELD_WALKS and module is True:
            # The root's successors are walked for ids the game keeps of its objects (lf52 keeps its new
            # objects' ids after a click; those kept at construction are found at load: runtime.held_ids)
            self.held_walks += 1
            message = rt.lost_ids(live[0])
            if message is None:
                return
        else:
            return
        self.identity_fault = {'state': s, 'action': code, 'message': message}

    def click_classes(self, snap, record, outcome_of, verify, stats):
        """Steps one cell of each class, and more of each larger class (`samples`, and the cells `ring`
        finds beside small classes); a class whose samples disagree is split by grid cell
        (`grid_groups`). Where the camera shows at most SMALL_GRID grid cells, every class is split by
        grid cell, unsampled. Returns the steps recorded."""
        rt = self.rt
        live = rt.restore(snap)
        camera = live[0].camera
        scale, x_off, y_off = camera._calculate_scale_and_offset()
        every = verify > 0 and camera.width * camera.height <= self.small_grid
        classes = partition(live[0])
        around = ring(classes, scale, x_off, y_off) if verify > 0 and not every else {}
        taken = 0
        salt = zlib.crc32(snap)
        for k, (first_cell, count, cells) in enumerate(classes):
            code = CLICK_BASE + first_cell
            stats['classes'] += 1
            if every and count > scale * scale:
                # a small board: a needle in one drawn class (a treasure under uniform sand, a cell a knight's
                # move away) is found by no sample (probe L's pl01, pl02, pl19), and 64 steps a state are few
                stats['split'] += 1
                stats['splitCells'] += count
                for group in grid_groups(cells, scale, x_off, y_off):
                    taken += 1
                    record(CLICK_BASE + int(group[0]), 0, len(group), outcome_of(CLICK_BASE + int(group[0])))
                continue
            rep = outcome_of(code)
            agree = True
            stepped = samples(cells, count, verify, salt + 7919 * k, scale, x_off, y_off) if verify > 0 else []
            for cell in stepped + [c for c in around.get(k, ()) if c != first_cell and c not in stepped]:
                stats['samples'] += 1
                if outcome_of(CLICK_BASE + cell)[2] != rep[2]:
                    agree = False
                    break
            if agree:
                taken += 1
                record(code, 0, count, rep)
                continue
            stats['split'] += 1
            stats['splitCells'] += count
            # Each grid cell's part stepped at its first cell, checked at its last: one whose two
            # disagree (a game reading the display pixel) is stepped cell by cell.
            for group in grid_groups(cells, scale, x_off, y_off):
                c = CLICK_BASE + int(group[0])
                o = rep if c == code else outcome_of(c)
                taken += 1
                if len(group) == 1 or outcome_of(CLICK_BASE + int(group[-1]))[2] == o[2]:
                    record(c, 0, len(group), o)
                    continue
                record(c, 0, 1, o)
                for cell in group[1:].tolist():
                    taken += 1
                    record(CLICK_BASE + cell, 0, 1, outcome_of(CLICK_BASE + cell))
        return taken
