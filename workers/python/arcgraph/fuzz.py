"""The fuzz kernel: seeded random walks from a level's start (the walks of src/qualify/regimes/fuzz-walks.ts,
drawn alike), every step checked: exceptions (with the traceback's last frame), slow steps and hangs,
invalid frames, malformed FrameData, nondeterminism (a restored snapshot stepped again), identity
stability (a restored snapshot has the same identity), and samples shipped back to be stepped again in
another process."""
from .rng import Rng, draw_action
from .runtime import LISTS_RESET, PLAYING, WON, GameError, offered_of, settled
from .walks import Timing, code_of

STATES = ('NOT_FINISHED', 'WIN', 'GAME_OVER')


def frame_problem(frames):
    """Why the action's frames are not one or more 64x64 layers of colours 0..15, or None."""
    if len(frames) == 0:
        return 'the action returned no frame'
    for k, layer in enumerate(frames):
        shape = getattr(layer, 'shape', None)
        if shape != (64, 64):
            return f'layer {k} has shape {shape}, not 64x64'
        lo, hi = int(layer.min()), int(layer.max())
        if lo < 0 or hi > 15:
            bad = lo if lo < 0 else hi
            ys, xs = (layer == bad).nonzero()
            return f'layer {k} cell ({int(xs[0])}, {int(ys[0])}) has colour {bad}, outside 0..15'
    return None


def transition_problem(rt, fd, game, before_score):
    """Why the FrameData of a (non-RESET) action is malformed, or None."""
    state = getattr(fd.state, 'name', str(fd.state))
    if state not in STATES:
        return f'state {state} after an action (expected NOT_FINISHED, WIN or GAME_OVER)'
    if fd.levels_completed != game._score:
        return f'levels_completed {fd.levels_completed} but the game counts {game._score}'
    if not 0 <= fd.levels_completed <= 254:
        return f'levels_completed {fd.levels_completed} outside 0..254'
    if fd.levels_completed < before_score or fd.levels_completed > before_score + 1:
        return f'levels_completed went from {before_score} to {fd.levels_completed} in one action'
    if fd.win_levels != rt.info['winScore']:
        return f'win_levels {fd.win_levels}, not {rt.info["winScore"]}'
    if offered_of(fd.available_actions) != rt.offered:
        return f'available_actions {list(fd.available_actions)}, not {rt.offered}'
    if fd.full_reset:
        return 'full_reset set after an action that was not RESET'
    return None


def run_fuzz(rt, start, start_frame, level, seed, first_stream, steps, max_walk_steps, step_limit_ms, restep_every, cross_every):
    """Plays the task's walks; deterministic in the task alone. Returns the result header and the
    cross samples (pre snapshot, action, successor identity)."""
    timing = Timing()
    found = set()
    faults = []
    samples = []
    reset_faults = []
    result = {'steps': 0, 'walks': 0, 'wins': 0, 'faults': faults, 'resetFaults': reset_faults}

    def note(check, message, walk, n, code, **extra):
        if check in found:
            return
        found.add(check)
        faults.append({'check': check, 'message': message, 'walk': walk, 'step': n, 'action': code, **extra})

    bad = frame_problem([start_frame])
    if bad:
        reset_faults.append({'check': 'invalid-frame', 'message': f'invalid frame of the level start: {bad}'})
    if rt.lists_reset:
        # Malformed FrameData from the start on, named once as what it is; the walks draw the other actions.
        reset_faults.append({'check': 'malformed-transition', 'message': LISTS_RESET})
    actions = rt.offered
    available = set(actions)
    used = 0
    walk = 0
    while used < steps:
        rng = Rng(seed, first_stream + walk)
        live = rt.restore(start)
        result['walks'] += 1
        score = live[0]._score
        for n in range(max_walk_steps):
            if used >= steps:
                break
            rt.progress.item, rt.progress.sub = walk, n
            code = code_of(draw_action(rng, actions, available))
            probe = used % restep_every == 0
            cross = used % cross_every == 0
            pre = rt.pack(live) if probe or cross else None
            used += 1
            try:
                fd = timing.step(rt, live, code, (walk, n))
            except GameError as err:
                if err.kind == 'timeout':
                    # A hang: the task stops here (the coordinator skips the level's random regimes).
                    result['hung'] = {'walk': walk, 'step': n, 'action': code}
                    # A restored copy may hang where the game does not (the shared lf52's undo)
                    cause = rt.lost_ids(live[0]) or rt.held_ids
                    if cause:
                        result['hung']['cause'] = cause
                    result['steps'] = used
                    result['timing'] = timing.report()
                    return result, samples
                elif err.kind == 'memory':
                    # as the TypeScript fuzz names a step that runs its thread out of memory
                    note('out-of-memory', f'step ran out of memory: {err.describe()}', walk, n, code)
                else:
                    note('exception', f'step threw: {err.describe()}', walk, n, code)
                break
            game = live[0]
            if timing.last * 1000 > step_limit_ms:
                note('slow-step', f'a step took {timing.last * 1000:.0f} ms (limit {step_limit_ms:g} ms)', walk, n, code)
            problem = frame_problem(fd.frame)
            if problem:
                note('invalid-frame', f'invalid frame: {problem}', walk, n, code)
            problem = transition_problem(rt, fd, game, score)
            if problem:
                note('malformed-transition', problem, walk, n, code)
            score = fd.levels_completed
            if pre is not None and not problem and fd.frame:
                frame = settled(fd)
                digest = rt.digest(live, frame)
                if probe:
                    check_restep(rt, pre, code, digest, frame, live, note, walk, n)
                if cross:
                    samples.append((walk, n, code, pre, digest))
            status = rt.status(game, fd, level)
            if status != PLAYING:
                if status == WON:
                    result['wins'] += 1
                break
        walk += 1
    result['steps'] = used
    result['timing'] = timing.report()
    return result, samples


def check_restep(rt, pre, code, digest, frame, live, note, walk, n):
    """The same snapshot and action again must give the same successor; a restored successor must keep its identity."""
    try:
        again = rt.restore(pre)
        fd = rt.step(again, code)
        if not fd.frame or rt.digest(again, settled(fd)) != digest:
            cause = rt.lost_ids(live[0]) or rt.held_ids
            note('nondeterminism', f'stepping the same state with the same action again gave another successor{f": {cause}" if cause else ""}', walk, n, code)
            return
        copy = rt.restore(rt.pack(live))
        if rt.digest(copy, frame) != digest:
            note('non-canonical-identity', 'a snapshot of the state, restored, has another identity: the identity walk sees something pickling changes', walk, n, code)
    except GameError as err:
        note('nondeterminism', f'stepping the same state with the same action again threw: {err.describe()}', walk, n, code)
