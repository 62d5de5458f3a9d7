"""Sessions: a live game played with the engine's own perform_action (RESET rules, level progression),
for replay, play and reproductions. A session begun at a later level returns to that level's start on a
full reset (as `arcgraph play --level` does), with the earlier levels counted as completed."""
from .levels import level_start
from .runtime import RESET


class Session:
    def __init__(self, rt, level, path):
        self.rt = rt
        self.level = level
        live, frame, how, note = level_start(rt, level, path)
        self.start = rt.pack(live)
        self.start_frame = frame
        self.start_score = live[0]._score
        self.level_start = how
        self.note = note
        self.live = rt.restore(self.start)
        self.started = False
        self.frame = frame

    def act(self, code):
        """(reply, frames): the FrameData of one action (RESET included)."""
        rt = self.rt
        game = self.live[0]
        full = False
        if code == RESET and self.level > 1 and (not self.started or game._action_count == 0 or game._state == rt.GameState.WIN):
            # A full reset of a session begun at a later level: back to that level's start.
            self.live = rt.restore(self.start)
            frames = [self.start_frame]
            state = 'NOT_FINISHED'
            full = True
            game = self.live[0]
        else:
            fd = rt.step(self.live, code)
            frames = list(fd.frame)
            state = fd.state.name
            full = bool(fd.full_reset) or (code == RESET and not self.started)
        self.started = True
        if frames:
            self.frame = settled_of(frames)
        reply = {
            'state': state,
            'levelsCompleted': game._score,
            'winLevels': game._win_score,
            'fullReset': full,
            'level': game._current_level_index + 1,
            'layers': len(frames),
            # What the engine's FrameData echoes: the game's list now (a game may change it).
            'availableActions': [int(a) for a in game._available_actions],
        }
        return reply, b''.join(f.astype('uint8').tobytes() for f in frames)

    def snapshot(self):
        """The live state as a snapshot and its identity (its last frame's)."""
        digest = self.rt.digest(self.live, self.frame)  # before the pack (host.op_level)
        return self.rt.pack(self.live), digest


def settled_of(frames):
    return frames[-1]
