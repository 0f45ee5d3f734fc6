"""The catalogs (locales/*/LC_MESSAGES/*.po): every language complete, same placeholders,
no English left behind, CLDR plural forms, every used key present; Babel's formatters."""

from __future__ import annotations

import logging
import re
import time
from datetime import date
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import locales
from escoba.bots import PLAYER_LEVELS
from escoba.rules import CAPTURE_RULES, CATEGORIES, INITIAL_FIFTEEN, MISCOUNT, PRESETS
from trainer.i18n import (
    GLOSSARY,
    LANGUAGES,
    format_day,
    format_number,
    format_percent,
    has_key,
    language_from_locale,
    placeholders,
    t,
)

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")),
           *sorted((ROOT / "ui").glob("*.py"))]
DOMAINS = ("messages", "puzzles")
#: Numbers whose plural form every language must get right (CLDR: 21 is "other" in
#: German and English, whatever a hand-written rule on the last digit would say).
COUNTS = (0, 1, 2, 5, 21)


def _po(lang: str, domain: str = "messages"):
    with locales.po_path(lang, domain).open("rb") as f:
        return read_po(f, locale=lang)


def _messages(lang: str, domain: str = "messages") -> dict[str, tuple[str, ...]]:
    """id -> its strings (one, or one per plural form); fuzzy entries count as empty."""
    out = {}
    for m in _po(lang, domain):
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out[key] = tuple("" if m.fuzzy else s for s in strings)
    return out


EN = _messages("en")


def _english_text(key: str) -> str:
    return " ".join(EN[key])


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_language_has_every_key(domain: str) -> None:
    assert locales.languages(domain) == sorted(LANGUAGES)
    english = _messages("en", domain)
    with (locales.ROOT / f"{domain}.pot").open("rb") as f:
        template = {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(f) if m.id}
    assert template == set(english), "the .pot template and the English catalog differ"
    for lang in LANGUAGES:
        strings = _messages(lang, domain)
        assert set(strings) == set(english), lang
        assert not [k for k, v in strings.items() if not all(s.strip() for s in v)], lang


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("domain", DOMAINS)
def test_placeholders_match(lang: str, domain: str) -> None:
    """Every form of every string has the English placeholders (a singular form may
    say "1" in words instead of ``{count}``, as English does)."""
    english = _messages("en", domain)
    bad = []
    for key, strings in _messages(lang, domain).items():
        wanted = placeholders(english[key][-1])
        allowed = wanted | set().union(*(placeholders(s) for s in english[key]))
        if placeholders(strings[-1]) != wanted or any(
                not placeholders(s) <= allowed for s in strings):
            bad.append((key, strings))
    assert not bad


#: Strings that are rightly the same as the English: names, symbols, cognates and the
#: Spanish game words that stay Spanish in every language.
SAME_AS_ENGLISH = {
    "es": {"play_title", "ch_escobas", "seat_escobas", "cat_escobas", "cat_setenta",
           "cat_siete_de_oros", "preset_setenta", "renuncio_button"},
    "de": {"play_title", "ch_escobas", "seat_escobas", "cat_escobas", "cat_setenta",
           "cat_siete_de_oros", "renuncio_button", "kind_bot", "bot_name", "ws_code",
           "ws_kind_hand"},
    "zh": {"play_title", "renuncio_button"},
}


@pytest.mark.parametrize("lang", sorted(set(LANGUAGES) - {"en"}))
@pytest.mark.parametrize("domain", DOMAINS)
def test_no_english_left_in_a_translation(lang: str, domain: str) -> None:
    english = _messages("en", domain)
    untranslated = sorted(
        key for key, strings in _messages(lang, domain).items()
        if strings[-1] == english[key][-1]
        and re.search(r"[A-Za-z]{3}", re.sub(r"{\w+}", "", strings[-1]))
        and key not in SAME_AS_ENGLISH[lang])
    assert not untranslated


def _literal_keys() -> set[str]:
    found: set[str] = set()
    pattern = re.compile(r"""\bt\(\s*["']([a-z0-9_.]+)["']""")
    # ui/charts.py: labels through tr("..."), readings as Chart(fig, "key", ...)
    chart = re.compile(r"""(?:\btr\(\s*|Chart\(fig,\s*)["']([a-z0-9_.]+)["']""")
    flash = re.compile(r"""(?:flash|Outcome|StorageError)\([^)]*?["']([a-z_]+)["']""")
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        found |= set(pattern.findall(text)) | set(chart.findall(text))
        found |= {k for k in flash.findall(text)
                  if k not in {"error", "warning", "success", "ok", "played", "escoba"}}
    return found


