"""The teacher's live view in the real browser (issue 29): the teacher on a laptop
(1366 × 900), then a tablet (1024 × 768); Lola and Teo on tablets.

The view changes by itself (its own 5-second refresh, no tap of the teacher's): Lola and
Teo sign in on My class and come on as signed in; Lola goes to Puzzles and her card says
so; Teo taps "Not you? Switch" and his card says he is not signed in; three wrong
answers of Lola's in a row make her card "stuck", in red, first.

Screenshots: test-artifacts/29-liveview-*.png.
"""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from tests.test_browser_live_round import _button, _pupil_signs_in, _seed, _teacher_opens
from tests.test_live_view import _attempt
from trainer.storage import Storage

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _card(page, name: str):
    return page.locator("[data-testid=lv-card]").filter(has_text=name)


def test_the_live_view_follows_two_tablets_by_itself(server,  # noqa: F811
                                                     browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db_path = server
    class_id, code, ids = _seed(db_path)
    with sync_playwright() as p:
        browser, laptop_context, teacher = _context(p, browser_type_launch_args, (1366, 900))
        tablets = [browser.new_context(viewport={"width": 1024, "height": 768},
                                       locale="en-US", device_scale_factor=1)
                   for _ in range(2)]
        lola, teo = (c.new_page() for c in tablets)
        errors: list[str] = []
        for page in (teacher, lola, teo):
            page.set_default_timeout(30_000)
            page.on("pageerror", lambda error: errors.append(str(error)))

        _teacher_opens(teacher, url, class_id, "Live view")
        teacher.get_by_text("Signed in: 0 of 2 · Stuck: 0").wait_for()
        _wait_idle(teacher)

        _pupil_signs_in(lola, url, code, "Lola", ids["Lola"])
        _pupil_signs_in(teo, url, code, "Teo", ids["Teo"])
        # The view's own refresh brings them, without a tap of the teacher's.
        teacher.get_by_text("Signed in: 2 of 2 · Stuck: 0").wait_for(timeout=15_000)
        assert "My class" in _card(teacher, "Lola").inner_text()

        lola.locator("[data-testid=stMain]").get_by_role("link", name="Puzzles").click()
        lola.locator(".eb-card").first.wait_for()
        _wait_idle(lola)
        _card(teacher, "Lola").filter(has_text="Puzzles").wait_for(timeout=15_000)
        _wait_idle(teacher)
        teacher.screenshot(path=str(_artifact("29-liveview-laptop.png")), full_page=True)

        _button(teo, "mc_switch").click()
        teo.get_by_text("Find my class").or_(teo.locator(".st-key-mc_pupil_" + str(ids["Teo"])))\
            .first.wait_for()
        _card(teacher, "Teo").filter(has_text="Not signed in").wait_for(timeout=15_000)
        teacher.get_by_text("Signed in: 1 of 2").wait_for()
        _wait_idle(teacher)

        # Three wrong answers of Lola's in a row (as her page writes them): stuck, by itself.
        engine = sa.create_engine(f"sqlite:///{db_path}")
        store = Storage(engine, migrate=False)
        for _ in range(3):
            store.record_attempt(ids["Lola"], _attempt(False))
        engine.dispose()
        _card(teacher, "Lola").filter(has_text="Stuck: 3 wrong in a row").wait_for(
            timeout=15_000)
        teacher.get_by_text("Stuck: 1").wait_for()
        _wait_idle(teacher)

        teacher.set_viewport_size({"width": 1024, "height": 768})
        _wait_idle(teacher)
        teacher.screenshot(path=str(_artifact("29-liveview-tablet.png")), full_page=True)
        # Every card inside the tablet's width: nothing cut at the right.
        for box in (c.bounding_box() for c in teacher.locator("[data-testid=lv-card]").all()):
            assert box is not None and box["x"] + box["width"] <= 1024, box
        teacher.set_viewport_size({"width": 390, "height": 844})
        _wait_idle(teacher)
        teacher.screenshot(path=str(_artifact("29-liveview-phone.png")), full_page=True)
        lola.screenshot(path=str(_artifact("29-liveview-pupil-puzzles.png")))

        assert not errors, errors
        for page in (teacher, lola, teo):
            assert not page.get_by_text("Traceback").count()
        for context in (*tablets, laptop_context):
            context.close()
        browser.close()
