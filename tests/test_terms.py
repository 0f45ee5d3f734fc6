"""One word per concept in each language (issue 33): ``locales/<lang>/terms.toml`` is the
language's term base (concept -> the word to use, the forms to avoid); no catalog message
uses an avoided form or a form the language's style rules out (du and Sie mixed, tenses,
a Latin comma in a Chinese list), and every concept's word is one the catalogs use.
"""

from __future__ import annotations

import re
import tomllib

import pytest

import locales
from tests.test_card_words import _messages
from trainer.i18n import LANGUAGES

#: The concepts every term base names (the issue's list, and the words a child meets on
#: every page).
CONCEPTS = ("escoba", "capture", "lay_down", "sweep", "lesson", "level", "puzzle",
            "daily_puzzle", "quick_facts", "points", "coach")


def _terms(lang: str) -> dict:
    return tomllib.loads((locales.ROOT / lang / "terms.toml").read_text(encoding="utf-8"))


def _pattern(lang: str, avoid: str) -> re.Pattern[str]:
    start = "" if lang == "zh" else r"(?<![\w-])"
    return re.compile(start + f"(?:{avoid})", re.IGNORECASE)


TERMED = sorted(LANGUAGES)  # every language has its term base


@pytest.mark.parametrize("lang", TERMED)
def test_the_term_base_names_every_concept(lang: str) -> None:
    raw = _terms(lang)
    terms = raw.get("terms", {})
    assert set(CONCEPTS) <= set(terms), set(CONCEPTS) - set(terms)
    texts = [text for _d, _k, text in _messages(lang)]
    for concept, entry in terms.items():
        assert isinstance(entry.get("use"), str) and entry["use"], concept
        assert isinstance(entry.get("avoid", []), list), concept
        for avoid in entry.get("avoid", []):
            _pattern(lang, avoid)  # compiles
        word = entry["use"].casefold()
        assert any(word in text.casefold() for text in texts), (concept, word)
    for rule in raw.get("style", {}).get("avoid", []):
        assert {"pattern", "why"} <= set(rule), rule
        re.compile(rule["pattern"])


@pytest.mark.parametrize("lang", TERMED)
def test_every_message_uses_the_term_bases_words(lang: str) -> None:
    raw = _terms(lang)
    avoided = [(concept, _pattern(lang, avoid)) for concept, entry in raw["terms"].items()
               for avoid in entry.get("avoid", [])]
    style = [(rule["why"], re.compile(rule["pattern"]))
             for rule in raw.get("style", {}).get("avoid", [])]
    bad = []
    for domain, key, text in _messages(lang):
        for concept, pattern in avoided:
            if (found := pattern.search(text)):
                bad.append(f"{domain}:{key}: {found.group(0)!r} for {concept}: {text}")
        for why, pattern in style:
            if (found := pattern.search(text)):
                bad.append(f"{domain}:{key}: {found.group(0)!r} ({why}): {text}")
    assert not bad, "\n".join(bad)
