"""Unfinished puzzles resumed after a restart (issue 25): the sets found are saved as
they are found, with the page's choices; a restart (a new Storage, a new session)
shows the same puzzle, the same sets, the same hints, and the puzzle goes on."""

from __future__ import annotations

import datetime
import json

import pytest
import sqlalchemy as sa
import streamlit as st

from escoba.cards import parse_cards
from puzzles import from_cards
from tests.test_app_helpers import assert_ok, create_profile, new_app
from trainer.i18n import t
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


def _on_page(page: str, choice: str, value: str):
    """A new child's app on ``page`` with the choice ``choice`` set to ``value``; its
    profile's id."""
    at = create_profile(new_app(), "Ana")
    at.switch_page(f"app_pages/{page}.py").run()
    at.segmented_control(key=choice).set_value(value).run()
    return at, int(at.query_params["p"])


def _opened_again(page: str, pid: int, *, restart: bool):
    """``page`` opened anew for the profile ``pid``: a new session (a reload, another
    tab), and with ``restart`` a new process too (nothing of its caches is left)."""
    if restart:
        st.cache_resource.clear()
        st.cache_data.clear()
    fresh = new_app(query={"p": str(pid)})
    fresh.switch_page(f"app_pages/{page}.py").run()
    assert_ok(fresh)
    return fresh


@pytest.mark.usefixtures("fresh_app")
def test_the_puzzles_page_resumes_the_unfinished_puzzle_after_a_restart() -> None:
    from ui.session import storage

    at, pid = _on_page("puzzles", "pz_mode", "captures")
    at.session_state["pz_current"] = (("captures", 1, 15), _example(), [])
    at.run()
    at.pills(key="pz_table").set_value(["8e"]).run()
    at.button(key="pz_add").click().run()
    assert_ok(at)
    assert at.session_state["pz_state"].items == [{"card": "7o", "take": ["8e"]}]
    fresh = _opened_again("puzzles", pid, restart=True)
    state = fresh.session_state["pz_state"]
    assert state.puzzle.id == _example().id and state.items == [{"card": "7o", "take": ["8e"]}]
    assert fresh.segmented_control(key="pz_mode").value == "captures"  # the choice too
    fresh.pills(key="pz_table").set_value(["3o", "5c"]).run()
    fresh.button(key="pz_add").click().run()
    assert_ok(fresh)
    assert fresh.session_state["pz_state"].result.solved
    (row,) = storage().attempts(pid)
    assert row.correct and storage().puzzle_progress(pid, "pz") is None


# Quick facts' round (a reload mid-round started a new round: the answers were kept as
# attempts, but the round, its score and its place were gone).

def _quick_round(level: int = 3, seed: str = "resume"):
    from puzzles.practice import quick_facts_set
    from trainer.practice_sessions import QuickRound

    return QuickRound(str(level), 15, quick_facts_set(level, 5, seed, 15))


def _wrong(puzzle) -> int:
    return puzzle.solutions[0].value % 10 + 1


def test_a_quick_round_resumes_with_its_answers_and_last_feedback() -> None:
    from trainer.practice_sessions import QuickRound

    rnd = _quick_round()
    rnd.answer(rnd.puzzles[0].solutions[0].value)
    rnd.answer(_wrong(rnd.puzzles[1]))
    kept = json.loads(json.dumps(rnd.progress()))  # as the database gives it back
    resumed = QuickRound.resume(kept)
    assert resumed is not None
    assert (resumed.mode, resumed.capture_sum) == ("3", 15)
    assert [p.id for p in resumed.puzzles] == [p.id for p in rnd.puzzles]
    assert resumed.index == 2 and resumed.values == rnd.values
    assert [(p.id, ok) for p, ok in resumed.results] == [(p.id, ok) for p, ok in rnd.results]
    assert resumed.right == 1
    assert resumed.feedback == rnd.feedback and resumed.feedback.kind == "error"
    assert resumed.token != rnd.token  # a tap sent to the old page is not this round's
    for puzzle in resumed.puzzles[2:]:
        resumed.answer(puzzle.solutions[0].value)
    assert resumed.done and resumed.right == 4
    assert resumed.progress() is None  # a round over leaves nothing to resume


def test_a_broken_kept_round_is_not_resumed() -> None:
    from trainer.practice_sessions import QuickRound

    good = _quick_round()
    good.answer(1)
    data = good.progress()
    broken = [
        {}, {**data, "puzzles": []}, {**data, "puzzles": "nonsense"},
        {**data, "values": [1, 2, 3, 4, 5]},  # every question answered: nothing to resume
        {**data, "values": ["7"]}, {**data, "values": [True]}, {**data, "values": None},
        {**data, "capture_sum": 10},  # questions of another sum
        {**data, "puzzles": [_example().to_dict()]},  # not a quick fact
        {**data, "puzzles": [{"kind": "quick-facts"}]},
    ]
    for item in broken:
        assert QuickRound.resume(item) is None, item
    assert QuickRound.resume(data) is not None


