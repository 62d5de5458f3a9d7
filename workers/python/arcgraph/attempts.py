"""Attempts after the first: the ARC agent sends RESET after GAME_OVER, and the engine's RESET (a level
reset) rebuilds the level, not the game object. A lost state's RESET that does not lead where a fresh
attempt starts means the game keeps state across attempts (the explorer's identity warning, random
play's warning), so attempts are not independent (IDENTITY.md)."""
import numpy as np

from .runtime import PLAYING, RESET, GameError, settled

_MISSING = ('an attribute the other state does not have',)


def attempts_message(part):
    return (f'after GAME_OVER the engine\'s RESET (a level reset, as the ARC agent sends it to go on) does not return '
            f'to the level\'s start: {part} differs from a fresh attempt\'s, so the game keeps state across attempts (lives, '
            'deaths, hints kept on the game object: the engine rebuilds the level, not the game), and the probability of '
            'winning in independent attempts is not what the ARC agent sees (the graph is a fresh attempt\'s)')


def first_message(part):
    return (f'after GAME_OVER the engine\'s RESET (a level reset, as the ARC agent sends it to go on) leads where a '
            f'fresh attempt starts, but not to this start: {part} differs from it (the game\'s step() runs for RESET too, '
            'which this start, entered by winning the level before or set by the engine, never had), so the attempts '
            'after the first start elsewhere, and the graph is the first attempt\'s')


def walks_message(part):
    return (f'a lost attempt\'s RESET (stepped as the ARC agent sends it after GAME_OVER: a level reset) does not return '
            f'to the level\'s start: {part} differs from a fresh attempt\'s, so the game keeps state across attempts; '
            'each attempt here starts from the level\'s start, so this rate is that of independent fresh attempts, not what '
            'the ARC agent sees')


def attempt_start(rt, live, level):
    """Where an attempt at the level after the first begins when the game keeps nothing across
    attempts: the level's start `live` (stepped on in place) with the engine's RESET stepped on it as
    on a state an action was taken in (a level reset: the level rebuilt, set_level, and the game's
    step() with RESET, which a set-level start or one entered by the last level's winning step never
    had). (game, frame, digest); None for a start that is not playing, or whose RESET the engine
    takes otherwise."""
    game = live[0]
    if rt.start_status(game, level) != PLAYING:
        return None
    # The engine resets the level alone once an action was taken in it (_action_count, which set_level
    # puts back to 0); at 0 RESET is the whole game's.
    game._action_count = max(1, game._action_count)
    fd = rt.step(live, RESET)
    if not fd.frame or fd.full_reset or rt.status(game, fd, level) != PLAYING:
        return None
    frame = settled(fd)
    return game, frame, game_digest(rt, live, frame)


def game_digest(rt, live, frame):
    """The identity of the game's own state (its frame and object), without the global RNGs' states: a
    game drawing from them draws on where the last attempt left them in the engine too, which the
    explorer's seeded start does not claim to be (PROTOCOL.md)."""
    return rt.digest([live[0], None], frame)


def reset_fault(rt, level, live, reference, message=attempts_message, first=None):
    """The warning of lost state `live` whose RESET, stepped as an ARC agent steps it after GAME_OVER,
    does not lead where a fresh attempt starts (`reference`, attempt_start's), or, given `first` (the
    explored start: game, frame, digest), leads there but not to that start (the attempts after the
    first start elsewhere); None when it does, when the engine takes that RESET as the whole game's at
    a later level (back to level 1: another level's attempt), or when there is no reference. Steps
    `live` on. A RESET that raises or hangs raises GameError: the agent's next attempt is a crash of
    the game, as a step's (the callers name the lost state's actions and RESET)."""
    if reference is None:
        return None
    fd = rt.step(live, RESET)
    if not fd.frame or (fd.full_reset and level > 1):
        return None
    frame = settled(fd)
    digest = game_digest(rt, live, frame)
    if digest != reference[2]:
        return message(kept_part(rt, live[0], frame, reference))
    if first is not None and digest != first[2]:
        return first_message(kept_part(rt, live[0], frame, first))
    return None


def kept_part(rt, game, frame, reference):
    """What differs between a lost state's RESET (`game`, `frame`) and a fresh attempt's start: the first
    attribute of the game object (by name), else its levels, else its frame."""
    other, other_frame = reference[0], reference[1]
    walk = rt.identity.walk_unshared
    skip = rt.identity.game_skip
    mine, theirs = getattr(game, '__dict__', {}), getattr(other, '__dict__', {})
    for name in sorted(set(mine) | set(theirs)):
        if name not in skip and walk(mine.get(name, _MISSING)) != walk(theirs.get(name, _MISSING)):
            return f'self.{name}'
    if walk(game._levels) != walk(other._levels):
        return 'its levels (self._levels)'
    if not np.array_equal(frame, other_frame):
        return 'its frame'
    return 'its state'
