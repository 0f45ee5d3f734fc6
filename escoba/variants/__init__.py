"""Capture rules as variants: one registry, chosen by :attr:`Rules.variant`.

    >>> from escoba.rules import Rules
    >>> variant_for(Rules.preset("scopa")).name
    'scopa'

A further variant is one module here with a :class:`Variant` subclass, plus its
entry in :data:`VARIANTS` (docs/ARCHITECTURE.md, "Variants").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from .base import OpeningVerdict, Variant
from .escoba import EscobaVariant
from .scopa import ScopaVariant

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["Variant", "OpeningVerdict", "VARIANTS", "variant_for", "EscobaVariant",
           "ScopaVariant"]

#: The one registry: variant name -> its (stateless) rule object.
VARIANTS: Mapping[str, Variant] = {v.name: v for v in (EscobaVariant(), ScopaVariant())}


def variant_for(rules: Rules) -> Variant:
    """The capture rule ``rules`` play by."""
    return VARIANTS[rules.variant]
