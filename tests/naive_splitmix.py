"""SplitMix64 in plain Python integers: the readable reference every naive kernel replays.

The stream is pinned by the known answers of the reference implementation
(Vigna's ``splitmix64.c`` seeded with 1234567), checked in
``tests/test_splitmix.py`` against this class and against the kernels of
``ktsolve._splitmix``.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1

#: The first five outputs of SplitMix64 from state 1234567.
KNOWN_1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]


class SplitMix64:
    """The generator with its state in one Python int; the same draws as ``ktsolve._splitmix``."""

    def __init__(self, state: int):
        self.state = int(state) & MASK64

    def step(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def uniform(self) -> float:
        return (self.step() >> 11) * (1.0 / 9007199254740992.0)

    def below(self, m: int) -> int:
        return ((self.step() >> 32) * m) >> 32
