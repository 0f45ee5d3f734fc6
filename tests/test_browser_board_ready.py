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
from tests.test_browser_board_scopa import _board_data
from ui.board_component import _asset

pytestmark = [pytest.mark.browser]

# The component called as Streamlit calls it, into #host; its state words are recorded.
_MOUNT_JS = """async ([source, data]) => {
  const url = URL.createObjectURL(new Blob([source], {type: "text/javascript"}));
  const board = (await import(url)).default;
  window.__said = [];
  const host = document.getElementById("host");
  board({data, parentElement: host.attachShadow({mode: "open"}),
         setTriggerValue: () => {}, setStateValue: (name, value) => window.__said.push(name)});
}"""

# Streamlit's element container: data-stale="true" while a run that has not reached it
# yet is under way (the page being left, or the same page being redrawn).
_PAGES = {
    "current": "<div data-stale='false' id='box'><div id='host'></div></div>",
    "stale": "<div data-stale='true' id='box'><div id='host'></div></div>",
}


def _mount(page, layout: str, *, detach: bool = False) -> None:
    data = json.loads(json.dumps(_board_data("en")))
    data.update(ready=False, session="s1")
    page.set_content(_PAGES[layout])
    if detach:  # unmounted before its script ran: the page had changed
        page.evaluate("""() => { window.__kept = document.getElementById('host');
                                 document.getElementById('box').remove(); }""")
        page.evaluate(_MOUNT_JS.replace('document.getElementById("host")', "window.__kept"),
                      [_asset("voice.js", "board.js"), data])
    else:
        page.evaluate(_MOUNT_JS, [_asset("voice.js", "board.js"), data])
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
            assert not errors, errors
        finally:
            browser.close()
