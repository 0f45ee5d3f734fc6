"""The engine's bounded caches: two generations that forget gradually (issue 32).

A process serving children for a school year must not grow with it, and a cache
that empties all at once when it is full makes every move after that a miss (a
latency cliff). :class:`Generations` keeps at most ``limit`` entries in two
generations of ``limit // 2``: new entries go to the *young* one; when it is full
it becomes the *old* one and the old one is dropped; a lookup that finds an entry
in the old one moves it back to the young one. So what was used in the last
generation survives every turnover, and what was not is forgotten half a cache
at a time.

The cache *is* its young generation, a ``dict``, so that a hit on the engine's hot
paths stays one ``dict.get`` (``cache.get(key)``, as before the caches were
bounded); a miss asks :meth:`Generations.promote`, then :meth:`Generations.put`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TypeVar

__all__ = ["Generations"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Generations(dict[K, V]):
    """A cache of at most ``limit`` entries: this dict (the young generation) and
    :attr:`old`. ``len()``, ``in`` and ``get`` see the young generation only;
    :meth:`lookup` and :meth:`entries` see both. ``None`` is not a value it holds.

    ``retire``, if given, is called with the cache just before its young generation
    becomes the old one (and :attr:`old` is dropped): where values are kept elsewhere
    too (the solver's rows link one another and hold cells), the hook cuts those
    references, so that what the cache drops is freed.
    """

    # No instance __dict__: a hit's ``cache.get`` is then looked up as fast as a dict's.
    __slots__ = ("old", "generation", "retire", "turnovers")

    def __init__(self, limit: int,
                 retire: Callable[[Generations[K, V]], None] | None = None) -> None:
        super().__init__()
        self.old: dict[K, V] = {}
        self.retire = retire
        self.generation = 1
        self.turnovers = 0  # how many times the young generation became the old one
        self.resize(limit)

    def resize(self, limit: int) -> None:
        """Keep at most ``limit`` entries from now on (tests and benchmarks make it small);
        entries over the new bound go, the first put first."""
        if limit < 2:
            raise ValueError(f"a cache of two generations holds at least 2 entries, not {limit}")
        self.generation = limit // 2
        for generation in (self, self.old):
            for key in list(generation)[:max(len(generation) - self.generation, 0)]:
                del generation[key]

    @property
    def limit(self) -> int:
        return 2 * self.generation

    def entries(self) -> int:
        """How many entries both generations hold."""
        return len(self) + len(self.old)

    def lookup(self, key: K) -> V | None:
        """The value of ``key`` in either generation (made young), or None."""
        value = self.get(key)
        if value is None:
            value = self.promote(key)
        return value

    def promote(self, key: K) -> V | None:
        """After a miss in the young generation: the old one's value of ``key``, now young."""
        value = self.old.pop(key, None)
        if value is not None:
            self.put(key, value)
        return value

    def put(self, key: K, value: V) -> None:
        """Keep ``value`` for ``key`` (absent from the young generation), turning the
        generations over first if the young one is full."""
        if len(self) >= self.generation:
            self.turn_over()
        self[key] = value

    def turn_over(self) -> None:
        """The young generation becomes the old one; the old one is dropped."""
        if self.retire is not None:
            self.retire(self)
        self.old = dict(self)
        dict.clear(self)
        self.turnovers += 1

    def clear(self) -> None:
        """Forget both generations."""
        dict.clear(self)
        self.old = {}
