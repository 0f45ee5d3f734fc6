"""Groups in the teacher's files and printed sheets with AppTest (issue 29): the exports
have each pupil's group; the Print part prints for the whole class or for one group (its
pupils' sheets, reports home, class list, and new login cards for its pupils only)."""

from __future__ import annotations

import csv
import io

import pytest
import sqlalchemy as sa
from pypdf import PdfReader

from tests.test_app_classroom import (  # noqa: F401 (_setup, media: autouse fixtures)
    _class,
    _setup,
    click,
    download,
    media,
    open_class,
    part,
    shown,
    store,
)
from tests.test_classroom import pdf_text
from trainer.classroom import Classroom, PupilSignIn

pytestmark = pytest.mark.usefixtures("fresh_app")

PINS = ["4821", "7395", "5102"]


def _grouped():
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Ana\nLeo\nMia", PINS)
    table = room.create_group(info.id, "Table 1")
    room.create_group(info.id, "Blue")
    for name in ("Ana", "Leo"):
        room.set_pupil_group(info.id, ids[name], table.id)
    return db, info, ids, table


def test_the_exports_have_each_pupils_group(media) -> None:  # noqa: F811
    db, info, ids, table = _grouped()
    at = open_class("en-US", "Ms Díaz", info.id)
    part(at, "export")
    for key in ("tc_dashboard_csv", "tc_attempts_csv"):
        lines = list(csv.reader(io.StringIO(download(at, media, key).decode("utf-8-sig"))))
        assert lines[0][:3] == ["nickname", "real name", "group"]
    lines = list(csv.reader(io.StringIO(
        download(at, media, "tc_dashboard_csv").decode("utf-8-sig"))))
    assert {row[0]: row[2] for row in lines[1:]} == {"Ana": "Table 1", "Leo": "Table 1",
                                                     "Mia": ""}


def test_the_print_part_prints_one_groups_sheets_and_cards(media) -> None:  # noqa: F811
    db, info, ids, table = _grouped()
    at = open_class("en-US", "Ms Díaz", info.id)
    part(at, "print")
    control = at.segmented_control(key="tc_print_group")
    assert control.label == "Print for" and control.value == 0
    assert "Login cards for the whole class" in shown(at)
    assert "Mia" in pdf_text(download(at, media, "tc_list_pdf"))
    control.set_value(table.id).run()
    sheets = pdf_text(download(at, media, "tc_pupil_ws_pdf"))
    assert "Ana" in sheets and "Leo" in sheets and "Mia" not in sheets
    listing = pdf_text(download(at, media, "tc_list_pdf"))
    assert "Table 1" in listing and "Mia" not in listing and "2 pupils" in listing
    reports = PdfReader(io.BytesIO(download(at, media, "tc_report_pdf"))).pages
    assert len(reports) == 2 and not any("Mia" in p.extract_text() for p in reports)
    assert "Login cards for the group Table 1" in shown(at)
    assert "the other pupils keep theirs." in shown(at)
    assert at.button(key="tc_all_pins").label == "New PINs for this group"
    at.checkbox(key="tc_all_pins_sure").check().run()
    click(at, "tc_all_pins")
    new_pins = {p.nickname: p.pin for p in at.session_state["tc_new_pins"][1]}
    assert set(new_pins) == {"Ana", "Leo"}
    cards = pdf_text(download(at, media, "tc_cards_all"))
    assert " ".join(new_pins["Ana"]) in cards and "Mia" not in cards
    door = PupilSignIn(db)
    card = door.find_class(info.code)
    assert door.sign_in(card, ids["Ana"], new_pins["Ana"]) == ids["Ana"]
    assert door.sign_in(card, ids["Mia"], PINS[2]) == ids["Mia"]  # her card still good
    # An empty group: a word, nothing to print.
    click(at, "tc_new_pins_done")
    blue = next(g.id for g in db.groups(info.id) if g.name == "Blue")
    at.segmented_control(key="tc_print_group").set_value(blue).run()
    assert "No pupil is in this group yet" in shown(at)
    assert not [b for b in at.get("download_button") if str(b.proto.id).endswith("-tc_list_pdf")]


def test_a_groups_cards_print_with_the_pins_they_have(media) -> None:  # noqa: F811
    """Issue 29: a group's cards without new PINs. Each card has the pupil's PIN as it is,
    no one's changes (the cards in the pupils' hands still work); a pupil whose PIN was
    not kept gets a line to write it on, and the teacher is told so by name."""
    db, info, ids, table = _grouped()
    with db.engine.begin() as conn:  # Leo was added before the cards' PINs were kept
        conn.execute(sa.text("UPDATE class_members SET card_pin = NULL WHERE profile_id = :p"),
                     {"p": ids["Leo"]})
    at = open_class("en-US", "Ms Díaz", info.id)
    part(at, "print")
    at.segmented_control(key="tc_print_group").set_value(table.id).run()
    assert "Each pupil's card with the PIN they have now: nobody's PIN changes." in shown(at)
    assert "No PIN is kept for Leo (added before PINs were kept)" in shown(at)
    pdf = download(at, media, "tc_cards_kept")
    cards = pdf_text(pdf)
    assert "Ana" in cards and "Leo" in cards and "Mia" not in cards
    assert "4 8 2 1" in cards  # Ana's PIN, as it is
    assert "7 3 9 5" not in cards and "_ _ _ _" in cards  # Leo's: a line to write it on
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    assert "tc_new_pins" not in at.session_state
    door = PupilSignIn(db)
    card = door.find_class(info.code)
    for name, pin in zip(("Ana", "Leo", "Mia"), PINS, strict=True):
        assert door.sign_in(card, ids[name], pin) == ids[name]  # no PIN changed
    # The whole class's cards the same way, in the class list's order.
    at.segmented_control(key="tc_print_group").set_value(0).run()
    cards = pdf_text(download(at, media, "tc_cards_kept"))
    assert cards.index("Ana") < cards.index("Leo") < cards.index("Mia")
    assert "5 1 0 2" in cards
    # An archived class still prints them, and makes no new PINs.
    Classroom(db, at.session_state["teacher"]).archive(info.id)
    at.run()
    assert "5 1 0 2" in pdf_text(download(at, media, "tc_cards_kept"))
    assert not [b for b in at.button if b.key == "tc_all_pins"]


def test_print_for_a_group_in_spanish(media) -> None:  # noqa: F811
    db, info, ids, table = _grouped()
    at = open_class("es-ES", "Ms Díaz", info.id)
    part(at, "print")
    at.segmented_control(key="tc_print_group").set_value(table.id).run()
    assert at.segmented_control(key="tc_print_group").label == "Imprimir para"
    assert "Tarjetas de acceso del grupo Table 1" in shown(at)
    assert at.button(key="tc_all_pins").label == "PIN nuevos para este grupo"
