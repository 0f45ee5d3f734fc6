"""A tablet left open while its server restarts (a crash, an update, a replica replaced)
goes on by itself at the next tap, in the real browser.

Streamlit's page reconnects by itself, to a new server session that knows none of the
page's parts. A tap inside a part (a quick fact's number, a puzzle's set, the board) asks
for that part's run, which the new session cannot do: it was dropped, and the page stayed
frozen at its last screen until the child found a tap outside every part (the menu).
Streamlit's page asks the new session for a whole run at the reconnection only when it
holds one of Streamlit's own timers (or its last run was a part's), so every page keeps
one that never rings in a visit (``ui.ticker.wake_after_a_restart``).
"""

from __future__ import annotations

import sqlite3

import pytest
import sqlalchemy as sa

from tests.test_browser import (  # noqa: F401 (fixtures)
    _artifact,
    _context,
    _require_browser,
    _wait_idle,
    browser_type_launch_args,
    crash_and_restart,
    own_server_env,
)
from trainer.storage import Storage

pytestmark = [pytest.mark.browser]


# Counts the app's runs that finish from now on (stApp's script state back to idle).
_COUNT_RUNS_JS = """() => {
  window.runsFinished = 0;
  const app = document.querySelector('[data-testid=stApp]');
  let running = false;
  new MutationObserver(() => {
    const state = app.getAttribute('data-test-script-state');
    if (state === 'running') running = true;
    else if (running) { running = false; window.runsFinished += 1; }
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""


def _answers(db, profile: int) -> int:
    with sqlite3.connect(db) as con:
        return con.execute("select count(*) from attempts where profile_id = ?",
                           (profile,)).fetchone()[0]


def test_a_quick_fact_tapped_after_the_server_restarted_is_answered(
        tmp_path, browser_type_launch_args) -> None:  # noqa: F811
    """A child on Quick facts (opened by its address: the page's last run is a whole
    run). The server is killed and another takes its place; the page reconnects by
    itself. The child taps a number, as she would: it is answered (the next question on
    the screen) and saved, with no tap on the menu first."""
    from playwright.sync_api import sync_playwright

    from deploy.replicas import start_streamlit, stop, wait_healthy
    from tests.conftest import free_port

    _require_browser()
    db = tmp_path / "escoba.db"
    env = own_server_env(db)
    profile = Storage(sa.create_engine(f"sqlite:///{db}")).create_profile("Rea", "🐢").id
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = start_streamlit(port, env, tmp_path / "first.log")
    try:
        wait_healthy(url, proc, tmp_path / "first.log")
        with sync_playwright() as p:
            browser, context, page = _context(p, browser_type_launch_args, (1024, 768))
            sockets: list[str] = []
            page.on("websocket", lambda ws: sockets.append(ws.url))
            page.goto(f"{url}/quick_facts?p={profile}")
            question = page.locator(".qf-root [data-testid=qf-question]")
            question.wait_for()
            _wait_idle(page)
            page.evaluate(_COUNT_RUNS_JS)
            proc = crash_and_restart(proc, port, env, tmp_path / "second.log", page, sockets)
            # The new session's first run (a cold server: about a second) draws the
            # page again; a tap while the old screen still stands is not answered.
            page.wait_for_function("() => window.runsFinished >= 1")
            _wait_idle(page)
            asked = question.inner_text()
            before = _answers(db, profile)
            page.locator(".qf-n[data-n='3']").click()
            page.wait_for_function(
                "(asked) => document.querySelector('[data-testid=qf-question]')"
                "?.innerText !== asked", arg=asked, timeout=15_000)
            assert _answers(db, profile) == before + 1
            page.screenshot(path=str(_artifact("restart-quick-fact-answered.png")))
            assert not page.get_by_text("Traceback").count()
            context.close()
            browser.close()
    finally:
        stop(proc)
