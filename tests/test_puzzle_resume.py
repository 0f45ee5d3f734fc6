"""Unfinished puzzles resumed after a restart (issue 25): the sets found are saved as
they are found, with the page's choices; a restart (a new Storage, a new session)
shows the same puzzle, the same sets, the same hints, and the puzzle goes on."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
import streamlit as st

from escoba.cards import parse_cards
from puzzles import from_cards
from tests.test_app_helpers import assert_ok, create_profile, new_app
from trainer.practice_sessions import PuzzleKeeper, PuzzleSession
from trainer.storage import Storage, configure_sqlite


def _example():
    """RULES.md example 1: table 3, 5, Sota, Rey; play 7 (two sets: 8, and 3 + 5)."""
    return from_cards("captures", parse_cards("3o 5c 8e 10b"), parse_cards("7o"))


def test_a_puzzle_resumes_with_its_sets_hints_and_time(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'p.db'}"
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    store = Storage(engine)
    ana, leo = store.create_profile("Ana", "🦊"), store.create_profile("Leo", "🐼")
    now = [100.0]
    session = PuzzleSession(_example(), clock=lambda: now[0])
    session.add("7o", ["8e"])
    session.ask_hint()
    now[0] = 112.5
    keeper = PuzzleKeeper(store, ana.id, "pz", {"choices": {"mode": "captures"}})
    keeper.save(session)
    engine.dispose()
    # The app restarted: another engine, another session of the page.
    again = Storage(sa.create_engine(url))
    assert PuzzleKeeper(again, leo.id, "pz").load() is None  # Ana's only
    assert PuzzleKeeper(again, ana.id, "dy0").load() is None  # that slot's only
    kept = PuzzleKeeper(again, ana.id, "pz")
    assert kept.saved()["choices"] == {"mode": "captures"}
    assert kept.load("another-puzzle") is None
    later = [500.0]
    resumed = PuzzleSession.resume(kept.saved(), clock=lambda: later[0])
    assert resumed is not None and resumed.puzzle.id == session.puzzle.id
    assert resumed.items == session.items and resumed.hints_given == session.hints_given
    assert [f.key for f in resumed.feedback] == [f.key for f in session.feedback
                                                 if f.key != "pz_hint_nothing_new"]
    assert resumed.started == pytest.approx(500.0 - 12.5)
    resumed.add("7o", ["3o", "5c"])  # the last set: checked at once
    assert resumed.done and resumed.result.solved and resumed.result.hints == 1
    kept.save(resumed)  # a checked puzzle leaves nothing to resume
    assert kept.saved() is None


def test_a_broken_saved_puzzle_is_not_resumed() -> None:
    for data in ({}, {"puzzle": {"kind": "nonsense"}}, {"puzzle": _example().to_dict(),
                                                        "items": [{"take": ["99z"]}]}):
        assert PuzzleSession.resume(data) is None


@pytest.mark.usefixtures("fresh_app")
def test_the_puzzles_page_resumes_the_unfinished_puzzle_after_a_restart() -> None:
    from ui.session import storage

    at = create_profile(new_app(), "Ana")
    pid = int(at.query_params["p"])
    at.switch_page("app_pages/puzzles.py").run()
    at.segmented_control(key="pz_mode").set_value("captures").run()
    at.session_state["pz_current"] = (("captures", 1, 15), _example(), [])
    at.run()
    at.pills(key="pz_table").set_value(["8e"]).run()
    at.button(key="pz_add").click().run()
    assert_ok(at)
    assert at.session_state["pz_state"].items == [{"card": "7o", "take": ["8e"]}]
    # The app restarts: nothing of the session or the process is left.
    st.cache_resource.clear()
    st.cache_data.clear()
    fresh = new_app(query={"p": str(pid)})
    fresh.switch_page("app_pages/puzzles.py").run()
    assert_ok(fresh)
    state = fresh.session_state["pz_state"]
    assert state.puzzle.id == _example().id and state.items == [{"card": "7o", "take": ["8e"]}]
    assert fresh.segmented_control(key="pz_mode").value == "captures"  # the choice too
    fresh.pills(key="pz_table").set_value(["3o", "5c"]).run()
    fresh.button(key="pz_add").click().run()
    assert_ok(fresh)
    assert fresh.session_state["pz_state"].result.solved
    (row,) = storage().attempts(pid)
    assert row.correct and storage().puzzle_progress(pid, "pz") is None
