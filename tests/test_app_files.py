"""The files the pages offer, with AppTest (issue 27): the teacher's Export part and the
parent's My progress offer each table as a CSV and an .xlsx, side by side, under a CSV
style chosen on the page (the language's by default), with names in the language; a
choice that is not a style changes nothing. The bytes are read back as the browser gets
them (tests/test_app_classroom.py's ``download``)."""

from __future__ import annotations

import csv
import io
from typing import Any

import openpyxl
import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from tests import test_app_classroom as classroom_app
from tests.test_app_classroom import (
    PASSWORD,
    TEACHER,
    TODAY,
    _class,
    download,
    part,
    store,
    submit,
)
from tests.test_app_helpers import assert_ok, create_profile, new_app
from tests.test_classroom import fact_quick
from trainer.i18n import t

pytestmark = pytest.mark.usefixtures("fresh_app")


# The classroom AppTests' fixtures: a fixed date with cheap hashes, and the recorder of
# the media file managers where downloads live.
_setup = classroom_app._setup
media = classroom_app.media


def _button(at: AppTest, key: str) -> Any:
    (button,) = [b for b in at.get("download_button") if str(b.proto.id).endswith(f"-{key}")]
    return button.proto


def _export_part(locale: str) -> tuple[AppTest, Any]:
    """A teacher signed in (in ``locale``) on the Export part of a class with answers."""
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Ana\nLeo", ["4821", "7395"])
    db.record_attempt(ids["Ana"], fact_quick("15-7", False, 2.5, TODAY))
    db.record_attempt(ids["Leo"], fact_quick("15-8", True, 1.5, TODAY))
    at = new_app(locale=locale)
    at.switch_page(TEACHER).run()
    at.text_input(key="tc_name").input("Ms Díaz")
    at.text_input(key="tc_password").input(PASSWORD)
    submit(at, "tc_sign_in_form")
    at.button(key=f"tc_open_{info.id}").click().run()
    assert_ok(at)
    return at, info


@pytest.mark.parametrize(("locale", "lang", "stem"), [
    ("es-ES", "es", "respuestas"), ("de-DE", "de", "Antworten")])
def test_the_teachers_export_offers_csv_and_xlsx_in_the_language(
        media, locale: str, lang: str, stem: str) -> None:
    at, info = _export_part(locale)
    part(at, "export")
    style = at.radio(key="tc_csv_style")
    assert style.value == "semicolon"  # the language's
    assert style.label == t("export.style", lang, domain="classroom")
    for key in ("tc_attempts_csv", "tc_attempts_xlsx", "tc_dashboard_csv", "tc_dashboard_xlsx"):
        button = _button(at, key)
        assert button.label and "attempts" not in button.label
    assert _button(at, "tc_attempts_csv").label == t("export.attempts", lang, domain="classroom")
    assert _button(at, "tc_attempts_xlsx").label == \
        t("export.attempts_xlsx", lang, domain="classroom")
    raw = download(at, media, "tc_attempts_csv")
    rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][0] == t("csv.nickname", lang, domain="classroom") and len(rows) == 3
    seconds = rows[0].index(t("csv.seconds", lang, domain="classroom"))
    assert {r[seconds] for r in rows[1:]} == {"2,5", "1,5"}
    book = openpyxl.load_workbook(io.BytesIO(download(at, media, "tc_attempts_xlsx"))).active
    values = list(book.iter_rows(values_only=True))
    assert list(values[0]) == rows[0] and {v[seconds] for v in values[1:]} == {2.5, 1.5}
    dash = openpyxl.load_workbook(io.BytesIO(download(at, media, "tc_dashboard_xlsx"))).active
    assert dash["A1"].value == t("csv.nickname", lang, domain="classroom")
    # the other style, a tap away
    style.set_value("comma").run()
    assert_ok(at)
    comma = download(at, media, "tc_attempts_csv").decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(comma), delimiter=","))
    assert {r[seconds] for r in rows[1:]} == {"2.5", "1.5"}


def test_a_style_that_is_not_one_changes_nothing(media) -> None:
    at, _info = _export_part("de-DE")
    at.session_state["tc_csv_style"] = "tab"  # a forged or stale choice
    part(at, "export")
    assert not at.exception
    first = download(at, media, "tc_attempts_csv")
    assert b";" in first.splitlines()[0] and b"\t" not in first
    at.run()
    assert_ok(at)
    assert at.radio(key="tc_csv_style").value == "semicolon"
    assert download(at, media, "tc_attempts_csv") == first


def test_print_and_card_files_are_named_in_the_language(media) -> None:
    at, info = _export_part("es-ES")
    part(at, "print")
    assert t("print.keys_at_end", "es", domain="classroom") in "\n".join(
        c.value for c in at.caption)
    names = {key: _file_name(at, media, key) for key in ("tc_ws_pdf", "tc_pupil_ws_pdf",
                                                         "tc_list_pdf")}
    assert names["tc_list_pdf"] == f"lista-de-la-clase-{info.code}.pdf"
    assert names["tc_pupil_ws_pdf"] == f"fichas-por-alumno-{info.code}.pdf"
    assert names["tc_ws_pdf"].startswith(f"ficha-{info.code}-")
    part(at, "export")
    assert _file_name(at, media, "tc_attempts_csv") == f"respuestas-{info.code}.csv"
    assert _file_name(at, media, "tc_attempts_xlsx") == f"respuestas-{info.code}.xlsx"


def _file_name(at: AppTest, media: list[MediaFileManager], key: str) -> str:
    """The name the browser saves the file under (the download's media entry)."""
    proto = _button(at, key)
    for manager in reversed(media):
        if proto.deferred_file_id:
            entry = manager._deferred_callables.get(proto.deferred_file_id)
            if entry is not None:
                return entry["filename"]
        elif proto.url:
            try:
                return manager._storage.get_file(proto.url.rsplit("/", 1)[-1]).filename
            except Exception:
                continue
    raise AssertionError(f"no file for {key}")


@pytest.mark.parametrize(("locale", "lang", "sep", "seconds"), [
    ("es-ES", "es", ";", "2,5"), ("de-DE", "de", ";", "2,5"), ("en-GB", "en", ",", "2.5")])
def test_my_progress_offers_the_parent_a_csv_and_an_xlsx(
        media, locale: str, lang: str, sep: str, seconds: str) -> None:
    at = create_profile(new_app(locale=locale))
    from tests.test_app_practice import profile_id

    store().record_attempt(profile_id(at), fact_quick("15-7", True, 2.5, TODAY))
    at.switch_page("app_pages/progress.py").run()
    assert_ok(at)
    assert at.radio(key="ch_csv_style").value == ("comma" if lang == "en" else "semicolon")
    assert _button(at, "ch_csv").label == t("ch_download", lang)
    assert _button(at, "ch_xlsx").label == t("ch_download_xlsx", lang)
    raw = download(at, media, "ch_csv").decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(raw), delimiter=sep))
    col = rows[0].index(t("csv.seconds", lang, domain="classroom"))
    # The one attempt, and nothing else (a failure shows every row the parent would get).
    assert [row[col] for row in rows[1:]] == [seconds], rows
    assert rows[1][rows[0].index(t("csv.mode", lang, domain="classroom"))] == \
        t("csv.mode_quick", lang, domain="classroom")
    book = openpyxl.load_workbook(io.BytesIO(download(at, media, "ch_xlsx"))).active
    assert book.cell(row=2, column=col + 1).value == 2.5
    assert _file_name(at, media, "ch_csv").startswith(
        t("file.progress", lang, domain="classroom").replace(" ", "-"))
