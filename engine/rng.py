"""Seeded randomness that lives inside a game's state.

A game stores the generator's single integer (`Rng.state`) in its own state, so
`dump`/`load` keep it and replaying the action log from the seed rebuilds the
game exactly. SplitMix64: tiny, fast in pure Python, well distributed.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & _MASK

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Spread a small seed over 64 bits so seeds 1, 2, 3 give unrelated streams."""
        rng = cls(seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019)
        rng.next64()
        return rng

    def next64(self) -> int:
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) (n ≤ 2**32; bias < 2**-32, fine for games). `next64`
        inlined: every random pick of a playout comes through here."""
        if n <= 0:
            raise ValueError("n must be positive")
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return (((z ^ (z >> 31)) >> 32) * n) >> 32

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in [lo, hi], like `random.randint`."""
        return lo + self.below(hi - lo + 1)

    def die(self, sides: int = 6) -> int:
        return 1 + self.below(sides)

    def shuffle(self, items: list[T]) -> None:
        """Fisher–Yates in place, drawing `j = below(i + 1)` for i from the top down. `below`
        is inlined and the state kept in a local (written back once): every deck of every game
        is shuffled here, and the results are the very same as through `below`."""
        z0 = self.state
        for i in range(len(items) - 1, 0, -1):
            z0 = (z0 + 0x9E3779B97F4A7C15) & _MASK
            z = ((z0 ^ (z0 >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = (((z ^ (z >> 31)) >> 32) * (i + 1)) >> 32
            items[i], items[j] = items[j], items[i]
        self.state = z0

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]
