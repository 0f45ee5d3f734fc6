"""The teacher's live view during the lesson (issue 29): each pupil's activity row on
SQLite and PostgreSQL (written by page runs, throttled, and by answers in their
transaction), the view's signed in / page / assignment / answers of the last minutes /
stuck, its access checks, and ONE query per refresh whatever the class's size."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from puzzles.practice import Attempt
from tests.conftest import T0
from trainer.classroom import Classroom, TeacherSession
from trainer.classroom_views import ClassroomError
from trainer.live import LiveClass
from trainer.live_view import (
    SEEN_SECONDS,
    STUCK_MINUTES,
    ActivityNotes,
    LiveView,
    Noted,
    device_label,
    signed_out,
)
from trainer.storage import NewMember, Storage

FACTS = {"facts": ["7+8"], "capture_sum": 15, "count": 10}


@pytest.fixture
def store(make_store) -> Storage:
    """A Storage on SQLite and on PostgreSQL (conftest's ``make_store``)."""
    return make_store()


def _attempt(correct: bool = True, **changes: Any) -> Attempt:
    values: dict[str, Any] = dict(
        day="2026-12-04", mode="quick", puzzle_id="quick-facts:1:15:x", kind="quick-facts",
        level=1, capture_sum=15, facts=["7+8"], answers=[["7+8", correct, 2.0]], answer=[8],
        correct=correct, found=int(correct), missed=0, wrong=int(not correct), seconds=2.0,
        hints=0, stars=3 if correct else 0, fact="7+8")
    values.update(changes)
    return Attempt(**values)


def _class(store: Storage, size: int = 3, code: str = "KDM472") -> tuple[Any, ...]:
    teacher = store.create_teacher(f"Ms {code}", "a long password")
    info = store.create_class(teacher.id, "3B", code, fluency_seconds=6, capture_sum=15)
    names = ["Ana", "Leo", "Mia"] + [f"Kid{i:02d}" for i in range(size - 3)]
    members = store.add_members(info.id, [NewMember(n, "🦊", "1234", f"{n} Real")
                                          for n in names[:size]])
    return LiveView(Classroom(store, TeacherSession(teacher))), info, members


def _by_name(view: LiveView, class_id: int, **kw: Any) -> dict[str, Any]:
    return {p.nickname: p for p in view.pupils(class_id, **kw)}


def test_a_pupil_on_a_page_then_answering_shows_on_the_view(store: Storage, clock) -> None:
    view, info, (ana, leo, mia) = _class(store)
    task = store.create_assignment(info.id, "facts", FACTS, None)
    ActivityNotes(store, ana.profile_id, info.id).page("my_class", task.id, "AB12C", None)
    ActivityNotes(store, leo.profile_id, info.id).page("puzzles", None, "77F0E", None)
    for correct in (True, False, True):
        store.record_attempt(ana.profile_id, _attempt(correct))
    store.record_attempt(mia.profile_id, _attempt())  # never signed in: no row, no note
    clock(0.5)
    seen = _by_name(view, info.id)
    a, leo_now, m = seen["Ana"], seen["Leo"], seen["Mia"]
    assert (a.signed_in, a.tablet, a.page, a.assignment.id) == (True, "AB12C", "my_class",
                                                                task.id)
    assert (a.answers, a.right, a.wrong_streak, a.stuck) == (3, 2, 0, None)
    assert a.real_name == "Ana Real" and a.last_answer_what == "quick:quick-facts:1"
    assert (leo_now.signed_in, leo_now.page, leo_now.assignment, leo_now.answers) == (
        True, "puzzles", None, 0)
    assert (m.signed_in, m.page, m.answers, m.seen_at) == (False, None, 0, None)
    # Signed in first, each part by nickname.
    assert [p.nickname for p in view.pupils(info.id)] == ["Ana", "Leo", "Mia"]


def test_answers_of_the_last_minutes_only_and_signed_in_only_while_seen(store: Storage,
                                                                          clock) -> None:
    view, info, (ana, *_) = _class(store)
    notes = ActivityNotes(store, ana.profile_id, info.id)
    notes.page("quick_facts", None, "AB12C", None)
    store.record_attempt(ana.profile_id, _attempt())
    clock(3)
    notes.page("quick_facts", None, "AB12C", None)
    store.record_attempt(ana.profile_id, _attempt(False))
    clock(4)
    a = _by_name(view, info.id)["Ana"]
    assert (a.answers, a.right) == (2, 1)
    clock(6)  # the first answer is more than five minutes old
    notes.page("quick_facts", None, "AB12C", None)
    a = _by_name(view, info.id)["Ana"]
    assert (a.answers, a.right) == (1, 0)
    clock(9)  # nothing from the tablet for three minutes: not signed in
    a = _by_name(view, info.id)["Ana"]
    assert (a.signed_in, a.page, a.answers) == (False, None, 0)


def test_signing_out_and_the_teachers_sign_out_of_every_tablet(store: Storage, clock) -> None:
    view, info, (ana, leo, _) = _class(store)
    ActivityNotes(store, ana.profile_id, info.id).page("puzzles", None, "AB12C", None)
    ActivityNotes(store, leo.profile_id, info.id).page("puzzles", None, "77F0E", None)
    signed_out(store, leo.profile_id)
    seen = _by_name(view, info.id)
    assert (seen["Ana"].signed_in, seen["Leo"].signed_in) == (True, False)
    assert seen["Leo"].seen_at is not None  # "last seen" stays
    clock(0.5)
    view.room.sign_out_tablets(info.id)
    assert not _by_name(view, info.id)["Ana"].signed_in


def test_stuck_after_wrong_answers_in_a_row_or_long_on_a_page_with_no_right_one(
        store: Storage, clock) -> None:
    view, info, (ana, leo, mia) = _class(store)
    for pupil, page in ((ana, "quick_facts"), (leo, "puzzles"), (mia, "lessons")):
        ActivityNotes(store, pupil.profile_id, info.id).page(page, None, None, None)
    for _ in range(3):
        store.record_attempt(ana.profile_id, _attempt(False))
    store.record_attempt(leo.profile_id, _attempt(False))
    clock(1)
    seen = _by_name(view, info.id)
    assert (seen["Ana"].stuck, seen["Ana"].wrong_streak) == ("wrong", 3)
    assert seen["Leo"].stuck is None and seen["Mia"].stuck is None
    store.record_attempt(ana.profile_id, _attempt(True))  # a right one ends it
    assert _by_name(view, info.id)["Ana"].stuck is None
    clock(STUCK_MINUTES + 0.5)
    for pupil in (ana, leo, mia):  # the tablets' timers
        ActivityNotes(store, pupil.profile_id, info.id).page(
            {ana.profile_id: "quick_facts", leo.profile_id: "puzzles"}.get(pupil.profile_id,
                                                                             "lessons"),
            None, None, None)
    seen = _by_name(view, info.id)
    # Leo: on puzzles for more than the minutes, no right answer; Ana answered right
    # under four minutes ago; Mia reads a lesson (no answers expected there).
    assert (seen["Ana"].stuck, seen["Leo"].stuck, seen["Mia"].stuck) == (None, "slow", None)
    assert seen["Leo"].minutes_on_page == STUCK_MINUTES
    # A new page starts the time (and the wrong answers in a row) again.
    ActivityNotes(store, leo.profile_id, info.id).page("daily", None, None, None)
    assert _by_name(view, info.id)["Leo"].stuck is None


def test_page_runs_write_only_on_a_change_or_once_a_minute(store: Storage) -> None:
    _, info, (ana, *_) = _class(store)
    notes = ActivityNotes(store, ana.profile_id, info.id)
    first = notes.page("puzzles", None, "AB12C", None, at=T0)
    assert isinstance(first, Noted)
    assert notes.page("puzzles", None, "AB12C", first, at=T0 + timedelta(seconds=20)) is None
    assert notes.page("daily", None, "AB12C", first, at=T0 + timedelta(seconds=20))
    assert notes.page("puzzles", 3, "AB12C", first, at=T0 + timedelta(seconds=20))
    assert notes.page("puzzles", None, "FFFFF", first, at=T0 + timedelta(seconds=20))
    assert notes.page("puzzles", None, "AB12C", first,
                      at=T0 + timedelta(seconds=SEEN_SECONDS))
    other = ActivityNotes(store, 99999, info.id)  # another pupil on the same tablet
    assert other.due("puzzles", None, "AB12C", first, T0)


def test_a_pupil_moved_to_another_class_shows_in_the_new_one_only(store: Storage,
                                                                  clock) -> None:
    view, info, (ana, *_) = _class(store)
    ActivityNotes(store, ana.profile_id, info.id).page("puzzles", None, None, None)
    row = store.live_view_read(info.id)[0][0]
    assert row.page == "puzzles"
    # An assignment of another class named in the row is not drawn.
    store.note_activity(info.id, ana.profile_id, device=None, page="my_class",
                        assignment_id=424242)
    assert _by_name(view, info.id)["Ana"].assignment is None


def test_another_teachers_class_is_refused(store: Storage) -> None:
    _, info, _ = _class(store)
    other, _, _ = _class(store, code="ZZZ999")
    with pytest.raises(ClassroomError) as refused:
        other.pupils(info.id)
    assert refused.value.key == "class.not_yours"


def test_the_refresh_does_not_count_as_the_teachers_activity(store: Storage) -> None:
    view, info, _ = _class(store)
    before = view.room.session.last_active
    view.pupils(info.id, touch=False, at=T0 + timedelta(hours=1))
    assert view.room.session.last_active == before


def _statements(store: Storage, run: Any) -> list[str]:
    seen: list[str] = []

    def remember(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        seen.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", remember)
    try:
        run()
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", remember)
    return seen


def test_one_query_for_the_view_whatever_the_class_size(store: Storage, clock) -> None:
    counts = {}
    for size, code in ((3, "SMALL3"), (30, "LARGE30")):
        view, info, members = _class(store, size, code)
        group = store.create_group(info.id, "Table 1")
        store.set_pupil_group(info.id, members[0].profile_id, group.id)
        task = store.create_assignment(info.id, "facts", FACTS, None)
        for i, member in enumerate(members):
            ActivityNotes(store, member.profile_id, info.id).page(
                "my_class", task.id if i % 2 else None, device_label(str(i)), None)
            store.record_attempt(member.profile_id, _attempt(i % 3 != 0))
        reads = _statements(store, lambda v=view, c=info.id: v.pupils(c, touch=False))
        rows = _statements(store, lambda c=info.id: store.live_view_read(c))
        assert len(rows) == 1, rows  # the view's read: one SELECT
        # With a round open ("stuck" waits on it), still one SELECT: the round comes joined.
        live = LiveClass(view.room).start(info.id, 1, seed=code, kind="quick")
        with_round = _statements(store, lambda v=view, c=info.id: v.pupils(c, touch=False))
        assert len(with_round) == len(reads) == 3, with_round  # the access check's 2 + 1
        assert store.live_view_read(info.id)[1] == store.live_round(info.id)
        assert store.live_view_read(info.id)[1].id == live.id
        assert len(view.pupils(info.id)) == size
        assert view.pupils(info.id)[0].group == "Table 1"
        counts[size] = len(reads)
    assert counts[3] == counts[30], counts  # the access check and the one read, whatever
    # the size


def test_an_answer_writes_its_row_in_its_own_transaction(store: Storage, clock) -> None:
    _, info, (ana, *_) = _class(store)
    ActivityNotes(store, ana.profile_id, info.id).page("quick_facts", None, None, None)
    seen = _statements(store, lambda: store.record_attempt(ana.profile_id, _attempt()))
    activity = [s for s in seen if "pupil_activity" in s]
    assert len(activity) == 2  # the row read by its key, and its update
    assert store.live_view_read(info.id)[0][0].answer_at is not None


def test_the_pupils_are_in_the_order_of_the_teachers_language(store: Storage) -> None:
    """Özlem between Noah and Paul, as on the class list and the dashboard (she was last,
    after Zoë: the database's order of bytes; found trying it as a German teacher)."""
    teacher = store.create_teacher("Frau Kern", "a long password")
    info = store.create_class(teacher.id, "3a", "KDM473", fluency_seconds=6, capture_sum=15)
    store.add_members(info.id, [NewMember(n, "🦊", "1234", None)
                                for n in ("Zoë", "Özlem", "Paul", "Noah", "ada")])
    view = LiveView(Classroom(store, TeacherSession(teacher), lang="de"))
    assert [p.nickname for p in view.pupils(info.id)] == ["ada", "Noah", "Özlem", "Paul", "Zoë"]
