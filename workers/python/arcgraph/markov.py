"""Frame collisions under `--identity frame`: successors that show a frame an earlier one showed while
their full states differ (hidden state merged away), and, for a bounded number of them, whether the
two behave differently (a move from each leads to different frames): Blind Squirrel's "Markov
violations". Counted per process (the Node side sums them): a diagnostic, not a graph number."""
from hashlib import blake2b

from .runtime import CLICK_BASE, GameError, settled

MAX_FRAMES = 20_000
MAX_CHECKS = 200


class Collisions:
    def __init__(self, rt):
        self.rt = rt
        self.first = {}  # frame digest -> (state digest, snapshot)
        self.pairs = set()
        self.collisions = 0
        self.checked = 0
        self.violations = 0
        self.example = None

    def state_digest(self, live, frame):
        h = blake2b(self.rt.digest(live, frame), digest_size=16)
        h.update(self.rt.identity.walk_bytes(live[0]))
        return h.digest()

    def see(self, frame_digest, live, frame):
        """A successor: notes a collision with the first state of its frame, and checks its behaviour."""
        state = self.state_digest(live, frame)
        known = self.first.get(frame_digest)
        if known is None:
            if len(self.first) < MAX_FRAMES:
                self.first[frame_digest] = (state, self.rt.pack(live))
            return
        if known[0] == state or (frame_digest, state) in self.pairs:
            return
        self.pairs.add((frame_digest, state))
        self.collisions += 1
        if self.checked < MAX_CHECKS:
            self.checked += 1
            code = self.differs(known[1], self.rt.pack(live))
            if code is not None:
                self.violations += 1
                self.example = self.example if self.example is not None else code

    def differs(self, a, b):
        """The first key action (or click on a cell) after which the two states show different frames, or None."""
        rt = self.rt
        moves = [m for m in rt.actions if m != 6]
        if 6 in rt.actions:
            moves += [CLICK_BASE + c for c in range(0, 4096, 257)]
        for code in moves:
            frames = []
            for snap in (a, b):
                live = rt.restore(snap)
                try:
                    frames.append(bytes(settled(rt.step(live, code)).astype('int8').tobytes()))
                except GameError:
                    frames.append(None)
            if frames[0] != frames[1]:
                return code
        return None

    def report(self):
        return {'collisions': self.collisions, 'checked': self.checked, 'violations': self.violations, 'example': self.example}
