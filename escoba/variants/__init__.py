"""Capture rules as variants: one registry, chosen by :attr:`Rules.variant`.

    >>> from escoba.rules import Rules
    >>> variant_for(Rules.preset("scopa")).name
    'scopa'

A further variant is one module here with a :class:`Variant` subclass, plus its
entry in :data:`VARIANTS` (docs/ARCHITECTURE.md, "Variants").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..cards import Card, cards_of, mask_of
from ..errors import Code, IllegalMoveError
from ..rules import Rules
from ..solver import sort_key
from .base import OpeningVerdict, Variant
from .escoba import EscobaVariant
from .scopa import ScopaVariant

__all__ = ["Variant", "OpeningVerdict", "VARIANTS", "variant_for", "captures", "EscobaVariant",
           "ScopaVariant"]

#: The one registry: variant name -> its (stateless) rule object.
VARIANTS: Mapping[str, Variant] = {v.name: v for v in (EscobaVariant(), ScopaVariant())}


def variant_for(rules: Rules) -> Variant:
    """The capture rule ``rules`` play by."""
    return VARIANTS[rules.variant]


def captures(rules: Rules, table: Iterable[Card | str], card: Card | str
             ) -> list[frozenset[Card]]:
    """Every set of ``table`` cards ``card`` may take under ``rules`` (fewest cards
    first): the solver's answer for any variant, e.g. ``escoba captures --rules scopa``."""
    table_cards = [c if isinstance(c, Card) else Card.parse(c) for c in table]
    played = card if isinstance(card, Card) else Card.parse(card)
    if played in table_cards:
        raise IllegalMoveError(f"{played} cannot be both played and on the table",
                               Code.CARD_TWICE, card=str(played))
    sets = variant_for(rules).capture_sets(rules, mask_of(table_cards), played.index)
    return [frozenset(cards_of(s)) for s in sorted(sets, key=sort_key)]
