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
import string
from typing import Any

from babel.dates import format_skeleton
from babel.numbers import format_decimal
from babel.numbers import format_percent as babel_percent

import locales
from escoba import Card, Deck

__all__ = ["t", "has_key", "LANGUAGES", "DEFAULT", "language_from_locale", "use_language",
           "run_language", "GLOSSARY", "placeholders", "format_day", "format_number",
           "format_percent", "card_name"]

log = logging.getLogger(__name__)

#: Language code -> its own name, as shown in the language picker.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "de": "Deutsch",
                             "zh": "中文"}
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


def language_from_locale(locale: str | None) -> str:
    """``"es-AR"`` -> ``"es"``, ``"zh-CN"`` -> ``"zh"``; anything we do not speak -> English."""
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
    """The ``{name}`` fields of a catalog string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


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


def card_name(card: Card, deck: Deck, lang: str | None = None, /) -> str:
    """A card's name as the child reads it.

    Spanish and Italian cards keep their own names ("Sota de copas", "Fante di
    spade"): they are game words, like escoba. French cards are named in the
    child's language ("Karo 7", "方块7"), and so are the jokers.
    """
    if card.is_joker:
        return t("card_joker", lang, n=card.index - 39)
    if deck is Deck.FRENCH and card.suit is not None:
        return t("card_french", lang, rank=card.rank_name(deck),
                 suit=t(f"suit_french_{card.suit.french}", lang))
    return card.name(deck)


def format_day(day: dt.date | str, lang: str | None = None, /, weekday: bool = False) -> str:
    """A day as the child's language writes it: "Dec 1", "1. Dez.", "12月1日"."""
    if isinstance(day, str):
        day = dt.date.fromisoformat(day)
    return format_skeleton("MMMEd" if weekday else "MMMd", day, locale=_language(lang))


def format_number(value: float, lang: str | None = None, /) -> str:
    """A number with the language's decimal sign: 2.5, "2,5"."""
    return format_decimal(value, locale=_language(lang))


def format_percent(fraction: float, lang: str | None = None, /) -> str:
    """A fraction 0-1 as a percentage in the language: "75%", "75 %"."""
    return babel_percent(fraction, locale=_language(lang))