def test_an_answer_and_the_rounds_place_are_written_together(tmp_path) -> None:
    from puzzles import check
    from puzzles.practice import Attempt
    from trainer.storage import SlotProgress

    url = f"sqlite:///{tmp_path / 'q.db'}"
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    rnd = _quick_round()
    puzzle = rnd.puzzles[0]
    value = puzzle.solutions[0].value

    def row() -> Attempt:
        return Attempt.of(puzzle, check(puzzle, value), 1.5, [value], "quick",
                          datetime.date(2026, 12, 6))

    # A place that cannot be written (not JSON) takes its answer back with it.
    with pytest.raises(TypeError):
        store.record_attempt(ana.id, row(), progress=SlotProgress("qf", puzzle.id,
                                                                  {"x": object()}))
    assert store.attempts(ana.id) == [] and store.puzzle_progress(ana.id, "qf") is None
    rnd.answer(value)
    store.record_attempt(ana.id, row(), progress=SlotProgress("qf", puzzle.id, rnd.progress()))
    assert len(store.attempts(ana.id)) == 1
    assert store.puzzle_progress(ana.id, "qf") == json.loads(json.dumps(rnd.progress()))
    store.record_attempt(ana.id, row(), progress=SlotProgress("qf", puzzle.id, None))
    assert len(store.attempts(ana.id)) == 2 and store.puzzle_progress(ana.id, "qf") is None


@pytest.mark.usefixtures("fresh_app")
def test_quick_facts_resumes_the_round_after_a_reload_or_a_restart() -> None:
    from ui.session import storage

    at, pid = _on_page("quick_facts", "qf_mode", "3")
    rnd = at.session_state["qf_round"]
    assert rnd.mode == "3"
    at.button(key=f"qf_n_{rnd.puzzles[0].solutions[0].value}").click().run()
    at.button(key=f"qf_n_{_wrong(rnd.puzzles[1])}").click().run()
    assert_ok(at)
    # A reload is a new session of the same process; a restart loses the process too.
    for restart in (False, True):
        fresh = _opened_again("quick_facts", pid, restart=restart)
        again = fresh.session_state["qf_round"]
        assert [p.id for p in again.puzzles] == [p.id for p in rnd.puzzles]
        assert again.index == 2 and again.right == 1
        assert fresh.segmented_control(key="qf_mode").value == "3"  # the round's choice
        caption = t("qf_progress", n=3, total=5)
        assert caption in [c.value for c in fresh.caption]
        right = rnd.puzzles[1].solutions[0].value
        assert any(f"It's {right}" in e.value for e in fresh.error)  # the last answer's word
    assert len(storage().attempts(pid)) == 2  # nothing answered twice
    for puzzle in rnd.puzzles[2:]:
        fresh.button(key=f"qf_n_{puzzle.solutions[0].value}").click().run()
    assert_ok(fresh)
    assert any("4 of 5 right!" in m.value for m in fresh.markdown)
    assert storage().puzzle_progress(pid, "qf") is None  # over: a reload starts anew
    later = new_app(query={"p": str(pid)})
    later.switch_page("app_pages/quick_facts.py").run()
    assert later.session_state["qf_round"].index == 0


@pytest.mark.usefixtures("fresh_app")
def test_a_round_left_for_another_choice_is_not_brought_back() -> None:
    from ui.session import storage

    at, pid = _on_page("quick_facts", "qf_mode", "for-me")
    first = at.session_state["qf_round"]
    at.button(key=f"qf_n_{first.puzzles[0].solutions[0].value}").click().run()
    assert storage().puzzle_progress(pid, "qf") is not None
    at.segmented_control(key="qf_mode").set_value("2").run()
    assert_ok(at)
    assert storage().puzzle_progress(pid, "qf") is None
    fresh = new_app(query={"p": str(pid)})
    fresh.switch_page("app_pages/quick_facts.py").run()
    assert fresh.session_state["qf_round"].index == 0


def test_two_tabs_first_answers_of_a_round_are_both_kept(make_store) -> None:
    """The round's place is written in the answer's transaction: two tabs of one child
    answering the first question of a round at once both create the slot's row. The
    second waited for the first and then failed on the key (PostgreSQL), its answer
    rolled back with it (found in review). One statement, insert or update: both kept."""
    import threading

    from trainer.storage import SlotProgress
    from trainer.storage.progress import write_progress

    first, second = make_store(), make_store()
    ana = first.create_profile("Ana", "🦊")
    rnd = _quick_round()
    rnd.answer(rnd.puzzles[0].solutions[0].value)
    kept = rnd.progress()
    done: list[BaseException | None] = []

    def other_tab() -> None:
        try:
            with second.transaction() as conn:
                write_progress(conn, ana.id, SlotProgress("qf", "tab-2", kept))
            done.append(None)
        except BaseException as error:  # the test reports it
            done.append(error)

    with first.transaction() as conn:  # the first tab's answer, not committed yet
        write_progress(conn, ana.id, SlotProgress("qf", "tab-1", kept))
        tab = threading.Thread(target=other_tab)
        tab.start()
        tab.join(timeout=1.0)
    tab.join(timeout=20)
    assert done == [None]
    assert first.puzzle_progress(ana.id, "qf") == json.loads(json.dumps(kept))
