"""The catalogs: complete in English and Spanish, same placeholders, every used key present."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from escoba.bots import PLAYER_LEVELS
from escoba.rules import CAPTURE_RULES, CATEGORIES, INITIAL_FIFTEEN, MISCOUNT, PRESETS
from trainer.catalog import CATALOGS, EN, ES, GLOSSARY
from trainer.i18n import LANGUAGES, language_from_locale, placeholders, t

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "app.py", *sorted((ROOT / "app_pages").glob("*.py")),
           *sorted((ROOT / "ui").glob("*.py"))]


def test_every_language_has_every_key() -> None:
    assert set(CATALOGS) == set(LANGUAGES)
    assert set(ES) - set(EN) == set(), "keys only in Spanish"
    assert set(EN) - set(ES) == set(), "keys missing in Spanish"


@pytest.mark.parametrize("key", sorted(EN))
def test_placeholders_match(key: str) -> None:
    assert placeholders(ES[key]) == placeholders(EN[key]), key
    assert ES[key].strip(), key


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
    return keys


def _exists(key: str) -> bool:
    """A key, or a key with plural forms (``key.one`` ... ``key.other``)."""
    return key in EN or f"{key}.other" in EN


def test_every_key_the_code_uses_exists() -> None:
    used = _literal_keys() | _dynamic_keys()
    # Literal prefixes such as t("level_" + level) are completed by _dynamic_keys.
    missing = sorted(k for k in used if not _exists(k) and not k.endswith("_"))
    assert not missing


def test_every_coach_message_key_is_translated() -> None:
    coach = pytest.importorskip("escoba.coach")
    missing = sorted(k for k in coach.MESSAGE_KEYS
                     if f"coach.{k}" not in EN and f"coach.{k}.other" not in EN)
    assert not missing


def test_glossary_explains_domain_words_in_both_languages() -> None:
    for word, meanings in GLOSSARY.items():
        assert set(meanings) == set(LANGUAGES), word
    # The words stay Spanish inside the English catalog too.
    english = " ".join(EN.values())
    for word in ("escoba", "oros", "Sota", "Caballo", "Rey", "siete de oros", "¡renuncio!"):
        assert word in english


def test_language_from_browser_locale() -> None:
    assert language_from_locale("es-AR") == "es"
    assert language_from_locale("es") == "es"
    assert language_from_locale("en-GB") == "en"
    assert language_from_locale("fr-FR") == "en"
    assert language_from_locale(None) == "en"


def test_t_fills_parameters_and_falls_back() -> None:
    assert t("round_n", "es", n=3) == "Ronda 3"
    assert t("round_n", "en", n=3) == "Round 3"
    assert t("no_such_key", "es") == "no_such_key"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_plurals_zero_one_many(lang: str) -> None:
    """No "way(s)": every plural key has its forms, and t() picks them by count."""
    assert not [k for k in CATALOGS[lang] if "(s)" in CATALOGS[lang][k]]
    for key in {k.rsplit(".", 1)[0] for k in EN if k.endswith(".other")}:
        assert f"{key}.one" in CATALOGS[lang], key
    zero, one, many = (t("hint_card_captures", lang, card="7", count=n) for n in (0, 1, 3))
    assert len({zero, one, many}) == 3
    if lang == "en":
        assert (zero, one, many) == ("7: no way to capture", "7: 1 way to capture",
                                     "7: 3 ways to capture")
    else:
        assert (zero, one, many) == ("7: ninguna forma de capturar", "7: 1 forma de capturar",
                                     "7: 3 formas de capturar")
    assert "1 ways" not in t("must_capture", lang, count=1)


# Words that must never follow a lone "1" (the "1 points" of a count string
# without plural forms).
_PLURAL_WORDS = re.compile(
    r"(?<![\d.,])1 (points|puntos|pts|ptos|cards|cartas|escobas|stars|estrellas|ways|formas|"
    r"things|cosas|moves|jugadas|games|partidas|capturadas|days|días|puzzles|"
    r"retos|answers|respuestas|rounds|rondas|seconds|segundos)\b")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_count_strings_use_plural_forms(lang: str) -> None:
    """Every catalog string, every number in it 1: never "1 points", "1 escobas"."""
    bases = {k.rsplit(".", 1)[0] if k.rsplit(".", 1)[-1] in ("zero", "one", "other") else k
             for k in EN}
    # Never a count of 1: a game's target (11 at least) and a mean (a decimal).
    bases -= {"rules_summary", "target_is", "ch_points_reading"}
    bad = []
    for key in sorted(bases):
        text = EN.get(key) or EN.get(f"{key}.other")
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
