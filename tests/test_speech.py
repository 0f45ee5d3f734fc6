"""What the app says aloud (issue 23): spoken variants, cards in words, sums as said."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

import locales
from escoba import Card, Deck
from escoba.cards import CARDS
from lessons import load_stages
from trainer.cards import deck_for_game
from trainer.i18n import LANGUAGES, card_name, format_list, placeholders, t
from trainer.lessons import LessonRunner, Message
from trainer.speech import (
    GAME_WORDS,
    VOICE_UNFRIENDLY,
    lang_tag,
    speakable,
    spoken_card,
    spoken_key,
    spoken_message,
    spoken_t,
)
from trainer.text import fact_text

#: The catalogs a child hears: the app, the lessons, and the pupil's My class page.
SPOKEN_DOMAINS = ("messages", "lessons", "classroom")


def _child_facing(domain: str, key: str) -> bool:
    # stw.*: Streamlit's own widget words put into the page's language (issue 33), never
    # said aloud: they name controls, as the browser's own labels do.
    if key.startswith("stw."):
        return False
    return domain != "classroom" or key.startswith("mc.")


def _written(domain: str) -> dict[str, dict[str, str]]:
    """key -> language -> every written form of it joined (plural forms too)."""
    found: dict[str, dict[str, str]] = {}
    for lang in LANGUAGES:
        with locales.po_path(lang, domain).open("rb") as f:
            for m in read_po(f):
                if not m.id:
                    continue
                key = m.id[0] if isinstance(m.id, tuple) else m.id
                text = " ".join(m.string) if isinstance(m.string, tuple) else m.string
                found.setdefault(key, {})[lang] = text
    return found


def _symbols(text: str) -> set[str]:
    return set(re.sub(r"{\w+}", "", text)) & VOICE_UNFRIENDLY


@pytest.mark.parametrize("domain", SPOKEN_DOMAINS)
def test_a_message_written_with_symbols_has_a_spoken_variant(domain: str) -> None:
    written = _written(domain)
    missing = sorted(
        key for key, langs in written.items()
        if not key.endswith(".spoken") and _child_facing(domain, key)
        and any(_symbols(text) for text in langs.values())
        and f"{key}.spoken" not in written)
    assert not missing
    # ... and the variants themselves are said without them, in every language.
    bad = sorted((key, lang) for key, langs in written.items() if key.endswith(".spoken")
                 for lang, text in langs.items() if _symbols(text))
    assert not bad
    assert spoken_key("board_made_check") == "board_made_check.spoken"
    assert spoken_key("board_made") == "board_made"


def _sample(text: str) -> dict[str, object]:
    """Parameters as the app fills them: cards by name, sums as ``8 + 7``."""
    samples: dict[str, object] = {"expr": "8 + 7", "card": "7 de oros",
                                  "cards": "Sota de copas, As de bastos", "who": "🦊 Ana",
                                  "name": "🦊 Ana", "rank": "Sota", "count": 2, "n": 2}
    return {p: samples.get(p, 3) for p in placeholders(text)}


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("domain", SPOKEN_DOMAINS)
def test_every_child_facing_message_is_said_without_symbols_or_pictures(
        lang: str, domain: str) -> None:
    bad = []
    for key, langs in _written(domain).items():
        if key.endswith(".spoken") or not _child_facing(domain, key):
            continue
        params = _sample(langs.get("en", ""))
        said = spoken_t(key, lang, domain=domain, **params)
        leftovers = _symbols(said) | {c for c in said if c in "✓✔▮▯⭐★☆🧹✅🎉+=*"}
        if leftovers:
            bad.append((key, said))
    assert not bad


@pytest.mark.parametrize("lang, seven, sota", [
    ("en", "seven of coins", "jack of cups"),
    ("es", "siete de oros", "sota de copas"),
    ("de", "Sieben der Münzen", "Knappe der Kelche"),
    ("it", "sette di denari", "fante di coppe"),
    ("zh", "金币七", "杯侍从"),
])
def test_cards_are_said_in_words_of_the_language(lang: str, seven: str, sota: str) -> None:
    assert spoken_card(Card.parse("7o"), Deck.SPANISH, lang) == seven
    assert speakable(f"{card_name(Card.parse('8c'), Deck.SPANISH, lang)}!", lang) == f"{sota}!"
    # A card's visible name inside a sentence is said the same way, in any letter case.
    assert seven in speakable(t("hint_best_lay", lang, card="7 de oros"), lang)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_card_of_every_deck_has_a_spoken_name(lang: str) -> None:
    for deck in Deck:
        for card in CARDS:
            said = spoken_card(card, deck, lang)
            assert said and "{" not in said
            if deck is not Deck.FRENCH and not card.is_joker:
                assert not re.search(r"\d", said)  # "seven", not "7 de oros"
            # Chinese says no Latin letters (a Chinese voice would spell them).
            if lang == "zh":
                assert not re.search(r"[a-z]{2}", said, re.IGNORECASE)


@pytest.mark.parametrize("lang, said", [
    ("en", "8 plus 7 makes 15"), ("es", "8 más 7 son 15"), ("de", "8 und 7 sind 15"),
    ("it", "8 più 7 fa 15"), ("zh", "8 加 7 等于 15")])
def test_a_sum_is_said_as_a_child_says_it(lang: str, said: str) -> None:
    assert speakable("8 + 7 = 15 ✓", lang) == said


@pytest.mark.parametrize("lang, said", [
    ("en", "15 minus 7, 1 plus 9, and 2 plus 8"), ("es", "15 menos 7, 1 más 9 y 2 más 8"),
    ("de", "15 minus 7, 1 und 9 und 2 und 8"), ("it", "15 meno 7, 1 più 9 e 2 più 8"),
    ("zh", "15 减 7、1 加 9和2 加 8")])
def test_a_list_of_facts_is_said_as_a_child_says_it(lang: str, said: str) -> None:
    """My progress's "practise next" on its 🔊: facts as trainer.text.fact_text writes
    them, in the language's list (Chinese puts no space before its last fact)."""
    facts = format_list([fact_text(f) for f in ("15-7", "1+9", "2+8")], lang)
    assert speakable(facts, lang) == said


