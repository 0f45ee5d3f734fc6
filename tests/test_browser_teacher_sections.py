"""The teacher's parts in sections, in the real browser (issue 29): on a tablet
(1024 × 768) in German and Spanish each control, the sections' and each section's parts',
is one row; on a phone (390 × 844) every button is a finger's size and on the screen.

Screenshots: test-artifacts/34-sections-*.png.
"""

from __future__ import annotations

import pytest

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _wait_idle,
    browser_type_launch_args,
    server,
)
from tests.test_browser_live_round import PASSWORD, _seed
from ui.teacher.registry import SECTION_KEYS, SECTIONS

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Each control's buttons: their tops (one row: one top), their boxes.
_BOXES_JS = """(key) => [...document.querySelectorAll('.st-key-' + key + ' button')]
  .map((b) => { const r = b.getBoundingClientRect();
                return {top: Math.round(r.top), left: r.left, right: r.right,
                        height: r.height, text: b.innerText}; })"""


def _sign_in(page, url: str, class_id: int, teacher: str) -> None:
    page.goto(f"{url}/teacher")
    page.locator(".st-key-tc_name input").wait_for()
    _wait_idle(page)
    page.locator(".st-key-tc_name input").fill(teacher)
    page.locator(".st-key-tc_password input").fill(PASSWORD)
    page.locator("[data-testid=stFormSubmitButton] button").click()
    page.locator(f".st-key-tc_open_{class_id} button").click()
    page.locator(".st-key-tc_section").wait_for()
    _wait_idle(page)


@pytest.mark.parametrize("locale", ["de-DE", "es-ES"])
def test_each_parts_control_is_one_row_on_a_tablet(server, browser_type_launch_args,  # noqa: F811
                                                   locale: str) -> None:
    from playwright.sync_api import sync_playwright

    url, db = server
    teacher = f"Ms Robles {locale}"
    class_id, _, _ = _seed(db, teacher)
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, (1024, 768), locale)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            _sign_in(page, url, class_id, teacher)
            for index, section in enumerate(SECTION_KEYS):
                page.locator(".st-key-tc_section button").nth(index).click()
                _wait_idle(page)
                sections = page.evaluate(_BOXES_JS, "tc_section")
                parts = page.evaluate(_BOXES_JS, "tc_part")
                assert len(sections) == len(SECTION_KEYS)
                assert len(parts) == len(SECTIONS[section]), parts
                for boxes in (sections, parts):
                    assert len({b["top"] for b in boxes}) == 1, boxes  # one row
                page.screenshot(path=str(_artifact(
                    f"34-sections-{section}-{locale[:2]}-tablet.png")))
            assert not errors, errors
        finally:
            context.close()
            browser.close()


def test_the_sections_stay_usable_on_a_phone(server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db = server
    teacher = "Ms Robles phone"
    class_id, _, _ = _seed(db, teacher)
    with sync_playwright() as p:
        browser, context, page = _context(p, browser_type_launch_args, (390, 844), "es-ES",
                                          is_mobile=True, has_touch=True)
        try:
            _sign_in(page, url, class_id, teacher)
            page.locator(".st-key-tc_section button").nth(
                SECTION_KEYS.index("lesson")).tap()
            _wait_idle(page)
            # The lesson's section opens at a part drawn on the page, not the big screen.
            assert page.locator(".st-key-tc_part button").filter(
                has_text="En directo").get_attribute("aria-checked") == "true"
            for key in ("tc_section", "tc_part"):
                for box in page.evaluate(_BOXES_JS, key):
                    assert box["height"] >= 40 and box["left"] >= 0 and box["right"] <= 390, box
            page.screenshot(path=str(_artifact("34-sections-lesson-es-phone.png")))
        finally:
            context.close()
            browser.close()
