"""Level starts: level 1 is the state after RESET; a later level starts where playing a known winning
path through the earlier levels leads ('played'), else where the engine's set_level puts it with
levels_completed set to match ('set-level'). Every root says which start it is. A path may also end
with a later attempt at the level: the level played into, lost (GAME_OVER) and RESET as the ARC agent
sends it, for a game that keeps state across attempts (attempts.py)."""
from .runtime import RESET, GameError, settled


def level_start(rt, level, path=None):
    """(live, frame, how, note): the start state of `level` (1-based)."""
    if level < 1 or level > rt.levels:
        raise ValueError(f'level {level} does not exist: the game has levels 1..{rt.levels}')
    if level == 1 and not path:
        return _started(rt.fresh(), {'level': 1}), rt.base_frame, 'played', None
    note = None
    if path:
        try:
            if level == 1 and path[-1] != RESET:
                raise ValueError('level 1 starts at the game\'s RESET: a path to it is a later attempt\'s, ending with the RESET an agent sends after a loss')
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
    # A path that ends in RESET starts a later attempt: it may reach the level before its end and lose there.
    attempt = path[-1] == RESET
    for i, code in enumerate(path):
        fd = rt.step(live, code)
        state = fd.state
        if state == rt.GameState.GAME_OVER and not (attempt and i + 1 < len(path) and path[i + 1] == RESET):
            raise ValueError(f'the path to level {level} ends the game (GAME_OVER) at its action {i + 1}' +
                             (' (a later attempt\'s start sends RESET after it)' if attempt else ''))
        score, index = live[0]._score, live[0]._current_level_index
        if (score >= level - 1 or index >= level - 1) and i != len(path) - 1 and not (attempt and score == index == level - 1):
            if score != index:
                # next_level() twice in a step: levels_completed counts a level the engine never plays
                raise ValueError(f'the path to level {level} has {score} levels completed after its action {i + 1}, on level {index + 1}: the game '
                                 f'completes levels it does not play (or plays levels it does not complete), so no path starts level {level} as both count it')
            raise ValueError(f'the path to level {level} reaches it after {i + 1} of its {len(path)} actions (a path that plays on in '
                             'the level starts a later attempt: it ends with the RESET an agent sends after a loss)')
    game = live[0]
    if fd is None or game._score != level - 1 or game._current_level_index != level - 1 or fd.state == rt.GameState.WIN:
        raise ValueError(f'the path to level {level} ends with {game._score} levels completed, on level {game._current_level_index + 1}, not at the start of level {level}')
    return live, settled(fd)


def _set_level(rt, level):
    """The start of `level` as the engine enters it after the previous level's win: levels_completed
    level - 1, then set_level (next_level counts the win first, so on_set_level sees it), and the frame
    rendered then. No RESET: the engine runs the game's step() on a RESET too, which a level entered
    by winning the last one never had (a game counting every action would start one move down)."""
    live = rt.fresh()
    game = live[0]

    def enter(game):
        game._score = level - 1
        game.set_level(level - 1)
        return game.camera.render(game.current_level.get_sprites())

    frame = rt.run(live, enter, RESET)
    rt.registry.adopt(game)
    return live, frame
