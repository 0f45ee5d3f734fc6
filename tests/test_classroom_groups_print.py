"""Groups in the teacher's files and printed sheets (issue 29): each pupil's group in the
exports (every attempt, the dashboard) in five languages; the login cards of one group
(new PINs for its pupils only, the others' cards still good), its class list, its
pupils' worksheets and its reports home."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.test_classroom import (  # noqa: F401 (fixtures)
    NOON,
    TODAY,
    class_with,
    fact_quick,
    pdf_text,
    put,
    sq,
    store,
    teacher,
)
from trainer import classroom_print as cp
from trainer.classroom import ClassroomError
from trainer.i18n import LANGUAGES, t
from trainer.pupil_report import class_report_pdf, pupil_reports
from trainer.storage import Storage

GROUP_WORD = {"en": "group", "es": "grupo", "de": "Gruppe", "it": "gruppo", "zh": "小组"}


def _grouped(db: Storage):
    room = teacher(db)
    info, pupils = class_with(room, "Ana\nLeo\nMia\tMaría Pérez")
    ids = {name: p.profile_id for name, p in pupils.items()}
    red, blue = room.create_group(info.id, "Red table"), room.create_group(info.id, "Blue")
    room.set_pupil_group(info.id, ids["Ana"], red.id)
    room.set_pupil_group(info.id, ids["Mia"], red.id)
    room.set_pupil_group(info.id, ids["Leo"], blue.id)
    for name, right in (("Ana", True), ("Leo", False), ("Mia", True)):
        put(db, ids[name], fact_quick("7+8", right, 3.0, NOON), NOON)
    return room, info, pupils, ids, red, blue


def test_the_exports_have_each_pupils_group_in_every_language(sq: Storage) -> None:  # noqa: F811
    room, info, _, ids, red, blue = _grouped(sq)
    room.set_pupil_group(info.id, ids["Leo"], None)  # in no group: an empty cell
    assert set(GROUP_WORD) == set(LANGUAGES)
    for lang, word in GROUP_WORD.items():
        assert t("csv.group", lang, domain="classroom") == word
        snap = room.snapshot(info.id, TODAY)
        header, rows = cp.attempts_table(snap, lang)
        col = header.index(word)
        assert col == header.index(t("csv.real_name", lang, domain="classroom")) + 1
        assert {r[0]: r[col] for r in rows} == {"Ana": "Red table", "Leo": None,
                                                "Mia": "Red table"}
        header, rows = cp.dashboard_table(room.dashboard(snap, TODAY), lang)
        col = header.index(word)
        assert {r[0]: r[col] for r in rows} == {"Ana": "Red table", "Leo": None,
                                                "Mia": "Red table"}
    csv_text = cp.dashboard_csv(room.dashboard(snap, TODAY), "es").decode("utf-8-sig")
    assert csv_text.splitlines()[0].split(";")[2] == "grupo"
    assert "Red table" in csv_text


def test_new_login_cards_for_one_group_leave_the_others_cards_good(store: Storage) -> None:  # noqa: F811
    room, info, pupils, ids, red, _ = _grouped(store)
    cards = room.regenerate_all_pins(info.id, red.id)
    assert [c.nickname for c in cards] == ["Ana", "Mia"] and all(c.pin for c in cards)
    for card in cards:
        assert store.member_pin_matches(info.id, card.profile_id, card.pin)
    # Leo, at the blue table, keeps the PIN of his card.
    assert store.member_pin_matches(info.id, ids["Leo"], pupils["Leo"].pin)
    text = pdf_text(cp.login_cards_pdf(info, cards, "en"))
    assert "Ana" in text and "Mia" in text and "Leo" not in text
    # Another class's group, or one gone: refused, no PIN changed.
    other, _ = class_with(room, "Zoe", "3C")
    theirs = room.create_group(other.id, "Red table")
    with pytest.raises(ClassroomError) as err:
        room.regenerate_all_pins(info.id, theirs.id)
    assert err.value.key == "group.missing"
    for card in cards:
        assert store.member_pin_matches(info.id, card.profile_id, card.pin)
    assert len(room.regenerate_all_pins(info.id)) == 3  # the whole class, as before


def test_a_groups_class_list_worksheets_and_reports(sq: Storage) -> None:  # noqa: F811
    room, info, _, ids, red, _ = _grouped(sq)
    members = [m for m in room.pupils(info.id) if m.group_id == red.id]
    listing = pdf_text(cp.class_list_pdf(info, members, "es", "Red table"))
    assert "Red table" in listing and "2 alumnos" in listing
    assert "María Pérez" in listing and "Leo" not in listing
    whole = pdf_text(cp.class_list_pdf(info, room.pupils(info.id), "es"))
    assert "Red table" not in whole and "Leo" in whole
    snap = room.snapshot(info.id, TODAY)
    grid = room.fact_grid(snap)
    only = [ids["Ana"], ids["Mia"]]
    sheets = pdf_text(cp.pupil_worksheets_pdf(snap, grid, "en", only=only))
    assert "Ana" in sheets and "Mia" in sheets and "Leo" not in sheets
    # A pupil's sheet is the same in the group's PDF as in the class's.
    def first_page(data: bytes) -> str:
        return PdfReader(io.BytesIO(data)).pages[0].extract_text()

    assert first_page(cp.pupil_worksheets_pdf(snap, grid, "en", only=[ids["Ana"]])) \
        == first_page(cp.pupil_worksheets_pdf(snap, grid, "en"))
    reports = pupil_reports(snap, grid, room.dashboard(snap, TODAY), TODAY, only=only)
    assert [r.name for r in reports] == ["Ana", "María Pérez"]
    text = pdf_text(class_report_pdf(reports, info.name, {}, "en"))
    assert "Leo" not in text
