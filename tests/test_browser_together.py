"""A pupil away from My class, in the real browser (issue 29).

- Lola is on Play on her tablet (1024 × 768), Teo on Quick facts on his phone (390 × 844);
  the teacher starts a round on the projector; within seconds a big notice at the top of
  each page says "Your class is playing together!"; Lola taps "Go to My class" and lands
  on the round.
- On a phone's width (390 × 844) the menu is opened and a page picked: the menu closes
  and the page picked is what the child sees, not covered.

Screenshots: test-artifacts/34-*.png.
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
from tests.test_browser_live_round import _pupil_signs_in, _seed, _teacher_opens

pytestmark = [pytest.mark.browser, pytest.mark.slow]

NOTICE = "Your class is playing together!"
# How far the page's title is below where the page's first element starts.
_TITLE_OFFSET = """() => {
  const page = document.querySelector('[data-testid=stMainBlockContainer]');
  const top = page.getBoundingClientRect().top + parseFloat(getComputedStyle(page).paddingTop);
  return Math.abs(document.querySelector('h1').getBoundingClientRect().top - top);
}"""
ROUND = "Class round: the same cards are on the big screen."


def test_a_pupil_on_play_sees_the_class_round_begin_and_goes_to_it(
        server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, db_path = server
    class_id, code, ids = _seed(db_path, teacher="Ms Vidal", names=("Lola", "Teo"))
    with sync_playwright() as p:
        browser, screen_context, screen = _context(p, browser_type_launch_args, (1920, 1080))
        tablet_context = browser.new_context(viewport={"width": 1024, "height": 768},
                                             locale="en-US", device_scale_factor=1)
        phone_context = browser.new_context(viewport={"width": 390, "height": 844},
                                            locale="en-US", device_scale_factor=1,
                                            is_mobile=True, has_touch=True)
        lola, teo = tablet_context.new_page(), phone_context.new_page()
        errors: list[str] = []
        for page in (screen, lola, teo):
            page.set_default_timeout(30_000)
            page.on("pageerror", lambda error: errors.append(str(error)))

        _pupil_signs_in(lola, url, code, "Lola", ids["Lola"])
        _pupil_signs_in(teo, url, code, "Teo", ids["Teo"])
        _wait_idle(teo)
        _pick(teo, "Quick facts")  # Teo on his phone, on Quick facts (from the menu)
        teo.get_by_role("heading", name="Quick facts").first.wait_for()
        lola.locator("[data-testid=stSidebarNav]").get_by_role("link", name="Play",
                                                               exact=True).click()
        lola.get_by_role("heading", name="Escoba de quince").first.wait_for()
        assert "/play" in lola.url
        _wait_idle(lola)
        lola.wait_for_timeout(3000)  # the notice's timer looks twice: nothing to say
        assert lola.get_by_text(NOTICE).count() == 0
        # The notice's timer takes no room while there is nothing to say: Play's title is
        # the first thing on the page, where it always is.
        assert lola.evaluate(_TITLE_OFFSET) < 1
        lola.screenshot(path=str(_artifact("34-notice-tablet-before.png")))

        _teacher_opens(screen, url, class_id, "Projector", "Ms Vidal")
        screen.get_by_text("2 pupils are in").wait_for(timeout=10_000)
        _wait_idle(screen)
        screen.locator(".st-key-tc_live_start button").click()
        screen.get_by_text("0 answers in").wait_for()

        # Lola did not tap anything: the notice comes by itself, within seconds.
        lola.get_by_text(NOTICE).wait_for(timeout=8_000)
        notice = lola.locator(".st-key-together_notice")
        box = notice.bounding_box()
        assert box is not None and box["y"] < 200 and box["height"] > 80, box
        go = lola.locator(".st-key-together_go button")
        assert go.is_visible() and go.inner_text().strip().endswith("Go to My class")
        assert "/play" in lola.url  # a notice, not a page switch
        assert lola.get_by_role("heading", name="Escoba de quince").first.is_visible()
        lola.screenshot(path=str(_artifact("34-notice-tablet-play.png")))
        teo.get_by_text(NOTICE).wait_for(timeout=8_000)  # on a phone, on Quick facts too
        teo_box = teo.locator(".st-key-together_go button").bounding_box()
        assert teo_box is not None and teo_box["y"] + teo_box["height"] < 844, teo_box
        teo.screenshot(path=str(_artifact("34-notice-phone-quick-facts.png")))
        go.click()
        lola.get_by_text(ROUND).wait_for(timeout=10_000)
        _wait_idle(lola)
        assert "/my_class" in lola.url
        assert lola.get_by_text(NOTICE).count() == 0
        lola.screenshot(path=str(_artifact("34-notice-tablet-my-class.png")))

        assert not errors, errors
        for page in (screen, lola, teo):
            assert not page.get_by_text("Traceback").count()
        phone_context.close()
        tablet_context.close()
        screen_context.close()
        browser.close()


def _pick(page, name: str) -> None:
    """A page picked in the menu, opened first on a narrow screen."""
    page.locator("[data-testid=stExpandSidebarButton]").click()
    page.wait_for_function("() => document.querySelector("
                           "'[data-testid=stSidebar]').dataset.collapsed === 'false'")
    page.wait_for_timeout(400)
    page.locator("[data-testid=stSidebarNav]").get_by_role("link", name=name,
                                                          exact=True).click()


def _menu_open(page) -> bool:
    return page.locator("[data-testid=stSidebar]").get_attribute("data-collapsed") == "false"


def test_on_a_phone_the_menu_closes_after_a_page_is_picked(
        server, browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _db = server
    with sync_playwright() as p:
        # A phone's width with a browser that does not call itself a phone (a tablet
        # held upright, a narrow window): Streamlit kept its menu open over the page.
        browser, context, page = _context(p, browser_type_launch_args, (390, 844),
                                          has_touch=True)
        page.goto(url)
        page.locator("[data-testid=stExpandSidebarButton]").wait_for()
        _wait_idle(page)
        for name, heading in (("How to play", "How to play"), ("Settings", "Settings")):
            _pick(page, name)
            title = page.get_by_role("heading", name=heading).first
            title.wait_for()
            _wait_idle(page)
            page.wait_for_timeout(500)  # the menu's slide
            assert not _menu_open(page)
            # What is at the title's place on the screen is the title, not the menu.
            box = title.bounding_box()
            assert box is not None and 0 <= box["y"] < 844
            on_top = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y)?.closest('h1')?.innerText || ''",
                [box["x"] + 20, box["y"] + box["height"] / 2])
            assert heading in on_top, on_top
            page.screenshot(path=str(_artifact(f"34-phone-after-{name.split()[0]}.png")))
        context.close()
        browser.close()
