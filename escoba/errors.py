"""The engine's errors: an English sentence plus a machine-readable reason.

Every error a user can cause (a card typed wrong, an option out of range, a
move the rules refuse, a record that breaks a rule) is a ``ValueError``
subclass carrying ``code`` (a :class:`Code`) and ``params`` (plain values:
ints, strs, lists of card notations such as ``"7o"``), besides the English
sentence that ``str(exc)`` gives. The CLI prints the sentence; the app
translates the code into the child's language and never re-judges a move.

The codes and their parameters (one place: add a code here, then its message
where it is raised and its translation in the app's catalog):

=====================  ============================================================
code                   params
=====================  ============================================================
**cards** (:class:`CardError`)
card_unknown           ``text``: what was given (a card is "7o", "10b", "JK1")
card_twice             ``card``: a card listed twice
card_value             ``value``: not a capture value 1-10
card_index             ``index``: not a card index 0-41
card_not_a_card        ``type``: a Python type name given where a Card belongs
**rules** (:class:`RulesError`)
rules_unknown_preset   ``preset``, ``presets`` (list)
rules_unknown_option   ``option``
rules_bad_value        ``option``, ``value`` (as text), ``allowed`` (text)
**decks** (:class:`DeckError`)
deck_not_full          ``size``, ``count``, ``twice``, ``missing``, ``extra`` (card lists)
deck_redeal            ``table`` (cards) and why it is redealt: under Escoba ``need``, the
                       sum its cards make (15, ``initial_fifteen="redeal"``); under Scopa
                       ``kings``, the re on it (3 or 4)
bad_dealer             ``dealer`` (as text), ``players``
deal_cards_twice       ``cards``: a scripted deal (:func:`escoba.deck.deck_for`) repeats cards
deal_wrong_count       ``where`` ("hand N", "table", "deck", "stock"), ``count``, ``expected``
**moves** (:class:`IllegalMoveError`)
not_a_move             ``type``: something other than a Move was played
not_your_turn          ``seat``, ``to_move``
round_over             (none): the round has ended
no_round               (none): a game with no round in play
not_in_hand            ``card``, ``seat``
card_not_on_table      ``cards``: chosen cards that are not on the table
wrong_sum              ``card``, ``cards`` (the take), ``values`` (ints; a joker is
                       ``"JK"``), ``total`` (of the plain cards), ``need``, ``jokers``;
                       under Scopa also ``sum_of="table"``: ``values`` are the table
                       cards only and ``need`` is the played card's value
capture_forced         ``card``, ``captures`` (list of card lists), ``count``
must_take_equal        ``card``, ``cards`` (the take), ``equal`` (cards of the same value
                       on the table), ``value``: Scopa takes an equal card before any sum
ace_takes_all          ``card``, ``cards`` (the table): Scopa's asso piglia tutto, for a part
                       of the table taken or the ace laid down (a capture is forced)
miscount_not_allowed   (none): ``miscount="retry"`` refuses miscounts
miscount_takes_nothing (none)
miscount_names_cards   (none): a miscount must name the cards chosen
miscount_is_capture    ``card``, ``cards``: the "miscount" is in fact a capture
renuncio_not_allowed   (none): claims need ``capture_rule="renuncio"``
renuncio_nothing       (none): nothing to claim
renuncio_wrong_card    ``laid``, ``card``
renuncio_cannot_take   ``card``, ``cards``
**records** (:class:`RecordError`; ``round`` and ``move`` are added when known)
record_too_big         ``max_bytes``
record_not_utf8        ``byte``
record_empty           (none)
record_not_json        ``line``, ``column``
record_too_deep        (none)
record_number_too_long ``digits``: a number longer than any record holds (issue 25)
record_not_object      (none)
record_format          ``expected``, ``got``
record_rules           ``reason``, ``reason_params``: the :class:`RulesError`
record_malformed       ``detail`` (English): a field of the wrong shape or unknown
record_dealer          ``expected`` (or ``None``), ``got``
record_game_won        (none): a round after the game was won
record_stops_early     (none): a round that stops before its end, then another
record_redeal          a redealt deck was not to be redealt: ``need`` under Escoba (the sum
                       its table did not make); none under Scopa (fewer than three re)
record_deck            ``reason``, ``reason_params``: the :class:`DeckError`
record_move            ``reason``, ``reason_params``: the move's own error
                       (an :class:`IllegalMoveError` or :class:`CardError` code)
=====================  ============================================================
"""

