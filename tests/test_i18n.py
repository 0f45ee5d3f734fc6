"""The catalogs (locales/*/LC_MESSAGES/*.po): every language complete, same placeholders,
no English left behind, CLDR plural forms, every used key present; Babel's formatters."""

from __future__ import annotations

import io
import logging
import re
import subprocess
import sys
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
    SCOPA_GLOSSARY,
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
           *sorted((ROOT / "ui").rglob("*.py"))]
DOMAINS = ("messages", "puzzles", "lessons", "classroom")
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
           "cat_siete_de_oros", "preset_setenta", "renuncio_button", "pin",
           "coach_extra_oros", "board_escoba_cheer", "renuncio.title", "ui.renuncio",
           "board_escoba_title",
           "pile_escobas", "pile_oros", "pile_siete_no", "rule_preset_escova",
           "rule_preset_setenta", "rule_renuncio", "rule_open_hand", "rule_primera"},
    "de": {"play_title", "ch_escobas", "seat_escobas", "cat_escobas", "cat_setenta",
           "cat_siete_de_oros", "renuncio_button", "kind_bot", "bot_name", "card_joker", "ws_code",
           "ws_kind_hand", "pin", "board_escoba_cheer", "renuncio.title", "ui.renuncio",
           "board_escoba_title", "praise.escoba",
           "pile_escobas", "pile_oros", "rule_preset_escova", "rule_preset_setenta",
           "rule_renuncio"},
    "zh": {"play_title", "renuncio_button", "board_escoba_cheer", "renuncio.title",
           "ui.renuncio", "rule_preset_escova", "rule_preset_setenta", "rule_renuncio",
           "rule_open_hand", "rule_primera"},
}
# issue 23: the game words a Spanish voice says as they are written.
SAME_AS_ENGLISH["es"] |= {"speech.word.escoba", "speech.word.escobas", "speech.word.setenta",
                          "speech.word.primera", "speech.word.renuncio"}
# issue 27: tablet — "{count} min" is the Spanish abbreviation of minutos too.
SAME_AS_ENGLISH["es"] |= {"tablets.minutes"}
# issue 27: words
SAME_AS_ENGLISH["es"] |= {"pic.cactus"}  # el cactus: the word is the same
SAME_AS_ENGLISH["de"] |= {"speech.minus"}  # "15 minus 7": German says minus too
# issue 28: Italian keeps the game's name, ¡renuncio!, mesa abierta (both explained in the
# glossary) and the rule presets' names (Setenta: the name of the Argentine game, its
# countries written alike), an Italian voice reads "setenta" and "renuncio" as written, and
# Italian says Password, PIN, Computer, cactus and min as English does.
SAME_AS_ENGLISH["it"] = {"play_title", "renuncio_button", "renuncio.title", "ui.renuncio",
                         "rule_preset_escova", "rule_preset_setenta", "preset_setenta",
                         "rule_renuncio", "rule_open_hand", "pin", "list.pin", "bot_name",
                         "kind_bot", "table_kind_bot", "auth.password", "pic.cactus",
                         "tablets.minutes", "speech.word.renuncio", "speech.word.setenta"}
# The game's name, said by a German or Italian voice as it is written (a Chinese one says
# 十五扫桌: "十五扫桌（Escoba de quince）" is then said once).
SAME_AS_ENGLISH["de"] |= {"speech.word.escoba_de_quince"}
SAME_AS_ENGLISH["it"] |= {"speech.word.escoba_de_quince"}
# issue 28 (Play): Scopa's own names stay Italian in every language, as Escoba's stay
# Spanish (the game, its presets and options, the napola and the scopas' row).
for _lang in ("es", "de", "zh", "it"):
    SAME_AS_ENGLISH[_lang] |= {"play_title_scopa", "rule_preset_scopa", "rule_preset_scopone",
                               "rule_preset_scopone_scientifico", "rule_napola",
                               "rule_asso_piglia_tutto", "cat_napola", "cat_scope",
                               "board_scopa_cheer", "board_scopa_title", "seat_scope",
                               "pile_scope"}
