"""The coach's reason said to the whole class (issue 29): on the projector's "what would
you play?" reveal and after a move of the class's game the teacher's screen says "we
take 3 cards", not "you take 3 cards", in every language. The child's own board keeps
speaking to the child."""

from __future__ import annotations

import re

import pytest

from escoba import Deck
from trainer.i18n import LANGUAGES, use_language
from trainer.words import coach_text

# Every reason the coach gives a move (escoba.coach.assess, why_better), with parameters
# of the kind it gives them; "kept" adds "and it keeps your 7 de oros".
REASONS: list[tuple[str, dict]] = [
    ("escoba", {"cards": 4}), ("escoba_no_point", {"cards": 3}),
    ("scopa", {"cards": 4}), ("scopa_no_point", {"cards": 1}),
    ("captures", {"cards": 3, "oros": 1, "sevens": 1, "siete_de_oros": False}),
    ("captures", {"cards": 1, "oros": 0, "sevens": 0, "siete_de_oros": False}),
    ("captures", {"cards": 2, "oros": 1, "sevens": 1, "siete_de_oros": True}),
    ("last_play", {"cards": 1}), ("last_play", {"cards": 3}),
    ("leaves_sweep", {"total": 12, "cards": 2, "chance": 0.4}),
    ("lay_down_open", {"total": 11}), ("lay_down_counted", {"total": 12, "need": 3}),
    ("lay_down_yours", {"total": 12, "need": 3}), ("lay_down_safe", {"total": 19}),
    ("lay_down_safe", {"total": 19, "kept": "7o"}), ("keeps", {"card": "7o"}),
    ("safer", {"chance": 0.1, "other": 0.5}), ("less_to_lose", {}),
]

# How each language speaks to one child: "you"/"your", du/dein, tú/tu/te, tu/ti, 你.
TO_ONE_CHILD = {
    "en": r"\b(you|your)\b",
    "de": r"\b(du|dein\w*|dich|dir)\b",
    "es": r"\b(tú|tu|te|tus|tienes|haces|llevas|guardas)\b",
    "it": r"\b(tu|tua|tuo|ti|prendi|hai)\b",
    "zh": "你",
}


@pytest.fixture(autouse=True)
def _english_after() -> None:
    yield
    use_language(None)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_class_hears_we_where_a_child_hears_you(lang: str) -> None:
    use_language(lang)
    to_one = re.compile(TO_ONE_CHILD[lang], re.IGNORECASE)
    spoke_to_one = 0
    for key, params in REASONS:
        child = coach_text(key, params, Deck.SPANISH)
        said = coach_text(key, params, Deck.SPANISH, voice="class")
        assert not to_one.search(said), (lang, key, said)
        assert "{" not in said and said != coach_text("no_such_reason", {}, Deck.SPANISH)
        if to_one.search(child):
            spoke_to_one += 1
            assert said != child
        else:  # a sentence that speaks to no one is the child's own
            assert key not in ("lay_down_safe", "leaves_sweep") or said == child
    if lang != "it":  # Italian's coach already says "it takes" (prende)
        assert spoke_to_one >= 3, lang


def test_the_english_class_voice_and_the_childs_own() -> None:
    use_language("en")
    takes = {"cards": 3, "oros": 1, "sevens": 0, "siete_de_oros": False}
    assert coach_text("captures", takes, Deck.SPANISH, voice="class") == \
        "we take 3 cards, with an oro"
    assert coach_text("captures", takes, Deck.SPANISH) == "it takes 3 cards, with an oro"
    kept = coach_text("lay_down_safe", {"total": 19, "kept": "7o"}, Deck.SPANISH, voice="class")
    assert kept.endswith("and it keeps the 7 de oros in our hand"), kept
    use_language("de")
    assert coach_text("keeps", {"card": "7o"}, Deck.SPANISH, voice="class") == \
        "wir behalten die 7 der Münzen auf der Hand"
    with pytest.raises(ValueError):
        coach_text("captures", takes, Deck.SPANISH, voice="teacher")
