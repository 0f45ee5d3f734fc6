"""The board's "I drew" word never takes a child back to a page they left (CI, stop 42).

The board says it drew (``ready``, a state value: it reruns the page) once to each
server session. Streamlit 1.67 folds reruns asked close together into one, and that one
opens the page of the *last* ask. A board still loading when the child tapped a menu
link (its page already left: drawn stale, or no longer in the document) said it drew,
and the fold took the child back: "New to Escoba? Start here!" tapped, and the page
stayed where it was. The board now says it only from the page on screen
(``whenCurrent`` in ``ui/board_assets/board.js``). Drawn here from a real position's
data, without a Streamlit server, inside the containers Streamlit draws.
"""

from __future__ import annotations

import json

import pytest

from tests.test_browser import browser_type_launch_args  # noqa: F401 (fixture)
from tests.test_browser_board_scopa import _MOUNT_JS, _board_data
from ui.board_component import BOARD_SCRIPT

pytestmark = [pytest.mark.browser]


# Streamlit's element container: data-stale="true" while a run that has not reached it
# yet is under way (the page being left, or the same page being redrawn).
_BOX = ("<div data-testid='stElementContainer' data-stale='{stale}' id='box'>"
        "<div id='host'></div></div>")
_LINK = "<a href='#next' id='link'>Another page</a>"
_PAGES = {
    "current": _LINK + _BOX.format(stale="false"),
    "stale": _LINK + _BOX.format(stale="true"),
}


def _mount(page, layout: str, *, detach: bool = False, tap_first: bool = False,
           box_after_tap: bool = False) -> None:
    """The board drawn into #host; ``tap_first``: a link tapped before its script ran (the
    child leaving its page as it loads); ``box_after_tap``: its element made after the
    tap (the next page's board)."""
    data = json.loads(json.dumps(_board_data("en")))
    data.update(ready=False, session="s1")
    page.goto("about:blank")  # a new page: its own module, as Streamlit's page loads it
    page.set_content(_LINK if box_after_tap else _PAGES[layout])
    if tap_first or box_after_tap:
        # The module listens for taps from its first load on (Streamlit loads it once a
        # page): loaded here on a board of its own before the tap.
        page.evaluate(_MOUNT_JS, [BOARD_SCRIPT, data,
                                  {"shadow": True, "host": "new"}])
        page.locator("#link").click()
    if box_after_tap:
        page.evaluate("html => document.body.insertAdjacentHTML('beforeend', html)",
                      _BOX.format(stale="false"))
    if detach:  # unmounted before its script ran: the page had changed
        page.evaluate("""() => { window.__kept = document.getElementById('host');
                                 document.getElementById('box').remove(); }""")
        page.evaluate(_MOUNT_JS, [BOARD_SCRIPT, data,
                                  {"shadow": True, "host": "kept"}])
    else:
        page.evaluate(_MOUNT_JS, [BOARD_SCRIPT, data, {"shadow": True}])
    page.wait_for_timeout(100)


def _said(page) -> list[str]:
    return page.evaluate("window.__said")


def test_the_board_says_it_drew_only_from_the_page_on_screen(browser_type_launch_args) -> None:  # noqa: F811
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(**browser_type_launch_args)
        page = browser.new_page(viewport={"width": 1024, "height": 768})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        try:
            # On the page on screen: said at once.
            _mount(page, "current")
            assert _said(page) == ["ready"]
            # Stale (a run under way): not yet; said once the run reaches it again.
            _mount(page, "stale")
            assert _said(page) == []
            page.evaluate("document.getElementById('box').setAttribute('data-stale', 'false')")
            page.wait_for_timeout(100)
            assert _said(page) == ["ready"]
            page.evaluate("document.getElementById('box').setAttribute('data-stale', 'true')")
            page.evaluate("document.getElementById('box').setAttribute('data-stale', 'false')")
            page.wait_for_timeout(100)
            assert _said(page) == ["ready"]  # once
            # Stale, then gone with the page it was on: never said.
            _mount(page, "stale")
            page.evaluate("document.getElementById('box').remove()")
            page.wait_for_timeout(100)
            assert _said(page) == []
            # Its script ran after the page had changed (out of the document): never said.
            _mount(page, "current", detach=True)
            assert _said(page) == []
            # On the page when a link was tapped, the next page's run not begun: not yet;
            # the run begins (stale), then the page goes: never said.
            _mount(page, "current", tap_first=True)
            page.wait_for_timeout(500)
            assert _said(page) == []
            page.evaluate("document.getElementById('box').setAttribute('data-stale', 'true')")
            page.evaluate("document.getElementById('box').remove()")
            page.wait_for_timeout(2500)
            assert _said(page) == []
            # The tap led nowhere (no run began): said once the wait is over.
            _mount(page, "current", tap_first=True)
            page.wait_for_timeout(500)
            assert _said(page) == []
            page.wait_for_timeout(2500)
            assert _said(page) == ["ready"]
            # The next page's board, made after the tap: said at once.
            _mount(page, "current", box_after_tap=True)
            assert _said(page) == ["ready"]
            assert not errors, errors
        finally:
            browser.close()
