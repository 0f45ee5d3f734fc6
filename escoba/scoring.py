"""Round scoring with a per-category breakdown and an explanation of each category.

Each category is decided between *sides* (seats, or two teams). A tie for
the top in a category scores for nobody (RULES.md). The breakdown always has
the six categories of :data:`~escoba.rules.CATEGORIES`, 0 where a category is
not part of the rules in force.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .cards import JOKER_MASK, OROS_MASK, SEVENS_MASK, SIETE_DE_OROS, SUIT_MASKS, Card
from .rules import Rules

__all__ = ["CategoryResult", "RoundScore", "score_round", "score_escoba_round",
           "score_scopa_round", "napola_points", "setenta_total", "setenta_cards",
           "SETENTA_VALUES"]

#: Setenta (primera) value of each capture value 1..10 (index 0 unused).
SETENTA_VALUES: tuple[int, ...] = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
_SIETE_INDEX = SIETE_DE_OROS.index


#: Every card of suit oros, as the sparse mask a suit's cards make once shifted down.
_SUIT_SPREAD = SUIT_MASKS[0]
#: _BEST_OF_SUIT[cards of one suit shifted down to oros]: their best setenta value
#: (0: no card). 1,024 entries, so a pile's total is four lookups.
_BEST_OF_SUIT: dict[int, int] = {
    sum(1 << 4 * (v - 1) for v in values): max((SETENTA_VALUES[v] for v in values), default=0)
    for values in (tuple(v for v in range(1, 11) if chosen >> (v - 1) & 1)
                   for chosen in range(1024))}


def setenta_total(pile: int) -> int | None:
    """Best card of each suit by setenta value, added; ``None`` if a suit is missing."""
    best = _BEST_OF_SUIT
    spread = _SUIT_SPREAD
    oros, copas = best[pile & spread], best[pile >> 1 & spread]
    espadas, bastos = best[pile >> 2 & spread], best[pile >> 3 & spread]
    if oros and copas and espadas and bastos:
        return oros + copas + espadas + bastos
    return None


def setenta_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The card of each suit that counts for the setenta: its best by setenta value (of
    figures worth the same, the highest), in suit order; a suit without a card has none."""
    best: dict[int, Card] = {}
    for card in cards:
        suit = card.suit
        if suit is None:  # a joker has no suit
            continue
        held = best.get(suit.value)
        if held is None or (SETENTA_VALUES[card.value], card.value) > (
                SETENTA_VALUES[held.value], held.value):
            best[suit.value] = card
    return tuple(best[s] for s in sorted(best))


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
        if len(self.categories[0].points) == 2:  # the usual table: no zip of six tuples
            first = second = 0
            for category in self.categories:
                a, b = category.points
                first += a
                second += b
            return (first, second)
        return tuple(map(sum, zip(*[c.points for c in self.categories], strict=True)))

    def category(self, name: str) -> CategoryResult:
        return next(c for c in self.categories if c.category == name)


_new_result = tuple.__new__  # CategoryResult without its Python-level __new__


def _most(category: str, counts: tuple[int | None, ...], points_for_win: int = 1,
          reason: str = "most") -> CategoryResult:
    sides = len(counts)
    if sides == 2:  # the usual table, decided without building lists
        a, b = counts
        if a is not None and b is not None:
            if a > b:
                return _new_result(CategoryResult, (category, counts, (points_for_win, 0), 0,
                                                    reason))
            if b > a:
                return _new_result(CategoryResult, (category, counts, (0, points_for_win), 1,
                                                    reason))
            return _new_result(CategoryResult, (category, counts, (0, 0), None, "tie"))
    if None in counts:
        valid = [c for c in counts if c is not None]
        if not valid:
            return _new_result(CategoryResult, (category, counts, (0,) * sides, None, "nobody"))
        best = max(valid)
    else:
        best = max(counts)  # type: ignore[type-var,assignment]
    if counts.count(best) > 1:
        return _new_result(CategoryResult, (category, counts, (0,) * sides, None, "tie"))
    leader = counts.index(best)
    points = [0] * sides
    points[leader] = points_for_win
    return _new_result(CategoryResult, (category, counts, tuple(points), leader, reason))


#: Categories a rule set does not score, one shared (immutable) result per category
#: and number of sides.
_NOT_PLAYED: dict[tuple[str, int], CategoryResult] = {
    (category, sides): _new_result(CategoryResult, (category, (None,) * sides, (0,) * sides,
                                                    None, "not_played"))
    for category in ("setenta",) for sides in range(1, 9)}
#: _HOLDER_POINTS[sides][holder]: the siete de oros' points (holder ``sides``: nobody).
_HOLDER_POINTS = {sides: tuple(tuple(1 if i == holder else 0 for i in range(sides))
                               for holder in range(sides + 1)) for sides in range(1, 9)}


def score_round(rules: Rules, piles: Sequence[int], escobas: Sequence[int]) -> RoundScore:
    """Score a finished round from each *seat's* pile mask and escoba (sweep) count,
    by the categories of the rules' variant (:mod:`escoba.variants`)."""
    # The variants (escoba.variants) call these scorers; this module cannot import them.
    if rules.variant == "scopa":
        return score_scopa_round(rules, piles, escobas)
    return score_escoba_round(rules, piles, escobas)


