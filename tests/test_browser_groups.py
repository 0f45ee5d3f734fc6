"""Groups in the real browser (issue 29), on a phone held by the teacher (390 × 844, touch):
two groups named, a pupil moved by one tap on her group's button, the dashboard filtered
to that group. Screenshots: test-artifacts/29-groups-*.png."""

from __future__ import annotations

import pytest

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _open_part,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from tests.test_browser_classroom import PASSWORD, _button

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_teacher_on_a_phone_makes_groups_and_moves_a_pupil_by_a_tap(
        server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _db = server
    with sync_playwright() as p:
        browser, _, page = _context(p, browser_type_launch_args, (390, 844),
                                    is_mobile=True, has_touch=True)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{url}/teacher")
        page.get_by_role("heading", name="For teachers").wait_for()
        _wait_idle(page)
        _button(page, "tc_auth_mode", "New teacher account").tap()
        _wait_idle(page)
        page.locator(".st-key-tc_new_name input").fill("Ms Ortega")
        page.locator(".st-key-tc_new_password input").fill(PASSWORD)
        page.locator(".st-key-tc_new_password2 input").fill(PASSWORD)
        page.get_by_role("button", name="Create the account").tap()
        page.get_by_text("Welcome, Ms Ortega!").wait_for()
        _wait_idle(page)
        page.locator(".st-key-tc_class_name input").fill("2C")
        page.get_by_role("button", name="Create the class").tap()
        page.locator("[data-testid=tc-code]").wait_for()
        _wait_idle(page)
        page.locator(".st-key-tc_paste textarea").fill("Lola\nTeo")
        page.get_by_role("button", name="Add these pupils").tap()
        page.get_by_text("2 pupils added.").wait_for()
        _wait_idle(page)

        _open_part(page, "Groups")
        _wait_idle(page)
        for name in ("Red table", "Blue table"):
            page.locator(".st-key-tc_gr_new input").fill(name)
            page.get_by_role("button", name="Add the group").tap()
            page.get_by_text(f"Group {name} added.").wait_for()
            _wait_idle(page)
        # One tap on Lola's "Red table" button puts her there.
        lola = page.locator("[class*='st-key-tc_gr_pupil_']").filter(has_text="Lola")
        lola.locator("button").filter(has_text="Red table").tap()
        _wait_idle(page)
        box = lola.locator("button").filter(has_text="Red table").bounding_box()
        assert box is not None and box["height"] >= 32  # a finger's size on a phone
        page.screenshot(path=str(_artifact("29-groups-phone.png")), full_page=True)

        _open_part(page, "Dashboard")
        _wait_idle(page)
        _button(page, "tc_gr_filter", "Red table").tap()
        _wait_idle(page)
        cards = page.locator("[data-testid=dash-pupil]")
        assert cards.count() == 1 and "Red table" in cards.first.inner_text()
        assert "Lola" in cards.first.inner_text()
        page.screenshot(path=str(_artifact("29-groups-dashboard-phone.png")), full_page=True)
        assert errors == []
        browser.close()
