"""Puzzle values: :class:`Puzzle`, :class:`Solution`, :class:`Stats`, and their dict forms.

A puzzle is a plain immutable value: it knows its cards, its solutions (each
with the addition facts a child exercises finding it) and the solver
statistics it was graded by. ``to_dict()`` gives the JSON shape of
``escoba puzzle --json`` (with ``facts[i]`` the facts of ``solutions[i]``);
``from_dict()`` reads it back exactly.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from escoba.cards import Card, mask_of
from escoba.rules import Rules
from escoba.variants import variant_for

__all__ = [
    "KINDS",
    "LEVELS",
    "CAPTURE_SUMS",
    "PuzzleError",
    "Solution",
    "RankedMove",
    "Stats",
    "Puzzle",
    "puzzle_id",
    "parse_id",
    "addition_facts",
    "capture_facts",
    "variant_capture_facts",
    "ONE_CARD_KINDS",
    "SCOPA_RULES",
]

#: Every puzzle kind, in the order of the issues (``scopa``, issue 28, last: ids and
#: worksheet codes of the others are unchanged).
KINDS: tuple[str, ...] = ("captures", "hand", "fifteens", "best-move", "quick-facts", "scopa")
#: Kinds that show one card to play and ask for every capture of it.
ONE_CARD_KINDS: tuple[str, ...] = ("captures", "scopa")
#: The rules a ``scopa`` puzzle's captures follow (the variant answers, see kinds.py).
SCOPA_RULES: Rules = Rules.preset("scopa")
LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
CAPTURE_SUMS: tuple[int, ...] = (10, 15, 20)


class PuzzleError(ValueError):
    """A bad kind, level, capture sum, seed, date or puzzle document; says what was expected."""


def check_kind_level_sum(kind: str, level: int, capture_sum: int) -> None:
    """Raise :class:`PuzzleError` unless the three are valid."""
    if kind not in KINDS:
        raise PuzzleError(f"unknown puzzle kind {kind!r} (choose one of {', '.join(KINDS)})")
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise PuzzleError(f"level must be 1-5, got {level!r}")
    if isinstance(capture_sum, bool) or capture_sum not in CAPTURE_SUMS:
        raise PuzzleError(f"capture sum must be 10, 15 or 20, got {capture_sum!r}")


def puzzle_id(kind: str, level: int, capture_sum: int, seed: str) -> str:
    """The stable id: ``"captures:3:15:9"``. It regenerates the puzzle (see :func:`parse_id`)."""
    return f"{kind}:{level}:{capture_sum}:{seed}"


def parse_id(puzzle_id_text: str) -> tuple[str, int, int, str]:
    """``"captures:3:15:9"`` -> ``("captures", 3, 15, "9")``."""
    parts = str(puzzle_id_text).split(":", 3)
    if len(parts) != 4 or not parts[1].isdigit() or not parts[2].isdigit() or not parts[3]:
        raise PuzzleError(f"not a puzzle id: {puzzle_id_text!r} (expected kind:level:sum:seed)")
    kind, level, capture_sum = parts[0], int(parts[1]), int(parts[2])
    check_kind_level_sum(kind, level, capture_sum)
    return kind, level, capture_sum, parts[3]


def addition_facts(addends: Iterable[int]) -> tuple[str, ...]:
    """The additions a child does adding ``addends`` one at a time: 3, 5, 7 -> 3+5, 8+7."""
    out = []
    values = list(addends)
    if not values:
        return ()
    total = values[0]
    for v in values[1:]:
        out.append(f"{total}+{v}")
        total += v
    return tuple(out)


def unique_facts(solutions: Iterable[Solution]) -> tuple[str, ...]:
    """The facts of several solutions, each once, in the order first met."""
    return tuple(dict.fromkeys(f for s in solutions for f in s.facts))


def capture_facts(take: Iterable[Card], card: Card | None, capture_sum: int) -> tuple[str, ...]:
    """Facts of one solution: the running additions, then the complement to the sum.

    Table cards are added smallest first and the played card last (3 + 5 = 8,
    then 8 + 7 = 15); the complement is what the table must give the played
    card (15 - 7), or for a group with no played card, what its other cards
    must give its largest (15 - 8).
    """
    values = sorted(c.value for c in take)
    if card is not None:
        values.append(card.value)
    if not values:
        return ()
    last = values[-1] if card is not None else max(values)
    return addition_facts(values) + (f"{capture_sum}-{last}",)


def variant_capture_facts(rules: Rules, card: Card, take: Iterable[Card]) -> tuple[str, ...]:
    """The facts of a capture under ``rules``, in the fact model's forms, the variant's
    own fact last: Escoba's running additions then ``15-7``; Scopa's ``"7=3+4"`` as its
    additions (``3+4``), and an equal card taken (``7=7``) or the ace taking the table
    by right (no fact) as none (no addition done).

    One conversion for game evidence (:mod:`trainer.evidence`) and Scopa puzzles.
    """
    taken = tuple(take)
    fact = variant_for(rules).fact(rules, card.index, mask_of(taken))
    if fact is None:
        return ()
    if "=" in fact:  # "value=a+b+...": the table cards that make the card's value
        return addition_facts(int(v) for v in fact.split("=", 1)[1].split("+"))
    return capture_facts(taken, card, rules.capture_sum)[:-1] + (fact,)


def _card(text: Any, where: str) -> Card:
    if isinstance(text, Card):
        return text
    try:
        return Card.parse(text)
    except ValueError as exc:
        raise PuzzleError(f"{where}: {exc}") from None


def _cards(items: Any, where: str) -> tuple[Card, ...]:
    if not isinstance(items, list | tuple):
        raise PuzzleError(f"{where} must be a list of cards")
    return tuple(_card(x, where) for x in items)


@dataclass(frozen=True, slots=True)
class Solution:
    """One expected answer.

    ``captures``/``hand``/``best-move``: play ``card``, take ``take``;
    ``fifteens``: a group ``take`` (no card); ``quick-facts``: the missing
    ``value``. ``facts`` are the additions it exercises (see :func:`capture_facts`).
    """

    take: tuple[Card, ...] = ()
    card: Card | None = None
    value: int | None = None
    facts: tuple[str, ...] = ()

    @property
    def values(self) -> tuple[int, ...]:
        """The numbers a child adds: the cards taken, then the card played."""
        return tuple(c.value for c in self.take) + ((self.card.value,) if self.card else ())

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.card is not None:
            out["card"] = str(self.card)
        if self.value is not None:
            out["value"] = self.value
        else:
            out["take"] = [str(c) for c in self.take]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], facts: Iterable[str] = ()) -> Solution:
        """Read :meth:`to_dict` back; ``facts`` come from the puzzle's parallel list."""
        if not isinstance(data, Mapping):
            raise PuzzleError("a solution must be an object")
        card = _card(data["card"], "solution card") if data.get("card") is not None else None
        value = data.get("value")
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise PuzzleError("a solution value must be a whole number")
        take = _cards(data.get("take", []), "solution take")
        return cls(take, card, value, tuple(str(f) for f in facts))


