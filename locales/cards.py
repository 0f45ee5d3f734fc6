"""A card named as a sentence of a language needs it: "el 7 de espadas", "den Knappen
der Münzen", "金币7" (issue 33).

Each language's ``locales/<lang>/cards.toml`` says how: the name's pattern, each rank's
name and grammatical gender (and its case forms where the noun changes: der Knappe, den
Knappen), each suit's name, and the *forms* a sentence asks for, the words that go
before the name by gender and case (``the``: der/die/das; ``your_acc``: deinen/deine/
dein). A catalog message writes ``{card}`` for the bare name and ``{card.the_acc}`` for a
form; ``{cards.the}`` puts the form before each card of a list, which Babel joins the
way the language lists things ("A, B und C", "A、B和C").

German, Italian and Chinese name the Spanish cards in their own words by default (as
their seeds do: die Münzen-Sieben, 金币7; Italian children know the Italian deck's words:
il 7 di denari, il Fante di coppe); ``spanish=True`` keeps the baraja's names for families
who play the Spanish way ("die 7 de oros"), with the genders the file gives them.
English and Spanish use the Spanish names always.

:class:`CardText` is a ``str`` (the bare name) with the forms as attributes, so code
that joins or compares card names keeps working, and ``str.format`` finds
``{card.the}`` on it. Nothing here knows a particular language: the files do.
"""

from __future__ import annotations

import functools
import logging
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import DEFAULT, ROOT

__all__ = ["CardGrammar", "CardText", "CardList", "grammar", "card_text", "card_list",
           "FORMS", "GENDERS", "DECKS", "CardsFileError", "read_grammar", "rank_text",
           "join_list"]

log = logging.getLogger(__name__)

#: Every form a catalog may ask of a card (each language defines those it needs).
FORMS = ("the", "the_acc", "the_dat", "of_the", "to_the", "your", "your_acc", "your_dat",
         "a", "a_acc")
GENDERS = ("m", "f", "n")
DECKS = ("spanish", "french", "italian", "joker")  # joker: its gender as rank 1
_CASES = ("nom", "acc", "dat")
_SUITS = ("o", "c", "e", "b")
#: Words ending in an apostrophe join the name without a space (Italian "l'Asso").
_ELIDED = ("'", "\u2019")


class CardsFileError(ValueError):
    """A ``cards.toml`` that does not say what a card's name needs (which file, where)."""


@dataclass(frozen=True)
class _Rank:
    name: str
    gender: str
    cases: Mapping[str, str]  # the noun's own case forms, where it has them


@dataclass(frozen=True)
class _Form:
    words: Mapping[str, str]  # gender -> the words before the name
    case: str


@dataclass(frozen=True)
class CardGrammar:
    """One language's way of naming a card."""

    lang: str
    pattern: str
    own_names: bool
    ranks: Mapping[int, _Rank]
    suits: Mapping[str, str]
    deck_genders: Mapping[str, Mapping[int, str]]
    forms: Mapping[str, _Form]

    def gender(self, value: int, deck: str | None = None) -> str:
        """The gender of a card of ``value``: named by the language (``deck`` None) or by
        a deck's own names (``"spanish"``, ``"french"``, ``"italian"``), where the file
        gives that deck's genders."""
        return self.deck_genders.get(deck or "", {}).get(value, self.ranks[value].gender)

    def name(self, value: int, suit: str, case: str = "nom") -> str:
        """The language's own name of a card (``suit`` a letter o/c/e/b)."""
        rank = self.ranks[value]
        return self.pattern.format(rank=rank.cases.get(case, rank.name), suit=self.suits[suit])

    def with_form(self, bare: str, gender: str, form: str) -> str:
        found = self.forms.get(form)
        if found is None:  # the catalog test makes sure no message asks for one
            log.warning("no card form %r in %s", form, self.lang)
            return bare
        words = found.words.get(gender) or found.words.get("n") or ""
        if words.endswith(_ELIDED):  # an elided article: "l'Asso", "dell'Asso"
            return f"{words}{bare}"
        return f"{words} {bare}" if words else bare


