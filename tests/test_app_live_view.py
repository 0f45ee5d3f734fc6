"""The teacher's live view with AppTest (issue 29): two pupils sign in on My class, one
goes to Puzzles; the teacher's Live view part shows who is on which tablet and page, the
answers of the last minutes, "stuck" after three wrong answers in a row, and a pupil
who switched as not signed in. A pupil's reruns on one page write nothing more for a
minute; a pupil never reaches the view."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from tests.test_app_classroom import (
    MY_CLASS,
    TEACHER,
    _class,
    click,
    open_class,
    part,
    shown,
    sign_in_pupil,
    store,
)
from tests.test_app_helpers import assert_ok, new_app
from tests.test_app_live_round import _setup  # noqa: F401 (the clock, cheap hashes)
from tests.test_live_view import _attempt

pytestmark = pytest.mark.usefixtures("fresh_app")


def _cards(at: Any) -> str:
    return "\n".join(h.proto.body for h in at.main.get("html") if "lv-card" in h.proto.body)


class _Writes:
    """The statements that write pupils' activity rows, in any engine of this process."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def __call__(self, conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        if "pupil_activity" in statement and statement.lstrip().upper().startswith(
                ("UPDATE", "INSERT")):
            self.seen.append(statement)


def test_the_live_view_follows_two_pupils_by_itself() -> None:
    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    teacher = open_class("en-US", "Ms Díaz", info.id)
    part(teacher, "live_view")
    assert "Signed in: 0 of 2 · Stuck: 0" in shown(teacher.main)
    assert "No pupil is signed in yet" in shown(teacher.main)
    assert "Not signed in" in _cards(teacher)

    quokka, wombat = new_app(), new_app()
    for at, name, pin in ((quokka, "Quokka", "4821"), (wombat, "Wombat", "7395")):
        at.switch_page(MY_CLASS).run()
        sign_in_pupil(at, info.code, ids[name], pin)
        assert_ok(at)
    quokka.switch_page("app_pages/puzzles.py").run()
    assert_ok(quokka)
    teacher.run()
    cards = _cards(teacher)
    assert "Signed in: 2 of 2 · Stuck: 0" in shown(teacher.main)
    assert "Puzzles" in cards and "My class" in cards and "📱 Tablet " in cards
    assert "No answer in the last 5 min" in cards

    # Three wrong quick facts in a row (as its page writes them): stuck, first, in red.
    for _ in range(3):
        db.record_attempt(ids["Quokka"], _attempt(False))
    db.record_attempt(ids["Wombat"], _attempt(True))
    teacher.run()
    cards = _cards(teacher)
    assert "Stuck: 1" in shown(teacher.main)
    assert "Stuck: 3 wrong in a row" in cards and "Last 5 min: 0 right of 3" in cards
    assert "Last 5 min: 1 right of 1" in cards
    assert cards.index("Quokka") < cards.index("Wombat") and "lv-stuck" in cards

    # Wombat opens the class's assignment on My class: the card names it.
    task = room.create_assignment(info.id, "facts", {"facts": ["7+8"]})
    wombat.run()
    click(wombat, f"mc_do_{task.id}")
    teacher.run()
    assert "Assignment: " in cards_of(teacher)["Wombat"]
    assert "Assignment: " not in cards_of(teacher)["Quokka"]

    click(wombat, "mc_switch")  # "Not you? Switch"
    teacher.run()
    assert "Signed in: 1 of 2" in shown(teacher.main)
    wombat_card = cards_of(teacher)["Wombat"]
    assert "Not signed in" in wombat_card and "last seen 0 min ago" in wombat_card


def cards_of(at: Any) -> dict[str, str]:
    cards = _cards(at).split("data-testid='lv-card'")[1:]
    return {name: card for card in cards for name in ("Quokka", "Wombat") if name in card}


def test_reruns_on_one_page_write_once_a_minute_and_a_pupil_sees_no_view() -> None:
    db = store()
    (_, info), ids = _class(db, "Ms Díaz", "3B", "Quokka", ["4821"])
    at = new_app()
    at.switch_page(MY_CLASS).run()
    sign_in_pupil(at, info.code, ids["Quokka"], "4821")
    writes = _Writes()
    sa.event.listen(sa.engine.Engine, "before_cursor_execute", writes)
    try:
        for _ in range(5):
            at.run()
        assert writes.seen == []  # the same page, the same minute: nothing written
        at.switch_page("app_pages/daily.py").run()
        assert len(writes.seen) == 1  # a new page: one UPDATE
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", writes)
    (row,), _round = db.live_view_read(info.id)
    assert row.page == "daily"
    # The pupil's session reaches no teacher page, the live view included.
    at.switch_page(TEACHER).run()
    assert_ok(at)
    assert [t.key for t in at.text_input] == ["tc_name", "tc_password"]
    assert "lv-card" not in shown(at.main)


@pytest.mark.parametrize(("locale", "words"), [
    ("de-DE", ("Angemeldet: 2 von 2", "Hängt fest: 3 falsch hintereinander", "Rätsel",
               "Aufgabe:", "Gruppe Tisch 1", "Letzte 5 Min.: 0 richtig von 3")),
    ("es-ES", ("Dentro: 2 de 2", "Atascado: 3 mal seguidas", "Retos", "Tarea:",
               "Grupo Mesa 1", "Últimos 5 min: 0 bien de 3")),
    ("it-IT", ("Dentro: 2 su 2", "Bloccato: 3 sbagliate di fila", "Sfide", "Compito:",
               "Gruppo Tavolo 1", "Ultimi 5 min: 0 giuste su 3")),
    ("zh-CN", ("已登录：2/2", "卡住：连续答错3次", "谜题", "作业：", "小组", "最近5分钟")),
])
def test_the_live_view_speaks_the_language(caplog, locale: str, words: tuple[str, ...]) -> None:
    from trainer.live_view import ActivityNotes

    db = store()
    (room, info), ids = _class(db, "Ms Díaz", "3B", "Quokka\nWombat", ["4821", "7395"])
    group = room.create_group(info.id, {"de-DE": "Tisch 1", "es-ES": "Mesa 1",
                                        "it-IT": "Tavolo 1"}.get(locale, "一组"))
    room.set_pupil_group(info.id, ids["Quokka"], group.id)
    task = room.create_assignment(info.id, "weakest", {"count": 3})
    ActivityNotes(db, ids["Quokka"], info.id).page("puzzles", None, "AB12C", None)
    ActivityNotes(db, ids["Wombat"], info.id).page("my_class", task.id, "77F0E", None)
    for _ in range(3):
        db.record_attempt(ids["Quokka"], _attempt(False))
    with caplog.at_level("WARNING", logger="locales"):
        teacher = open_class(locale, "Ms Díaz", info.id)
        part(teacher, "live_view")
        seen = shown(teacher.main)
    assert [word for word in words if word not in seen] == []
    assert [r.getMessage() for r in caplog.records if r.name == "locales"] == []
