"""The engine's verdicts in the child's language.

The engine is the only judge of a move (:meth:`escoba.Round.check`): its
errors carry a ``code`` and ``params`` (see :mod:`escoba.errors`). This module
turns them into catalog keys and parameters, and never judges anything itself:
the sum shown is the one the engine reports.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from escoba import Card, Code, Deck, EscobaError, Move, RecordError, Rules
from escoba.cards import mask_of
from escoba.solver import capture_masks, is_capture, sum_terms
from escoba.variants import variant_for

from .i18n import CardList, card_name, cards_name, t

__all__ = ["sum_expression", "capture_terms", "move_message", "record_error_text", "MOVE_KEYS",
           "RECORD_KEYS"]

#: A child's move refused during a game: engine code -> catalog key.
MOVE_KEYS: dict[str, str] = {
    Code.WRONG_SUM: "wrong_sum",
    Code.CAPTURE_FORCED: "must_capture",
    Code.MUST_TAKE_EQUAL: "must_take_equal",
    Code.ACE_TAKES_ALL: "ace_takes_all",
    Code.CARD_NOT_ON_TABLE: "not_on_table",
    Code.NOT_IN_HAND: "not_in_hand",
    Code.NOT_YOUR_TURN: "not_your_turn",
    Code.ROUND_OVER: "not_your_turn",
    Code.NO_ROUND: "not_your_turn",
}
_OTHER_MOVE_KEY = "not_in_hand"  # no other refusal can come from the board's pickers

#: Why a record cannot be replayed: engine code (the record's own, or the code of
#: the move inside it) -> catalog key. Codes not listed read ``rec_malformed``.
RECORD_KEYS: dict[str, str] = {code: f"rec_{code}" for code in (
    Code.RECORD_TOO_BIG, Code.RECORD_NOT_UTF8, Code.RECORD_EMPTY, Code.RECORD_NOT_JSON,
    Code.RECORD_TOO_DEEP, Code.RECORD_NUMBER_TOO_LONG, Code.RECORD_NOT_OBJECT,
    Code.RECORD_FORMAT, Code.RECORD_RULES,
    Code.RECORD_DEALER, Code.RECORD_GAME_WON, Code.RECORD_STOPS_EARLY, Code.RECORD_REDEAL,
    Code.RECORD_DECK, Code.WRONG_SUM, Code.CAPTURE_FORCED, Code.CARD_NOT_ON_TABLE,
    Code.NOT_IN_HAND, Code.NOT_YOUR_TURN, Code.ROUND_OVER, Code.MISCOUNT_NOT_ALLOWED,
    Code.MISCOUNT_IS_CAPTURE, Code.RENUNCIO_NOT_ALLOWED, Code.RENUNCIO_NOTHING,
    Code.RENUNCIO_WRONG_CARD, Code.RENUNCIO_CANNOT_TAKE, Code.CARD_UNKNOWN, Code.CARD_TWICE)}


def sum_expression(values: Sequence[int | str]) -> str:
    """ "3 + 4 + 🃏": the engine's sum terms (a joker is ``"JK"``) as the board writes them."""
    return " + ".join("🃏" if v == "JK" else str(v) for v in values)


def capture_terms(rules: Rules, move: Move) -> tuple[list[int | str], int] | None:
    """A capture's sum as the game writes it, and the number it makes, as its variant says
    (:meth:`escoba.variants.Variant.capture_terms`): Escoba's table cards then the card
    played, to the capture sum ("8 + 7", 15); Scopa's table cards only, to the played
    card's value ("3 + 4", 7). None for a capture that is no sum (the ace taking the
    table by right): the caller words the move. Words only: the engine judged it."""
    terms = variant_for(rules).capture_terms(rules, move.card.index, mask_of(move.take))
    return None if terms is None else (list(terms[0]), terms[1])


