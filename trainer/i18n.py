"""One translation function for every visible string: ``t(key, **params)``.

The strings live in gettext catalogs under ``locales/`` (see :mod:`locales`),
one per language, English included; the keys are the message ids. The
language is passed explicitly, or fixed for the run under way by
:func:`use_language` (the app does it once per run, see :mod:`ui.i18n`), else
English. Domain words of the game (escoba, oros, Sota, ¡renuncio!) stay
Spanish in every language; :data:`GLOSSARY` lists them and each catalog
explains them (``glossary.<slug>``).

Dates, numbers and percentages go through Babel's formatters in the same
language (:func:`format_day`, :func:`format_number`, :func:`format_percent`).
"""

from __future__ import annotations

import contextvars
import datetime as dt
import logging
import re
import string
from collections.abc import Iterable
from typing import Any

from babel.dates import format_skeleton
from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_percent

import locales
from escoba import Card, Deck
from locales.cards import (
    CardList,
    CardText,
    card_list,
    card_text,
    grammar,
    join_list,
    rank_text,
)

__all__ = ["t", "has_key", "LANGUAGES", "DEFAULT", "language_from_locale", "use_language",
           "run_language", "GLOSSARY", "SCOPA_GLOSSARY", "placeholders", "format_day",
           "format_number", "format_percent", "format_list", "card_name", "rank_name",
           "field_forms", "cards_name",
           "use_card_names", "spanish_card_names", "CardText", "CardList", "space_after",
           "join_text"]

log = logging.getLogger(__name__)

#: Language code -> its own name, as shown in the language picker.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "de": "Deutsch",
                             "it": "Italiano", "zh": "中文"}
DEFAULT = locales.DEFAULT
_DOMAIN = "messages"

#: The Spanish game words every language keeps, and the key that explains each one.
GLOSSARY: dict[str, str] = {
    "escoba": "glossary.escoba", "oros": "glossary.oros", "copas": "glossary.copas",
    "espadas": "glossary.espadas", "bastos": "glossary.bastos", "As": "glossary.as",
    "Sota": "glossary.sota", "Caballo": "glossary.caballo", "Rey": "glossary.rey",
    "siete de oros": "glossary.siete_de_oros",
    "setenta / primera": "glossary.setenta_primera", "¡renuncio!": "glossary.renuncio",
    "mesa abierta": "glossary.mesa_abierta",
}
#: Scopa's Italian words (issue 28), explained in every language as Escoba's are.
SCOPA_GLOSSARY: dict[str, str] = {
    "scopa": "glossary.scopa", "denari": "glossary.denari", "coppe": "glossary.coppe",
    "spade": "glossary.spade", "bastoni": "glossary.bastoni",
    "Fante, Cavallo, Re": "glossary.fante_cavallo_re", "settebello": "glossary.settebello",
    "primiera": "glossary.primiera", "napola": "glossary.napola",
    "asso piglia tutto": "glossary.asso_piglia_tutto",
}


def language_from_locale(locale: str | None) -> str:
    """``"es-AR"`` -> ``"es"``, ``"it-CH"`` -> ``"it"``, ``"zh-CN"`` -> ``"zh"``; anything we
    do not speak -> English."""
    if not locale:
        return DEFAULT
    code = locale.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT


# The language of the script run under way (ui.i18n.start_run sets it once per run):
# t() is called dozens of times per rerun, so reading session state each time would be
# slower. A context variable, not a thread's: a Streamlit run, a fragment's rerun (a
# ``run_every`` timer starts it on a script thread of its own) and a callback each
# begin with it unset, and ui.errors.fragment (the one way a fragment is made) sets it
# again at the start of every fragment run: a fragment that did not once fell back to
# English after its first timer tick (issue 25).
_RUN_LANGUAGE: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "escoba_run_language", default=None)


def use_language(lang: str | None) -> None:
    """Make ``lang`` this run's language for :func:`t` (``None`` forgets it)."""
    _RUN_LANGUAGE.set(lang if lang in LANGUAGES else None if lang is None else DEFAULT)


def run_language() -> str | None:
    """The language fixed for this run by :func:`use_language`, if any."""
    return _RUN_LANGUAGE.get()


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a catalog string (``{card.the}`` is the field ``card``)."""
    return {_FIELD.split(name)[0] for _, name, _, _ in string.Formatter().parse(text) if name}


def field_forms(text: str) -> set[tuple[str, str]]:
    """The forms a catalog string asks of its fields: ``{card.the_acc}`` -> ("card",
    "the_acc")."""
    found = set()
    for _, name, _, _ in string.Formatter().parse(text):
        if name and "." in name:
            root, form = name.split(".", 1)
            found.add((root, form))
    return found


_FIELD = re.compile(r"[.\[]")


def has_key(key: str, domain: str = _DOMAIN) -> bool:
    """Whether ``key`` (plain, or with plural forms) is a message of the app (of ``domain``)."""
    return key in locales.catalog(domain, DEFAULT).translated


def _language(lang: str | None) -> str:
    """The language asked for, else this run's, else English."""
    return lang or run_language() or DEFAULT


def t(key: str, lang: str | None = None, /, *, domain: str = _DOMAIN, **params: Any) -> str:
    """The text of ``key`` in the current (or given) language, with ``params`` filled in.

    ``domain`` names the catalog: ``messages`` (the app, the default) or ``lessons``
    (the lesson path's titles, goals and feedback: ``t("goal.tap_value", domain="lessons",
    value=8)``; :func:`trainer.lessons.say` words a lesson's message with its cards).
    No catalog has a ``{domain}`` placeholder, so the name is free. Plural forms, the
    ``key.zero`` wording and the fallback to English are :func:`locales.translate`'s.
    """
    return locales.translate(domain, _language(lang), key, **params)


