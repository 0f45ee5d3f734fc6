"""A pupil on another page hears that the class plays together (issue 29), with AppTest:
the notice on Play while the teacher's round is on, its button to My class with the
round, the class's game too; nothing for a pupil of no class, nor once it is over; and
one small read per look of the timer."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from tests.test_app_classroom import MY_CLASS, NOW, _class, shown, sign_in_pupil, store
from tests.test_app_helpers import assert_ok, component_data, create_profile, new_app
from trainer.class_game import ClassGames
from trainer.live import LiveClass
from trainer.together import ClassTogether

pytestmark = pytest.mark.usefixtures("fresh_app")

PLAY = "app_pages/play.py"
NOTICE = "Your class is playing together!"


@pytest.fixture(autouse=True)
def _setup(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ESCOBA_NOW", NOW)


def _look(at) -> None:
    """Two runs: the notice's timer looks at the round, then at the game, by turns."""
    at.run()
    at.run()


def test_a_pupil_on_play_is_told_and_taken_to_my_class() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    at = new_app()
    at.switch_page(MY_CLASS).run()
    sign_in_pupil(at, info.code, ids["Quokka"], "4821")
    at.switch_page(PLAY).run()
    _look(at)
    assert_ok(at)
    assert NOTICE not in shown(at)

    LiveClass(room).start(info.id, 1, seed="s34", kind="quick")
    _look(at)
    assert_ok(at)
    assert NOTICE in shown(at)
    go = at.button(key="together_go")
    assert go.label == "Go to My class"
    go.click().run()
    assert_ok(at)
    assert "Class round: the same questions are on the big screen." in shown(at)
    assert NOTICE not in shown(at)  # My class shows the round itself


def test_the_class_game_too_and_nothing_once_it_is_over() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    at = new_app()
    at.switch_page(MY_CLASS).run()
    sign_in_pupil(at, info.code, ids["Wombat"], "7395")
    at.switch_page("app_pages/puzzles.py").run()
    games = ClassGames(room)
    game = games.start(info.id, seed=7)
    _look(at)
    assert NOTICE in shown(at)
    games.stop(info.id, game.id)  # ended early: its points on the projector, not playing
    _look(at)
    assert_ok(at)
    assert NOTICE not in shown(at)
    game = games.start(info.id, seed=8)
    _look(at)
    assert NOTICE in shown(at)
    games.end(info.id, game.id)
    _look(at)
    assert_ok(at)
    assert NOTICE not in shown(at)


def test_nothing_for_a_child_of_no_class() -> None:
    db = store()
    (room, info), _ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    LiveClass(room).start(info.id, 1, seed="s34", kind="quick")
    at = create_profile(new_app(), "Lola")  # a child of this tablet, in no class
    at.switch_page(PLAY).run()
    _look(at)
    assert_ok(at)
    assert NOTICE not in shown(at)
    assert "together_watch" not in at.session_state


def test_one_small_read_per_look() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    ClassGames(room).start(info.id, seed=7)  # a game, then a round as an interlude: both
    LiveClass(room).start(info.id, 1, seed="s34", kind="quick")
    statements: list[str] = []

    def count(conn, cursor, statement, *args) -> None:
        statements.append(statement)

    watch = ClassTogether(ids["Quokka"], info.id)
    sa.event.listen(db.engine, "before_cursor_execute", count)
    try:
        for expected in (1, 2, 3, 4):
            watch.look(db)
            assert len(statements) == expected, statements
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", count)
    assert watch.playing == "round" and watch.game_id is not None
    assert all("class_members" not in s for s in statements)  # the visit's class, no lookup


def test_the_notice_is_heard_on_a_tap_when_the_class_may_hear() -> None:
    """A speaker beside the notice says it, as the app's other texts (quiet classes: none,
    as every speaker of a pupil whose teacher keeps the class quiet)."""
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    LiveClass(room).start(info.id, 1, seed="s34", kind="quick")
    quiet, heard = new_app(), new_app()
    room.update_class(info.id, voice=True)  # read at sign-in: Wombat's class may hear
    heard.switch_page(MY_CLASS).run()
    sign_in_pupil(heard, info.code, ids["Wombat"], "7395")
    heard.switch_page(PLAY).run()
    _look(heard)
    said = component_data(heard, "escoba_speaker", "together_say")
    assert said is not None and said["text"].startswith(NOTICE.rstrip("!"))
    assert "Go to My class" in said["text"]
    room.update_class(info.id, voice=False)
    quiet.switch_page(MY_CLASS).run()
    sign_in_pupil(quiet, info.code, ids["Quokka"], "4821")
    quiet.switch_page(PLAY).run()
    _look(quiet)
    assert NOTICE in shown(quiet)
    assert component_data(quiet, "escoba_speaker", "together_say") is None
