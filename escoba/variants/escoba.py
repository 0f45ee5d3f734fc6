"""Escoba de quince: the played card and a table set make the capture sum (15).

Its fast bitmask move generation is in :mod:`escoba.movegen` and
:mod:`escoba.solver` (the simulation's hot path); this class answers the
questions the rest of the engine asks of every variant.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..cards import CARDS, JOKER_MASK, VALUE, cards_of, format_cards, value_sum
from ..errors import Code, DeckError, IllegalMoveError
from ..rules import Rules
from ..scoring import RoundScore, score_escoba_round
from ..solver import capture_masks, is_capture, subset_masks_in_range, sum_terms
from .base import OpeningVerdict, Variant, notations

__all__ = ["EscobaVariant", "wrong_sum"]


def wrong_sum(card: int, take: int, capture_sum: int) -> IllegalMoveError:
    """ "3 + 4 + 7 = 14, not 15" (jokers shown as JK), with its code and parameters."""
    values, plain, jokers = sum_terms(card, take)
    shown = " + ".join(map(str, values))
    params = {"card": str(CARDS[card]), "cards": notations(take), "values": values,
              "total": plain, "need": capture_sum, "jokers": jokers}
    if jokers:
        return IllegalMoveError(f"{shown}: the other cards already make {plain}; "
                                f"no joker value 1-10 makes {capture_sum}", Code.WRONG_SUM,
                                **params)
    return IllegalMoveError(f"{shown} = {plain}, not {capture_sum}", Code.WRONG_SUM, **params)


class EscobaVariant(Variant):
    name = "escoba"
    category_labels: Mapping[str, str] = {
        "cards": "cards", "oros": "oros", "siete_de_oros": "siete_de_oros", "sevens": "sevens",
        "setenta": "setenta", "escobas": "escobas"}

    def capture_sets(self, rules: Rules, table: int, card: int) -> list[int]:
        return capture_masks(table, card, rules.capture_sum)

    def refusal(self, rules: Rules, table: int, card: int, take: int) -> IllegalMoveError | None:
        if is_capture(table, card, take, rules.capture_sum):
            return None
        return wrong_sum(card, take, rules.capture_sum)

    def fact(self, rules: Rules, card: int, take: int) -> str:
        # What the table had to add up to, and the card's value: "15 - 7".
        return f"{rules.capture_sum}-{VALUE[card]}"

    def capture_terms(self, rules: Rules, card: int,
                      take: int) -> tuple[tuple[int | str, ...], int]:
        return tuple(sum_terms(card, take)[0]), rules.capture_sum

    def sweep_risk_band(self, rules: Rules) -> tuple[int, int]:
        return rules.sweep_risk_range  # 5-14 for 15: Rules has said it since issue 9

    def sweeper_value(self, rules: Rules, table_total: int) -> int:
        return rules.capture_sum - table_total

    def opening_table(self, rules: Rules, table: int) -> OpeningVerdict:
        # A joker is never wild here (RULES.md: it "never triggers"): under
        # dealer_takes a table with a joker has no total; under redeal only subsets
        # of the other cards count. See docs/RULES-READING.md.
        if rules.initial_fifteen == "ignore":
            return "play"
        plain = table & ~JOKER_MASK
        if rules.initial_fifteen == "dealer_takes":
            hit = not table & JOKER_MASK and value_sum(plain) == rules.capture_sum
            return "dealer_takes" if hit else "play"
        hit = any(s for s in subset_masks_in_range(plain, rules.capture_sum, rules.capture_sum))
        return "redeal" if hit else "play"

    def no_redeal_reason(self, rules: Rules) -> tuple[str, dict[str, int]]:
        return f"its table holds no {rules.capture_sum}", {"need": rules.capture_sum}

    def redeal_error(self, rules: Rules, table: int) -> DeckError:
        return DeckError(f"the initial table {format_cards(cards_of(table))} holds "
                         f"{rules.capture_sum}: the deal must be redealt", Code.DECK_REDEAL,
                         table=notations(table), need=rules.capture_sum)

    def score(self, rules: Rules, piles: Sequence[int], sweeps: Sequence[int]) -> RoundScore:
        return score_escoba_round(rules, piles, sweeps)
