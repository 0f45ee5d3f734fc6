"""What cards are worth, in points of the round: the card counting of bots and coach.

One valuation, shared: :func:`card_values` says per card what our side gains
by capturing it and what it loses if the other side does, from the piles
captured so far (a seven is worth a lot while the sevens are undecided,
nothing once a side has three of them); an escoba is worth
:data:`ESCOBA_VALUE`. The coach (:mod:`escoba.coach`) ranks moves with it and
the greedy and expert players (:mod:`escoba.bots`) choose with it.
"""

from __future__ import annotations

import math
from functools import lru_cache

from .cards import JOKER_MASK, OROS_MASK, SEVENS_MASK, SIETE_BIT, SIETE_INDEX, SPANISH_MASK, VALUE
from .observation import Observation
from .rules import Rules

__all__ = ["ESCOBA_VALUE", "card_values", "mask_value"]

#: What an escoba is worth, in points of the round.
ESCOBA_VALUE = 1.0



def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _category_swing(lead: int, remaining: int, spread: float) -> float:
    """P(we win) - P(they win) for a "most" category (ties score for nobody).

    ``lead`` = our count minus the best other side's; the ``remaining`` cards
    are split at random. Cards are captured in bunches, so the final lead is
    modelled as normal with variance ``spread * remaining`` (spread 1 would
    be independent cards).
    """
    if remaining <= 0:
        return float((lead > 0) - (lead < 0))
    sigma = math.sqrt(spread * remaining)
    return _phi((lead - 0.5) / sigma) - _phi((-lead - 0.5) / sigma)


@lru_cache(maxsize=4096)
def _marginals(lead: int, remaining: int, spread: float) -> tuple[float, float]:
    """(value of one more card for us, value lost when they take one)."""
    now = _category_swing(lead, remaining, spread)
    ours = _category_swing(lead + 1, remaining - 1, spread) - now
    theirs = now - _category_swing(lead - 1, remaining - 1, spread)
    return ours, theirs


# 256 entries (about 1.7 kB each: two tuples of 42 floats) hit as often as 4,096 did in
# expert games (2,022 against 2,066 hits in 60 games): the piles rarely repeat beyond
# the game in play, and 4,096 held 7 MB in every process (issue 32).
@lru_cache(maxsize=256)
def _card_values_cached(rules: Rules, pile_masks: tuple[int, ...],
                        seat: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    sides = rules.sides
    side_piles = [0] * sides
    for s, pile in enumerate(pile_masks):
        side_piles[rules.side_of(s)] |= pile
    me = rules.side_of(seat)
    mine = side_piles[me]
    others = [side_piles[s] for s in range(sides) if s != me]
    full = SPANISH_MASK | (JOKER_MASK if rules.jokers else 0)
    taken = 0
    for p in side_piles:
        taken |= p

    def category(mask: int, spread: float) -> tuple[float, float]:
        a = (mine & mask).bit_count()
        b = max((o & mask).bit_count() for o in others)
        remaining = (mask & full & ~taken).bit_count()
        return _marginals(a - b, remaining, spread)

    ours = [0.0] * 42
    theirs = [0.0] * 42
    # Most cards: every card counts.
    c_ours, c_theirs = category(full, 2.5)
    o_ours, o_theirs = category(OROS_MASK, 1.5)
    s_ours = s_theirs = 0.0
    if rules.scores_most_sevens or rules.scores_setenta:
        s_ours, s_theirs = category(SEVENS_MASK, 1.0)
        if rules.scores_setenta and not rules.scores_most_sevens:
            # Setenta is mostly won by sevens (21 each), then sixes and aces.
            s_ours, s_theirs = 0.8 * s_ours, 0.8 * s_theirs
    for c in range(42 if rules.jokers else 40):
        bit = 1 << c
        ours[c], theirs[c] = c_ours, c_theirs
        if bit & OROS_MASK:
            ours[c] += o_ours
            theirs[c] += o_theirs
        if bit & SEVENS_MASK:
            ours[c] += s_ours
            theirs[c] += s_theirs
        if rules.scores_setenta and VALUE[c] in (6, 1):
            ours[c] += 0.06 if VALUE[c] == 6 else 0.03
            theirs[c] += 0.06 if VALUE[c] == 6 else 0.03
    if not taken & SIETE_BIT:
        ours[SIETE_INDEX] += 1.0
        theirs[SIETE_INDEX] += 1.0
    return tuple(ours), tuple(theirs)


def card_values(observation: Observation) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per card index: (what our side gains by capturing it, what we lose if they do).

    In points of the round, from the piles captured so far (card counting).
    The siete de oros is worth a whole point either way while nobody holds it.
    """
    return _card_values_cached(observation.rules, observation.pile_masks, observation.seat)


def mask_value(values: tuple[float, ...] | list[float], mask: int) -> float:
    """Sum of ``values`` over the cards of ``mask``."""
    total = 0.0
    while mask:
        low = mask & -mask
        total += values[low.bit_length() - 1]
        mask ^= low
    return total
