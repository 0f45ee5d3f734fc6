"""Shared tablets forget the last child (issue 27), on the app's pages with AppTest.

- Mateo signs in on "My class" and leaves the tablet; the next child goes straight to a
  game: after the class's idle minutes (the app's clock, moved through ``ESCOBA_NOW``)
  nobody plays as Mateo, and the page says why, in the child's language;
- without any tap: the pupil's timer (a fragment with ``run_every``, driven here as the
  browser drives it) signs him out and draws the page again;
- the teacher signs out every tablet of the class at once;
- the teacher's area locks on screen when its 15 minutes run out, without a tap;
- a class deleted (or archived) while a pupil does an assignment ends the pupil's
  session with a true sentence, never "your game is saved".
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.test_app_classroom import (  # noqa: F401 (fixtures)
    MY_CLASS,
    PASSWORD,
    TEACHER,
    TODAY,
    _class,
    _setup,
    click,
    part,
    shown,
    sign_in_pupil,
    sign_up,
    store,
    submit,
)
from tests.test_app_helpers import assert_ok, new_app
from tests.test_app_tables import STREAMLIT_TIMER, _tick, _timers
from trainer import clock
from trainer.i18n import t
from ui.pupil_guard import WATCH_SECONDS
from ui.teacher.page import LOCK_WATCH_SECONDS

pytestmark = pytest.mark.usefixtures("fresh_app")

PLAY = "app_pages/play.py"


@pytest.fixture(autouse=True)
def _clock_from_now() -> None:
    """The app's clock runs on from the moment a value of ESCOBA_NOW is first read, once
    per process: an earlier test's NOW would be minutes on by now."""
    clock._offset.cache_clear()


def _at(monkeypatch: pytest.MonkeyPatch, **delta: float) -> None:
    """Move the app's clock (trainer.clock: ESCOBA_NOW, read anew for a new value)."""
    clock._offset.cache_clear()
    monkeypatch.setenv("ESCOBA_NOW", (TODAY + timedelta(**delta)).isoformat())


def _mateo(locale: str = "en-US"):
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Mateo\nLucía", ["4821", "7395"])
    at = new_app(locale=locale)
    at.switch_page(MY_CLASS).run()
    sign_in_pupil(at, info.code, ids["Mateo"], "4821")
    assert at.session_state["profile_id"] == ids["Mateo"]
    return db, room, info, ids, at


def _ended(key: str, lang: str = "en") -> str:
    return t(key, lang, domain="classroom")


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("es-ES", "es"),
                                              ("de-DE", "de")])
def test_the_next_child_going_straight_to_a_game_does_not_play_as_the_last_one(
        monkeypatch, locale: str, lang: str) -> None:
    _db, _room, _info, ids, at = _mateo(locale)
    welcome = _ended("mc.welcome", lang).split("{")[0]
    # Four minutes on, a tap: still Mateo (and the idle time starts again).
    _at(monkeypatch, minutes=4)
    at.switch_page(MY_CLASS).run()
    assert_ok(at)
    assert at.session_state["profile_id"] == ids["Mateo"] and "Mateo" in shown(at)
    # Four more: still within five minutes of the last tap.
    _at(monkeypatch, minutes=8)
    at.run()
    assert at.session_state["profile_id"] == ids["Mateo"]
    # Mateo leaves; six minutes later the next child opens Play.
    _at(monkeypatch, minutes=14)
    at.switch_page(PLAY).run()
    assert_ok(at)
    assert at.session_state.get("profile_id") is None
    assert "Mateo" not in shown(at) and "Mateo" not in str(at.sidebar)
    assert _ended("ended.idle", lang) in [i.value for i in at.info]
    assert _ended("ended.again", lang) in [p.label for p in at.get("page_link")]
    assert "game_session" not in at.session_state
    assert not [b for b in at.button if b.key == "start_game"]
    # Said once; "My class" shows the class's pictures (the code is kept on the tablet).
    at.switch_page(MY_CLASS).run()
    assert_ok(at)
    assert _ended("ended.idle", lang) not in shown(at)
    assert f"mc_pupil_{ids['Lucía']}" in {b.key for b in at.button}
    assert welcome not in shown(at)


