"""The projector read from the back of the room, in the real browser (issue 29): on a
1920 × 1080 screen the Projector part is drawn alone (no sidebar, no Streamlit header,
no title, no parts' control), a round's cards big; the small "Leave the big screen"
button brings the class's page back with its sidebar.

Screenshots: test-artifacts/29-presentation-*.png.
"""

from __future__ import annotations

import pytest

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _open_part,
    _steady_box,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from tests.test_browser_live_round import _button, _seed, _teacher_opens

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_the_projector_fills_the_screen_and_leaves_it(server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db_path = server
    class_id, code, _ = _seed(db_path)
    with sync_playwright() as p:
        browser, context, screen = _context(p, browser_type_launch_args, (1920, 1080))
        errors: list[str] = []
        screen.on("pageerror", lambda error: errors.append(str(error)))
        screen.set_default_timeout(30_000)
        _teacher_opens(screen, url, class_id, "Grid")
        _wait_idle(screen)
        assert screen.locator("[data-testid=stSidebar]").is_visible()
        _open_part(screen, "Projector")
        _button(screen, "tc_leave_presentation").wait_for()
        screen.locator(".st-key-tc_live_start button").click()
        screen.get_by_text("0 answers in").wait_for()
        _wait_idle(screen)
        screen.screenshot(path=str(_artifact("29-presentation-round.png")))
        assert not screen.locator("[data-testid=stSidebar]").is_visible()
        assert not screen.locator("header[data-testid=stHeader]").is_visible()
        assert not screen.locator(".st-key-tc_part").count()
        assert "For teachers" not in screen.locator("[data-testid=stMain]").inner_text()
        # The round fits the screen: its count and the reveal's button without a scroll.
        for locator in (screen.locator("[data-testid=tc-live-count]"),
                        screen.locator(".st-key-tc_live_reveal button")):
            box = _steady_box(locator)
            assert box is not None and box["y"] + box["height"] <= 1080, box
        # The round's cards are big enough for the back of the room (at least 150 px
        # tall), and a table of few cards grows (to 17vh wide: about 276 px tall) rather
        # than leave the screen's lower half empty.
        cards = screen.locator("[data-testid=stMain] img[data-card]").all()
        assert cards
        for card in cards:
            box = _steady_box(card)
            assert box is not None and 150 <= box["height"] <= 285, box
            assert box["y"] + box["height"] <= 1080, box
            if len(cards) <= 6:
                assert box["height"] >= 250, (len(cards), box)
        # A 1366 × 768 projector: the round still fits, its cards smaller.
        screen.set_viewport_size({"width": 1366, "height": 768})
        _wait_idle(screen)
        screen.screenshot(path=str(_artifact("29-presentation-round-1366.png")))
        for locator in (screen.locator("[data-testid=tc-live-count]"),
                        screen.locator(".st-key-tc_live_reveal button")):
            box = _steady_box(locator)
            assert box is not None and box["y"] + box["height"] <= 768, box
        for card in screen.locator("[data-testid=stMain] img[data-card]").all():
            box = _steady_box(card)
            assert box is not None and 100 <= box["height"] <= 200, box
        screen.set_viewport_size({"width": 1920, "height": 1080})
        assert code.replace("-", "")[:3] in screen.locator(
            "[data-testid=tc-live-code]").inner_text().replace("-", "").replace(" ", "")
        leave = _button(screen, "tc_leave_presentation")
        box = _steady_box(leave)
        assert box is not None and box["width"] < 320 and box["y"] < 60, box  # small, in a corner
        leave.click()
        screen.get_by_role("heading", name="For teachers").wait_for()
        _wait_idle(screen)
        assert screen.locator("[data-testid=stSidebar]").is_visible()
        # Back to the part it was on: the lesson's section opened at the live view, then
        # the projector was tapped (issue 29).
        assert _button(screen, "tc_part", "Live view").get_attribute("aria-checked") == "true"
        assert _button(screen, "tc_section", "During the lesson").get_attribute(
            "aria-checked") == "true"
        screen.screenshot(path=str(_artifact("29-presentation-left.png")))
        assert not errors, errors
        context.close()
        browser.close()
