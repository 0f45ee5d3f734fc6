"""The class plays together with AppTest (issue 29): the teacher's Projector part and two
pupils on My class, through a live "find all the 15s" round: who is in, the round on
every tablet, answers arriving as a count, the reveal, the close. The projector never
shows a pupil's nickname, let alone with a wrong answer."""

from __future__ import annotations

import itertools
from datetime import date

import pytest

from puzzles import check
from tests.test_app_classroom import (
    MY_CLASS,
    NOW,
    _class,
    click,
    open_class,
    part,
    shown,
    sign_in_pupil,
    store,
)
from tests.test_app_helpers import assert_ok, new_app
from trainer.live import LiveRound, PupilLive

pytestmark = pytest.mark.usefixtures("fresh_app")


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ESCOBA_NOW", NOW)


def _add_set(at, cards: list[str]) -> None:
    at.pills(key="mc_live_table").set_value(cards).run()
    click(at, "mc_live_add")


def test_a_live_round_from_the_projector_to_every_tablet_and_back() -> None:
    db = store()
    (_, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat\nNumbat",
                            ["4821", "7395", "5160"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "projector")
    assert "No one is in yet" in shown(teacher.main)
    assert teacher.selectbox(key="tc_live_kind").value == "fifteens"
    assert teacher.button(key="tc_live_start").label.startswith("Start the round")

    quokka, wombat = new_app(), new_app()
    for at, name, pin in ((quokka, "Quokka", "4821"), (wombat, "Wombat", "7395")):
        at.switch_page(MY_CLASS).run()
        sign_in_pupil(at, info.code, ids[name], pin)
        assert "Your tasks" in shown(at)
    teacher.run()
    screen = shown(teacher.main)
    assert "2 pupils are in" in screen
    pictures = [m for m in db.members(info.id) if m.nickname != "Numbat"]  # not signed in
    assert all(m.avatar in screen for m in pictures)

    teacher.selectbox(key="tc_live_level").set_value(2).run()
    click(teacher, "tc_live_start")
    row = db.live_round(info.id)
    assert row is not None and row.state == "open"
    live = LiveRound.of(row)
    assert live.puzzle.level == 2
    assert "Find every group of cards that makes 15!" in shown(teacher.main)
    assert "0 answers in" in shown(teacher.main)

    # Each tablet finds the round at its next look (the page's timer; here a run).
    for at in (quokka, wombat):
        at.run()
        assert_ok(at)
        assert "Class round: the same cards are on the big screen." in shown(at)
        assert "Your tasks" not in shown(at)
    # Quokka finds every set; Wombat gives one wrong set and stops.
    for solution in live.puzzle.solutions:
        _add_set(quokka, [str(c) for c in solution.take])
    if quokka.session_state["mc_live_state"].result is None:
        click(quokka, "mc_live_done")
    assert "Your answer is in" in shown(quokka)
    right = {frozenset(s.take) for s in live.puzzle.solutions}
    wrong = next(pair for pair in itertools.combinations(live.puzzle.table, 2)
                 if sum(c.value for c in pair) != 15 and frozenset(pair) not in right)
    _add_set(wombat, [str(c) for c in wrong])
    click(wombat, "mc_live_done")
    assert "Your answer is in" in shown(wombat)
    # The sets Wombat missed are the projector's to reveal: not on the tablet before.
    # Their own wrong set is said (❌ with its sum); no 🔎 line names a set to find.
    assert "❌" in shown(wombat)
    assert "Still to find" not in shown(wombat) and "🔎" not in shown(wombat)
    # Numbat's tablet sends the same wrong set, and one wrong set nobody else gave.
    values_of = {tuple(sorted(c.value for c in pair)) for pair in (wrong,)}
    lone = next(pair for pair in itertools.combinations(live.puzzle.table, 2)
                if sum(c.value for c in pair) != 15 and frozenset(pair) not in right
                and tuple(sorted(c.value for c in pair)) not in values_of)
    numbat = [" ".join(map(str, wrong)), " ".join(map(str, lone))]
    PupilLive(db, ids["Numbat"]).answer(live, check(live.puzzle, numbat), 5.0, numbat,
                                        date(2026, 12, 4))

    teacher.run()
    assert "3 answers in" in shown(teacher.main)
    click(teacher, "tc_live_reveal")
    screen = shown(teacher.main)
    total = sum(c.value for c in wrong)
    values = " + ".join(str(v) for v in sorted(c.value for c in wrong))
    off = "one too many" if total == 16 else f"{total - 15} too many" if total > 15 \
        else "one too few" if total == 14 else f"{15 - total} too few"
    assert f"2 said {values} = {total}: {off}." in screen  # two gave it: how many, and how
    # A wrong set one pupil gave says who it was in a small class: not on the projector.
    lone_values = " + ".join(str(v) for v in sorted(c.value for c in lone))
    assert f"{lone_values} = {sum(c.value for c in lone)}" not in screen
    assert "found by 1" in screen and "1 found them all, with nothing wrong" in screen
    # Nothing names a child on the projector, before or after the reveal.
    assert "Quokka" not in screen and "Wombat" not in screen and "Numbat" not in screen

    wombat.run()
    assert "Look at the board: your teacher is showing the answers." in shown(wombat)
    assert "🔎 Still to find" in shown(wombat)  # revealed: the sets missed, on the tablet too
    click(teacher, "tc_live_close")
    assert teacher.button(key="tc_live_start")
    wombat.run()
    assert "Your tasks" in shown(wombat) and "Class round" not in shown(wombat)

    # Each answer is evidence for the pupil's facts, like any puzzle.
    (mine,) = db.attempts(ids["Quokka"])
    assert (mine.mode, mine.puzzle_id, mine.correct) == ("live", live.puzzle.id, True)
    (theirs,) = db.attempts(ids["Wombat"])
    assert theirs.wrong == 1 and not theirs.correct


def test_a_pupil_who_reloads_answers_once_and_a_pupil_sees_no_projector() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    from trainer.live import LiveClass
    live = LiveClass(room).start(info.id, 1, seed="x")
    at = new_app()
    at.switch_page(MY_CLASS).run()
    sign_in_pupil(at, info.code, ids["Quokka"], "4821")
    assert "Class round" in shown(at)
    for solution in live.puzzle.solutions:
        _add_set(at, [str(c) for c in solution.take])
    if at.session_state["mc_live_state"].result is None:
        click(at, "mc_live_done")
    # A new browser session of the same pupil: the answer is in, no board to answer again.
    again = new_app()
    again.switch_page(MY_CLASS).run()
    sign_in_pupil(again, info.code, ids["Quokka"], "4821")
    assert "Your answer is in" in shown(again)
    assert not [p for p in again.get("pills") if p.key == "mc_live_table"]
    assert len(db.live_answers(live.id)) == 1
    # The pupil's session reaches no teacher page, the projector included.
    again.switch_page("app_pages/teacher.py").run()
    assert_ok(again)
    assert [t.key for t in again.text_input] == ["tc_name", "tc_password"]
    assert "Find every group" not in shown(again.main)


def test_a_tap_in_the_rounds_block_keeps_the_visit_awake_and_its_timer_does_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The round's block is a fragment on a timer (every LIVE_WATCH_SECONDS): a tap in it
    runs it alone, not through app.py's guard, so the block tells its taps (one of its
    widgets changed since its last run) from its ticks (nothing changed)."""
    import ui.my_class_view as view

    state: dict[str, object] = {"mc_live_n_3": False, "mc_live_board": None, "mc_other": 1}
    monkeypatch.setattr(view.st, "session_state", state)
    assert not view._tapped_in_block()  # the block's first run
    assert not view._tapped_in_block()  # a tick
    state["mc_live_n_3"] = True  # a number button tapped
    assert view._tapped_in_block()
    state["mc_live_n_3"] = False  # the button back up at the next tick: a change too
    assert view._tapped_in_block()  # (within a tick of the tap: the same tap)
    assert not view._tapped_in_block()
    state["mc_live_board"] = '{"picked":["1o"]}'  # a card tapped on the board
    assert view._tapped_in_block()
    # What the block keeps for itself changes on a tick, and is no tap.
    state[view.KEY_LIVE_SEEN] = 12.5
    state[view.KEY_LIVE_SHOWN] = (1, 3.0)
    state["mc_other"] = 2  # another page's widget
    assert not view._tapped_in_block()


def test_starting_and_revealing_say_on_the_projector_that_they_are_working(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A position round takes seconds to find and the reveal to count, and the projector
    # has no Streamlit header to show it is busy: a line says so *before* the work
    # starts. Seen from inside the work: what the run had sent to the browser by then.
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from trainer.live import LiveClass

    sent_before: list[str] = []

    def watched(work):
        def run(self, *args, **kwargs):
            runner = get_script_run_ctx()._enqueue.__self__  # AppTest's script runner
            sent_before.append("\n".join(str(m) for m in runner.forward_msg_queue._queue))
            return work(self, *args, **kwargs)
        return run

    monkeypatch.setattr(LiveClass, "start", watched(LiveClass.start))
    monkeypatch.setattr(LiveClass, "reveal", watched(LiveClass.reveal))
    db = store()
    (_, info), _ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "projector")
    click(teacher, "tc_live_start")
    assert "0 answers in" in shown(teacher.main)
    click(teacher, "tc_live_reveal")
    assert "Nobody answered this round." in shown(teacher.main)
    assert len(sent_before) == 2
    assert "Getting the round ready" in sent_before[0] and "tc-live-working" in sent_before[0]
    assert "Counting the answers" in sent_before[1]
    # Done, the line goes.
    assert "Counting the answers" not in shown(teacher.main)
