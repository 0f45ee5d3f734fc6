"""What the app says aloud: the spoken form of a visible text (issue 23; no Streamlit).

The browser speaks (``speechSynthesis``, local voices: ``ui/board_assets/voice.js``);
this module only decides the words. A spoken text comes from the same catalog
message as the visible one, with three differences a voice needs:

- a message whose written form uses symbols (``✓``, ``▮▯``, ``3 / 6``, ``#4``) has a
  ``<key>.spoken`` variant in every language, used in its place
  (:func:`spoken_key`; ``tests/test_speech.py`` requires one wherever such a symbol
  appears, :data:`VOICE_UNFRIENDLY`);
- card names are said in words of the child's language ("seven of coins",
  "Sieben der Münzen", "金币七"; ``speech.card`` with ``speech.rank_N`` and
  ``speech.suit_<suit>``), and the Spanish game words the way the language explains
  them (``speech.word.<slug>``: "Sota" is "jack" to an English voice, "oros" is
  "金币" to a Chinese one);
- sums are said as a child says them: ``8 + 7 = 15`` is "8 plus 7 makes 15" (the
  voice reads the digits as numbers of its language), a ``?`` in a sum is "what",
  and decoration (emoji, stars, ticks, Markdown) is left out.

:func:`speakable` turns any worded text into its spoken form; :func:`spoken_t` and
:func:`spoken_message` word a catalog message (a lesson's :class:`~trainer.lessons.Message`)
the spoken way from the start.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from escoba import Card, Deck
from escoba.cards import CARDS
from locales.cards import card_text

from .i18n import DEFAULT, LANGUAGES, card_name, has_key, run_language, t
from .lessons import Message, say

__all__ = ["LANG_TAGS", "VOICE_UNFRIENDLY", "GAME_WORDS", "spoken_key", "spoken_t",
           "spoken_message", "spoken_card", "speakable", "lang_tag"]

#: The BCP 47 tag a voice is asked for, per app language (any voice of the language
#: will do: the browser matches on the first part).
LANG_TAGS: dict[str, str] = {"en": "en-GB", "es": "es-ES", "de": "de-DE", "it": "it-IT",
                             "zh": "zh-CN"}

#: Characters a voice reads as their names ("slash", "number sign", "check mark") or
#: skips where they carry meaning: a message containing one has a ``.spoken`` variant.
VOICE_UNFRIENDLY = frozenset("/#▮▯✓✔✗✘→←↓↑×÷≈<>|~^&@\\")

#: The Spanish game words inside running text and the catalog key saying each aloud,
#: longest first (so "siete de oros" is said before "oros" could be).
GAME_WORDS: tuple[tuple[str, str], ...] = (
    ("escoba de quince", "speech.word.escoba_de_quince"),
    ("siete de oros", "speech.word.siete_de_oros"), ("mesa abierta", "speech.word.mesa_abierta"),
    ("escobas", "speech.word.escobas"), ("escoba", "speech.word.escoba"),
    ("oros", "speech.word.oros"), ("copas", "speech.word.copas"),
    ("espadas", "speech.word.espadas"), ("bastos", "speech.word.bastos"),
    ("Sota", "speech.word.sota"), ("Caballo", "speech.word.caballo"), ("Rey", "speech.word.rey"),
    ("As", "speech.word.as"),
    ("setenta", "speech.word.setenta"), ("primera", "speech.word.primera"),
    ("renuncio", "speech.word.renuncio"),
)
#: How a game word is found when its case is not enough: "As" is the card inside a
#: sentence ("tap the As", "an As 16", "(As)", "你有As吗") or named at its start ("As: the one",
#: "As = 16", "As de oros"); "as" is an English word ("as many as"), and so is a
#: sentence's first "As" ("As you see").
_FOUND_AS_WRITTEN = {
    "As": r"(?:(?:(?<=[^.!?\s]\s)|(?<=[(“\"«（\u2e80-\u9fff]))As(?![A-Za-z])"
          r"|(?<![A-Za-z])As(?=\s*[:=]|\s+de\s))",
}

#: Not inside a word or a number ("x2", "1.5"); a Chinese character before it is not a
#: word of the sum ("1 加 9和2 + 8": Chinese has no space before a list's last fact).
_NOT_AFTER = r"(?<![.]|[^\W\u2e80-\u9fff\uf900-\ufaff])"
_SUM = re.compile(_NOT_AFTER
                  + r"((?:\d+|\?|🃏)(?:\s*\+\s*(?:\d+|\?|🃏))+)(?:\s*=\s*(\d+|\?))?")
#: A fact taken away, as trainer.text.fact_text writes it: "15 − 7" (the minus sign).
_DIFFERENCE = re.compile(_NOT_AFTER + r"(\d+)\s*−\s*(\d+)")
_EQUALS = re.compile(r"(?<=\w)\s*=\s*(?=\d)")
_MARKDOWN = re.compile(r"\*\*|__|`")
_SPACES = re.compile(r"\s+")
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,.!?:;。，！？：])")
#: A bracketed aside, Latin or full-width brackets: "(Sota)", "（escoba）".
_ASIDE = re.compile(r"\s*[(（]([^()（）]*)[)）]")
#: Where an aside's first words end ("escoba, a broom", "扫桌，意思是扫帚").
_ASIDE_BREAK = re.compile(r"\s*[,，:：;；]\s*")
#: What may stand between a word and its bracket, or around a word inside one.
_QUOTES = " \t¡!¿?！？“”\"'‘’«»„"


def lang_tag(lang: str | None) -> str:
    """The voice language for an app language (``"zh"`` -> ``"zh-CN"``)."""
    return LANG_TAGS.get(lang or DEFAULT, LANG_TAGS[DEFAULT])


def spoken_key(key: str, domain: str = "messages") -> str:
    """``key.spoken`` where the catalog has one (the written form uses symbols), else ``key``."""
    spoken = f"{key}.spoken"
    return spoken if has_key(spoken, domain) else key


def _lang(lang: str | None) -> str:
    return lang if lang in LANGUAGES else run_language() or DEFAULT


def spoken_card(card: Card, deck: Deck, lang: str | None = None) -> str:
    """A card's name in words of the child's language: "seven of coins", "siete de oros"
    (a Spanish or an Italian card; French cards and jokers are named in it already)."""
    lang = _lang(lang)
    if card.is_joker or card.suit is None or deck is Deck.FRENCH:
        return card_name(card, deck, lang)  # already in the child's language ("Karo 7")
    return t("speech.card", lang, rank=t(f"speech.rank_{card.value}", lang),
             suit=t(f"speech.suit_{card.suit.spanish}", lang))


@functools.cache
def _card_names(deck: Deck, lang: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """Every visible card name of ``deck`` (as :func:`~trainer.i18n.card_name` writes it)
    and its spoken form; the pattern finds the longest first, in any letter case."""
    names: dict[str, str] = {}
    for card in CARDS:
        said = spoken_card(card, deck, lang)
        if deck is Deck.SPANISH and card.suit is not None:
            # both ways a family may name them, whatever this run's setting: the
            # language's ("7 der Münzen") and the baraja's ("7 de oros", the "Spanish
            # card names" setting)
            names[card_text(card.value, card.suit.letter, lang).casefold()] = said
            names[card.name(deck).casefold()] = said
        else:
            names[card_name(card, deck, lang).casefold()] = said
    ordered = sorted(names, key=len, reverse=True)
    # Latin-letter boundaries: Chinese text runs its words into the card's name.
    pattern = re.compile("|".join(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])"
                                  for n in ordered), re.IGNORECASE)
    return pattern, names


@functools.cache
def _game_words(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    words = []
    for word, key in GAME_WORDS:
        said = t(key, lang)
        if said != word:
            found = (re.compile(_FOUND_AS_WRITTEN[word]) if word in _FOUND_AS_WRITTEN else
                     re.compile(rf"¡?(?<![A-Za-z]){re.escape(word)}(?![A-Za-z])!?",
                                re.IGNORECASE))
            words.append((found, said))
    return tuple(words)


def _is_decoration(char: str) -> bool:
    """Emoji, stars, ticks and other pictures; variation selectors and joiners."""
    if char in "\u200d\ufe0e\ufe0f":
        return True
    category = unicodedata.category(char)
    return category in ("So", "Sk", "Cs") or (category == "Mn" and ord(char) >= 0x1F000)


def _said_twice(text: str) -> str:
    """Without the bracketed asides that only repeat the words just before them.

    The written text keeps a game word's Spanish name in brackets beside the language's
    own ("il **fante** (Sota)", "der **Knappe** (Sota)", "扫桌（escoba）"), for a child who
    reads both; said aloud, the Spanish word is said the way the language explains it
    (:data:`GAME_WORDS`), so the bracket would repeat the word ("il fante (fante)"): it is
    left out. An aside that says something else is kept, as a reader sees it: a Spanish
    name the language says as it is ("la primiera (setenta)": the name the round's score
    and other players use, which the child will hear), another name of the same thing
    ("Setenta (primera)", "七十分（最佳牌）": both are what the written text teaches) or an
    explanation ("il settebello (il 7 di denari)")."""

    def repeats(before: str, word: str) -> bool:
        word = word.strip(_QUOTES).casefold()
        before = before.rstrip(_QUOTES).casefold()
        if not word or not before.endswith(word):
            return False
        ahead = before[:-len(word)][-1:]  # a whole word: "(re)" repeats "il re", not "mare"
        return not (ahead.isalnum() and word[0].isalnum() and word[0].isascii())

    def aside(m: re.Match[str]) -> str:
        before, inner = text[:m.start()], m.group(1)
        if repeats(before, inner):
            return ""
        # "扫桌（扫桌，意思是扫帚）": the repeated word goes, what the aside adds stays
        parts = _ASIDE_BREAK.split(inner, maxsplit=1)
        if len(parts) == 2 and parts[1].strip() and repeats(before, parts[0]):
            return m.group(0).replace(inner, parts[1].strip(), 1)
        return m.group(0)

    return _ASIDE.sub(aside, text)


def speakable(text: str, lang: str | None = None, deck: Deck = Deck.SPANISH) -> str:
    """The spoken form of a worded text: cards in words, sums as a child says them,
    game words as the language explains them, no decoration."""
    lang = _lang(lang)
    pattern, names = _card_names(deck, lang)
    text = pattern.sub(lambda m: names[m.group(0).casefold()], text)
    plus, makes, what = t("speech.plus", lang), t("speech.makes", lang), t("speech.what", lang)
    joker = t("speech.joker", lang)

    def term(raw: str) -> str:
        return what if raw == "?" else joker if raw == "🃏" else raw

    def a_sum(m: re.Match[str]) -> str:
        terms = [term(x.strip()) for x in m.group(1).split("+")]
        said = f" {plus} ".join(terms)
        if m.group(2) is not None:
            said += f" {makes} {term(m.group(2))}"
        return said

    text = _SUM.sub(a_sum, text)
    text = _DIFFERENCE.sub(lambda m: f"{m.group(1)} {t('speech.minus', lang)} {m.group(2)}",
                           text)
    text = _EQUALS.sub(f" {makes} ", text)  # "7 = 21", "As = 16": what a card counts
    for word, said in _game_words(lang):
        text = word.sub(said, text)
    text = _MARKDOWN.sub("", text)
    text = text.replace("·", ",").replace("…", "... ")
    text = "".join(" " if _is_decoration(c) else c for c in text)
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", _SPACES.sub(" ", text)).strip()
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", _said_twice(text))
    return text.strip(" ,;:—-")


def spoken_t(key: str, lang: str | None = None, *, domain: str = "messages",
             deck: Deck = Deck.SPANISH, **params: Any) -> str:
    """A catalog message said aloud: its ``.spoken`` variant if any, made speakable."""
    return speakable(t(spoken_key(key, domain), lang, domain=domain, **params), lang, deck)


def spoken_message(message: Message | None, lang: str | None = None,
                   deck: Deck = Deck.SPANISH) -> str:
    """A lesson's message said aloud (its cards by name, then in words)."""
    if message is None:
        return ""
    worded = say(message._replace(key=spoken_key(message.key, message.domain)), lang, deck)
    return speakable(worded, lang, deck)
