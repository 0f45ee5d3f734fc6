"""A part drawn alone on the screen (issue 29: the projector read from the back of the
room), with AppTest: no title, no parts' control, no "Signed in as"; a small button goes
back to the part the teacher was on. The area still locks when idle, and a browser
without the teacher's session reaches nothing of it."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.test_app_classroom import (  # noqa: F401 (_setup: an autouse fixture)
    TEACHER,
    _class,
    _setup,
    click,
    open_class,
    part,
    shown,
    store,
)
from tests.test_app_helpers import assert_ok, new_app
from ui.teacher.registry import PARTS

pytestmark = pytest.mark.usefixtures("fresh_app")


def _keys(at, kind: str) -> set[str]:
    return {w.key for w in at.get(kind) if w.key}


def _presenting(at) -> bool:
    return "tc_leave_presentation" in _keys(at, "button")


def test_the_projector_is_drawn_alone_and_its_small_button_goes_back() -> None:
    # The class's screens at the front of the room: the live rounds and the class's game.
    assert [p.key for p in PARTS if p.presentation] == ["projector", "class_game"]
    db = store()
    (_, info), _ = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    at = open_class("en-US", "Ms Díaz", info.id)
    part(at, "grid")
    assert not _presenting(at)
    assert "For teachers" in shown(at) and "Signed in as" in shown(at)
    part(at, "projector")
    assert _presenting(at)
    screen = shown(at)
    assert at.button(key="tc_leave_presentation").label == "Leave the big screen"
    assert "tc_live_start" in _keys(at, "button")  # the round's own controls stay
    assert "For teachers" not in screen and "Signed in as" not in screen
    assert "3B" not in [s.value for s in at.subheader]
    assert not at.get("segmented_control") and "tc_sign_out" not in _keys(at, "button")
    # The style of this run:
    assert any(".st-key-tc_leave_presentation" in h.proto.body for h in at.get("html"))
    # It stays while the page runs again (its control not drawn, the choice kept).
    for _ in range(3):
        at.run()
        assert_ok(at)
        assert _presenting(at)
    click(at, "tc_leave_presentation")
    assert not _presenting(at)
    # Back to the part the teacher was on: the lesson's section opened at the live view
    # (issue 29), then the projector was tapped.
    assert at.segmented_control(key="tc_section").value == "lesson"
    assert at.segmented_control(key="tc_part").value == "live_view"
    # "After the lesson" opens again at the part last chosen in it.
    at.segmented_control(key="tc_section").set_value("after").run()
    assert at.segmented_control(key="tc_part").value == "grid"
    assert "Signed in as" in shown(at)
    assert not any(".st-key-tc_leave_presentation" in h.proto.body for h in at.get("html"))


def test_leaving_goes_to_the_part_before_in_the_teachers_language() -> None:
    db = store()
    (_, info), _ = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    at = open_class("es-ES", "Ms Díaz", info.id)
    # Straight to the projector, with no part before it (a part out of the parts' control's
    # options is refused by AppTest's own widget state: the projector is another section's).
    at.session_state["tc_part_back"] = None
    part(at, "projector")
    at.session_state["tc_part_back"] = None
    at.run()
    assert at.button(key="tc_leave_presentation").label == "Salir de la pantalla grande"
    click(at, "tc_leave_presentation")
    assert at.segmented_control(key="tc_part").value == PARTS[0].key


def test_the_projector_still_locks_when_idle() -> None:
    db = store()
    (_, info), _ = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    at = open_class("en-US", "Ms Díaz", info.id)
    part(at, "projector")
    assert _presenting(at)
    at.session_state["teacher"].last_active -= timedelta(minutes=16)
    at.run()
    assert "locked itself" in shown(at)
    assert not _presenting(at) and "tc_live_start" not in _keys(at, "button")
    assert info.code not in shown(at)


def test_a_pupil_never_reaches_the_projector() -> None:
    db = store()
    (_, info), _ = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    at = new_app()
    at.session_state["tc_class"] = info.id
    at.session_state["tc_part"] = "projector"
    at.switch_page(TEACHER).run()
    assert_ok(at)
    assert not _presenting(at) and "tc_live_start" not in _keys(at, "button")
    assert "tc_name" in _keys(at, "text_input")  # the sign-in, and nothing else
    assert info.code not in shown(at)
