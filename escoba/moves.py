"""The values of moves: what a player chooses (:class:`Move`, :class:`Renuncio`),
what happened (:class:`Play`) and the outcome of an attempt (:class:`Attempt`).

Split out of :mod:`escoba.game` (issue 28): plain values, no rules, so every
variant, the round, the bots and the app share them (``escoba`` exports them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import CARDS, Card, cards_of, format_cards, mask_of
from .errors import IllegalMoveError
from .solver import sum_terms

__all__ = ["Move", "Renuncio", "Play", "Attempt"]


@dataclass(frozen=True, slots=True)
class Move:
    """Play ``card``; capture the table cards ``take`` (empty: lay the card down).

    ``miscount`` (only under ``miscount="penalty"``) is a wrong combination
    the player chose: the card then stays on the table (RECORD.md).
    """

    card: Card
    take: frozenset[Card] = frozenset()
    miscount: frozenset[Card] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.take, frozenset):
            object.__setattr__(self, "take", frozenset(self.take))
        if self.miscount is not None and not isinstance(self.miscount, frozenset):
            object.__setattr__(self, "miscount", frozenset(self.miscount))

    @property
    def is_capture(self) -> bool:
        return bool(self.take)

    @property
    def take_mask(self) -> int:
        return mask_of(self.take)

    def sum_terms(self) -> tuple[list[int | str], int, int]:
        """The sum this move makes, as a child writes it: table cards, then the card played.

        ``([3, 4, 7], 14, 0)``: the values (a joker is ``"JK"``), the total of
        the plain cards and how many jokers (wild) there are. Under
        ``miscount`` the cards chosen count as the take.
        """
        take = self.take if self.miscount is None else self.miscount
        return sum_terms(self.card.index, mask_of(take))

    def __str__(self) -> str:
        if self.miscount is not None:
            return f"{self.card} miscounts {format_cards(sorted(self.miscount))}"
        if self.take:
            return f"{self.card} takes {format_cards(sorted(self.take))}"
        return f"{self.card} down"

    def to_dict(self, seat: int) -> dict[str, object]:
        """The RECORD.md move entry."""
        out: dict[str, object] = {"seat": seat, "card": str(self.card),
                                  "take": [str(c) for c in sorted(self.take)]}
        if self.miscount is not None:
            out["miscount"] = [str(c) for c in sorted(self.miscount)]
        return out

    @staticmethod
    def parse(text: str) -> Move:
        """``"7o 3c 5e"``: the played card, then the cards taken (none: lay down)."""
        parts = text.replace(",", " ").replace("+", " ").split()
        if not parts:
            raise ValueError("a move names the card played, e.g. '7o' or '7o 3c 5e'")
        cards = [Card.parse(p) for p in parts]
        return Move(cards[0], frozenset(cards[1:]))


@dataclass(frozen=True, slots=True)
class Renuncio:
    """A *renuncio* claim: the offending laid-down ``card`` and a set it could have taken."""

    card: Card
    take: frozenset[Card]

    def __post_init__(self) -> None:
        if not isinstance(self.take, frozenset):
            object.__setattr__(self, "take", frozenset(self.take))

    def to_dict(self, seat: int) -> dict[str, object]:
        return {"seat": seat,
                "renuncio": [str(self.card)] + [str(c) for c in sorted(self.take)]}

    def __str__(self) -> str:
        return f"renuncio on {self.card}: takes {format_cards(sorted(self.take))}"


class Play(NamedTuple):
    """One public event of a round, as everybody at the table saw it.

    ``kind`` is ``"play"`` (a capture or a card laid down), ``"miscount"``,
    ``"renuncio"`` (a claim), ``"initial"`` (the dealer's take of a table of
    15) or ``"sweep"`` (the last capturer taking what is left). Cards are
    kept as an index and masks; the properties give :class:`Card` values.
    """

    seat: int
    kind: str
    card_index: int  # -1 for "initial" and "sweep"
    take_mask: int
    escoba: bool = False
    miscount_mask: int | None = None

    @property
    def card(self) -> Card | None:
        return CARDS[self.card_index] if self.card_index >= 0 else None

    @property
    def take(self) -> frozenset[Card]:
        return frozenset(cards_of(self.take_mask))

    @property
    def miscount(self) -> frozenset[Card] | None:
        return None if self.miscount_mask is None else frozenset(cards_of(self.miscount_mask))

    @property
    def move(self) -> Move | None:
        if self.kind in ("play", "miscount"):
            return Move(CARDS[self.card_index], self.take, self.miscount)
        return None

    def __str__(self) -> str:
        who = f"seat {self.seat}"
        taken = format_cards(cards_of(self.take_mask))
        if self.kind == "initial":
            return f"{who} (dealer) takes the initial table {taken}"
        if self.kind == "sweep":
            return f"{who} takes the cards left: {taken}"
        if self.kind == "renuncio":
            return f"{who} calls renuncio on {self.card}: takes {taken}"
        text = f"{who}: {self.move}"
        return text + (" — escoba!" if self.escoba else "")


class Attempt(NamedTuple):
    """What :meth:`Round.attempt` did: the event played (``None``: nothing changed)
    and the verdict on the move as chosen (``None``: it was legal)."""

    play: Play | None
    verdict: IllegalMoveError | None
