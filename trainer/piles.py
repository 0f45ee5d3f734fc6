"""Each side's won cards, grouped as the score table counts them (issue 26).

Anyone can recount a round: the cards a side took, its oros, its sevens (or, under
setenta / primera, its best card of each suit with the setenta values added), whether
it holds the siete de oros, and its escobas. Which groups there are follows the rules
in force (:class:`escoba.Rules`), as the score table's rows do. Pure data for the
views; the engine (:mod:`escoba.scoring`) stays the judge of the points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from escoba import Card, Rules
from escoba.cards import JOKER_MASK, OROS_MASK, SEVENS_MASK, SIETE_BIT, cards_of
from escoba.scoring import setenta_cards, setenta_total
from escoba.variants import variant_for

__all__ = ["PileGroup", "SidePile", "side_piles", "sevens_row_key"]


@dataclass(frozen=True)
class PileGroup:
    """One group of a side's pile: a catalog key (``pile_<key>``), its cards, its count
    (a setenta total for ``setenta``; ``None``: a suit is missing)."""

    key: str
    cards: tuple[Card, ...]
    count: int | None


@dataclass(frozen=True)
class SidePile:
    """What one side won in the round so far, grouped for recounting."""

    side: int
    cards: tuple[Card, ...]
    escobas: int
    groups: tuple[PileGroup, ...]


def _suit_order(card: Card) -> tuple[int, int]:
    return (card.index % 4 if card.index < 40 else 4, card.value)


def sevens_row_key(rules: Rules) -> str | None:
    """The score table's sevens row under these rules: ``cat_sevens`` ("Most sevens"),
    ``cat_all_sevens`` (only all four score: primera in a classic game), or None."""
    if rules.scores_most_sevens:
        return "cat_sevens"
    return "cat_all_sevens" if rules.scores_all_sevens_bonus else None


def side_piles(rules: Rules, piles: Sequence[int], escobas: Sequence[int]) -> list[SidePile]:
    """Every side's pile (teams pooled, as the score counts them), grouped."""
    pooled = [0] * rules.sides
    sweeps = [0] * rules.sides
    for seat, pile in enumerate(piles):
        pooled[rules.side_of(seat)] |= pile
        sweeps[rules.side_of(seat)] += escobas[seat]
    # Each suit's best card is shown when the rules score it: Escoba's setenta when it
    # is played, Scopa's primiera always (the variant's own scoring says which).
    best_of_each_suit = any(
        c.category == "setenta" and c.reason != "not_played"
        for c in variant_for(rules).score(rules, list(piles), list(escobas)).categories)
    out = []
    for side, pile in enumerate(pooled):
        every = tuple(sorted(cards_of(pile), key=_suit_order))
        groups = [PileGroup("cards", every, len(every)),
                  PileGroup("oros", tuple(cards_of(pile & OROS_MASK)),
                            (pile & OROS_MASK).bit_count())]
        if sevens_row_key(rules) is not None:
            groups.append(PileGroup("sevens", tuple(sorted(cards_of(pile & SEVENS_MASK),
                                                           key=_suit_order)),
                                    (pile & SEVENS_MASK).bit_count()))
        if best_of_each_suit:
            # The engine's own reading: each suit's best card, and their total (Escoba's
            # setenta and Scopa's primiera count the same values).
            groups.append(PileGroup("setenta", setenta_cards(cards_of(pile)),
                                    setenta_total(pile & ~JOKER_MASK)))
        siete = tuple(cards_of(pile & SIETE_BIT))
        groups.append(PileGroup("siete_de_oros", siete, len(siete)))
        out.append(SidePile(side, every, sweeps[side], tuple(groups)))
    return out