def test_a_pupils_timers_are_kept_by_the_page_never_by_streamlit(monkeypatch) -> None:
    """Streamlit's own fragment timer, landing behind a tap's run, could lose the tap's
    answer on the screen (docs/CLASSROOM.md, "Timers kept by the page"): a pupil's page
    draws its timers (the visit's watch, the "playing together" notice) with ui.ticker
    and asks Streamlit for one only: the page's wake after a restart, on a beat that
    never comes in a visit (tests/test_browser_restart.py)."""
    from ui.ticker import WAKE_TIMER_SECONDS
    from ui.together_notice import NOTICE_SECONDS

    asked = _timers(monkeypatch)
    _db, _room, _info, _ids, at = _mateo()
    at.run()
    assert_ok(at)
    at.switch_page(PLAY).run()  # the notice is on every page but My class
    assert_ok(at)
    assert {every for every, _ in asked} >= {WATCH_SECONDS, NOTICE_SECONDS}
    streamlits = [every for every, fid in asked if fid == STREAMLIT_TIMER]
    assert streamlits and set(streamlits) == {WAKE_TIMER_SECONDS}  # one for each run
    assert WAKE_TIMER_SECONDS >= 6 * 60 * 60  # never rings behind a tap in a visit
    assert all(fid for _, fid in asked)  # each drawn inside the fragment it reruns


def test_an_untouched_tablet_signs_the_pupil_out_by_itself(monkeypatch) -> None:
    asked = _timers(monkeypatch)
    _db, _room, _info, ids, at = _mateo()
    at.run()
    (timer,) = {fid for interval, fid in asked if interval == WATCH_SECONDS}
    _at(monkeypatch, minutes=3)
    _tick(at, timer, monkeypatch)  # nothing yet: no redraw, still Mateo
    assert at.session_state["profile_id"] == ids["Mateo"]
    _at(monkeypatch, minutes=6)
    _tick(at, timer, monkeypatch)  # the timer alone, no tap: the page drawn again
    assert at.session_state.get("profile_id") is None
    assert _ended("ended.idle") in shown(at)
    assert "Mateo" not in str(at.sidebar)
    # On My class the way back is the pictures right below, not a link to this page.
    assert _ended("ended.again") not in [p.label for p in at.get("page_link")]
    assert f"mc_pupil_{ids['Mateo']}" in {b.key for b in at.button}
    # "Not you? Switch" signs out at once too (and the next sign-in starts afresh).
    asked.clear()
    click(at, f"mc_pupil_{ids['Mateo']}")
    for digit in "4821":
        click(at, f"mc_d_{digit}")
    assert at.session_state["profile_id"] == ids["Mateo"]
    click(at, "mc_switch")
    assert at.session_state.get("profile_id") is None
    assert "pupil_visit" not in at.session_state