# issue 28 (lessons): "Scopa!" before the sum, as German and Italian say "¡Escoba!".
SAME_AS_ENGLISH["de"] |= {"praise.scopa"}
SAME_AS_ENGLISH["it"] |= {"praise.scopa"}
# A PIN is a PIN in Spanish and German.
SAME_AS_ENGLISH["es"] |= {"list.pin"}
SAME_AS_ENGLISH["de"] |= {"list.pin"}
# issue 29: the live view's "Tablet 3FA2C" is das Tablet, il tablet.
SAME_AS_ENGLISH["de"] |= {"lv.tablet"}
SAME_AS_ENGLISH["it"] |= {"lv.tablet"}


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
                                      "consider", "check_each", "all_found", "scopa_equal",
                                      "scopa_need", "scopa_check_each")}
    keys |= set(GLOSSARY.values()) | set(SCOPA_GLOSSARY.values())
    # issue 26: the rules line's options and the won cards' groups
    from trainer.rules_text import RULE_OPTIONS

    keys |= {f"rule_{k}{h}" for k, _ in RULE_OPTIONS for h in ("", "_help")}
    keys |= {f"pile_{g}" for g in ("cards", "oros", "sevens", "escobas")}
    return keys


def _classroom_keys() -> set[str]:
    """Keys the classroom's pages say through ``ct``/``ct_text`` (ui/classroom.py), a
    ``class_flash`` or ``t(..., domain="classroom")``, and the families they build."""
    found: set[str] = set()
    said = re.compile(r"""\bct(?:_text)?\(\s*["']([a-z0-9_.\-]+)["']""")
    flashed = re.compile(r"""class_flash\(\s*["'][a-z]+["'],\s*["']([a-z0-9_.\-]+)["']""")
    words = re.compile(r"""\bwords\(\s*["']([a-z0-9_.\-]+)["']""")
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        found |= set(said.findall(text)) | set(flashed.findall(text)) | set(words.findall(text))
    from puzzles import KINDS
    from trainer.classroom_views import ASSIGNMENT_KINDS, CELL_STATES, FLUENCY_LIMITS
    from ui.teacher.registry import PARTS

    found |= {p.label for p in PARTS} | {f"cell.{c}" for c in CELL_STATES}
    found |= {f"fluency.{s}" for s in FLUENCY_LIMITS} | {f"task_kind.{k}" for k in ASSIGNMENT_KINDS}
    found |= {f"kind.{k}" for k in (*KINDS, "game-turn")}
    found |= {f"grid.facts_{w}" for w in ("all", "complements", "additions")}
    found |= {f"auth.mode_{m}" for m in ("sign_in", "create")}
    return found


def test_every_key_the_code_uses_exists() -> None:
    used = _literal_keys() | _dynamic_keys()
    # Literal prefixes such as t("level_" + level) are completed by _dynamic_keys.
    # t(key, domain="lessons") reads the lessons' catalog (its own tests check its keys);
    # so does domain="classroom".
    missing = sorted(k for k in used if not has_key(k) and not has_key(k, "lessons")
                     and not has_key(k, "classroom") and not k.endswith("_"))
    assert not missing
    classroom = _classroom_keys()
    assert {"page.teacher_title", "mc.hello_pin", "grid.cell_title"} <= classroom
    assert not sorted(k for k in classroom if not has_key(k, "classroom"))


def test_every_coach_message_key_is_translated() -> None:
    coach = pytest.importorskip("escoba.coach")
    missing = sorted(k for k in coach.MESSAGE_KEYS if not has_key(f"coach.{k}"))
    assert not missing


