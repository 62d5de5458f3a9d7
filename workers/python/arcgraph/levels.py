"""Level starts: level 1 is the state after RESET; a later level starts where playing a known winning
path through the earlier levels leads ('played'), else at the engine's set_level with levels_completed
set to match ('set-level'). Every root says which start it is."""
import os

from .runtime import RESET, GameError, settled


def level_start(rt, level, path=None):
    """(live, frame, how, note): the start state of `level` (1-based)."""
    if level < 1 or level > rt.levels:
        raise ValueError(f'level {level} does not exist: the game has levels 1..{rt.levels}')
    if level == 1:
        return _started(rt.fresh(), {'level': 1}), rt.base_frame, 'played', None
    note = None
    if path:
        try:
            live, frame = _played(rt, level, path)
            rt.registry.adopt(live[0])
            return _started(live, {'level': level, 'path': list(path)}), frame, 'played', None
        except GameError as err:
            note = f'the path to level {level} did not reach it: {err.describe()}'
        except ValueError as err:
            note = str(err)
    live, frame = _set_level(rt, level)
    return _started(live, {'level': level}), frame, 'set-level', note


def _started(live, recipe):
    """A level's start: its action path (kept only for a game that cannot be pickled) begins here."""
    if len(live) > 2:
        live[2] = []
        live[3] = recipe
    return live


def _played(rt, level, path):
    live = rt.fresh()
    fd = None
    for i, code in enumerate(path):
        fd = rt.step(live, code)
        state = fd.state
        if state == rt.GameState.GAME_OVER:
            raise ValueError(f'the path to level {level} ends the game (GAME_OVER) at its action {i + 1}')
        if live[0]._score >= level - 1:
            if i != len(path) - 1:
                raise ValueError(f'the path to level {level} reaches it after {i + 1} of its {len(path)} actions')
    game = live[0]
    if fd is None or game._score != level - 1 or game._current_level_index != level - 1 or fd.state == rt.GameState.WIN:
        raise ValueError(f'the path to level {level} ends with {game._score} levels completed, on level {game._current_level_index + 1}, not at the start of level {level}')
    return live, settled(fd)


def _set_level(rt, level):
    """The engine's set_level, levels_completed set to level - 1, then a level-only RESET for its frame."""
    live = rt.fresh()
    game = live[0]
    game.set_level(level - 1)
    game._score = level - 1
    saved = os.environ.get('ONLY_RESET_LEVELS')
    os.environ['ONLY_RESET_LEVELS'] = 'true'
    try:
        fd = rt.step(live, RESET)
    finally:
        if saved is None:
            del os.environ['ONLY_RESET_LEVELS']
        else:
            os.environ['ONLY_RESET_LEVELS'] = saved
    rt.registry.adopt(game)
    return live, settled(fd)
