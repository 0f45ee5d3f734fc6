"""Round scoring with a per-category breakdown and an explanation of each category.

Each category is decided between *sides* (seats, or two teams). A tie for
the top in a category scores for nobody (RULES.md). The breakdown always has
the six categories of :data:`~escoba.rules.CATEGORIES`, 0 where a category is
not part of the rules in force.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import JOKER_MASK, OROS_MASK, SEVENS_MASK, SIETE_DE_OROS, SUIT_MASKS, VALUE
from .rules import Rules

__all__ = ["CategoryResult", "RoundScore", "score_round", "setenta_total", "SETENTA_VALUES"]

#: Setenta (primera) value of each capture value 1..10 (index 0 unused).
SETENTA_VALUES: tuple[int, ...] = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)


def setenta_total(pile: int) -> int | None:
    """Best card of each suit by setenta value, added; ``None`` if a suit is missing."""
    total = 0
    for suit_mask in SUIT_MASKS:
        cards = pile & suit_mask
        if not cards:
            return None
        best = 0
        while cards:
            low = cards & -cards
            best = max(best, SETENTA_VALUES[VALUE[low.bit_length() - 1]])
            cards ^= low
        total += best
    return total


class CategoryResult(NamedTuple):
    """How one category was decided.

    ``counts`` are what was compared, one per side (cards, oros, holds the
    siete de oros 0/1, sevens, setenta total or ``None`` when a suit is
    missing, escobas). ``reason`` is a message key: ``most``, ``tie``,
    ``all_ten`` (all ten oros), ``all_four`` (all four sevens), ``holder``,
    ``nobody`` (no side holds it), ``count`` (escobas), ``not_played``.
    """

    category: str
    counts: tuple[int | None, ...]
    points: tuple[int, ...]
    winner: int | None
    reason: str

    def explain(self, side_names: Sequence[str] | None = None) -> str:
        """One English sentence: "Cards: side 0 wins, 22 against 18."."""
        names = list(side_names) if side_names else [f"side {i}" for i in range(len(self.counts))]
        label = self.category.replace("_", " ").capitalize()
        shown = ", ".join("—" if c is None else str(c) for c in self.counts)
        if self.reason == "not_played":
            return f"{label}: not scored under these rules."
        if self.reason == "count":
            return f"{label}: " + ", ".join(
                f"{names[i]} {p}" for i, p in enumerate(self.points)) + "."
        if self.winner is None:
            if self.reason == "tie":
                return f"{label}: tie ({shown}), nobody scores."
            return f"{label}: nobody holds it ({shown})."
        extra = {"all_ten": " (all ten: 2 points)", "all_four": " (all four: 2 points)"}
        return (f"{label}: {names[self.winner]} wins{extra.get(self.reason, '')}"
                f" ({shown}).")


@dataclass(frozen=True, slots=True)
class RoundScore:
    """Points of one round per side, with the breakdown and its explanations."""

    categories: tuple[CategoryResult, ...]

    @property
    def sides(self) -> int:
        return len(self.categories[0].points)

    @property
    def breakdown(self) -> tuple[Mapping[str, int], ...]:
        """One ``{category: points}`` mapping per side, all six categories."""
        return tuple(
            {c.category: c.points[side] for c in self.categories} for side in range(self.sides)
        )

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(c.points[side] for c in self.categories) for side in range(self.sides))

    def category(self, name: str) -> CategoryResult:
        return next(c for c in self.categories if c.category == name)


def _most(category: str, counts: Sequence[int | None], points_for_win: int = 1,
          reason: str = "most") -> CategoryResult:
    valid = [c for c in counts if c is not None]
    sides = len(counts)
    if not valid:
        return CategoryResult(category, tuple(counts), (0,) * sides, None, "nobody")
    best = max(valid)
    leaders = [i for i, c in enumerate(counts) if c == best]
    if len(leaders) > 1:
        return CategoryResult(category, tuple(counts), (0,) * sides, None, "tie")
    points = [0] * sides
    points[leaders[0]] = points_for_win
    return CategoryResult(category, tuple(counts), tuple(points), leaders[0], reason)


def score_round(rules: Rules, piles: Sequence[int], escobas: Sequence[int]) -> RoundScore:
    """Score a finished round from each *seat's* pile mask and escoba count.

    Seats are pooled into sides here (teams share their piles).
    """
    sides = rules.sides
    side_piles = [0] * sides
    side_escobas = [0] * sides
    for seat, pile in enumerate(piles):
        side_piles[rules.side_of(seat)] |= pile
        side_escobas[rules.side_of(seat)] += escobas[seat]
    zero = (0,) * sides
    results: list[CategoryResult] = []

    results.append(_most("cards", [p.bit_count() for p in side_piles]))

    oros = [(p & OROS_MASK).bit_count() for p in side_piles]
    oros_result = _most("oros", oros)
    if oros_result.winner is not None and oros[oros_result.winner] == 10 \
            and rules.all_oros_points == 2:
        oros_result = _most("oros", oros, 2, "all_ten")
    results.append(oros_result)

    siete = [1 if p >> SIETE_DE_OROS.index & 1 else 0 for p in side_piles]
    holder = siete.index(1) if 1 in siete else None
    results.append(CategoryResult(
        "siete_de_oros", tuple(siete),
        tuple(1 if i == holder else 0 for i in range(sides)), holder,
        "holder" if holder is not None else "nobody"))

    sevens = [(p & SEVENS_MASK).bit_count() for p in side_piles]
    if rules.scores_most_sevens or rules.scores_all_sevens_bonus:
        full = [i for i, n in enumerate(sevens) if n == 4]
        most = _most("sevens", sevens) if rules.scores_most_sevens else None
        if full and rules.scores_all_sevens_bonus:
            points = [0] * sides
            points[full[0]] = 2 if rules.scores_most_sevens else 1
            results.append(CategoryResult("sevens", tuple(sevens), tuple(points), full[0],
                                          "all_four"))
        elif most is not None:
            results.append(most)
        else:
            results.append(CategoryResult("sevens", tuple(sevens), zero, None, "nobody"))
    else:
        results.append(CategoryResult("sevens", tuple(sevens), zero, None, "not_played"))

    if rules.scores_setenta:
        results.append(_most("setenta", [setenta_total(p & ~JOKER_MASK) for p in side_piles]))
    else:
        results.append(CategoryResult("setenta", (None,) * sides, zero, None, "not_played"))

    results.append(CategoryResult("escobas", tuple(side_escobas), tuple(side_escobas), None,
                                  "count"))
    return RoundScore(tuple(results))  # in CATEGORIES order (a test checks)
