"""Streamlit's own words in the child's language (issue 33, ui/streamlit_words.py): the
English side of every rule is still what Streamlit writes, and every rule turns it into
the catalog's words. The browser side: tests/test_browser_streamlit_words.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit

from trainer.i18n import t
from ui.streamlit_words import PLURAL_KEYS, WORD_KEYS, streamlit_words

BUNDLE = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in
                   (Path(streamlit.__file__).parent / "static").rglob("*.js"))
#: Strings Streamlit builds from parts (a key name, a count): their parts are checked.
ASSEMBLED = {
    "stw.press_enter": ("Press Enter to ", "apply"),
    "stw.press_enter_form": ("Press Enter to ", "submit form"),
    "stw.press_ctrl_enter": ("Ctrl", "+Enter to ", "apply"),
    "stw.press_cmd_enter": ("⌘", "+Enter to ", "apply"),
    "stw.options_available": ("option", "available"),
    "stw.per_file": (" per file",),
    # react-aria names the dialog by the picker's label and the month it shows
    "stw.choose_date_in": ("Choose date",),
    # a date field's segments: react-aria's segment name, a comma, the field's label
    "stw.day_of": ("`day`",), "stw.month_of": ("`month`",), "stw.year_of": ("`year`",),
}


def _pieces(key: str) -> list[str]:
    if key in ASSEMBLED:
        return list(ASSEMBLED[key])
    return [p for p in re.split(r"\{\w+\}", t(key, "en")) if p.strip()]


@pytest.mark.parametrize("key", [*WORD_KEYS, *PLURAL_KEYS])
def test_the_english_is_what_streamlit_writes(key: str) -> None:
    """A Streamlit upgrade that rewords a string fails here, not silently on a screen."""
    missing = [p for p in _pieces(key) if p not in BUNDLE]
    assert not missing, (key, missing)


def _apply(words: dict, english: str) -> str:
    """The browser's rule (ui/board_assets/streamlit_words.js), in Python."""
    if english in words["exact"]:
        return words["exact"][english]
    for source, target in words["rules"]:
        if re.search(source, english, re.S):
            return re.sub(source, re.sub(r"\$(\d)", r"\\\1", target.replace("$$", "$")),
                          english, flags=re.S)
    return english


@pytest.mark.parametrize(("lang", "english", "shown"), [
    ("de", "Upload", "Datei wählen"),
    ("de", "Help for Neuer Spitzname", "Hilfe: Neuer Spitzname"),
    ("de", "Remove 8 + ? = 15", "8 + ? = 15 entfernen"),
    ("de", "200MB per file", "höchstens 200MB pro Datei"),
    ("de", "3 options available.", "3 Optionen verfügbar."),
    ("de", "1 option available.", "1 Option verfügbar."),
    ("es", "Choose options", "Elegir"),
    ("es", "Help for PIN nuevo (de 4 a 8 cifras)", "Ayuda: PIN nuevo (de 4 a 8 cifras)"),
    ("es", "Show password", "Mostrar lo escrito"),
    ("es", "0 options available.", "0 opciones disponibles."),
    ("zh", "Copy to clipboard", "复制"),
    ("zh", "Help for 昵称", "说明：昵称"),
    ("zh", "day, 截止日期", "日，截止日期"),
    ("zh", "12 options available.", "有12个选项。"),
])
def test_a_rule_gives_the_catalogs_words(lang: str, english: str, shown: str) -> None:
    assert _apply(streamlit_words(lang), english) == shown


@pytest.mark.parametrize("lang", ["es", "de", "zh"])
def test_every_string_has_its_translation_and_no_rule_matches_its_own_output(lang: str) -> None:
    words = streamlit_words(lang)
    assert len(words["exact"]) + len(words["rules"]) == len(WORD_KEYS) + 2 * len(PLURAL_KEYS)
    for english, shown in words["exact"].items():
        # a translation is never taken for English again (the observer sees its own edits)
        assert _apply(words, shown) == shown, (english, shown)
        if lang != "es" or english not in {"mm", "dd"}:
            assert shown != english
    for key in WORD_KEYS:
        english = t(key, "en").format(label="X", item="X", size="X", month="X", date="X")
        out = _apply(words, english)
        assert _apply(words, out) == out, (key, out)
        assert out != english or (lang, english) in {("es", "mm"), ("es", "dd")}, key


def test_english_has_no_rules() -> None:
    assert streamlit_words("en") == {"lang": "en", "exact": {}, "rules": []}
