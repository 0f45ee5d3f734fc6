"""Praise that repeats the arithmetic the child just did (issue 23), without Streamlit.

A wrong try is told its exact sum ("7 + 5 = 12: you need 3 more"); a right one deserves
the same: "8 + 7 = 15! ⭐⭐⭐". The sum is the engine's (:meth:`escoba.Move.sum_terms` of
the child's own capture, the first one in what was played); this module only chooses
the words:

- ``praise.escoba`` — the child's capture swept the table: "¡Escoba! 8 + 7 = 15!";
  under Scopa ``praise.scopa``: "Scopa! 3 + 4 = 7!";
- ``praise.sum`` — any other capture of the child: "8 + 7 = 15!" (Scopa: "3 + 4 = 7!",
  the table cards making the card's value, as a Scopa game writes it);
- the level's own praise otherwise (a card tapped, a number answered, a card laid down).

The stars of a finished level go after the words, as stars (the spoken variant says
them in words: ``praise.stars.spoken``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from escoba import Move, Play, Rules

from .verdicts import capture_terms, sum_expression
from .words import sweep_word_key

__all__ = ["Praise", "praise_for", "stars_text", "child_capture"]


@dataclass(frozen=True)
class Praise:
    """What a right move earns: its words (a ``lessons`` catalog key and parameters),
    whether it was an escoba, and the level's stars when it finished one (else 0)."""

    key: str
    params: dict[str, object]
    escoba: bool = False
    stars: int = 0
    #: The game's capture rule (``Rules.variant``): a sweep is an escoba or a scopa.
    variant: str = "escoba"

    @property
    def kind(self) -> str:
        """``escoba``, ``capture`` or ``right`` (no capture of the child's to repeat)."""
        if self.escoba:
            return "escoba"
        return "capture" if self.key == "praise.sum" else "right"

    @property
    def sweep_key(self) -> str:
        """The praise of a sweep in the game's own word."""
        return sweep_word_key("praise.escoba", self.variant)


def child_capture(events: Iterable[Play], seat: int) -> Play | None:
    """The first capture ``seat`` made among ``events`` (the child's move comes first)."""
    return next((e for e in events if e.seat == seat and e.kind == "play"
                 and e.card is not None and e.take_mask), None)


def praise_for(events: Iterable[Play], seat: int, *, rules: Rules, stars: int = 0,
               otherwise: str = "fb.right") -> Praise:
    """The praise for a right action that played ``events`` (``seat`` is the child's):
    the sum of the child's capture in its game's terms (:func:`capture_terms`: Escoba's
    card and table cards to the capture sum, Scopa's table cards to the card's value),
    or ``otherwise`` (no capture, or the ace taking the table by right: no sum)."""
    variant = rules.variant
    play = child_capture(events, seat)
    terms = (capture_terms(rules, Move(play.card, play.take))
             if play is not None and play.card is not None else None)
    if play is None or terms is None:
        return Praise(otherwise, {}, stars=stars, variant=variant)
    values, total = terms
    # A joker's value is whatever made the sum: the total is then the joker itself.
    params: dict[str, object] = {"expr": sum_expression(values),
                                 "total": "🃏" if "JK" in values else total}
    praise = Praise("praise.sum", params, escoba=bool(play.escoba), stars=stars,
                    variant=variant)
    return Praise(praise.sweep_key, params, escoba=True, stars=stars, variant=variant) \
        if play.escoba else praise


def stars_text(stars: int, of: int = 3) -> str:
    """⭐⭐☆: earned stars filled, the rest empty."""
    return "⭐" * stars + "☆" * max(0, of - stars)
