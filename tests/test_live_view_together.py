"""The teacher's live view and the class playing together (issue 29): an answer given on
My class -- a live round's answer, a vote at the class's game -- clears "stuck" as the
card's own count of the last minutes says, and the card never says "stuck: no right
answer" beside "last 5 min: 1 right" (SQLite and PostgreSQL, conftest's ``make_store``).

A teacher saw "stuck: 4 minutes with no right answer" beside "last 5 min: 1 right of 1":
the answer counted in the last 5 minutes was more than 4 minutes old (the pupil waited
for the reveal), or given on the page before; and a vote wrote nothing the view read."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from tests.test_live_view import _attempt
from trainer.class_game import ClassGames, PupilVote
from trainer.classroom import Classroom, TeacherSession
from trainer.live import LiveClass, PupilLive
from trainer.live_view import RECENT_MINUTES, STUCK_MINUTES, ActivityNotes, LiveView
from trainer.storage import NewMember, Storage

DAY = date(2026, 12, 4)


@pytest.fixture
def store(make_store) -> Storage:
    return make_store()


def _class(store: Storage) -> tuple[Any, ...]:
    teacher = store.create_teacher("Ms Díaz", "a long password")
    info = store.create_class(teacher.id, "3B", "KDM472", fluency_seconds=6, capture_sum=15)
    ana, leo = store.add_members(info.id, [NewMember("Ana", "🦊", "1234", "Ana García"),
                                           NewMember("Leo", "🐼", "5678")])
    room = Classroom(store, TeacherSession(teacher))
    for pupil in (ana, leo):  # both signed in on My class at T0
        ActivityNotes(store, pupil.profile_id, info.id).page("my_class", None, "AB12C", None)
    return room, info, ana.profile_id, leo.profile_id


def _seen(room: Classroom, class_id: int, store: Storage, *pupils: int) -> dict[int, Any]:
    """The view now, after each pupil's tablet said it is still there (its timer)."""
    for pupil in pupils:
        ActivityNotes(store, pupil, class_id).page("my_class", None, "AB12C", None)
    return {p.profile_id: p for p in LiveView(room).pupils(class_id)}


def _never_contradicts(pupil: Any) -> None:
    """The card's two figures: a right answer counted in its last minutes is never
    beside "stuck: N min with no right answer", and N is the time since a right one."""
    if pupil.right:
        assert pupil.stuck != "slow", pupil
    if pupil.stuck == "slow":
        assert pupil.minutes_without_right >= STUCK_MINUTES


def _quick_round(room: Classroom, class_id: int) -> Any:
    return LiveClass(room).start(class_id, 1, seed="s34", kind="quick")


def _right_values(live: Any) -> list[int]:
    return [q.solutions[0].value for q in live.questions]


def test_a_right_live_answer_clears_stuck_while_the_pupil_waits_for_the_reveal(
        store: Storage, clock) -> None:
    room, info, ana, leo = _class(store)
    clock(3)
    live = _quick_round(room, info.id)
    PupilLive(store, ana).answer_quick(live, _right_values(live), [2.0] * len(live.questions),
                                       DAY)
    clock(4.1)
    seen = _seen(room, info.id, store, ana, leo)
    assert (seen[ana].answers, seen[ana].stuck) == (len(live.questions), None)
    # Leo has been on My class four minutes, but the round (all there was to answer)
    # started one minute ago: no chance to answer yet is not stuck.
    assert seen[leo].stuck is None and seen[leo].minutes_on_page == 4
    clock(3 + STUCK_MINUTES + 0.1)
    leo_now = _seen(room, info.id, store, leo)[leo]
    assert leo_now.stuck == "slow" and leo_now.minutes_without_right == 7
    # The teacher talks the round over: Ana's right answers are 4.5 minutes old, still
    # in "last 5 min" -- so she is not "stuck with no right answer" (she was, before).
    clock(7.5)
    seen = _seen(room, info.id, store, ana, leo)
    assert seen[ana].right == len(live.questions) and seen[ana].stuck is None
    for minutes in (8, 8.5, 9, 9.5, 10):
        clock(minutes)
        for pupil in _seen(room, info.id, store, ana, leo).values():
            _never_contradicts(pupil)
    # Once the answer is out of the last minutes, Ana still only waits for the reveal:
    # she answered the round, there is nothing more to answer -- not stuck; nor is anyone
    # once the round is revealed. Closed, My class again asks for an assignment: a long
    # time there with no right answer is stuck again, saying how long since the right one.
    clock(3 + RECENT_MINUTES + 0.6)
    a = _seen(room, info.id, store, ana)[ana]
    assert (a.answers, a.stuck, a.minutes_without_right) == (0, None, RECENT_MINUTES)
    LiveClass(room).reveal(info.id, live.id)
    assert {p.stuck for p in _seen(room, info.id, store, ana, leo).values()} == {None}
    LiveClass(room).close(info.id, live.id)
    a = _seen(room, info.id, store, ana)[ana]
    assert (a.stuck, a.minutes_without_right) == ("slow", RECENT_MINUTES)


