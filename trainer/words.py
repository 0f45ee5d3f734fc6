"""The board's sentences in the child's language: events, moves, hints, the coach's why.

Pure functions over the engine's values and the catalogs (no Streamlit): the
Play page, the tappable board (:mod:`trainer.board_view`), the replay page and
the game review all word things the same way. Cards are named in the deck the
child chose (``deck``); how a chance is said follows the Settings (``odds``:
``"words"`` with a meter for young children, or ``"numbers"``).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
from collections.abc import Iterable
from typing import Any

from escoba import Card, CardError, Deck, Move, Play, Rules

from . import hints as hint_mod
from .i18n import CardList, CardText, card_name, cards_name, has_key, spanish_card_names, t
from .verdicts import capture_terms, sum_expression

__all__ = ["card_text", "cards_text", "seat_label", "seat_name", "seat_status", "event_line",
           "sweep_word_key",
           "odds_text", "hint_line_text", "coach_text", "move_text", "answer_text", "VOICES"]

log = logging.getLogger(__name__)

_METER = ("▮▯▯", "▮▮▯", "▮▮▮")


def card_text(card: Card, deck: Deck) -> CardText:
    return card_name(card, deck)


def cards_text(cards: Iterable[Card], deck: Deck) -> CardList:
    """Cards by name, in order, as the language lists them ("3 de copas y 5 de
    espadas"), or "nothing"."""
    return cards_name(cards, deck, None, empty=t("nothing"))


def seat_name(spec: Any, seat: int) -> str:
    """A seat's name in the viewer's language, worded when it is drawn: a child's
    nickname; a computer player without a stored name (a table's) is "Computer 3" with
    the seat's number as the waiting room counts (``seat`` from 0); one that took over a
    child's seat is "Computer for Leo". Older games keep the names they stored."""
    if spec.is_human:
        return spec.name
    if getattr(spec, "stands_in", ""):
        return t("table_bot_for", name=spec.stands_in)
    number = _default_bot_number(spec.name)
    if number is not None:  # "Computer 1" stored in another language: said in this one
        return t("bot_name", n=number)
    return spec.name or t("bot_name", n=seat + 1)


def _default_bot_number(name: str) -> int | None:
    """The number of a computer player's default name in any language ("Ordenador 2")."""
    from .i18n import LANGUAGES

    for lang in LANGUAGES:
        pattern = re.escape(t("bot_name", lang, n=0)).replace("0", r"(\d+)", 1)
        found = re.fullmatch(pattern, name or "")
        if found:
            return int(found.group(1))
    return None


def seat_label(spec: Any, seat: int = -1) -> str:
    """A seat as the board names it: "🦊 Ana", or "🤖 Computer 1 (Gentle)" for a computer
    player (``spec`` is a :class:`trainer.gameplay.SeatSpec`, ``seat`` its number)."""
    if spec.is_human:
        return f"{spec.avatar} {spec.name}"
    return t("name_and_note", name=f"{spec.avatar} {seat_name(spec, seat)}",
             note=t("level_" + spec.level))


def seat_status(cards: int, pile: int, escobas: int, variant: str = "escoba") -> str:
    """"3 in hand · 1 captured · 1 escoba" (Scopa: "1 scopa"), each count with its plural
    form."""
    sweeps = "seat_scope" if variant == "scopa" else "seat_escobas"
    return " · ".join((t("seat_cards", count=cards), t("seat_pile", count=pile),
                       t(sweeps, count=escobas)))


#: A sweep's words under Scopa: "scopa!" where Escoba's say "¡escoba!".
_SCOPA_WORDS = {"event_escoba": "event_scopa", "you_escoba": "you_scopa",
                "board_escoba_cheer": "board_scopa_cheer",
                "board_escoba_title": "board_scopa_title", "praise.escoba": "praise.scopa",
                "fb.escoba": "fb.scopa", "fb.then_escoba": "fb.then_scopa"}


def sweep_word_key(key: str, variant: str) -> str:
    """The catalog key of a sweep's words in the game ``variant`` plays by (any domain:
    the board, the praise, the lessons' feedback): the one place that says it."""
    return _SCOPA_WORDS.get(key, key) if variant == "scopa" else key


def event_line(who: str, event: Play, deck: Deck, variant: str = "escoba") -> str:
    """One line a child can follow: who did what, and what was captured (a sweep is
    "¡escoba!" or, under Scopa, "scopa!")."""
    if event.kind == "initial":
        return t("event_initial", who=who, cards=cards_text(event.take, deck))
    if event.kind == "sweep":
        return t("event_sweep", who=who, cards=cards_text(event.take, deck))
    if event.kind == "renuncio":
        return t("event_renuncio", who=who, card=card_text(event.card, deck),
                 cards=cards_text(event.take, deck))
    if event.kind == "miscount":
        return t("event_miscount", who=who, card=card_text(event.card, deck))
    if event.take:
        key = sweep_word_key("event_escoba", variant) if event.escoba else "event_capture"
        return t(key, who=who, card=card_text(event.card, deck),
                 cards=cards_text(event.take, deck))
    return t("event_laid", who=who, card=card_text(event.card, deck))


def odds_text(odds: hint_mod.Odds, style: str = "words") -> str:
    """A chance as the Settings ask: words and a meter (young children) or a percentage."""
    if style == "numbers" and not odds.known:
        return t("odds_percent", chance=odds.percent)
    return f"{t(odds.word_key)} {_METER[odds.level - 1]}"


def move_text(move: Move | None, deck: Deck) -> str:
    """A move in words: "play the 7 de oros and take ..." / "put the ... down"."""
    if move is None:
        return ""
    if move.take:
        return t("hint_best_capture", card=card_text(move.card, deck),
                 cards=cards_text(move.take, deck))
    return t("hint_best_lay", card=card_text(move.card, deck))


#: Who the coach's sentence speaks to: one child at their board ("you take 3 cards"), or a
#: whole class at the front of the room, the teacher's screen (issue 29: "we take 3
#: cards"). A ``class`` sentence is the catalog's ``coach_class.<key>`` where the child's
#: speaks to "you" in some language, else the child's own (it speaks to no one).
VOICES = ("child", "class")


def coach_text(key: str, params: dict[str, Any], deck: Deck, voice: str = "child") -> str:
    """A coach message key through our catalog (unknown keys get a general line), in
    ``voice`` (:data:`VOICES`).

    The coach speaks in keys with raw parameters; here a chance 0-1 becomes a
    percentage and a card code ("7o") the card's name in the chosen deck.
    """
    if voice not in VOICES:
        raise ValueError(f"unknown voice {voice!r} (one of {', '.join(VOICES)})")
    to_class = voice == "class"
    shown = dict(params)
    if key == "captures" and shown.get("siete_de_oros"):
        key = "captures_siete"
    elif key == "captures":
        # "it takes 2 cards, with an oro and a seven", not "(oros: 1, sevens: 1)".
        extras = [t(f"coach_extra_{name}", count=int(shown.get(name) or 0))
                  for name in ("oros", "sevens") if int(shown.get(name) or 0) > 0]
        what = t("coach_extra_and", first=extras[0], second=extras[1]) if len(extras) == 2 \
            else (extras[0] if extras else "")
        shown["extra"] = t("coach_extra_with", what=what) if what else ""
    for counter in ("cards", "best"):  # the plural form follows the number of cards
        if isinstance(shown.get(counter), int) and "count" not in shown:
            shown["count"] = shown[counter]
    for chance in ("chance", "other"):
        if isinstance(shown.get(chance), float):
            shown[chance] = round(100 * shown[chance])
    if isinstance(shown.get("card"), str):
        with contextlib.suppress(ValueError):
            shown["card"] = card_name(Card.parse(shown["card"]), deck)
    kept = shown.pop("kept", None)
    candidates = ((f"coach_class.{key}",) if to_class else ()) + (f"coach.{key}", key)
    for candidate in candidates:
        if has_key(candidate):
            text = t(candidate, **shown)
            if isinstance(kept, str):
                # What decides between two cards of one value: the scoring one is kept.
                with contextlib.suppress(ValueError):
                    text = t("coach_class_kept" if to_class else "coach_kept", why=text,
                             card=card_name(Card.parse(kept), deck))
            return text
    log.warning("untranslated coach key %s", key)
    return t("coach_generic")


def hint_line_text(line: hint_mod.HintLine, deck: Deck, odds_style: str = "words") -> str:
    """One hint line in the child's words: cards by name, moves in words, the coach's why."""
    shown: dict[str, Any] = {}
    for name, value in line.params.items():
        if isinstance(value, Card):
            shown[name] = card_text(value, deck)
        elif name == "cards" and line.key.startswith("warn_sweep"):
            # the cards that could sweep: any one of them ("A, B oder C")
            shown[name] = cards_name(value, deck, None, empty=t("nothing"), style="or")
        elif name == "cards":
            shown[name] = cards_text(value, deck)
        elif name == "move":
            shown[name] = move_text(value, deck)
        elif name == "why":
            shown[name] = coach_text(*value, deck)
        elif isinstance(value, hint_mod.Odds):
            shown[name] = odds_text(value, odds_style)
        else:
            shown[name] = value
    text = t(line.key, **shown)
    # A line may start with a move in words ("put the ... down"): a sentence's capital.
    return text[:1].upper() + text[1:]


def review_item_text(item: hint_mod.ReviewedMove, deck: Deck, rules: Rules) -> str:
    """One mistake of the coach's review in words (issue 26): its round and move, the
    cards, and what decides ("Round 2, move 5: 9 + 6 = 15: your 6 de copas could take
    the Caballo de copas — it takes 2 cards"), never a bare "a better move was possible".
    The sum is the game's own: Scopa's table cards make the card's value ("4 + 6 = 10")."""
    named = [coach_text(k, p, deck) for k, p in item.mistakes]
    why = [coach_text(*item.why, deck)] if item.why is not None else []
    reason = "; ".join(dict.fromkeys(why + named)) or t("review_better")
    where = {"round": item.round or "?", "move": item.move_no or "?"}
    if item.missed_capture and item.best is not None:
        terms = capture_terms(rules, item.best)
        # A capture that is no sum (Scopa's ace taking the whole table by right) is told
        # as the move below, never as a false "4 + 6 = 1".
        if terms is not None:
            values, target = terms
            return t("review_item_missed_at", **where, expr=sum_expression(values),
                     total=target, card=card_text(item.best.card, deck),
                     cards=cards_text(item.best.take, deck), why=reason)
    return t("review_item_at", **where, played=move_text(item.move, deck),
             best=move_text(item.best, deck), why=reason)


# -- a child's stored answer, for a teacher's or a parent's spreadsheet (issue 27) --------

def answer_text(answer: Iterable[Any], lang: str) -> str:
    """What a child answered, as a teacher reads it in ``lang``: a number ("7"), moves
    ("6 de oros → 3 de oros", "die 6 der Münzen → die 3 der Münzen"), groups of cards, a
    game turn with the capture that was possible; never the stored JSON. Cards are named
    as the child's language names them (:func:`trainer.i18n.card_name`)."""
    return "; ".join(filter(None, (_answer_item_text(item, lang) for item in answer)))


def _answer_item_text(item: Any, lang: str) -> str:
    """:func:`_answer_item`, kept for items seen before: a class's year of answers names
    the same moves over and over (a third of its CSV export's time). Keyed by the item
    as JSON, the language and whether this run names Spanish cards in Spanish."""
    try:
        key = json.dumps(item, sort_keys=True)
    except (TypeError, ValueError):
        return _answer_item(item, lang)
    return _answer_item_cached(key, lang, spanish_card_names())


@functools.lru_cache(maxsize=8192)
def _answer_item_cached(key: str, lang: str, spanish: bool) -> str:
    # ``spanish`` only keys the cache: _answer_item reads the run's setting itself.
    return _answer_item(json.loads(key), lang)


def _say(key: str, lang: str, **params: Any) -> str:
    return t(key, lang, domain="classroom", **params)


def _cards(codes: Any) -> list[Card] | None:
    """Card codes ("3o 5c", ["3o", "5c"]) as cards, or None when they are not cards."""
    if isinstance(codes, str):
        codes = re.split(r"[\s,+]+", codes.strip())
    if not isinstance(codes, Iterable):
        return None
    try:
        return [c if isinstance(c, Card) else Card.parse(str(c)) for c in codes if str(c)]
    except CardError:
        return None


def _move_words(card: Any, take: Any, lang: str) -> str | None:
    played, taken = _cards([card] if card is not None else []), _cards(take or [])
    if not played or taken is None:
        return None
    name = card_name(played[0], Deck.SPANISH, lang)
    if not taken:
        return _say("csv.answer_lay", lang, card=name)
    # a move as notation, the same in every language: played → taken
    return f"{name} → {cards_name(taken, Deck.SPANISH, lang)}"


def _answer_item(item: Any, lang: str) -> str:
    if item is None:
        return ""
    if isinstance(item, bool | int | float):
        return str(item)  # quick facts: the number the child tapped
    if isinstance(item, dict):
        move = _move_words(item.get("card"), item.get("take"), lang)
        could = item.get("could")
        if move is not None and isinstance(could, dict):
            better = _move_words(could.get("card"), could.get("take"), lang)
            if better:
                return _say("csv.answer_could", lang, move=move, could=better)
        return move or _say("csv.answer_unreadable", lang)
    if isinstance(item, str):
        text = item.strip()
        if text.lower() in ("none", "nothing", "no capture"):
            return _say("csv.answer_none", lang)
        if text.isdigit():
            return text
        played, sep, taken = text.partition(":")
        if sep and (move := _move_words(played.strip(), taken, lang)) is not None:
            return move
    cards = _cards(item)
    if cards:
        return str(cards_name(cards, Deck.SPANISH, lang))
    # typed text that names no card is kept as typed; anything else is not shown raw
    return item.strip() if isinstance(item, str) else _say("csv.answer_unreadable", lang)