def test_the_teacher_signs_out_every_tablet_of_the_class(monkeypatch) -> None:
    asked = _timers(monkeypatch)
    db, _room, info, ids, mateo = _mateo()
    lucia = new_app()
    lucia.switch_page(MY_CLASS).run()
    sign_in_pupil(lucia, info.code, ids["Lucía"], "7395")
    (timer,) = {fid for interval, fid in asked if interval == WATCH_SECONDS}
    teacher = new_app()
    teacher.switch_page(TEACHER).run()
    teacher.text_input(key="tc_name").input("Ms Díaz")
    teacher.text_input(key="tc_password").input(PASSWORD)
    submit(teacher, "tc_sign_in_form")
    click(teacher, f"tc_open_{info.id}")
    part(teacher, "settings")
    # The idle minutes: 5 unless changed; the teacher makes them 10.
    assert teacher.segmented_control(key=f"tc_idle_minutes_{info.id}").value == 5
    teacher.segmented_control(key=f"tc_idle_minutes_{info.id}").set_value(10).run()
    assert_ok(teacher)
    assert db.get_class(info.id).idle_minutes == 10
    _at(monkeypatch, minutes=1)
    click(teacher, "tc_sign_out_tablets")
    assert _ended("tablets.signed_out") in shown(teacher)
    # Mateo's tablet, untouched: its timer; Lucía's: her next tap.
    _at(monkeypatch, minutes=1, seconds=20)
    _tick(mateo, timer, monkeypatch)
    assert mateo.session_state.get("profile_id") is None
    assert _ended("ended.signed_out") in shown(mateo)
    lucia.switch_page(PLAY).run()
    assert_ok(lucia)
    assert lucia.session_state.get("profile_id") is None
    assert _ended("ended.signed_out") in shown(lucia)
    # Signing in again after it is fine.
    lucia.switch_page(MY_CLASS).run()
    click(lucia, f"mc_pupil_{ids['Lucía']}")
    for digit in "7395":
        click(lucia, f"mc_d_{digit}")
    lucia.run()
    assert lucia.session_state["profile_id"] == ids["Lucía"]


def test_the_teacher_area_locks_on_screen_without_a_tap(monkeypatch) -> None:
    asked = _timers(monkeypatch)
    at = sign_up("Mr Roe")
    at.text_input(key="tc_class_name").input("4A")
    submit(at, "tc_new_class_form")
    part(at, "pupils")
    (timer,) = {fid for interval, fid in asked if interval == LOCK_WATCH_SECONDS}
    _at(monkeypatch, minutes=14)
    _tick(at, timer, monkeypatch)  # the timer's run alone: nothing to redraw yet
    assert shown(at) == "" and not at.session_state["teacher"].locked
    _at(monkeypatch, minutes=16)
    _tick(at, timer, monkeypatch)  # the timer alone: the lock screen replaces the page
    assert "locked itself" in shown(at)
    assert not at.get("text_area") and not at.dataframe
    assert [w.key for w in at.text_input] == ["tc_unlock_password"]


@pytest.mark.parametrize(("how", "key"), [("delete", "ended.deleted"),
                                          ("archive", "ended.archived")])
def test_a_class_ended_while_a_pupil_works_says_so_truly(monkeypatch, how: str,
                                                         key: str) -> None:
    """Issue 27: the class deleted while a child played told the child "your game is
    saved" (the friendly error's words), though the profile was gone with the class."""
    db, room, info, ids, at = _mateo("es-ES")
    task = room.create_assignment(info.id, "facts", {"facts": ["15-8", "15-7"]})
    at.run()
    click(at, f"mc_do_{task.id}")
    assert at.session_state.get("mc_round") is not None
    if how == "delete":
        room.delete_class(info.id, info.name)
        assert db.get_profile(ids["Mateo"]) is None
    else:
        room.archive(info.id)
    puzzle = at.session_state["mc_round"][1].current
    click(at, f"mc_n_{puzzle.solutions[0].value}")  # the answer cannot be saved now
    assert at.session_state.get("profile_id") is None
    assert _ended(key, "es") in [w.value for w in at.warning]
    assert t("error_friendly", "es") not in shown(at)
    assert "mc_card" not in at.session_state  # the class's code no longer signs in
    # Deleted: nothing is left to save; archived: what was done stays, as it says.
    assert len(db.attempts(ids["Mateo"])) == (0 if how == "delete" else 1)


def _failing_fragment() -> None:
    """A fragment whose write fails (as a move on the Play board does once the pupil's
    profile is gone with the class), inside the app's error boundary."""
    import streamlit as st

    from ui.errors import friendly_fragment
    from ui.pupil_guard import show_ended

    show_ended()

    @friendly_fragment
    def board() -> None:
        if st.session_state.get("profile_id") is not None:
            raise RuntimeError("FOREIGN KEY constraint failed")  # the move's write
        st.write("nobody plays")

    board()


