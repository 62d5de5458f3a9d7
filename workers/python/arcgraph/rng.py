"""The seeded player's random numbers, an exact port of src/player/rng.ts (sfc32 seeded by splitmix32
steps over (seed, stream)) and of drawAction (src/player/episodes.ts): episode i draws the same moves
in Python as in TypeScript."""
M32 = 0xFFFFFFFF
CELLS = 4096


def splitmix32(x):
    x = (x + 0x9E3779B9) & M32
    z = x
    z = ((z ^ (z >> 16)) * 0x85EBCA6B) & M32
    z = ((z ^ (z >> 13)) * 0xC2B2AE35) & M32
    return (z ^ (z >> 16)) & M32


class Rng:
    __slots__ = ('a', 'b', 'c', 'd')

    def __init__(self, seed, stream=0):
        x = splitmix32(seed & M32)
        x = splitmix32(x ^ ((seed // 2 ** 32) & M32))
        x = splitmix32(x ^ (stream & M32))
        x = splitmix32(x ^ ((stream // 2 ** 32) & M32))
        self.a = x
        self.b = splitmix32(x ^ 0x6A09E667)
        self.c = splitmix32(self.b ^ 0xBB67AE85)
        self.d = 1
        for _ in range(15):
            self.next()

    def next(self):
        a, b, c, d = self.a, self.b, self.c, self.d
        t = (a + b + d) & M32
        self.d = (d + 1) & M32
        self.a = b ^ (b >> 9)
        self.b = (c + (c << 3)) & M32
        c = ((c << 21) | (c >> 11)) & M32
        self.c = (c + t) & M32
        return t

    def below(self, n):
        limit = 2 ** 32 - (2 ** 32 % n)
        while True:
            r = self.next()
            if r < limit:
                return r % n


def draw_action(rng, choices, available):
    """One move: (id, x, y) with x = y = -1 for a key action; None for an unavailable action."""
    action = choices[rng.below(len(choices))]
    if action == 6:
        cell = rng.below(CELLS)
        return (6, cell % 64, cell // 64) if action in available else None
    return (action, -1, -1) if action in available else None
