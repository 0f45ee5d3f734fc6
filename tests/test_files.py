"""Files a Spanish or German spreadsheet opens, and worksheets a class prints (issue 27;
issue 33's parent's file): the CSV in each style read back by Python's csv module and by
pandas, the .xlsx read back by openpyxl, every value in the language (no JSON, no
English, no cell a spreadsheet turns into a date), and the per-pupil worksheets with
every answer key after every pupil's sheet, cards labelled in the child's language."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import openpyxl
import pandas as pd
import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from puzzles.practice import Attempt
from puzzles.worksheet import card_label, worksheet_pdf
from tests.test_classroom import (
    NOON,
    TODAY,
    captures,
    class_with,
    put,
    quick,
    teacher,
)
from trainer import charts
from trainer import classroom_print as cp
from trainer.export import (
    CSV_STYLES,
    csv_separator,
    csv_style,
    default_csv_style,
    file_name,
    table_csv,
    table_xlsx,
)
from trainer.i18n import t
from trainer.storage import Storage, configure_sqlite
from trainer.words import answer_text

MADRID = ZoneInfo("Europe/Madrid")


@pytest.fixture
def db(tmp_path) -> Storage:
    eng = sa.create_engine(f"sqlite:///{tmp_path / 'files.db'}")
    configure_sqlite(eng)
    yield Storage(eng)
    eng.dispose()


def _csv(data: bytes, lang: str, style: str | None = None) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig")),
                           delimiter=csv_separator(lang, style)))


def _book(data: bytes) -> list[list[object]]:
    sheet = openpyxl.load_workbook(io.BytesIO(data)).active
    return [list(row) for row in sheet.iter_rows(values_only=True)]


def game_turn(when: datetime) -> Attempt:
    """A game's turn where the child laid the 6 de oros down with a capture on the table
    (the evidence a game stores: trainer/evidence.py)."""
    return Attempt(day=when.date().isoformat(), mode="game", puzzle_id="game-1-r1-m1-ok",
                   kind="game-turn", level=0, capture_sum=15, facts=("15-6",),
                   answers=(("15-6", False, None),),
                   answer=({"card": "6o", "take": [], "captures": 1,
                            "could": {"card": "6o", "take": ["9c"]}},),
                   correct=False, found=0, missed=1, wrong=0, seconds=0.0, hints=0, stars=0)


# -- the writer ---------------------------------------------------------------------------

def test_the_csv_style_follows_the_language_and_the_other_is_a_choice() -> None:
    assert [default_csv_style(lang) for lang in ("es", "de", "it", "en", "zh")] == [
        "semicolon", "semicolon", "semicolon", "comma", "comma"]
    row = [12.49, 3, "3/4", date(2026, 12, 1)]
    de = _csv(table_csv(["a", "b", "c", "d"], [row], "de"), "de")[1]
    assert de == ["12,49", "3", "'3/4", "2026-12-01"]
    de_comma = _csv(table_csv(["a", "b", "c", "d"], [row], "de", style="comma"), "de", "comma")
    assert de_comma[1][0] == "12.49" and csv_separator("de", "comma") == ","
    en_semicolon = table_csv(["a"], [[0.5]], "en", style="semicolon").decode("utf-8-sig")
    assert en_semicolon.splitlines()[1] == "0,5"
    # a stale or forged choice is the language's own
    for bad in ("tab", "", None, 3, ["comma"]):
        assert csv_style(bad, "es") == "semicolon" and csv_style(bad, "zh") == "comma"
    assert table_csv(["a"], [[1.5]], "es", style="tab") == table_csv(["a"], [[1.5]], "es")
    assert set(CSV_STYLES) == {"semicolon", "comma"}


def test_file_names_are_the_catalogs_words_safe_for_any_file_system() -> None:
    assert file_name(t("file.attempts", "es", domain="classroom"), "K7QX", ext="csv") == \
        "respuestas-K7QX.csv"
    assert file_name(t("file.login_cards", "de", domain="classroom"), "K7QX", ext="pdf") == \
        "Anmeldekarten-K7QX.pdf"
    assert file_name(t("file.attempts", "zh", domain="classroom"), "K7QX", ext="xlsx") == \
        "答题记录-K7QX.xlsx"
    assert file_name("mis respuestas", 'Ana/Leo: "3:B"*?', ext="csv") == \
        "mis-respuestas-Ana-Leo-3-B.csv"
    assert file_name("", "", ext="csv") == "escoba.csv"


def test_an_xlsx_types_its_cells_and_never_runs_a_formula() -> None:
    when = datetime(2026, 12, 1, 15, 4, 59, tzinfo=UTC)
    data = table_xlsx(["nombre", "segundos", "día", "hora", "bien", "nota"],
                      [["=1+2", 12.4999, date(2026, 12, 1), when, True, "3/4"]],
                      "es", MADRID, title="respuestas: 3/B")
    book = openpyxl.load_workbook(io.BytesIO(data))
    sheet = book.active
    assert sheet.title == "respuestas  3 B"  # what a sheet name may not hold is dropped
    assert sheet.freeze_panes == "A2" and sheet["A1"].font.b
    name, seconds, day, at, right, note = (c for c in sheet[2])
    assert name.value == "=1+2" and name.data_type == "s"  # text, never a formula
    assert seconds.value == 12.5 and seconds.data_type == "n"
    assert day.value == datetime(2026, 12, 1) and day.is_date
    assert at.value == datetime(2026, 12, 1, 16, 4) and at.is_date  # Madrid time
    assert right.value == "sí" and note.value == "3/4"
    assert sheet.column_dimensions["A"].width >= 8


# -- the teacher's files -----------------------------------------------------------------

def _class(db: Storage):
    room = teacher(db)
    info, pupils = class_with(room, "Lola\tDolores García\nRatón 7\n=1+2;@Ana-Sofía")
    lola = pupils["Lola"].profile_id
    put(db, lola, quick(8, 7, 2.5, NOON), NOON)
    put(db, lola, captures(1, True, NOON), NOON)
    put(db, lola, game_turn(NOON), NOON)
    return room, info, room.snapshot(info.id)


@pytest.mark.parametrize("lang", ["es", "de"])
def test_the_class_answers_read_back_in_the_languages_dialect(db: Storage, lang: str) -> None:
    room, info, snap = _class(db)
    data = cp.attempts_csv(snap, lang, zone=MADRID)
    rows = _csv(data, lang)
    header = rows[0]
    assert header[:2] == [t("csv.nickname", lang, domain="classroom"),
                          t("csv.real_name", lang, domain="classroom")]
    assert len(rows) == 4 and all(len(r) == len(header) for r in rows)
    quick_row, puzzle_row, turn_row = rows[1:]
    col = {name: i for i, name in enumerate(header)}

    def cell(row: list[str], key: str) -> str:
        return row[col[t(f"csv.{key}", lang, domain="classroom")]]

    # times in the teacher's zone to the minute, the day a plain date
    assert cell(quick_row, "created_at") == "2026-12-01 13:00"
    assert cell(quick_row, "day") == "2026-12-01"
    # values in words: no "quick", "practice", "quick-facts", "game-turn" left
    assert cell(quick_row, "mode") == t("csv.mode_quick", lang, domain="classroom")
    assert cell(quick_row, "kind") == t("kind.quick-facts", lang, domain="classroom")
    assert cell(puzzle_row, "mode") == t("csv.mode_practice", lang, domain="classroom")
    assert cell(turn_row, "kind") == t("kind.game-turn", lang, domain="classroom")
    text = data.decode("utf-8-sig")
    for english in ("quick-facts", "practice", "game-turn", "True", "False"):
        assert english not in text
    # no JSON in any cell, nothing a spreadsheet turns into a date or a formula
    assert not re.search(r"[{}\[\]]|\"card\"", text)
    for row in rows[1:]:
        for value in row:
            assert not re.fullmatch(r"\d{1,4}[-/.]\d{1,2}", value), value
    assert cell(quick_row, "fact") == "15 − 8" and cell(quick_row, "answer") == "7"
    assert cell(quick_row, "seconds") == "2,5"
    six = answer_text(game_turn(NOON).answer, lang)
    assert cell(turn_row, "answer") == six
    if lang == "es":
        assert six == "6 de oros: se deja en la mesa (se podía: 6 de oros → Caballo de copas)"
    else:
        assert six == "6 der Münzen: abgelegt (möglich: 6 der Münzen → Pferd der Kelche)"
    assert "→" in cell(puzzle_row, "answer")
    # pandas, as a school's analyst reads it: the decimal comma is a number
    frame = pd.read_csv(io.BytesIO(data), sep=";", decimal=",", encoding="utf-8-sig")
    seconds = frame[t("csv.seconds", lang, domain="classroom")]
    assert seconds.dtype.kind == "f" and seconds.iloc[0] == 2.5
    assert list(frame[t("csv.nickname", lang, domain="classroom")]) == ["Lola"] * 3
    # the other style, chosen on the page
    comma = cp.attempts_csv(snap, lang, style="comma", zone=MADRID)
    back = pd.read_csv(io.BytesIO(comma), sep=",", encoding="utf-8-sig")
    assert back[t("csv.seconds", lang, domain="classroom")].iloc[0] == 2.5


@pytest.mark.parametrize("lang", ["es", "de"])
def test_the_class_answers_as_an_xlsx(db: Storage, lang: str) -> None:
    room, info, snap = _class(db)
    header, table = cp.attempts_table(snap, lang)
    rows = _book(cp.attempts_xlsx(snap, lang, MADRID))
    assert rows[0] == header and len(rows) == 4
    col = {name: i for i, name in enumerate(header)}
    first = rows[1]

    def cell(key: str) -> object:
        return first[col[t(f"csv.{key}", lang, domain="classroom")]]

    assert cell("created_at") == datetime(2026, 12, 1, 13, 0)
    assert cell("day") == datetime(2026, 12, 1)
    assert cell("seconds") == 2.5 and cell("capture_sum") == 15
    assert cell("level") == quick(8, 7, 2.5, NOON).level
    assert cell("correct") == t("csv.yes", lang, domain="classroom")
    assert cell("mode") == t("csv.mode_quick", lang, domain="classroom")
    assert cell("answer") == "7" and cell("fact") == "15 − 8"
    assert rows[3][col[t("csv.answer", lang, domain="classroom")]] == \
        answer_text(game_turn(NOON).answer, lang)
    # the dashboard: numbers typed, "x of y" in words (never a date)
    dash_header, _ = cp.dashboard_table(room.dashboard(snap, TODAY), lang)
    dash = _book(cp.dashboard_xlsx(room.dashboard(snap, TODAY), lang, MADRID))
    assert dash[0] == dash_header and len(dash) == 4
    names = {row[0]: row for row in dash[1:]}
    assert "=1+2" in names and names["=1+2"][1] == "@Ana-Sofía"  # as typed, no formula
    lola = names["Lola"]
    stars = lola[dash_header.index(t("csv.lesson_stars", lang, domain="classroom"))]
    assert isinstance(stars, str) and re.fullmatch(r"0 (de|von) \d+", stars)
    assert isinstance(lola[dash_header.index(t("csv.puzzles", lang, domain="classroom"))],
                      int)


def test_the_dashboard_csv_has_no_fraction_a_spreadsheet_reads_as_a_date(db: Storage) -> None:
    room, info, snap = _class(db)
    rows = _csv(cp.dashboard_csv(room.dashboard(snap, TODAY), "de"), "de")
    assert rows[0][0] == "Spitzname" and len(rows) == 4
    for row in rows[1:]:
        assert not any(re.fullmatch(r"'?\d+/\d+", v) for v in row), row
    lola = next(r for r in rows if r[0] == "Lola")
    column = rows[0].index(t("csv.fluent_additions", "de", domain="classroom"))
    assert re.fullmatch(r"\d+ von 55", lola[column])


# -- the parent's file --------------------------------------------------------------------

def test_the_parents_file_in_german_as_csv_and_xlsx(db: Storage) -> None:
    ana = db.create_profile("Ana", "🦊")
    put(db, ana.id, quick(8, 7, 2.5, NOON), NOON)
    put(db, ana.id, game_turn(NOON), NOON)
    rows = db.attempts(ana.id)
    data = charts.attempts_csv(rows, "de", ZoneInfo("Europe/Berlin"))
    frame = pd.read_csv(io.BytesIO(data), sep=";", decimal=",", encoding="utf-8-sig")
    assert frame[t("csv.seconds", "de", domain="classroom")].iloc[0] == 2.5
    assert set(frame[t("csv.mode", "de", domain="classroom")]) == {"Blitzrechnen", "Spiel"}
    book = _book(charts.attempts_xlsx(rows, "de", ZoneInfo("Europe/Berlin")))
    assert book[1][0] == datetime(2026, 12, 1, 13, 0) and book[1][1] == datetime(2026, 12, 1)
    assert book[2][3] == t("kind.game-turn", "de", domain="classroom")


# -- answers in words ---------------------------------------------------------------------

@pytest.mark.parametrize(("answer", "lang", "said"), [
    ([{"card": "6o", "take": ["3o"]}], "es", "6 de oros → 3 de oros"),
    ([{"card": "6o", "take": ["3o", "6c"]}], "en", "6 de oros → 3 de oros and 6 de copas"),
    ([{"card": "6o", "take": ["3o"]}], "de", "6 der Münzen → 3 der Münzen"),
    ([{"card": "8e", "take": ["7o"]}], "zh", "剑侍从 → 金币7"),
    (["7o: 3o 5c"], "es", "7 de oros → 3 de oros y 5 de copas"),
    ([["3o", "5c"], ["8e"]], "es", "3 de oros y 5 de copas; Sota de espadas"),
    (["none"], "de", "nichts zu nehmen"),
    ([7], "es", "7"),
    ([{"card": "zz", "take": []}], "en", "(not readable)"),
])
def test_an_answer_is_a_move_in_words(answer: list, lang: str, said: str) -> None:
    assert answer_text(answer, lang) == said


# -- worksheets ---------------------------------------------------------------------------

def _pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def test_pupils_sheets_come_first_and_every_answer_key_after_them(db: Storage) -> None:
    room = teacher(db)
    info, pupils = class_with(room, "Lola\nLeo\nAna")
    snap = room.snapshot(info.id)
    grid = room.fact_grid(snap)
    pages = _pages(cp.pupil_worksheets_pdf(snap, grid, "de", count=6))
    key = t("ws_answer_key", "de", domain="puzzles")
    is_key = [key in page for page in pages]
    # three sheets of one page, a blank page (the keys start on a new sheet of paper
    # when printed double-sided), then the three keys
    assert len(pages) == 7 and is_key == [False] * 4 + [True] * 3
    assert pages[3].strip() == ""
    sheet_names = [re.search(r"(Lola|Leo|Ana)", p).group(1) for p in pages[:3]]
    key_names = [re.search(r"(Lola|Leo|Ana)", p).group(1) for p in pages[4:]]
    assert sorted(sheet_names) == ["Ana", "Leo", "Lola"] and key_names == sheet_names


def test_the_class_worksheets_key_starts_on_a_sheet_of_paper_of_its_own(db: Storage) -> None:
    room = teacher(db)
    info, _pupils = class_with(room, "Lola")
    key = t("ws_answer_key", "es", domain="puzzles")
    one = _pages(cp.class_worksheet_pdf(info, "captures", 1, count=5, lang="es"))
    assert [key in p for p in one] == [False, False, True]  # the sheet, blank, the key
    assert one[1].strip() == ""
    two = _pages(cp.class_worksheet_pdf(info, "captures", 1, count=10, lang="es"))
    assert [key in p for p in two] == [False, False, True]  # two sheet pages, the key
    # the command line's sheet is as it was: the key right after the puzzles
    assert len(_pages(worksheet_pdf("captures", 1, 5, "x", lang="es"))) == 2


def test_worksheet_cards_are_labelled_in_the_childs_language() -> None:
    from escoba import Card

    assert card_label("de")(Card.parse("8b")) == "Knappe"
    assert card_label("de")(Card.parse("3e")) == "Schwerter"
    assert card_label("zh")(Card.parse("10c")) == "国王"
    assert card_label("es")(Card.parse("8b")) == "Sota"
    assert card_label("en")(Card.parse("3c")) == "copas"
    de = "\n".join(_pages(worksheet_pdf("captures", 3, 6, "labels", lang="de")))
    assert re.search(r"Münzen|Kelche|Schwerter|Keulen", de)
    assert not re.search(r"\b(Sota|Caballo|Rey|oros|copas|espadas|bastos)\b", de)
    es = "\n".join(_pages(worksheet_pdf("captures", 3, 6, "labels", lang="es")))
    assert re.search(r"\b(oros|copas|espadas|bastos)\b", es)
