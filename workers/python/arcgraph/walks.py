"""The walks kernel: seeded random episodes from a level's start (Monte Carlo), drawn as
src/player/episodes.ts draws them, played with the engine's perform_action."""
from array import array

from .attempts import attempt_start, reset_fault, walks_message
from .identity import changed_part, module_state
from .rng import Rng, draw_action
from .runtime import CLICK_BASE, PLAYING, RESET, WON, GameError

WALK_WON, WALK_LOST, WALK_CUT, WALK_THREW = 1, 2, 3, 4


def code_of(move):
    a, x, y = move
    return CLICK_BASE + y * 64 + x if a == 6 else a


def run_walks(rt, start, level, seed, first, count, max_steps, choices, timing):
    """Episodes first..first+count-1: their steps and ends (an exception ends the batch: `error` names
    the episode, its actions and the step), and the first part of the game's module state the
    episodes changed (`carried`: each episode starts from the level's snapshot, which does not hold
    it, so the episodes are not independent plays of the game), else None; and `kept`, the warning of
    the first lost episode whose RESET (stepped as the ARC agent steps it after GAME_OVER) does not
    lead where a fresh attempt starts (attempts.reset_fault: the game keeps state across attempts),
    else None. `timing` collects the slowest steps."""
    available = set(rt.actions)
    steps = array('I')
    end = array('B')
    error = None
    begins = rt.start_status(rt.restore(start)[0], level)
    if begins != PLAYING:
        # A level that starts won or lost (RESET's own step ended it): every episode ends before its first step.
        return array('I', [0] * count), array('B', [WALK_WON if begins == WON else WALK_LOST] * count), None, None, None
    try:
        reference = attempt_start(rt, rt.restore(start), level)
    except GameError:
        reference = None
    kept = None
    # Around the whole task, not each episode: the walk costs a few steps (0.3 to 7 ms on the shared games).
    module_before = module_state(rt.identity, rt.loaded.module)
    for i in range(count):
        rt.progress.item = i
        rng = Rng(seed, first + i)
        live = rt.restore(start)
        n = 0
        outcome = WALK_CUT
        taken = []
        try:
            while n < max_steps:
                move = draw_action(rng, choices, available)
                n += 1
                rt.progress.sub = n  # the step a killed or vanished process is blamed on (1-based, as the episode's)
                if move is None:
                    continue
                code = code_of(move)
                taken.append(code)
                fd = timing.step(rt, live, code, first + i, taken)
                o = rt.status(live[0], fd, level)
                if o != PLAYING:
                    outcome = WALK_WON if o == WON else WALK_LOST
                    break
        except GameError as err:
            steps.append(n)
            end.append(WALK_THREW)
            error = {'episode': first + i, 'actions': taken, 'message': err.describe(), 'kind': err.kind}
            break
        steps.append(n)
        end.append(outcome)
        if outcome == WALK_LOST and kept is None and reference is not None:
            # one step more a lost episode, until one shows it
            try:
                kept = reset_fault(rt, level, live, reference, walks_message)
            except GameError as err:
                # the agent's RESET after this loss crashes or hangs the game: the episode's fault
                end[-1] = WALK_THREW
                error = {'episode': first + i, 'actions': taken + [RESET], 'message': err.describe(), 'kind': err.kind}
                break
    return steps, end, error, changed_part(module_before, module_state(rt.identity, rt.loaded.module)), kept


class Timing:
    """Steps timed: the count and seconds of all, and the slowest few with the episode and the actions
    that reproduce each (the performance profile)."""

    def __init__(self, keep=5):
        import time
        self.clock = time.perf_counter
        self.keep = keep
        self.count = 0
        self.seconds = 0.0
        self.frames = 0
        self.slowest = []  # (seconds, where, actions)
        self.last = 0.0

    def step(self, rt, live, code, where, taken=None):
        """Steps and times one action; `where` (and the actions `taken` so far, if given) name a slow one."""
        t = self.clock()
        fd = rt.step(live, code)
        self.last = dt = self.clock() - t
        self.count += 1
        self.seconds += dt
        self.frames += len(fd.frame)
        if len(self.slowest) < self.keep or dt > self.slowest[-1][0]:
            self.slowest.append((dt, where, list(taken) if taken is not None else None))
            self.slowest.sort(key=lambda s: -s[0])
            del self.slowest[self.keep:]
        return fd

    def report(self):
        out = []
        for seconds, where, actions in self.slowest:
            entry = {'seconds': seconds}
            if isinstance(where, tuple):
                entry['walk'], entry['step'] = where
            else:
                entry['episode'] = where
            if actions is not None:
                entry['actions'] = actions
            out.append(entry)
        return {'steps': self.count, 'seconds': self.seconds, 'frames': self.frames, 'slowest': out}
