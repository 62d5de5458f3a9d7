"""The baseline of the bridge benchmark: a breadth-first search in this one process, with nothing but
restore, step and identity (and a snapshot of each new state to expand it later)."""
import time
from collections import deque

from .clicks import partition
from .levels import level_start
from .runtime import CLICK_BASE, PLAYING, GameError, settled


def bfs(rt, level, max_states, max_seconds):
    """Transitions and seconds of a BFS from `level`'s start, keys and one click per class (no verification)."""
    live, frame, _, _ = level_start(rt, level)
    seen = {rt.digest(live, frame)}
    queue = deque([rt.pack(live)])
    keys = [a for a in rt.actions if a != 6]
    clicks = 6 in rt.actions
    transitions = 0
    started = time.perf_counter()
    cpu = time.process_time()
    while queue and len(seen) < max_states and time.perf_counter() - started < max_seconds:
        snap = queue.popleft()
        moves = list(keys)
        if clicks:
            moves += [CLICK_BASE + first for first, _, _ in partition(rt.restore(snap)[0])]
        for code in moves:
            live = rt.restore(snap)
            try:
                fd = rt.step(live, code)
            except GameError:
                continue
            transitions += 1
            d = rt.digest(live, settled(fd))
            if d in seen:
                continue
            seen.add(d)
            if rt.status(live[0], fd, level) == PLAYING:
                queue.append(rt.pack(live))
    return {'transitions': transitions, 'states': len(seen), 'seconds': time.perf_counter() - started, 'cpuSeconds': time.process_time() - cpu}