def test_a_sum_inside_a_word_or_a_number_is_left_alone() -> None:
    assert speakable("x2 + 3 and 1.5 + 2", "en") == "x2 + 3 and 1.5 + 2"


@given(st.lists(st.integers(1, 10), min_size=2, max_size=5), st.sampled_from(sorted(LANGUAGES)),
       st.booleans())
def test_any_sum_keeps_its_numbers_in_order_and_loses_its_signs(
        terms: list[int], lang: str, total: bool) -> None:
    text = " + ".join(map(str, terms)) + (f" = {sum(terms)}" if total else "")
    said = speakable(t("board_made", lang, expr=text, total=sum(terms)) if not total else text,
                     lang)
    assert "+" not in said and "=" not in said
    numbers = [int(n) for n in re.findall(r"\d+", said)]
    assert numbers[:len(terms)] == terms
    assert t("speech.plus", lang) in said


@pytest.mark.parametrize("lang", ["en", "de", "it", "zh"])
def test_game_words_are_said_the_way_the_language_explains_them(lang: str) -> None:
    goal = spoken_message(Message("goal.take_siete"), lang)
    assert t("speech.word.siete_de_oros", lang) in goal
    assert "siete de oros" not in goal.casefold()
    if lang == "zh":
        for word, key in GAME_WORDS:
            assert word.casefold() not in speakable(f"你有{word}吗", lang).casefold(), key


def _every_goal() -> list[tuple[str, str, Message, Deck]]:
    """Every level's first goal, with the deck its level is drawn in (a Scopa stage's
    Italian cards)."""
    runner = LessonRunner()
    goals = []
    for stage in load_stages():
        for number in range(1, len(stage.levels) + 1):
            view = runner.start(stage.key, number)
            goals.append((stage.key, stage.levels[number - 1].key, view.goal,
                          deck_for_game(Deck.SPANISH, stage.rules)))
    return goals


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_lesson_goal_is_said_in_words(lang: str) -> None:
    bad = []
    for stage, level, goal, deck in _every_goal():
        said = spoken_message(goal, lang, deck)
        if (not said or "{" in said or _symbols(said) or "+" in said or "=" in said
                or (lang == "zh" and re.search(r"[A-Za-z]{3}", said))):
            bad.append((stage, level, said))
    assert not bad