def move_message(verdict: EscobaError) -> tuple[str, dict[str, Any]]:
    """The catalog key and parameters that tell a child why a move was refused."""
    p = verdict.params
    if verdict.code == Code.WRONG_SUM and p.get("sum_of") == "table":
        # Scopa: the played card's value is the target; the sum is of table cards only.
        return "wrong_sum_scopa", {"expr": sum_expression(p["values"]), "total": p["total"],
                                   "need": p["need"]}
    if verdict.code == Code.MUST_TAKE_EQUAL:
        # Two cards of the same value taken at once: the equal card was right, the number
        # of them was not ("only one"), not "take the 4 first".
        taken, equal = set(p.get("cards", ())), set(p.get("equal", ()))
        if len(taken) > 1 and taken <= equal:
            return "must_take_one_equal", {"value": p["value"]}
        return "must_take_equal", {"value": p["value"]}
    if verdict.code == Code.WRONG_SUM:
        two = _two_sets(p)
        if two is not None:
            return "wrong_sum_two_sets", {"first": two[0], "second": two[1], "need": p["need"]}
        key = "wrong_sum_joker" if p["jokers"] else "wrong_sum"
        return key, {"expr": sum_expression(p["values"]), "total": p["total"], "need": p["need"]}
    if verdict.code == Code.CAPTURE_FORCED:
        return "must_capture", {"count": p["count"]}
    return MOVE_KEYS.get(verdict.code, _OTHER_MOVE_KEY), {}


def _two_sets(p: dict[str, Any]) -> tuple[str, str] | None:
    """When the cards chosen are two separate captures of the card played (10 + 5 and
    10 + 1 + 4): their two sums, each as the engine writes it; else None. Only one set
    may be taken per turn (RULES.md), so the child is told to take one of them."""
    try:
        card = Card.parse(str(p["card"])).index
        take = mask_of([Card.parse(str(c)) for c in p["cards"]])
        need = int(p["need"])
    except (KeyError, TypeError, ValueError):
        return None
    for first in capture_masks(take, card, need):
        rest = take ^ first
        if rest and is_capture(rest, card, rest, need):
            return (sum_expression(sum_terms(card, first)[0]),
                    sum_expression(sum_terms(card, rest)[0]))
    return None


def _card_names(notations: Sequence[str], deck: Deck) -> CardList:
    return cards_name([Card.parse(n) for n in notations], deck)


def _reason_text(code: str, p: dict[str, Any], deck: Deck) -> str:
    """One record reason (a record code, or the code of the move inside the record)."""
    key = RECORD_KEYS.get(code, "rec_record_malformed")
    if code == Code.RECORD_REDEAL and "need" not in p:
        key = "rec_record_redeal_table"  # Scopa's redeal is about its re, not a sum
    if code == Code.WRONG_SUM:
        if p.get("jokers"):
            key = "rec_wrong_sum_joker"
        return t(key, expr=sum_expression(p["values"]), total=p["total"], need=p["need"])
    params: dict[str, Any] = {}
    for name, value in p.items():
        if name in ("card", "laid") and isinstance(value, str):
            params[name] = card_name(Card.parse(value), deck)
        elif name == "cards":
            params[name] = _card_names(value, deck)
        elif name in ("seat", "to_move") and isinstance(value, int):
            params[name] = value + 1  # players are numbered from 1 on screen
        elif name == "max_bytes":
            params["mb"] = value // 1_000_000
        else:
            params[name] = value
    if code == Code.RECORD_DEALER and p.get("expected") is not None:
        params["expected"] = p["expected"] + 1
    return t(key, **params)


def _redeal_text(p: dict[str, Any]) -> str:
    """A deal its game redeals, said as that game says why (the engine's ``deck_redeal``
    parameters): Scopa's re on the opening table, Escoba's cards that make 15."""
    if "kings" in p:
        return t("rec_deck_redeal_kings", kings=p["kings"])
    return t("rec_deck_redeal", need=p["need"])


def record_error_text(error: RecordError, deck: Deck = Deck.SPANISH) -> str:
    """Why a record cannot be replayed, in the child's language: "Round 1, move 6: …"."""
    p = error.params
    if error.code == Code.RECORD_MOVE:  # the move's own reason, e.g. wrong_sum
        reason = _reason_text(p["reason"], p["reason_params"], deck)
    elif error.code == Code.RECORD_RULES:
        reason = t("rec_record_rules", option=p["reason_params"].get("option", "?"))
    elif error.code == Code.RECORD_DECK and p.get("reason") == Code.DECK_REDEAL:
        reason = _redeal_text(p["reason_params"])
    else:
        reason = _reason_text(error.code, p, deck)
    if p.get("move") is not None:
        return t("rec_at_move", round=p["round"], move=p["move"], reason=reason)
    if p.get("round") is not None:
        return t("rec_at_round", round=p["round"], reason=reason)
    return reason