def test_glossary_explains_domain_words_in_every_language() -> None:
    for lang in LANGUAGES:
        strings = _messages(lang)
        for word, key in (*GLOSSARY.items(), *SCOPA_GLOSSARY.items()):
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
    assert language_from_locale("it-IT") == "it"
    assert language_from_locale("it-CH") == "it"
    assert language_from_locale("it") == "it"


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
        "it": ("7: non può prendere", "7: 1 modo di prendere", "7: 3 modi di prendere"),
        "zh": ("7：没有可收的牌", "7：有1种收法", "7：有3种收法"),
    }
    assert (zero, one, many) == expected[lang]
    assert "1 ways" not in t("must_capture", lang, count=1)


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
def test_every_plural_renders_with_0_1_2_5_21(lang: str, caplog) -> None:
    with caplog.at_level(logging.WARNING):
        for domain in ("messages", "lessons", "classroom"):
            english = _messages("en", domain)
            for key in sorted(locales.catalog(domain, "en").plurals):
                names = set().union(*(placeholders(s) for s in english[key])) | {"count"}
                for n in COUNTS:
                    out = t(key, lang, domain=domain, **{name: n for name in names})
                    assert out.strip() and "{" not in out, (key, n, out)
    assert not caplog.records
    points = [t("points_n", lang, n=n) for n in COUNTS]
    assert points == {
        "en": ["0 points", "1 point", "2 points", "5 points", "21 points"],
        "es": ["0 puntos", "1 punto", "2 puntos", "5 puntos", "21 puntos"],
        "de": ["0 Punkte", "1 Punkt", "2 Punkte", "5 Punkte", "21 Punkte"],
        "it": ["0 punti", "1 punto", "2 punti", "5 punti", "21 punti"],
        "zh": ["0分", "1分", "2分", "5分", "21分"],
    }[lang]


# Words that must never follow a lone "1" (the "1 points" of a count string
# without plural forms).
_PLURAL_WORDS = re.compile(
    r"(?<![\d.,])1 (points|puntos|pts|ptos|cards|cartas|escobas|stars|estrellas|ways|formas|"
    r"things|cosas|moves|jugadas|games|partidas|capturadas|days|días|puzzles|"
    r"retos|answers|respuestas|rounds|rondas|seconds|segundos|"
    r"Punkte|Karten|Sterne|Möglichkeiten|Dinge|Züge|Spiele|Tage|Antworten|Runden|"
    r"Sekunden|punti|carte|scope|stelle|modi|mosse|partite|giorni|sfide|risposte|giri|"
    r"secondi|alunni|minuti|calcoli|compiti)\b")


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
@pytest.mark.parametrize("domain", ["messages", "lessons", "classroom"])
def test_count_strings_use_plural_forms(lang: str, domain: str) -> None:
    """Every catalog string, every number in it 1: never "1 points", "1 escobas"."""
    english = _messages("en", domain)
    # Never a count of 1: a mean (a decimal).
    bases = set(english) - {"ch_points_reading"}
    bad = []
    for key in sorted(bases):
        text = " ".join(english[key])
        params = {name: 1 for name in placeholders(text)}
        params.setdefault("count", 1)
        out = t(key, lang, domain=domain, **params)
        if _PLURAL_WORDS.search(out):
            bad.append((key, out))
    assert not bad


@pytest.mark.parametrize("lang, one", [
    ("en", "takes the card that is left"),
    ("es", "se lleva la carta que queda en la mesa"),
    ("de", "bekommt die übrige Karte"),
    ("it", "prende la carta rimasta"),
    ("zh", "会得到剩下的1张牌"),  # Chinese counts one card as it counts two
])
def test_the_last_card_of_the_round_is_worded_for_one_card_left(lang: str, one: str) -> None:
    """The coach's why for a round's last card with one card left on the table: "the card
    that is left", not "the 1 card left" ("prende 1 carta rimasta")."""
    said = t("coach.last_play", lang, cards=1, count=1)
    assert said.endswith(one), said
    assert t("coach.last_play", lang, cards=2, count=2) != said
    assert "2" in t("coach.last_play", lang, cards=2, count=2)