def _dynamic_keys() -> set[str]:
    keys = {f"preset_{p}" for p in PRESETS}
    keys |= {f"level_{lv}" for lv in PLAYER_LEVELS}
    keys |= {f"capture_rule_{r}" for r in CAPTURE_RULES}
    keys |= {f"miscount_{m}" for m in MISCOUNT}
    keys |= {f"initial_{i}" for i in INITIAL_FIFTEEN}
    keys |= {f"cat_{c}" for c in CATEGORIES}
    keys |= {f"status_{s}" for s in ("playing", "finished", "abandoned")}
    keys |= {f"deck_{d}" for d in ("spanish", "french", "italian")}
    keys |= {f"kind_{k}" for k in ("bot", "human")}
    keys |= {f"setting_{s}{h}" for s in ("show_values", "hints", "pause") for h in ("", "_help")}
    keys |= {f"why_{w}" for w in ("most", "all_ten", "all_four", "holder")}
    keys |= {"profile_empty", "profile_taken"}
    # issue 6: practice pages and progress charts
    from puzzles import KINDS
    from puzzles.mastery import LEVELS as MASTERY_LEVELS

    keys |= {f"pz_mode_{k}" for k in ("for-me", *KINDS)}
    keys |= {f"level_name_{lv}" for lv in MASTERY_LEVELS}
    keys |= {f"weekday_{i}" for i in range(7)}
    keys |= {f"ch_level_{lv}" for lv in ("mixed", "friends")}
    keys |= {"ch_mistakes_reading", "ch_mistakes_reading_down"}  # chosen by the trend
    keys |= {f"pz_hint_{k}" for k in ("need", "starts_with", "group_uses", "count_on",
                                      "consider", "check_each", "all_found")}
    keys |= set(GLOSSARY.values())
    return keys


def test_every_key_the_code_uses_exists() -> None:
    used = _literal_keys() | _dynamic_keys()
    # Literal prefixes such as t("level_" + level) are completed by _dynamic_keys.
    missing = sorted(k for k in used if not has_key(k) and not k.endswith("_"))
    assert not missing


def test_every_coach_message_key_is_translated() -> None:
    coach = pytest.importorskip("escoba.coach")
    missing = sorted(k for k in coach.MESSAGE_KEYS if not has_key(f"coach.{k}"))
    assert not missing


def test_glossary_explains_domain_words_in_every_language() -> None:
    for lang in LANGUAGES:
        strings = _messages(lang)
        for word, key in GLOSSARY.items():
            assert strings[key][0].strip(), (lang, word)
    # The words stay Spanish inside the English catalog too.
    english = " ".join(" ".join(v) for v in EN.values())
    for word in ("escoba", "oros", "Sota", "Caballo", "Rey", "siete de oros", "¡renuncio!"):
        assert word in english
    # Each language explains them with the words its players use (the seeds).
    assert "Münzen" in t("glossary.oros", "de") and "金币" in t("glossary.oros", "zh")
    assert "Knappe" in t("glossary.sota", "de") and "扫桌" in t("glossary.escoba", "zh")


def test_language_from_browser_locale() -> None:
    assert language_from_locale("es-AR") == "es"
    assert language_from_locale("es") == "es"
    assert language_from_locale("en-GB") == "en"
    assert language_from_locale("fr-FR") == "en"
    assert language_from_locale(None) == "en"
    assert language_from_locale("de-AT") == "de"
    assert language_from_locale("zh-CN") == "zh"
    assert language_from_locale("zh-Hans-CN") == "zh"