def _fail(path: Any, where: str, what: str) -> CardsFileError:
    return CardsFileError(f"{path}: {where}: {what}")


def read_grammar(path: Path, lang: str) -> CardGrammar:
    """A ``cards.toml`` read and checked; :class:`CardsFileError` says what is wrong."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise _fail(path, "file", str(exc)) from exc
    pattern = raw.get("pattern")
    if not isinstance(pattern, str) or "{rank}" not in pattern or "{suit}" not in pattern:
        raise _fail(path, "pattern", "a text with {rank} and {suit}")
    for table in ("ranks", "suits", "decks", "forms"):
        if not isinstance(raw.get(table, {}), dict):
            raise _fail(path, table, "a table")
    ranks: dict[int, _Rank] = {}
    for value in range(1, 11):
        entry = raw.get("ranks", {}).get(str(value))
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise _fail(path, f"ranks.{value}", "a table with a name and a gender")
        if entry.get("gender") not in GENDERS:
            raise _fail(path, f"ranks.{value}.gender", f"one of {', '.join(GENDERS)}")
        extra = set(entry) - {"name", "gender", *_CASES}
        if extra:
            raise _fail(path, f"ranks.{value}", f"unknown keys {sorted(extra)}")
        ranks[value] = _Rank(entry["name"], entry["gender"],
                             {c: entry[c] for c in _CASES if c in entry})
    suits = raw.get("suits", {})
    if set(suits) != set(_SUITS) or not all(isinstance(v, str) and v for v in suits.values()):
        raise _fail(path, "suits", "a name for each of o, c, e, b")
    decks: dict[str, dict[int, str]] = {}
    for deck, genders in raw.get("decks", {}).items():
        if deck not in DECKS:
            raise _fail(path, f"decks.{deck}", f"not a deck (one of {', '.join(DECKS)})")
        try:
            decks[deck] = {int(k): v for k, v in genders.items()}
        except (AttributeError, ValueError) as exc:
            raise _fail(path, f"decks.{deck}", "rank = gender lines") from exc
        if (any(g not in GENDERS for g in decks[deck].values())
                or not set(decks[deck]) <= set(ranks)):
            raise _fail(path, f"decks.{deck}", "a gender (m, f, n) for ranks 1-10")
    forms: dict[str, _Form] = {}
    for form, entry in raw.get("forms", {}).items():
        if form not in FORMS:
            raise _fail(path, f"forms.{form}", f"not a form (one of {', '.join(FORMS)})")
        words = {g: w for g, w in entry.items() if g != "case"}
        if not words or not set(words) <= set(GENDERS):
            raise _fail(path, f"forms.{form}", "the words before the name by gender m/f/n")
        case = entry.get("case", "nom")
        if case not in _CASES:
            raise _fail(path, f"forms.{form}.case", f"one of {', '.join(_CASES)}")
        forms[form] = _Form(words, case)
    return CardGrammar(lang, pattern, bool(raw.get("own_names", False)), ranks,
                       dict(suits), decks, forms)


@functools.cache
def grammar(lang: str) -> CardGrammar:
    """The card grammar of ``lang`` (English's where the language has no file)."""
    if not (ROOT / lang / "cards.toml").exists():
        lang = DEFAULT
    return read_grammar(ROOT / lang / "cards.toml", lang)


class CardText(str):
    """A card's bare name (the ``str``), with its forms as attributes: ``text.the_acc``.

    ``names`` holds the name in each case (a form's case picks one); ``gender`` the
    gender the forms' words agree with.
    """

    __slots__ = ("_grammar", "_gender", "_names")
    _grammar: CardGrammar
    _gender: str
    _names: Mapping[str, str]

    def __new__(cls, names: Mapping[str, str], gender: str, grammar_: CardGrammar) -> CardText:
        text = super().__new__(cls, names["nom"])
        text._grammar, text._gender, text._names = grammar_, gender, names
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy, a pickle (Streamlit's caches, session state): the names, the gender
        # and the language, whose grammar is read again.
        return (_card_text_again, (dict(self._names), self._gender, self._grammar.lang))

    def __getattr__(self, form: str) -> str:
        if form.startswith("_"):
            raise AttributeError(form)
        if form not in FORMS:
            raise AttributeError(f"{form!r} is not a card form ({', '.join(FORMS)})")
        found = self._grammar.forms.get(form)
        case = found.case if found is not None else "nom"
        return self._grammar.with_form(self._names.get(case, str(self)), self._gender, form)


class CardList(str):
    """Cards named one after the other as the language lists them (the ``str``), each
    taking a form: ``cards.the_acc`` -> "die 3 der Münzen und den König der Kelche"."""

    __slots__ = ("_items", "_lang", "_style")
    _items: tuple[CardText, ...]
    _lang: str
    _style: str

    def __new__(cls, items: Iterable[CardText], lang: str, empty: str = "",
                style: str = "standard") -> CardList:
        listed = tuple(items)
        text = super().__new__(cls, join_list([str(i) for i in listed], lang, style) or empty)
        text._items, text._lang, text._style = listed, lang, style
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return (CardList, (self._items, self._lang, "" if self._items else str(self),
                           self._style))

    def __getattr__(self, form: str) -> str:
        if form.startswith("_"):
            raise AttributeError(form)
        if not self._items:  # "nothing" takes no article
            return str(self)
        return join_list([getattr(item, form) for item in self._items], self._lang, self._style)


def _card_text_again(names: Mapping[str, str], gender: str, lang: str) -> CardText:
    return CardText(names, gender, grammar(lang))


def join_list(names: list[str], lang: str, style: str = "standard") -> str:
    """Names as the language lists them, by Babel: ``standard`` ("A, B und C"), ``or``
    (any one of them: "A, B oder C")."""
    if len(names) < 2:
        return "".join(names)
    from babel.lists import format_list

    return format_list(names, style=style, locale=_babel_locale(lang))  # type: ignore[arg-type]


@functools.lru_cache(maxsize=16)
def _babel_locale(lang: str) -> Any:
    """Babel's locale of ``lang``, parsed once: parsed at every list, it was a sixth of
    a class's year of answers exported as a CSV (issue 32's try-out: 17 s)."""
    from babel import Locale

    return Locale.parse(lang)


def card_text(value: int, suit: str, lang: str, name: str | None = None,
              deck: str | None = None) -> CardText:
    """A card named in ``lang``: by the language's own names (``name`` None), or by
    ``name`` as ``deck`` writes it ("Sota de copas", "Karo 7", "Fante di spade"), with
    that name's gender."""
    g = grammar(lang)
    if name is None:
        return CardText({case: g.name(value, suit, case) for case in _CASES}, g.gender(value), g)
    return CardText({"nom": name}, g.gender(value, deck), g)


def rank_text(value: int, lang: str, name: str | None = None,
              deck: str | None = None) -> CardText:
    """A rank alone ("der Knappe", "侍从", "la Sota"), in the language's own words or as
    ``name`` (a deck's: "Sota", "J"), with its forms."""
    g = grammar(lang)
    if name is None:
        rank = g.ranks[value]
        return CardText({case: rank.cases.get(case, rank.name) for case in _CASES},
                        g.gender(value), g)
    return CardText({"nom": name}, g.gender(value, deck), g)


def card_list(items: Iterable[CardText], lang: str, empty: str = "",
              style: str = "standard") -> CardList:
    """Cards as the language lists them (``empty`` when there are none: "nothing";
    ``style="or"``: any one of them, "A, B oder C")."""
    return CardList(items, lang, empty, style)
