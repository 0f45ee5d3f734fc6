"""The seam for a capture rule: one :class:`Variant` per family of games.

A variant owns what differs between Escoba and its cousins: which table sets a
played card may (and must) take, whether a capture sweeps the table, what a
refusal means, the arithmetic fact a capture practises, the table totals one
card can sweep, the opening-table rule (and why a deal is redealt) and the
scoring. The engine, bots and coach ask it; nobody else knows the arithmetic.

Cards are inner card indices and sets are int masks (:mod:`escoba.cards`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Literal

from ..cards import CARDS, JOKER_MASK, VALUE, cards_of, format_cards
from ..errors import Code, DeckError, IllegalMoveError
from ..rules import Rules
from ..scoring import RoundScore

__all__ = ["Variant", "OpeningVerdict", "not_on_table", "notations"]

#: What the opening table means: play on, the dealer takes it, or deal again.
OpeningVerdict = Literal["play", "dealer_takes", "redeal"]


def notations(mask: int) -> list[str]:
    return [str(c) for c in cards_of(mask)]


def not_on_table(missing: int) -> IllegalMoveError:
    names = format_cards(cards_of(missing))
    return IllegalMoveError(f"{names} {'is' if ' ' not in names else 'are'} not on the table",
                            Code.CARD_NOT_ON_TABLE, cards=notations(missing))


class Variant(ABC):
    """A capture rule and its scoring. Subclasses are stateless singletons; what every
    game of the family must say for itself is abstract (a subclass that leaves one out
    cannot be made), the rest is the family's common reading."""

    #: The registry key, also written in records (``"variant": "scopa"``).
    name: str = ""
    #: Scoring category -> the message key the app shows for it.
    category_labels: Mapping[str, str] = {}

    # -- captures ------------------------------------------------------------
    @abstractmethod
    def capture_sets(self, rules: Rules, table: int, card: int) -> list[int]:
        """Every set of table cards (masks) ``card`` may take, after any "must take" rule."""

    def legal_pairs(self, rules: Rules, hand: int, table: int) -> list[tuple[int, int]]:
        """Legal plays as ``(card index, take mask)``; take 0 lays the card down.

        Under ``capture_rule="forced"`` a card that can capture must; otherwise laying
        it down is legal too.
        """
        forced = rules.capture_rule == "forced"
        out: list[tuple[int, int]] = []
        m = hand
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            sets = self.capture_sets(rules, table, card)
            out.extend((card, s) for s in sets)
            if not sets or not forced:
                out.append((card, 0))
        return out

    @abstractmethod
    def refusal(self, rules: Rules, table: int, card: int, take: int) -> IllegalMoveError | None:
        """Why ``card`` may not take ``take`` (on the table), or ``None``. ``take`` is
        empty only for a card laid down that :meth:`takes_table_by_right`."""

    def takes_table_by_right(self, rules: Rules, table: int, card: int) -> bool:
        """Whether ``card`` takes the whole ``table`` by a privilege, not by a sum (Scopa's
        asso piglia tutto): the board then asks for every table card, and laying the card
        down is refused with that reason. No privilege unless a variant grants one."""
        return False

    def is_sweep(self, rules: Rules, table_before: int, card: int, take: int,
                 last_play: bool) -> bool:
        """Whether this capture scores a sweep (escoba, scopa): written once, here.

        ``last_play``: the round's very last card. A joker's help never sweeps.
        """
        return (bool(take) and take == table_before and not (take | 1 << card) & JOKER_MASK
                and (rules.last_play_escoba or not last_play))

    @abstractmethod
    def fact(self, rules: Rules, card: int, take: int) -> str | None:
        """The arithmetic fact a capture practises, as evidence records it; None for a
        capture that practises no sum (a card taking the table by right)."""

    @abstractmethod
    def capture_terms(self, rules: Rules, card: int,
                      take: int) -> tuple[tuple[int | str, ...], int] | None:
        """A capture's sum as a child writes it, and the number it makes: Escoba's table
        cards then the card played, to the capture sum (``((8, 7), 15)``; a joker is
        ``"JK"``); Scopa's table cards, to the played card's value (``((3, 4), 7)``).
        None for a capture that is no sum (a card taking the table by right): the app
        then words the move, never a false "3 + 5 + 7 = 1"."""

    # -- the table -----------------------------------------------------------
    @abstractmethod
    def sweep_risk_band(self, rules: Rules) -> tuple[int, int]:
        """Table totals one card can sweep (inclusive)."""

    def table_sweepable(self, rules: Rules, table_total: int) -> bool:
        low, high = self.sweep_risk_band(rules)
        return low <= table_total <= high

    @abstractmethod
    def sweeper_value(self, rules: Rules, table_total: int) -> int:
        """The value of the card that would sweep a table of ``table_total``."""

    @abstractmethod
    def opening_table(self, rules: Rules, table: int) -> OpeningVerdict:
        """What the opening table of a deal means."""

    @abstractmethod
    def redeal_error(self, rules: Rules, table: int) -> DeckError:
        """Why a deal whose opening ``table`` :meth:`opening_table` says to redeal is
        refused: ``deck_redeal``, with the parameters that say it under this game."""

    def no_redeal_reason(self, rules: Rules) -> tuple[str, dict[str, int]]:
        """Why a record's deck listed as redealt was not to be: the reason's words and
        the parameters of its ``record_redeal`` refusal (Escoba: no 15 on its table)."""
        return f"its table was not one {self.name} redeals", {}

    def opening_table_cards(self, rules: Rules) -> int:
        """How many cards a deal lays face up on the table."""
        return 4

    # -- scoring -------------------------------------------------------------
    @abstractmethod
    def score(self, rules: Rules, piles: Sequence[int], sweeps: Sequence[int]) -> RoundScore:
        """Score a finished round from each seat's pile mask and sweep count."""

    # -- words ---------------------------------------------------------------
    @staticmethod
    def card_name(card: int) -> str:
        return str(CARDS[card])

    @staticmethod
    def value(card: int) -> int:
        return VALUE[card]