@dataclass(frozen=True, slots=True)
class RankedMove:
    """A best-move puzzle's move as the coach ranked it (message key and parameters)."""

    card: Card
    take: tuple[Card, ...]
    score: float
    reason: str
    params: Mapping[str, Any] = field(default_factory=dict)
    warnings: tuple[tuple[str, Mapping[str, Any]], ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"card": str(self.card), "take": [str(c) for c in self.take],
                "score": self.score, "reason": {"key": self.reason, "params": dict(self.params)},
                "warnings": [{"key": k, "params": dict(p)} for k, p in self.warnings]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RankedMove:
        reason = data.get("reason") or {}
        return cls(_card(data["card"], "ranked move"), _cards(data.get("take", []), "ranked move"),
                   float(data["score"]), str(reason.get("key", "")),
                   dict(reason.get("params", {})),
                   tuple((str(w["key"]), dict(w.get("params", {})))
                         for w in data.get("warnings", [])))


@dataclass(frozen=True, slots=True)
class Stats:
    """The solver statistics a puzzle is graded by (see puzzles/README.md)."""

    table_size: int = 0
    solutions: int = 0
    max_cards: int = 0        # most cards added in one solution (played card included)
    extra_cards: int = 0      # sum over solutions of (cards added - 2)
    largest_addend: int = 0   # largest card value used by a solution
    shared: int = 0           # table cards used by two or more solutions
    near_misses: int = 0      # sets totalling capture_sum - 1 or + 1
    choices: int = 0          # best-move: legal moves; quick-facts: addends shown
    captures: int = 0         # best-move: legal moves that capture
    crossings: int = 0        # quick-facts: running totals that pass a ten
    traps: int = 0            # scopa: sets making the card's value an equal card forbids
    difficulty: int = 0       # the graded score; its band is the level

    def to_dict(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Stats:
        return cls(**{k: int(v) for k, v in data.items() if k in cls.__dataclass_fields__})


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle, deterministic from ``(kind, level, capture_sum, seed)``.

    ``table`` and ``hand`` are the cards shown (``hand`` is empty for
    ``fifteens``; for ``quick-facts`` ``table`` shows the known ``addends``).
    ``solutions`` are every correct answer (for ``best-move``: every move the
    coach ranks best; ``ranking`` then holds all moves, best first). No
    solutions means the answer is "none".
    """

    kind: str
    level: int
    capture_sum: int
    seed: str
    table: tuple[Card, ...]
    hand: tuple[Card, ...] = ()
    solutions: tuple[Solution, ...] = ()
    stats: Stats = Stats()
    addends: tuple[int, ...] = ()
    ranking: tuple[RankedMove, ...] = ()

    @property
    def id(self) -> str:
        return puzzle_id(self.kind, self.level, self.capture_sum, self.seed)

    @property
    def facts(self) -> tuple[str, ...]:
        """Every fact exercised by the expected solutions, first occurrence order."""
        return unique_facts(self.solutions)

    def terms(self, card: Card | None, take: Iterable[Card]) -> tuple[tuple[int, ...], int]:
        """The sum a child writes for a set of this puzzle, and the number it should make:
        the cards taken, then the card played, to the capture sum ("3 + 5 + 7", 15); a
        Scopa set is its table cards alone, to the played card's value ("3 + 4", 7).
        Arithmetic only: whether the set is an answer is the checker's to say."""
        values = tuple(c.value for c in take)
        if self.kind == "scopa" and card is not None:
            return values, card.value
        return values + ((card.value,) if card is not None else ()), self.capture_sum

    def to_dict(self) -> dict[str, Any]:
        """The ``escoba puzzle --json`` document (JSON-ready)."""
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "level": self.level,
                               "capture_sum": self.capture_sum, "seed": self.seed,
                               "table": [str(c) for c in self.table]}
        if self.kind not in ("fifteens", "quick-facts"):
            out["hand"] = [str(c) for c in self.hand]
        if self.kind == "quick-facts":
            out["addends"] = list(self.addends)
        out["solutions"] = [s.to_dict() for s in self.solutions]
        # parallel to solutions, so each solution keeps exactly the CLI's shape
        out["facts"] = [list(s.facts) for s in self.solutions]
        if self.kind == "best-move":
            out["ranking"] = [m.to_dict() for m in self.ranking]
        out["stats"] = self.stats.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Puzzle:
        """Read :meth:`to_dict` back; raises :class:`PuzzleError` on a bad document."""
        if not isinstance(data, Mapping):
            raise PuzzleError("a puzzle must be an object")
        try:
            kind, level, capture_sum = data["kind"], data["level"], data["capture_sum"]
            check_kind_level_sum(kind, level, capture_sum)
            seed = str(data["seed"])
            puzzle = cls(
                kind=kind, level=level, capture_sum=capture_sum, seed=seed,
                table=_cards(data.get("table", []), "table"),
                hand=_cards(data.get("hand", []), "hand"),
                solutions=tuple(
                    Solution.from_dict(s, f) for s, f in itertools.zip_longest(
                        data.get("solutions", []), data.get("facts", [])[:len(
                            data.get("solutions", []))], fillvalue=())),
                stats=Stats.from_dict(data.get("stats", {})),
                addends=tuple(int(a) for a in data.get("addends", [])),
                ranking=tuple(RankedMove.from_dict(m) for m in data.get("ranking", [])),
            )
        except (KeyError, TypeError, AttributeError) as exc:
            raise PuzzleError(f"not a puzzle document ({type(exc).__name__}: {exc})") from None
        if "id" in data and data["id"] != puzzle.id:
            raise PuzzleError(f"puzzle id {data['id']!r} does not match its fields ({puzzle.id})")
        return puzzle