def test_t_fills_parameters_and_falls_back(caplog) -> None:
    assert t("round_n", "es", n=3) == "Ronda 3"
    assert t("round_n", "en", n=3) == "Round 3"
    assert t("round_n", "de", n=3) == "Runde 3"
    assert t("round_n", "zh", n=3) == "第3轮"
    assert t("no_such_key", "es") == "no_such_key"
    with caplog.at_level(logging.WARNING):
        assert t("round_n", "xx", n=3) == "Round 3"  # no catalog: English, logged
    assert "missing translation xx:round_n" in caplog.text


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_plurals_zero_one_many(lang: str) -> None:
    """No "way(s)": every plural key has its forms, and t() picks them by count."""
    assert not [k for k, v in _messages(lang).items() if any("(s)" in s for s in v)]
    zero, one, many = (t("hint_card_captures", lang, card="7", count=n) for n in (0, 1, 3))
    expected = {
        "en": ("7: no way to capture", "7: 1 way to capture", "7: 3 ways to capture"),
        "es": ("7: ninguna forma de capturar", "7: 1 forma de capturar",
               "7: 3 formas de capturar"),
        "de": ("7: kann nichts nehmen", "7: 1 Möglichkeit zum Nehmen",
               "7: 3 Möglichkeiten zum Nehmen"),
        "zh": ("7：没有可收的牌", "7：有1种收法", "7：有3种收法"),
    }
    assert (zero, one, many) == expected[lang]
    assert "1 ways" not in t("must_capture", lang, count=1)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_plural_renders_with_0_1_2_5_21(lang: str, caplog) -> None:
    plural_keys = locales.catalog("messages", "en").plurals
    with caplog.at_level(logging.WARNING):
        for key in sorted(plural_keys):
            names = set().union(*(placeholders(s) for s in EN[key])) | {"count"}
            for n in COUNTS:
                out = t(key, lang, **{name: n for name in names})
                assert out.strip() and "{" not in out, (key, n, out)
    assert not caplog.records
    points = [t("points_n", lang, n=n) for n in COUNTS]
    assert points == {
        "en": ["0 points", "1 point", "2 points", "5 points", "21 points"],
        "es": ["0 puntos", "1 punto", "2 puntos", "5 puntos", "21 puntos"],
        "de": ["0 Punkte", "1 Punkt", "2 Punkte", "5 Punkte", "21 Punkte"],
        "zh": ["0分", "1分", "2分", "5分", "21分"],
    }[lang]


# Words that must never follow a lone "1" (the "1 points" of a count string
# without plural forms).
_PLURAL_WORDS = re.compile(
    r"(?<![\d.,])1 (points|puntos|pts|ptos|cards|cartas|escobas|stars|estrellas|ways|formas|"
    r"things|cosas|moves|jugadas|games|partidas|capturadas|days|días|puzzles|"
    r"retos|answers|respuestas|rounds|rondas|seconds|segundos|"
    r"Punkte|Karten|Sterne|Möglichkeiten|Dinge|Züge|Spiele|Tage|Antworten|Runden|"
    r"Sekunden)\b")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_count_strings_use_plural_forms(lang: str) -> None:
    """Every catalog string, every number in it 1: never "1 points", "1 escobas"."""
    # Never a count of 1: a game's target (11 at least) and a mean (a decimal).
    bases = set(EN) - {"rules_summary", "target_is", "ch_points_reading"}
    bad = []
    for key in sorted(bases):
        text = " ".join(EN[key])
        params = {name: 1 for name in placeholders(text)}
        params.setdefault("count", 1)
        out = t(key, lang, **params)
        if _PLURAL_WORDS.search(out):
            bad.append((key, out))
    assert not bad


def test_the_plural_form_follows_n_without_count() -> None:
    assert t("points_n", "en", n=1) == "1 point"
    assert t("points_n", "es", n=1) == "1 punto"
    assert t("points_n", "es", n=0) == "0 puntos"
    assert t("stock_left", "en", n=1) == "1 card to deal"


def test_dates_numbers_and_percentages_follow_the_language() -> None:
    day = date(2026, 12, 1)
    assert [format_day(day, lang) for lang in ("en", "es", "de", "zh")] == [
        "Dec 1", "1 dic", "1. Dez.", "12月1日"]
    assert format_day("2026-12-01", "de", weekday=True) == "Di., 1. Dez."
    assert format_number(2.5, "de") == "2,5" and format_number(2.5, "en") == "2.5"
    assert format_percent(0.75, "de") == "75\xa0%" and format_percent(0.75, "zh") == "75%"


def test_catalogs_load_fast_enough_for_a_first_page() -> None:
    """The .po files are read directly (no compile step): all four in well under a second."""
    locales.catalog.cache_clear()
    start = time.perf_counter()
    for lang in LANGUAGES:
        locales.catalog("messages", lang)
    assert time.perf_counter() - start < 1.5