def test_t_reads_the_lessons_domain() -> None:
    """One way to another catalog: ``domain=``; a lesson key is not a message of the app."""
    assert t("goal.tap_value", "es", domain="lessons", value=8) == (
        "Te toca: toca la carta que vale 8.")
    assert t("ui.stars_n", "de", domain="lessons", n=1) == "1 Stern"
    assert t("ui.stars_n", "de", domain="lessons", n=3) == "3 Sterne"
    assert has_key("goal.tap_value", "lessons") and not has_key("goal.tap_value")


def test_the_plural_form_follows_n_without_count() -> None:
    assert t("points_n", "en", n=1) == "1 point"
    assert t("points_n", "es", n=1) == "1 punto"
    assert t("points_n", "es", n=0) == "0 puntos"
    assert t("stock_left", "en", n=1) == "1 card to deal"


def test_dates_numbers_and_percentages_follow_the_language() -> None:
    day = date(2026, 12, 1)
    assert [format_day(day, lang) for lang in ("en", "es", "de", "it", "zh")] == [
        "Dec 1", "1 dic", "1. Dez.", "1 dic", "12月1日"]
    assert format_day(day, "it", weekday=True) == "mar 1 dic"
    assert format_number(2.5, "it") == "2,5" and format_percent(0.75, "it") == "75%"
    assert format_day("2026-12-01", "de", weekday=True) == "Di., 1. Dez."
    assert format_number(2.5, "de") == "2,5" and format_number(2.5, "en") == "2.5"
    assert format_percent(0.75, "de") == "75\xa0%" and format_percent(0.75, "zh") == "75%"


# -- worksheets and the share text ------------------------------------------------------

def _pdf_text(data: bytes) -> str:
    """All the PDF's text without spaces (pypdf spaces out CJK glyphs, or puts NULs
    between them)."""
    from pypdf import PdfReader

    text = "".join(p.extract_text() for p in PdfReader(io.BytesIO(data)).pages)
    return "".join(text.replace("\x00", " ").split())


@pytest.mark.parametrize(("lang", "words"), [
    ("de", ["Escoba-Rätsel:Nehmen-Stufe2-Summe15", "SpieldieSieben", "Lösungen", "Seite1von",
            "Datum:"]),
    ("it", ["SfidediEscoba:Prese-livello2-somma15", "Giocalacartachevale", "Soluzioni",
            "pagina1di", "Data:"]),
    ("zh", ["扫桌谜题：收牌-第2级-凑15", "哪些桌牌和它加起来是15", "答案", "第1页，共", "姓名："]),
])
def test_a_worksheet_reads_back_in_its_language(lang: str, words: list[str]) -> None:
    from puzzles.worksheet import worksheet_pdf, worksheet_puzzles

    data = worksheet_pdf("captures", 2, count=6, seed=7, lang=lang)
    text = _pdf_text(data)
    first = worksheet_puzzles("captures", 2, 6, 7)[0]
    words = [w.replace("Sieben", str(first.hand[0].value)) if lang == "de" else w
             for w in words]
    missing = [w for w in words if w not in text]
    assert not missing, text[:400]
    assert "Answer" not in text and "Play the" not in text
    # The answer key is there, with the cards and the arithmetic.
    assert f"{first.solutions[0].card}:" in text
    # A CJK font embeds only the glyphs used: a sheet stays small.
    assert len(data) < 120_000


def test_a_chinese_worksheet_without_a_font_says_what_to_install(monkeypatch) -> None:
    from puzzles import PuzzleError, worksheet

    monkeypatch.delenv("ESCOBA_CJK_FONT", raising=False)
    monkeypatch.setattr(worksheet, "CJK_FONTS", (("/nonexistent/font.ttc", 0),))
    with pytest.raises(PuzzleError, match="fonts-noto-cjk"):
        worksheet.worksheet_pdf("fifteens", 1, count=2, lang="zh")
    # German and English need no extra font.
    assert worksheet.worksheet_pdf("fifteens", 1, count=2, lang="de").startswith(b"%PDF-")