def _sides(rules: Rules, piles: Sequence[int],
           escobas: Sequence[int]) -> tuple[int, Sequence[int], Sequence[int]]:
    """Seats pooled into sides (teams share their piles): count, piles, sweeps."""
    if rules.teams:
        sides = 2
        team_piles = [0] * sides
        team_escobas = [0] * sides
        for seat, pile in enumerate(piles):
            team_piles[rules.side_of(seat)] |= pile
            team_escobas[rules.side_of(seat)] += escobas[seat]
        return sides, team_piles, team_escobas
    return rules.players, piles, escobas


def score_escoba_round(rules: Rules, piles: Sequence[int],
                       escobas: Sequence[int]) -> RoundScore:
    """Escoba's scoring: the six categories of :data:`~escoba.rules.CATEGORIES`.

    Seats are pooled into sides here (teams share their piles).
    """
    side_piles: Sequence[int]
    side_escobas: Sequence[int]
    sides, side_piles, side_escobas = _sides(rules, piles, escobas)
    if sides == 2:  # the usual table: each count written out
        a, b = side_piles
        cards: tuple[int, ...] = (a.bit_count(), b.bit_count())
        oros: tuple[int, ...] = ((a & OROS_MASK).bit_count(), (b & OROS_MASK).bit_count())
        siete: tuple[int, ...] = (a >> _SIETE_INDEX & 1, b >> _SIETE_INDEX & 1)
        sevens: tuple[int, ...] = ((a & SEVENS_MASK).bit_count(), (b & SEVENS_MASK).bit_count())
    else:
        cards = tuple([p.bit_count() for p in side_piles])
        oros = tuple([(p & OROS_MASK).bit_count() for p in side_piles])
        siete = tuple([p >> _SIETE_INDEX & 1 for p in side_piles])
        sevens = tuple([(p & SEVENS_MASK).bit_count() for p in side_piles])
    cards_result = _most("cards", cards)

    oros_result = _most("oros", oros)
    if oros_result.winner is not None and oros[oros_result.winner] == 10 \
            and rules.all_oros_points == 2:
        oros_result = _most("oros", oros, 2, "all_ten")

    holder = siete.index(1) if 1 in siete else None
    siete_result = _new_result(CategoryResult, (
        "siete_de_oros", siete, _HOLDER_POINTS[sides][sides if holder is None else holder],
        holder, "nobody" if holder is None else "holder"))

    most_sevens, all_sevens = rules.scores_most_sevens, rules.scores_all_sevens_bonus
    if all_sevens and 4 in sevens:
        all_four = sevens.index(4)
        points = [0] * sides
        points[all_four] = 2 if most_sevens else 1
        sevens_result = _new_result(CategoryResult, ("sevens", sevens, tuple(points), all_four,
                                                     "all_four"))
    elif most_sevens:
        sevens_result = _most("sevens", sevens)
    elif all_sevens:
        sevens_result = _new_result(CategoryResult, ("sevens", sevens, (0,) * sides, None,
                                                     "nobody"))
    else:
        sevens_result = _new_result(CategoryResult, ("sevens", sevens, (0,) * sides, None,
                                                     "not_played"))

    if rules.scores_setenta:
        setenta_result = _most("setenta", tuple([setenta_total(p & ~JOKER_MASK)
                                                 for p in side_piles]))
    else:
        setenta_result = _NOT_PLAYED["setenta", sides]

    escoba_counts = tuple(side_escobas)
    return RoundScore((cards_result, oros_result, siete_result, sevens_result, setenta_result,
                       _new_result(CategoryResult, ("escobas", escoba_counts, escoba_counts,
                                                    None, "count"))))  # CATEGORIES order


#: The coins (denari = oros) in value order 1..10.
_COINS = tuple(i for i in range(40) if OROS_MASK >> i & 1)


def napola_points(pile: int) -> int:
    """Asso, 2 and 3 of coins: 3 points, and 1 more for each next coin in sequence."""
    run = 0
    for index in _COINS:
        if not pile >> index & 1:
            break
        run += 1
    return run if run >= 3 else 0


def score_scopa_round(rules: Rules, piles: Sequence[int], scope: Sequence[int]) -> RoundScore:
    """Scopa's scoring: carte, denari, settebello, primiera (a tie or a missing suit
    scores nobody), each scopa, and napola when that option is on. The categories
    keep Escoba's keys (cards, oros, siete_de_oros, setenta, escobas; sevens is not
    played) so every breakdown reader works; the variant's ``category_labels`` name
    them in Italian."""
    sides, side_piles, side_scope = _sides(rules, piles, scope)
    cards = tuple([p.bit_count() for p in side_piles])
    coins = tuple([(p & OROS_MASK).bit_count() for p in side_piles])
    settebello = tuple([p >> _SIETE_INDEX & 1 for p in side_piles])
    holder = settebello.index(1) if 1 in settebello else None
    categories = [
        _most("cards", cards), _most("oros", coins),
        _new_result(CategoryResult, (
            "siete_de_oros", settebello, _HOLDER_POINTS[sides][sides if holder is None
                                                               else holder],
            holder, "nobody" if holder is None else "holder")),
        _new_result(CategoryResult, ("sevens", (None,) * sides, (0,) * sides, None,
                                     "not_played")),
        _most("setenta", tuple([setenta_total(p) for p in side_piles])),
        _new_result(CategoryResult, ("escobas", tuple(side_scope), tuple(side_scope), None,
                                     "count")),
    ]
    if rules.napola:
        napola = tuple([napola_points(p) for p in side_piles])
        categories.append(_new_result(CategoryResult, ("napola", napola, napola, None,
                                                       "count")))
    return RoundScore(tuple(categories))