def test_voices_are_asked_for_by_language() -> None:
    assert {lang: lang_tag(lang)[:2] for lang in LANGUAGES} == {code: code for code in LANGUAGES}
    assert lang_tag("xx") == "en-GB"


def _repeated_asides(said: str) -> list[str]:
    """The bracketed asides of a spoken text whose words (up to a comma) are the words
    said just before them: "il fante (fante)", "扫桌（扫桌，…）", not "un sette (sette di
    denari)"."""
    found = []
    for m in re.finditer(r"[(（]([^()（）]*)[)）]", said):
        first = re.split(r"[,，:：;；]", m.group(1))[0].strip("“”\"!！¡ ").casefold()
        before = said[:m.start()].rstrip("“”\"!！ ").casefold()
        if not first:
            continue
        if first.isascii():
            words = first.split()
            if before.split()[-len(words):] == words:
                found.append(m.group(0))
        elif before.endswith(first):
            found.append(m.group(0))
    return found


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("domain", SPOKEN_DOMAINS)
def test_a_word_kept_in_brackets_is_not_said_twice(lang: str, domain: str) -> None:
    """The written text keeps the Spanish word in brackets ("il **fante** (Sota)"); said
    aloud, that word is said as the language says it, and the bracket would only repeat
    the word before it ("il fante (fante)"): it is left out (trainer/speech.py)."""
    bad = []
    for key, langs in _written(domain).items():
        if key.endswith(".spoken") or not _child_facing(domain, key):
            continue
        said = spoken_t(key, lang, domain=domain, **_sample(langs.get("en", "")))
        if _repeated_asides(said):
            bad.append((key, _repeated_asides(said)))
    assert not bad


@pytest.mark.parametrize("lang, text, said", [
    ("it", "Il **fante** (Sota) vale 8, il **re** (Rey) 10.", "Il fante vale 8, il re 10."),
    ("it", "il **settebello** (siete de oros)", "il settebello"),
    ("de", "Der **Knappe** (Sota) zählt 8.", "Der Knappe zählt 8."),
    ("en", "🪙 Oros (coins)", "coins"),
    ("zh", "就是一次扫桌（escoba，意思是扫帚）", "就是一次扫桌（意思是扫帚）"),
    ("zh", "十五扫桌（Escoba de quince）是一种西班牙纸牌游戏。", "十五扫桌是一种西班牙纸牌游戏。"),
    ("zh", "喊“漏收！”（¡renuncio!）", "喊“漏收！”"),
    # a different word in the brackets is kept: the name the child will also hear
    ("it", "Gioca la primiera (setenta)", "Gioca la primiera (setenta)"),
    ("en", "Setenta (primera)", "Setenta (primera)"),
    ("zh", "Setenta（primera）", "七十分（最佳牌）"),
    ("it", "il settebello (il 7 di denari)", "il settebello (il sette di denari)"),
    ("it", "il mare (re)", "il mare (re)"),  # "re" is not the end of "mare"
])
def test_the_bracket_beside_a_game_word_is_said_once(lang: str, text: str, said: str) -> None:
    assert speakable(text, lang) == said


def test_the_as_is_said_as_the_card_and_the_english_word_left_alone() -> None:
    """"Tap the As" was said "tap the as" (the English word): the card is "ace" to an
    English voice (found trying the lessons as a child), while "as" stays a word."""
    assert speakable("Your turn: tap the As. It is worth 1.", "en") == (
        "Your turn: tap the ace. It is worth 1.")
    assert speakable("an As 16, a 5 15", "en") == "an ace 16, a 5 15"
    assert speakable("Take as many as you can. As you see.", "en") == (
        "Take as many as you can. As you see.")
    assert "Ass" in speakable("Tippe auf das As.", "de")
    assert speakable("Toca el As.", "es") == "Toca el As."
    said = [spoken_message(goal, "en", deck) for _, _, goal, deck in _every_goal()]
    assert not [s for s in said if re.search(r"\bAs\b", s)]