# Whether this run names the Spanish cards by the baraja's names in every language (the
# "Spanish card names" setting, a family that plays the Spanish way): set with the
# language, once per run (ui.i18n.start_run).
_SPANISH_NAMES: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "escoba_spanish_card_names", default=False)


def use_card_names(spanish: bool) -> None:
    """Name Spanish cards by their Spanish names in this run (``False``: the language's)."""
    _SPANISH_NAMES.set(bool(spanish))


def spanish_card_names() -> bool:
    """Whether this run names Spanish cards by their Spanish names."""
    return _SPANISH_NAMES.get()


def card_name(card: Card, deck: Deck, lang: str | None = None, /) -> CardText:
    """A card's name as the child reads it, with the forms a sentence asks for
    (``{card.the_acc}``: :mod:`locales.cards`).

    The Spanish cards are named in the child's language where its seed does so
    ("die 7 der Münzen", "金币7"; English and Spanish keep "7 de oros"), unless the
    family chose the Spanish names. French cards are named in the child's language
    ("Karo 7", "方块7"), Italian cards by their own names ("Fante di spade"), and so are
    the jokers in the child's language.
    """
    lang = _language(lang)
    if card.is_joker:
        return card_text(1, "o", lang, name=t("card_joker", lang, n=card.index - 39),
                         deck="joker")
    suit = card.suit
    assert suit is not None
    if deck is Deck.FRENCH:
        return card_text(card.value, suit.letter, lang, name=t(
            "card_french", lang, rank=card.rank_name(deck), suit=t(f"suit_french_{suit.french}",
                                                                   lang)), deck="french")
    if deck is Deck.ITALIAN:
        return card_text(card.value, suit.letter, lang, name=card.name(deck), deck="italian")
    if grammar(lang).own_names and not spanish_card_names():
        return card_text(card.value, suit.letter, lang)
    return card_text(card.value, suit.letter, lang, name=card.name(deck), deck="spanish")


def rank_name(card: Card, deck: Deck, lang: str | None = None, /) -> CardText:
    """A card's rank alone as the child reads it ("Knappe", "侍从", "Sota", "J"), with
    its forms, named as :func:`card_name` names the card."""
    lang = _language(lang)
    if card.is_joker or card.suit is None:
        return card_text(1, "o", lang, name=card.rank_name(deck), deck="joker")
    if deck is Deck.SPANISH and grammar(lang).own_names and not spanish_card_names():
        return rank_text(card.value, lang)
    return rank_text(card.value, lang, name=card.rank_name(deck), deck=deck.value)


def cards_name(cards: Iterable[Card], deck: Deck, lang: str | None = None, /,
               empty: str = "", style: str = "standard") -> CardList:
    """Cards named as the child's language lists them ("A, B und C", "A、B和C"), in
    the deck's order; ``{cards.the_acc}`` gives each its form; ``empty`` when none;
    ``style="or"`` for any one of them ("A, B oder C")."""
    lang = _language(lang)
    return card_list([card_name(c, deck, lang) for c in sorted(cards)], lang, empty, style)


#: Further than this from ``today``, :func:`format_day` writes the year too.
YEAR_SHOWN_AFTER = dt.timedelta(days=183)


def format_day(day: dt.date | str, lang: str | None = None, /, weekday: bool = False, *,
               today: dt.date | None = None) -> str:
    """A day as the child's language writes it: "Dec 1", "1. Dez.", "12月1日"; with its
    year ("Dec 5, 2026") when it is more than half a year from ``today``: in August a
    task "due Dec 5" read as one still to come (found trying a school year as a
    teacher)."""
    if isinstance(day, str):
        day = dt.date.fromisoformat(day)
    far = today is not None and abs(day - today) > YEAR_SHOWN_AFTER
    skeleton = ("yMMMEd" if weekday else "yMMMd") if far else ("MMMEd" if weekday else "MMMd")
    return format_skeleton(skeleton, day, locale=_language(lang))


def format_number(value: float, lang: str | None = None, /) -> str:
    """A number with the language's decimal sign: 2.5, "2,5"."""
    return format_decimal(value, locale=_language(lang))


def format_list(items: Iterable[str], lang: str | None = None, /) -> str:
    """Items as the language lists them: "a, b and c", "a, b und c", "a、b和c"."""
    return join_list([str(i) for i in items], _language(lang))


#: Chinese full-width marks carry their own space: no space is set after them.
_FULL_WIDTH_MARKS = ("：", "。", "，", "！", "？", "；", "、", "）")


def space_after(text: str) -> str:
    """The space after ``text`` before what follows it: none after a full-width mark
    ("最好的一步：你的…", not "最好的一步： 你的…"), else one."""
    return "" if text.endswith(_FULL_WIDTH_MARKS) else " "


def join_text(parts: Iterable[str]) -> str:
    """Sentences or pieces one after another, spaced as :func:`space_after` says."""
    joined = ""
    for part in parts:
        if part:
            joined += (space_after(joined) if joined else "") + part
    return joined


def format_percent(fraction: float, lang: str | None = None, /) -> str:
    """A fraction 0-1 as a percentage in the language: "75%", "75 %"."""
    return babel_percent(fraction, locale=_language(lang))
