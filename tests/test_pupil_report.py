"""The report a teacher sends home (issue 29): a page per pupil in the family's language,
what the child knows and practises, this month's answers, lessons, a sentence for home,
and nothing about classmates. Read back from the PDF with pypdf."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from puzzles.worksheet import cjk_font
from tests.test_classroom import NOON, TODAY, class_with, fact_quick, put, quick, teacher
from trainer.classroom_views import dashboard
from trainer.pupil_report import REPORT_DAYS, class_report_pdf, pupil_reports
from trainer.storage import Storage, configure_sqlite

LANGUAGES = ("en", "es", "de", "it", "zh")


@pytest.fixture
def sq(tmp_path) -> Storage:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'report.db'}")
    configure_sqlite(engine)
    yield Storage(engine)
    engine.dispose()


def _pages(data: bytes) -> list[str]:
    # pypdf reads the CJK font's glyphs with NULs between them: drop those
    return [page.extract_text().replace("\x00", "") for page in PdfReader(io.BytesIO(data)).pages]


def _class(sq: Storage):
    """Lola answered 7 + 8 quickly three times and missed 6 + 9 twice, over two days;
    Leo answered nothing; Kim (real name Kimberly Ruiz) answered 15 - 9 wrong."""
    room = teacher(sq)
    info, pupils = class_with(room, "Lola\nLeo\nKim;Kimberly Ruiz")
    lola, kim = pupils["Lola"].profile_id, pupils["Kim"].profile_id
    yesterday = NOON - timedelta(days=1)
    for when in (yesterday, NOON, NOON + timedelta(minutes=1)):
        put(sq, lola, fact_quick("7+8", True, 1.5, when), when)
    for when in (yesterday, NOON):
        put(sq, lola, fact_quick("6+9", False, 4.0, when), when)
    put(sq, kim, quick(9, 5, 3.0, NOON), NOON)
    snap = room.snapshot(info.id, TODAY, days=REPORT_DAYS)
    grid = room.fact_grid(snap)
    reports = pupil_reports(snap, grid, dashboard(snap, TODAY, grid), TODAY)
    return room, info, pupils, reports


def test_each_pupil_gets_their_own_facts_days_and_sentence(sq: Storage) -> None:
    _, _, pupils, reports = _class(sq)
    by_name = {r.name: r for r in reports}
    assert set(by_name) == {"Lola", "Leo", "Kimberly Ruiz"}  # the real name when entered
    lola = by_name["Lola"]
    assert "7+8" in lola.known and "6+9" not in lola.known
    # "6 + ? = 15" asks the complement 15 - 6 and the addition 6 + 9: both missed
    assert set(lola.practising) == {"6+9", "15-6"}
    # at home: those first, then a fact not tried yet, in the order facts are taught
    assert set(lola.home[:2]) == {"6+9", "15-6"} and len(lola.home) == 3
    assert lola.home[2] not in lola.known
    assert len(lola.days) == REPORT_DAYS and lola.days[-1][0] == TODAY
    assert lola.days[-1][1:] == (3, 2) and lola.days[-2][1:] == (2, 1)
    assert lola.answers == 5
    leo = by_name["Leo"]
    assert not leo.tried and leo.answers == 0 and leo.home == ()
    assert set(by_name["Kimberly Ruiz"].practising) == {"15-9", "9+6"} - {"9+6"} | {"6+9"}


def test_the_pdf_has_a_page_per_pupil_in_their_language_and_no_classmate(sq: Storage) -> None:
    room, info, pupils, reports = _class(sq)
    lola, leo = pupils["Lola"].profile_id, pupils["Leo"].profile_id
    pages = _pages(class_report_pdf(reports, info.name, {lola: "es", leo: "de"}, "en"))
    assert len(pages) == 3
    by_name = {next(n for n in ("Lola", "Leo", "Kimberly") if n in p): p for p in pages}
    assert "Informe de progreso: Lola" in by_name["Lola"]
    assert "6 + 9" in by_name["Lola"] and "Para practicar en casa" in by_name["Lola"]
    assert "Lernbericht: Leo" in by_name["Leo"] and "ersten Lektion" in by_name["Leo"]
    assert "Progress report: Kimberly Ruiz" in by_name["Kimberly"]
    for name, page in by_name.items():  # nobody else's name on a child's page
        others = {"Lola", "Leo", "Kimberly", "Kim "} - {name}
        assert not any(o in page for o in others), name
    # one pupil only
    only = pupil_reports(room.snapshot(info.id, TODAY, days=REPORT_DAYS),
                         room.fact_grid(room.snapshot(info.id)), [], TODAY, only=[leo])
    assert [r.name for r in only] == ["Leo"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_prints_its_words(sq: Storage, lang: str) -> None:
    if lang == "zh" and cjk_font() is None:
        pytest.skip("no Chinese font on this system")
    _, info, _, reports = _class(sq)
    pages = _pages(class_report_pdf(reports, info.name, {}, lang))
    title = {"en": "Progress report", "es": "Informe de progreso", "de": "Lernbericht",
             "it": "Resoconto dei progressi", "zh": "学习报告"}[lang]
    assert len(pages) == 3 and all(title in p for p in pages)
    assert not any("?" in p for p in pages)  # every character had a glyph


def test_a_class_with_no_pupil_has_no_report() -> None:
    with pytest.raises(ValueError):
        class_report_pdf([], "3B", {}, "en")


def test_the_pupils_languages_are_the_ones_they_chose_and_a_bad_setting_is_skipped(
        sq: Storage) -> None:
    room, info, pupils, _ = _class(sq)
    lola, leo, kim = (pupils[n].profile_id for n in ("Lola", "Leo", "Kim"))
    sq.update_settings(lola, {"lang": "it"})
    sq.update_settings(leo, {"lang": 3})
    assert room.pupil_languages(info.id) == {lola: "it"}
    assert kim not in room.pupil_languages(info.id)