from __future__ import annotations

import enum
from typing import Any

__all__ = ["Code", "EscobaError", "CardError", "RulesError", "DeckError", "IllegalMoveError",
           "RecordError"]


class Code(enum.StrEnum):
    """Every reason the engine gives (see the table above); a code is also its str."""

    CARD_UNKNOWN = "card_unknown"
    CARD_TWICE = "card_twice"
    CARD_VALUE = "card_value"
    CARD_INDEX = "card_index"
    CARD_NOT_A_CARD = "card_not_a_card"
    RULES_UNKNOWN_PRESET = "rules_unknown_preset"
    RULES_UNKNOWN_OPTION = "rules_unknown_option"
    RULES_BAD_VALUE = "rules_bad_value"
    DECK_NOT_FULL = "deck_not_full"
    DECK_REDEAL = "deck_redeal"
    BAD_DEALER = "bad_dealer"
    DEAL_CARDS_TWICE = "deal_cards_twice"
    DEAL_WRONG_COUNT = "deal_wrong_count"
    NOT_A_MOVE = "not_a_move"
    NOT_YOUR_TURN = "not_your_turn"
    ROUND_OVER = "round_over"
    NO_ROUND = "no_round"
    NOT_IN_HAND = "not_in_hand"
    CARD_NOT_ON_TABLE = "card_not_on_table"
    WRONG_SUM = "wrong_sum"
    CAPTURE_FORCED = "capture_forced"
    MUST_TAKE_EQUAL = "must_take_equal"
    ACE_TAKES_ALL = "ace_takes_all"
    MISCOUNT_NOT_ALLOWED = "miscount_not_allowed"
    MISCOUNT_TAKES_NOTHING = "miscount_takes_nothing"
    MISCOUNT_NAMES_CARDS = "miscount_names_cards"
    MISCOUNT_IS_CAPTURE = "miscount_is_capture"
    RENUNCIO_NOT_ALLOWED = "renuncio_not_allowed"
    RENUNCIO_NOTHING = "renuncio_nothing"
    RENUNCIO_WRONG_CARD = "renuncio_wrong_card"
    RENUNCIO_CANNOT_TAKE = "renuncio_cannot_take"
    RECORD_TOO_BIG = "record_too_big"
    RECORD_NOT_UTF8 = "record_not_utf8"
    RECORD_EMPTY = "record_empty"
    RECORD_NOT_JSON = "record_not_json"
    RECORD_TOO_DEEP = "record_too_deep"
    RECORD_NUMBER_TOO_LONG = "record_number_too_long"
    RECORD_NOT_OBJECT = "record_not_object"
    RECORD_FORMAT = "record_format"
    RECORD_RULES = "record_rules"
    RECORD_MALFORMED = "record_malformed"
    RECORD_DEALER = "record_dealer"
    RECORD_GAME_WON = "record_game_won"
    RECORD_STOPS_EARLY = "record_stops_early"
    RECORD_REDEAL = "record_redeal"
    RECORD_DECK = "record_deck"
    RECORD_MOVE = "record_move"


class EscobaError(ValueError):
    """An error a user can cause: ``str(exc)`` is the English sentence, ``code`` and
    ``params`` the reason for a program (a translation, a test)."""

    #: The code an error of this class has when none is given.
    default_code: Code = Code.RECORD_MALFORMED

    def __init__(self, message: str, code: Code | str | None = None, **params: Any) -> None:
        super().__init__(message)
        self.code = Code(code) if code is not None else self.default_code
        self.params: dict[str, Any] = params


class CardError(EscobaError):
    """Bad card notation or a card that does not exist."""

    default_code = Code.CARD_UNKNOWN


class RulesError(EscobaError):
    """An invalid rules option or combination."""

    default_code = Code.RULES_BAD_VALUE


class DeckError(EscobaError):
    """A deck that cannot be dealt: not a full deck, or (under redeal) to be redealt."""

    default_code = Code.DECK_NOT_FULL


class IllegalMoveError(EscobaError):
    """A move or claim the rules do not allow; the message says exactly why."""

    default_code = Code.NOT_A_MOVE


class RecordError(EscobaError):
    """A record that cannot be read or that breaks a rule; the message says where.

    ``params`` holds ``round`` and ``move`` (1-based) when the error is inside one.
    """

    default_code = Code.RECORD_MALFORMED