def test_a_right_answer_on_the_page_before_is_never_beside_stuck(store: Storage,
                                                                 clock) -> None:
    room, info, ana, _leo = _class(store)
    notes = ActivityNotes(store, ana, info.id)
    notes.page("quick_facts", None, "AB12C", None)
    store.record_attempt(ana, _attempt(True))
    clock(0.5)
    notes.page("puzzles", None, "AB12C", None)  # a new page: its own time starts
    clock(4.6)
    notes.page("puzzles", None, "AB12C", None)
    a = {p.profile_id: p for p in LiveView(room).pupils(info.id)}[ana]
    assert (a.answers, a.right, a.stuck) == (1, 1, None)
    clock(6.1)  # the right answer is out of the last minutes: stuck on Puzzles
    notes.page("puzzles", None, "AB12C", None)
    a = {p.profile_id: p for p in LiveView(room).pupils(info.id)}[ana]
    assert (a.answers, a.stuck, a.minutes_without_right) == (0, "slow", 5)


def test_a_vote_at_the_class_game_clears_stuck(store: Storage, clock) -> None:
    room, info, ana, leo = _class(store)
    games = ClassGames(room)
    clock(3)
    game = games.start(info.id, seed=7)
    assert game.voting
    move = game.legal_moves()[0]
    clock(4.5)
    PupilVote(store, ana).vote(game, game.turn, move.card, sorted(move.take), DAY)
    clock(5.1)
    seen = _seen(room, info.id, store, ana, leo)
    assert seen[ana].stuck is None and seen[ana].minutes_without_right == 0
    assert seen[ana].wrong_streak == 0
    assert seen[leo].stuck == "slow"  # Leo has not voted: 5 minutes with no answer
    # The teacher closes the vote: the vote's evidence is counted as Ana's answer.
    clock(6)
    games.close_vote(info.id, game.id, game.turn, day=DAY)
    clock(6.5)
    seen = _seen(room, info.id, store, ana, leo)
    assert seen[ana].answers == 1 and seen[ana].stuck is None
    assert seen[leo].answers == 0
    for pupil in seen.values():
        _never_contradicts(pupil)


def test_a_vote_of_a_pupil_in_no_class_row_writes_nothing_else(store: Storage) -> None:
    """A vote from a pupil never noted on a page (no activity row): the vote is kept,
    no row is made for the view (a profile with no row stays "never seen")."""
    teacher = store.create_teacher("Ms Ruiz", "a long password")
    info = store.create_class(teacher.id, "3C", "QWE123", fluency_seconds=6, capture_sum=15)
    (mia,) = store.add_members(info.id, [NewMember("Mia", "🐸", "4321")])
    room = Classroom(store, TeacherSession(teacher))
    game = ClassGames(room).start(info.id, seed=7)
    move = game.legal_moves()[0]
    PupilVote(store, mia.profile_id).vote(game, game.turn, move.card, sorted(move.take), DAY)
    assert PupilVote(store, mia.profile_id).mine(game) == move
    (m,) = LiveView(room).pupils(info.id)
    assert (m.signed_in, m.seen_at, m.stuck) == (False, None, None)