def test_a_failure_inside_a_fragment_after_the_class_was_deleted_is_told_truly() -> None:
    """The fragment's own boundary (a tap on the board reruns only the board) asks why
    before saying sorry: the class is gone, so that is what the child reads."""
    from streamlit.testing.v1 import AppTest

    from trainer.classroom import PupilVisit

    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Mateo", ["4821"])
    at = AppTest.from_function(_failing_fragment, default_timeout=60)
    at.session_state["profile_id"] = ids["Mateo"]
    at.session_state["pupil_visit"] = (ids["Mateo"], PupilVisit.start(
        ids["Mateo"], info.id, clock.now()))
    room.delete_class(info.id, info.name)
    at.run()
    assert_ok(at)
    assert "profile_id" not in at.session_state
    assert [w.value for w in at.warning] == [_ended("ended.deleted")]
    assert t("error_friendly") not in shown(at) and "nobody plays" in shown(at)


@pytest.mark.parametrize(("locale", "lang"), [("es-ES", "es"), ("de-DE", "de")])
def test_the_shared_tablets_settings_speak_the_teachers_language(caplog, locale: str,
                                                                 lang: str) -> None:
    db = store()
    (_room, info), _ids = _class(db, "Ms Díaz", "3B", "Mateo", ["4821"])
    with caplog.at_level("WARNING", logger="locales"):
        at = new_app(locale=locale)
        at.switch_page(TEACHER).run()
        at.text_input(key="tc_name").input("Ms Díaz")
        at.text_input(key="tc_password").input(PASSWORD)
        submit(at, "tc_sign_in_form")
        click(at, f"tc_open_{info.id}")
        part(at, "settings")
        idle = at.segmented_control(key=f"tc_idle_minutes_{info.id}")
        assert idle.label == _ended("tablets.idle", lang)
        assert list(idle.options) == [  # the options as drawn
            t("tablets.minutes", lang, domain="classroom", count=v)
            for v in (2, 5, 10, 15, 30)]
        assert idle.options[1] == {"es": "5 min", "de": "5 Min."}[lang]
        assert _ended("tablets.title", lang) in shown(at)
        assert at.button(key="tc_sign_out_tablets").label == _ended("tablets.sign_out_all",
                                                                    lang)
        click(at, "tc_sign_out_tablets")
        assert _ended("tablets.signed_out", lang) in [s.value for s in at.success]
    assert db.get_class(info.id).signed_out_at is not None
    assert [r.getMessage() for r in caplog.records if r.name == "locales"] == []


def test_a_class_deleted_in_another_tab_leaves_the_teachers_screen_by_itself(
        monkeypatch) -> None:
    """Issue 27: the pupils' table stayed on screen after the class was deleted; the
    area's timer draws the page again (the class is gone, and it says so)."""
    asked = _timers(monkeypatch)
    db = store()
    (room, info), _ids = _class(db, "Ms Díaz", "3B", "Mateo", ["4821"])
    at = new_app()
    at.switch_page(TEACHER).run()
    at.text_input(key="tc_name").input("Ms Díaz")
    at.text_input(key="tc_password").input(PASSWORD)
    submit(at, "tc_sign_in_form")
    click(at, f"tc_open_{info.id}")
    part(at, "pupils")
    assert "Mateo" in str(at.dataframe[0].value)
    (timer,) = {fid for interval, fid in asked if interval == LOCK_WATCH_SECONDS}
    room.delete_class(info.id, info.name)  # the owner, in another tab
    _tick(at, timer, monkeypatch)
    assert not at.dataframe and "Mateo" not in shown(at)
    assert t("class.not_yours", "en", domain="classroom") in [e.value for e in at.error]
