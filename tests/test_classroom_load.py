"""A class on the real running server (issue 13): nothing a pupil answers is lost.

The short version of ``bench/classroom_load.py``: ``streamlit run serve.py`` on a fresh
SQLite file, and on a fresh PostgreSQL database; a teacher, a class and its pupils
made through the core API; pupils signing in on "My class" (the class code, their
picture, their PIN) and answering quick facts and puzzles together for a few seconds
(two of them in Chromium, tapping the board, the others over Streamlit's own
protocol), while the teacher's dashboard refreshes, in the core and on the teacher's
own page in a browser.
Then every pupil's ``attempts`` rows are counted against the answers that pupil gave.
No timing is asserted: the figures are the benchmark's (docs/BENCHMARKS.md).

The whole class of the issue: 30 pupils (2 in Chromium, 28 over the wire), about
50 s per database. Needs /usr/bin/chromium (or ``ESCOBA_CHROMIUM``),
skipped without it unless ``ESCOBA_REQUIRE_BROWSER=1``; the PostgreSQL run needs a
server (tests/conftest.py).
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from tests.conftest import ROOT

CHROMIUM = os.environ.get("ESCOBA_CHROMIUM", "/usr/bin/chromium")
PUPILS = 30  # the whole class of the issue (2 in Chromium, 28 over the wire)
SECONDS = 20
IN_BROWSER = 2


def _require_browser() -> None:
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("ESCOBA_REQUIRE_BROWSER") == "1":
        pytest.fail(f"Chromium is required (ESCOBA_REQUIRE_BROWSER=1) but {CHROMIUM} is missing")
    pytest.skip(f"no browser at {CHROMIUM}")


def _env(**values: str) -> dict[str, str]:
    env = dict(os.environ, **values)
    env.pop("ESCOBA_NOW", None)
    if "ESCOBA_DATABASE_URL" not in values:
        env.pop("ESCOBA_DATABASE_URL", None)
    return env


def _class_plays(database_url: str, env: dict[str, str], work: Path) -> None:
    from bench.classroom_load import run_class

    report = run_class(database_url, env, pupils=PUPILS, seconds=SECONDS,
                       in_browser=IN_BROWSER, think=(0.5, 1.5), dashboard_every=2.0,
                       teacher_every=6.0, work=work)
    pupils = report["per_pupil"]
    problems = {p["profile_id"]: p["errors"] for p in pupils if p["errors"]}
    # A string, not the dict: pytest shortens a repr in the middle, where the screen is.
    assert not problems, "\n".join(f"pupil {k}: {e}" for k, v in problems.items() for e in v)
    # Every pupil signed in and got screens: answers, puzzles, the next question.
    assert [p for p in pupils if p["sign_in_s"] is None] == []
    assert all(p["screens"] > 0 and p["answers"] > 0 for p in pupils), pupils
    assert sum(p["client"] == "browser" for p in pupils) == IN_BROWSER
    assert report["unconfirmed_taps"] == 0
    # A page whose app went white is loaded again by the page's own watch (ui.ticker;
    # Streamlit threw while applying a run, seen in CI): the pupil signs in again and
    # goes on. Said, allowed once in the run, never silently.
    reloads = [(p["profile_id"], r) for p in pupils for r in p["reloads"]]
    if reloads:
        warnings.warn(f"pages loaded themselves again: {reloads}", stacklevel=1)
    assert report["page_reloads"] <= 1, reloads
    # Nothing lost, nothing doubled: one attempt row per answer, per pupil and kind (a
    # reloaded tablet's tap may have been saved with its screen never seen).
    for p in pupils:
        if p["reloads"]:
            assert p["answers"] <= p["rows"] <= p["answer_taps"], p
            assert p["quick_answers"] <= p["quick_rows"], p
            assert p["puzzles_done"] <= p["puzzle_rows"], p
            continue
        assert (p["rows"], p["quick_rows"], p["puzzle_rows"]) == (
            p["answers"], p["quick_answers"], p["puzzles_done"]), p
    assert report["lost"] == report["doubled"] == 0
    # The teacher's dashboard was refreshed while they played, and saw their answers.
    assert report["dashboard_refreshes"] >= 3
    assert report["dashboard_answers_seen"][-1] > 0
    assert report["dashboard_attempts_read"][-1] == 0  # its figures are kept at write time
    assert report["teacher_page"], "the app has a teacher's page: the test looks at it"
    assert report["teacher_page_errors"] == []
    assert {k: v["n"] > 0 for k, v in report["teacher_page_ms"].items()} == {
        "tc_open": True, "tc_dashboard": True, "tc_grid": True}
    # No pupil was shown the error page (the server logs every error a page shows).
    log = Path(report["server_log"]).read_text(encoding="utf-8")
    assert "unexpected error on a page" not in log, log[-3000:]


@pytest.mark.browser
@pytest.mark.slow
def test_a_class_plays_together_on_sqlite(tmp_path: Path) -> None:
    _require_browser()
    from trainer.storage import sqlite_url

    db = tmp_path / "escoba.db"
    _class_plays(sqlite_url(str(db)), _env(ESCOBA_DB_PATH=str(db)), tmp_path)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.postgres
def test_a_class_plays_together_on_postgres(postgres_url: str, tmp_path: Path) -> None:
    _require_browser()
    _class_plays(postgres_url, _env(ESCOBA_DATABASE_URL=postgres_url), tmp_path)


def test_two_sessions_on_one_page_at_once_both_run_it() -> None:
    """The navigation's pages are built once per language and shared by every session;
    ``st.navigation`` marks the page it returns as the one this run may run, and
    ``page.run()`` takes the mark away. Two pupils opening the same page at the same
    moment both got past ``st.navigation`` before either ran it: the second was shown
    the error page (found by the load test). Each run now has pages of its own."""
    from streamlit.testing.v1 import AppTest

    def script(root: str) -> None:
        import streamlit as st

        from ui.layout import pages

        spec = ((f"{root}/app_pages/help.py", "nav_help", "❓"),)
        first = st.navigation(pages(spec, "en"), position="hidden")  # a pupil's run
        second = st.navigation(pages(spec, "en"), position="hidden")  # another's, meanwhile
        first.run()
        second.run()
        st.session_state["both_ran"] = True

    at = AppTest.from_function(script, args=(str(ROOT),), default_timeout=30).run()
    assert not at.exception, at.exception
    assert at.session_state["both_ran"]
