"""A tiny seeded random generator that never changes between Python releases.

Daily puzzles must be the same for everyone on a date and stay the same in
every release of this project (a golden test pins them). :mod:`random` keeps
its seeding stable, but its derived methods (``sample``, ``shuffle``,
``choice``) are not promised to stay the same across Python versions, so the
puzzles use this SplitMix64 generator, seeded by SHA-256 of a text key, with
its own ``below``/``sample``/``shuffle`` written out here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

__all__ = ["Rng"]

T = TypeVar("T")
_MASK = (1 << 64) - 1


class Rng:
    """SplitMix64 seeded from ``"|".join(parts)``: same parts, same numbers, forever."""

    __slots__ = ("_state",)

    def __init__(self, *parts: object) -> None:
        key = "|".join(str(p) for p in parts).encode("utf-8")
        self._state = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")

    def next64(self) -> int:
        """The next 64-bit unsigned integer."""
        self._state = z = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]``."""
        return low + self.below(high - low + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.below(len(seq))]

    def chance(self, numerator: int, denominator: int) -> bool:
        """True with probability ``numerator / denominator``."""
        return self.below(denominator) < numerator

    def sample(self, seq: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items of ``seq`` in random order (partial Fisher-Yates)."""
        pool = list(seq)
        if not 0 <= k <= len(pool):
            raise ValueError("sample larger than the population")
        for i in range(k):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle ``items`` in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
