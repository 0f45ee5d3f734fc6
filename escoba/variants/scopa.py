"""Italian Scopa and its family (scopone, scopone scientifico), with napola and
asso piglia tutto as options. docs/RULES-READING.md says how sources were read.

Capture: a card of equal value on the table must be taken (one of them, the
player's choice) before any sum; otherwise any set of table cards summing to the
played card's value. The same 40 cards as Escoba (fante 8, cavallo 9, re 10).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import CARDS, OROS_MASK, SIETE_DE_OROS, SUIT_MASKS, VALUE, cards_of, format_cards
from ..errors import Code, DeckError, IllegalMoveError
from ..rules import Rules
from ..scoring import RoundScore, napola_points, score_scopa_round
from .base import OpeningVerdict, Variant, notations

__all__ = ["ScopaVariant", "napola_points", "ACE_MASK", "KING_MASK"]

#: The four aces and the four re (value 10): card indices 0-3 and 36-39.
ACE_MASK = sum(1 << i for i in range(40) if VALUE[i] == 1)
KING_MASK = sum(1 << i for i in range(40) if VALUE[i] == 10)
#: Each value's four cards, as a mask (index 0 unused).
_VALUE_MASKS = (0, *(sum(1 << i for i in range(40) if VALUE[i] == v) for v in range(1, 11)))


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def sum_sets(table: int, need: int) -> list[int]:
    """Every set of table cards whose values add up to ``need`` (ascending search)."""
    cards = _cards(table)
    found: list[int] = []

    def extend(start: int, left: int, chosen: int) -> None:
        for k in range(start, len(cards)):
            value = VALUE[cards[k]]
            if value == left:
                found.append(chosen | 1 << cards[k])
            elif value < left:
                extend(k + 1, left - value, chosen | 1 << cards[k])

    extend(0, need, 0)
    return found


class ScopaVariant(Variant):
    name = "scopa"
    category_labels: Mapping[str, str] = {
        "cards": "carte", "oros": "denari", "siete_de_oros": "settebello", "sevens": "sevens",
        "setenta": "primiera", "escobas": "scope", "napola": "napola"}

    def takes_table_by_right(self, rules: Rules, table: int, card: int) -> bool:
        # Asso piglia tutto: an ace takes the whole table unless an ace lies there.
        return (rules.asso_piglia_tutto and VALUE[card] == 1 and bool(table)
                and not table & ACE_MASK)

    def capture_sets(self, rules: Rules, table: int, card: int) -> list[int]:
        if self.takes_table_by_right(rules, table, card):
            return [table]
        equal = table & _VALUE_MASKS[VALUE[card]]
        if equal:  # equal value first: one of them, the player's choice
            return [1 << i for i in _cards(equal)]
        return sum_sets(table, VALUE[card])

    def refusal(self, rules: Rules, table: int, card: int, take: int) -> IllegalMoveError | None:
        if take in self.capture_sets(rules, table, card):
            return None
        value = VALUE[card]
        shown = str(CARDS[card])
        if self.takes_table_by_right(rules, table, card):
            return IllegalMoveError(f"{shown} takes the whole table (asso piglia tutto)",
                                    Code.ACE_TAKES_ALL, card=shown, cards=notations(table))
        equal = table & _VALUE_MASKS[value]
        if equal:
            return IllegalMoveError(
                f"{shown} must take a card of the same value ({value}) before any sum",
                Code.MUST_TAKE_EQUAL, card=shown, cards=notations(take),
                equal=notations(equal), value=value)
        # The table cards alone make the played card's value (``sum_of="table"``), where
        # Escoba's sum counts the played card too: the app words each its own way.
        values = [VALUE[i] for i in _cards(take)]
        total = sum(values)
        return IllegalMoveError(f"{' + '.join(map(str, values))} = {total}, not {value}",
                                Code.WRONG_SUM, card=shown, cards=notations(take),
                                values=values, total=total, need=value, jokers=0,
                                sum_of="table")

    def is_sweep(self, rules: Rules, table_before: int, card: int, take: int,
                 last_play: bool) -> bool:
        if not take or take != table_before or last_play:  # never on the very last play
            return False
        if self.takes_table_by_right(rules, table_before, card):
            # The ace took the table by privilege, not by a sum: a scopa only if the
            # option says so (sources differ; docs/RULES-READING.md).
            return rules.asso_piglia_tutto_scopa
        return True

    def fact(self, rules: Rules, card: int, take: int) -> str | None:
        # Equal value practises recognising "the same number"; a sum practises the
        # addition whose total is the card: "7=3+4". The ace taking the table by right
        # practises none.
        terms = self.capture_terms(rules, card, take)
        if terms is None:
            return None
        values, value = terms
        return f"{value}=" + "+".join(map(str, values))

    def capture_terms(self, rules: Rules, card: int,
                      take: int) -> tuple[tuple[int | str, ...], int] | None:
        values = tuple(sorted(VALUE[i] for i in _cards(take)))
        # Only a capture whose table cards make the card's value is a sum (asso piglia
        # tutto takes any table by right).
        return (values, VALUE[card]) if sum(values) == VALUE[card] else None

    def sweep_risk_band(self, rules: Rules) -> tuple[int, int]:
        return 1, 10

    def sweeper_value(self, rules: Rules, table_total: int) -> int:
        return table_total

    def opening_table(self, rules: Rules, table: int) -> OpeningVerdict:
        return "redeal" if (table & KING_MASK).bit_count() >= 3 else "play"

    def redeal_error(self, rules: Rules, table: int) -> DeckError:
        kings = (table & KING_MASK).bit_count()
        return DeckError(f"the initial table {format_cards(cards_of(table))} holds {kings} "
                         "re: the deal must be redealt", Code.DECK_REDEAL,
                         table=notations(table), kings=kings)

    def opening_table_cards(self, rules: Rules) -> int:
        return rules.table_cards

    def score(self, rules: Rules, piles: Sequence[int], sweeps: Sequence[int]) -> RoundScore:
        return score_scopa_round(rules, piles, sweeps)


assert SIETE_DE_OROS.index == 24 and SUIT_MASKS[0] == OROS_MASK  # the settebello, denari