def test_worksheet_cli_takes_a_language(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    run = subprocess.run([sys.executable, "-m", "commands", "worksheet", "--kind", "hand",
                          "--level", "1", "--count", "3", "--lang", "zh", "-o", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert "手牌" in _pdf_text(out.read_bytes())
    bad = subprocess.run([sys.executable, "-m", "commands", "worksheet", "--kind", "hand",
                          "--level", "1", "--lang", "xx", "-o", str(out)],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "no puzzles language 'xx'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_latin_script_worksheets_fit_the_pdf_core_font() -> None:
    """Only Chinese gets an embedded font; other sheets print in Helvetica (latin-1)."""
    from puzzles.worksheet import CJK_LANGUAGES

    for lang in set(LANGUAGES) - CJK_LANGUAGES:
        for key, strings in _messages(lang, "puzzles").items():
            if not key.startswith("share_"):  # the share text is not printed
                strings[0].encode("latin-1")


def test_the_share_text_speaks_the_language() -> None:
    from puzzles import daily_set, share_text

    daily = daily_set("2026-12-03", 10)
    stars = [3, 2, None, 1, 3]
    assert share_text(daily, stars, "de").splitlines()[0] == (
        f"Escoba-Tagesrätsel Nr. {daily.number} (Summe 10) ⭐ 9/15")
    assert share_text(daily, stars, "zh").splitlines()[0] == (
        f"扫桌每日谜题第{daily.number}期（凑10） ⭐ 9/15")
    assert share_text(daily, stars, "it").splitlines()[0] == (
        f"Escoba: sfida del giorno n. {daily.number} (somma 10) ⭐ 9/15")
    assert share_text(daily, stars).splitlines() == [
        f"Escoba daily #{daily.number} (sum 10) ⭐ 9/15", "🟩🟨⬜🟧🟩"]


# -- the app in German and Chinese (AppTest) --------------------------------------------

APP_PAGES = ["app_pages/profiles.py", "app_pages/my_class.py", "app_pages/lessons.py",
             "app_pages/play.py", "app_pages/tables.py", "app_pages/puzzles.py",
             "app_pages/daily.py", "app_pages/quick_facts.py", "app_pages/progress.py",
             "app_pages/games.py", "app_pages/replay.py", "app_pages/settings.py",
             "app_pages/help.py", "app_pages/teacher.py"]


@pytest.fixture
def fresh_app(db_path, monkeypatch):
    import streamlit as st

    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(
        logging.ERROR)
    monkeypatch.setenv("ESCOBA_NOW", "2026-12-03T10:00:00Z")
    st.cache_resource.clear()
    yield
    st.cache_resource.clear()


def test_app_pages_match_the_router() -> None:
    import ast

    tree = ast.parse((ROOT / "app.py").read_text(encoding="utf-8"))
    routed = [node.elts[0].value for node in ast.walk(tree)
              if isinstance(node, ast.Tuple) and node.elts
              and isinstance(node.elts[0], ast.Constant)
              and str(node.elts[0].value).startswith("app_pages/")]
    assert sorted(routed) == sorted(APP_PAGES)


@pytest.mark.slow
@pytest.mark.parametrize(("locale", "title", "play_button"), [
    ("de-DE", "Wer spielt?", "Spiel starten!"),
    ("it-IT", "Chi gioca?", "Comincia la partita!"),
    ("zh-CN", "谁来玩？", "开始！"),
])
def test_every_page_in_german_italian_and_chinese(fresh_app, caplog, locale: str, title: str,
                                          play_button: str) -> None:
    from tests.test_app_helpers import assert_ok, board_text, create_profile, new_app

    lang = language_from_locale(locale)
    with caplog.at_level(logging.WARNING):
        at = new_app(locale=locale)
        assert at.title[0].value == title
        create_profile(at, "Mia")
        for page in APP_PAGES:
            at.switch_page(page).run()
            assert_ok(at)
            assert at.title, page
        at.switch_page("app_pages/play.py").run()
        assert at.button(key="start_game").label == play_button
        at.button(key="start_game").click().run()
        assert_ok(at)
        board = board_text(at)
        assert t("table_title", lang) in board and t("board_play", lang) in board
    missing = [r.getMessage() for r in caplog.records if "translation" in r.getMessage()]
    assert not missing


def test_progress_charts_write_days_and_percentages_in_the_language() -> None:
    from tests.test_storage import _attempt
    from trainer import charts
    from trainer.i18n import use_language

    rows = [_attempt(day="2026-12-01"),
            _attempt(day="2026-12-03", mode="quick", kind="quick-facts", puzzle_id="q",
                     fact="15-8", seconds=2.5, correct=True, found=1, wrong=0, missed=0,
                     stars=None)]
    frame = charts.attempts_frame(rows)
    readings = {}
    for lang in ("en", "de", "zh"):
        use_language(lang)
        try:
            chart = charts.daily_chart(frame, t)
            stars = charts.stars_chart(frame, t)
        finally:
            use_language(None)
        axis = chart.figure.layout.xaxis
        # data keeps ISO days; a day without practice is a gap, not left out (issue 33)
        assert list(axis.tickvals) == ["2026-12-01", "2026-12-02", "2026-12-03"]
        assert chart.figure.data[0].y[1] is None
        readings[lang] = (list(axis.ticktext), t(chart.key, lang, **chart.params))
        assert list(stars.figure.layout.xaxis.ticktext) == [format_day("2026-12-01", lang)]
        assert chart.figure.layout.separators == {"en": ".,", "de": ",.", "zh": ".,"}[lang]
    assert readings["en"] == (["Dec 1", "Dec 2", "Dec 3"],
                              "On Dec 3: 1 of 1 answer right; quick facts answered in 2.5 s "
                              "(median).")
    assert readings["de"] == (["1. Dez.", "2. Dez.", "3. Dez."],
                              "Am 3. Dez.: 1 von 1 Antwort richtig; Blitzrechnen in 2,5 s "
                              "(Median).")
    assert readings["zh"][0] == ["12月1日", "12月2日", "12月3日"]
    assert readings["zh"][1] == "12月3日：1题答对1题（100%）；口算用时2.5秒（中位数）。"


def test_the_catalogs_sit_below_every_layer() -> None:
    """locales/ needs only Babel: puzzles (worksheets) translate without the app."""
    code = ("import sys, locales, puzzles.worksheet, puzzles.daily\n"
            "locales.translate('puzzles', 'zh', 'ws_answer_key')\n"
            "ours = {'trainer', 'ui', 'app_pages', 'streamlit'}\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & ours))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_french_cards_and_jokers_are_named_in_the_language() -> None:
    """Italian cards keep their names; French ones and the jokers are translated, so no
    English card name is left in another language (the Spanish cards: below)."""
    from escoba import Card, Deck
    from trainer.i18n import card_name

    seven, sota, joker = Card.parse("7o"), Card.parse("8c"), Card.parse("JK1")
    names = {lang: (card_name(seven, Deck.FRENCH, lang), card_name(sota, Deck.FRENCH, lang),
                    card_name(joker, Deck.SPANISH, lang)) for lang in LANGUAGES}
    assert names == {"en": ("7 of diamonds", "J of hearts", "Joker 1"),
                     "es": ("7 de diamantes", "J de corazones", "Comodín 1"),
                     "de": ("Karo 7", "Herz J", "Joker 1"),
                     "it": ("7 di quadri", "J di cuori", "Jolly 1"),
                     "zh": ("方块7", "红心J", "王牌1")}
    for lang in LANGUAGES:
        assert card_name(sota, Deck.ITALIAN, lang) == sota.name(Deck.ITALIAN)


def test_chinese_full_width_marks_carry_their_own_space() -> None:
    """No space after "：" or "。" in Chinese (a stray space read "最好的一步： 你的…"), one
    space between pieces elsewhere; a computer's level and a real name in "（）" in zh."""
    from trainer.i18n import join_text, space_after

    assert space_after("最好的一步：") == "" and space_after("Best move:") == " "
    assert join_text(["收走金币7。", "好！"]) == "收走金币7。好！"
    assert join_text(["Take it.", "", "Well done!"]) == "Take it. Well done!"
    assert t("name_and_note", "zh", name="电脑1", note=t("level_gentle", "zh")) == "电脑1（温和）"
    assert t("name_and_note", "en", name="Computer 1", note="Gentle") == "Computer 1 (Gentle)"


_PO_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?) "')


def _po_syntax_errors(path: Path) -> list[str]:
    """What GNU msgfmt would refuse in a catalog's entries, read line by line: Babel's
    reader keeps going past a stray line (a merge once left a second ``msgstr`` after a
    plural entry's ``msgstr[n]`` lines in German, and Babel said nothing)."""
    errors: list[str] = []
    entry: list[str] = []  # the keywords of the entry being read, in order

    def close(line_no: int) -> None:
        if not entry:
            return
        plural = "msgid_plural" in entry
        strings = [k for k in entry if k.startswith("msgstr")]
        expected = ("msgid", "msgid_plural") if plural else ("msgid",)
        head = tuple(k for k in entry if not k.startswith("msgstr") and k != "msgctxt")
        if head != expected or not strings or (
                plural and any(not k.startswith("msgstr[") for k in strings)) or (
                not plural and strings != ["msgstr"]) or (
                entry.index(strings[0]) != len(entry) - len(strings)):
            errors.append(f"{path.relative_to(ROOT)}:{line_no}: entry {entry}")
        entry.clear()

    for line_no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = _PO_KEYWORD.match(line)
        if match:
            keyword = match.group(1)
            if keyword in ("msgid", "msgctxt") and entry and entry[-1].startswith("msgstr"):
                close(line_no)
            entry.append(keyword)
        elif not line.strip():
            close(line_no)
        elif not (line.startswith("#") or line.startswith('"')):
            errors.append(f"{path.relative_to(ROOT)}:{line_no}: {line[:40]!r}")
    close(line_no)
    return errors


@pytest.mark.parametrize("path", sorted((ROOT / "locales").glob("*/LC_MESSAGES/*.po"))
                         + sorted((ROOT / "locales").glob("*.pot")),
                         ids=lambda p: str(p.relative_to(ROOT / "locales")))
def test_every_catalog_entry_is_well_formed(path: Path) -> None:
    assert _po_syntax_errors(path) == []


def test_the_catalog_check_finds_a_stray_msgstr(tmp_path: Path) -> None:
    good = ('msgid "a"\nmsgid_plural "a.other"\nmsgstr[0] "x"\nmsgstr[1] "y"\n\n'
            'msgid "b"\nmsgstr "z"\n')
    stray = good.replace('msgstr[1] "y"\n', 'msgstr[1] "y"\nmsgstr "w"\n')
    twice = good + 'msgstr "again"\n'
    for text, bad in ((good, False), (stray, True), (twice, True)):
        path = ROOT / "locales" / "_syntax_check.po"
        try:
            path.write_text(text, encoding="utf-8")
            assert bool(_po_syntax_errors(path)) == bad, text
        finally:
            path.unlink()


def test_a_day_far_from_today_is_written_with_its_year() -> None:
    """In August a task "due Dec 5" read as one still to come (found trying a school year
    as a teacher): more than half a year from today, a day gets its year."""
    from datetime import date

    from trainer.i18n import format_day

    august = date(2027, 8, 13)
    assert format_day(date(2026, 12, 5), "en", today=august) == "Dec 5, 2026"
    assert format_day(date(2026, 12, 5), "es", today=august) == "5 dic 2026"
    assert format_day(date(2027, 3, 1), "en", today=august) == "Mar 1"  # this school year
    assert format_day(date(2026, 12, 5), "en") == "Dec 5"  # no today: as before
    assert "2026" in format_day(date(2026, 12, 5), "de", weekday=True, today=august)
