"""The teacher's files as a Spanish browser saves them (issue 27): on "Exportar", the
CSV style is the language's, and the CSV and the Excel file download under Spanish
names ("respuestas-…", not "attempts-…") with Spanish headers; the Excel file opens
in openpyxl with typed numbers. Screenshots of the part on a 1024 × 768 tablet and a
390 × 844 phone: test-artifacts/27-files-export-*.png.
"""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime
from pathlib import Path

import openpyxl
import pytest
import sqlalchemy as sa

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _open_part,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from tests.test_classroom import fact_quick
from trainer.classroom import Classroom, ClassroomError, TeacherAuth
from trainer.storage import Storage

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PASSWORD = "seven oros on the table"


def _class(db_path) -> tuple[int, str]:
    """A class of two pupils with an answer each (made once: the server and its database
    live for the module); its id and code."""
    store = Storage(sa.create_engine(f"sqlite:///{db_path}"))
    auth = TeacherAuth(store)
    try:
        session = auth.create_account("Sra. Robles", PASSWORD)
    except ClassroomError:
        session = auth.sign_in("Sra. Robles", PASSWORD)
    room = Classroom(store, session)
    for info in room.classes():
        return info.id, info.code
    info = room.create_class("2.º B")
    added = room.add_pupils(info.id, "Lucía\nÍñigo")
    when = datetime.now(UTC)
    for pupil, seconds in zip(added.added, (2.5, 4.25), strict=True):
        store.record_attempt(pupil.profile_id, fact_quick("15-7", True, seconds, when))
    return info.id, info.code


@pytest.mark.parametrize("size", [(1024, 768), (390, 844)])
def test_a_spanish_teacher_downloads_the_answers_as_csv_and_excel(
        server, browser_type_launch_args, size: tuple[int, int]) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db = server
    class_id, code = _class(db)
    with sync_playwright() as p:
        browser = p.chromium.launch(**browser_type_launch_args)
        context = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                      locale="es-ES", timezone_id="Europe/Madrid",
                                      device_scale_factor=1, accept_downloads=True)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(f"{url}/teacher")
        _wait_idle(page)
        page.locator(".st-key-tc_name input").fill("Sra. Robles")
        page.locator(".st-key-tc_password input").fill(PASSWORD)
        page.locator("[data-testid=stFormSubmitButton] button").first.click()
        page.locator(f".st-key-tc_open_{class_id} button").click()
        _wait_idle(page)
        _open_part(page, "Exportar")
        page.locator(".st-key-tc_attempts_xlsx button").wait_for()
        _wait_idle(page)
        style = page.locator(".st-key-tc_csv_style")
        assert "coma decimal" in style.inner_text()
        assert style.locator("input[type=radio]").first.is_checked()  # ";" + 12,5
        name = f"{size[0]}x{size[1]}"
        page.screenshot(path=str(_artifact(f"27-files-export-{name}.png")), full_page=True)

        _wait_idle(page)
        with page.expect_download() as got:
            page.locator(".st-key-tc_attempts_csv button").click()
        saved = got.value
        assert saved.suggested_filename == f"respuestas-{code}.csv"
        text = Path(saved.path()).read_text(encoding="utf-8-sig")
        rows = list(csv.reader(io.StringIO(text), delimiter=";"))
        assert rows[0][0] == "apodo" and len(rows) == 3
        seconds = rows[0].index("segundos")
        assert sorted(r[seconds] for r in rows[1:]) == ["2,5", "4,25"]

        with page.expect_download() as got:
            page.locator(".st-key-tc_attempts_xlsx button").click()
        saved = got.value
        assert saved.suggested_filename == f"respuestas-{code}.xlsx"
        sheet = openpyxl.load_workbook(io.BytesIO(Path(saved.path()).read_bytes())).active
        assert sheet["A1"].value == "apodo" and sheet.freeze_panes == "A2"
        assert sorted(sheet.cell(row=r, column=seconds + 1).value for r in (2, 3)) == \
            [2.5, 4.25]
        context.close()
        browser.close()
