"""The teacher's live view beside a live round of every kind (issue 29), on SQLite and
PostgreSQL (conftest's ``make_store``), through the calls My class makes: the page run
(:class:`ActivityNotes`), then :meth:`PupilLive.answer` / ``answer_sweep`` /
``answer_quick``.

A persona test saw, in a "find all the 15s" round, a pupil who tried 7 + 10 and then
found 7 + 8, the only 15 -- "Found!" on her tablet -- shown "last 5 min: 0 right of 1"
and "stuck: 4 min with no right answer": the activity counted an answer right only when
it was *perfect* (the attempt's ``correct``: nothing missed, nothing wrong), and the
minutes she sat on My class before the round started counted as time with no right
answer. What the pupil's own screen calls right is right on the view, for every kind;
no chance to answer yet (the round just started) or nothing left to answer (answered,
waiting for the reveal) is never stuck."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from escoba import Card
from puzzles import Puzzle, check
from puzzles.practice import Attempt
from trainer.classroom import Classroom, TeacherSession
from trainer.live import LiveClass, LiveRound, PupilLive
from trainer.live_view import STUCK_MINUTES, ActivityNotes, LiveView, PupilNow
from trainer.storage import NewMember, Storage

DAY = date(2026, 12, 4)
SEED = "abc"  # fifteens:2:15:abc: 5c 6c 7e 10o, one set: 5c + 10o


@pytest.fixture
def store(make_store) -> Storage:
    return make_store()


def _class(store: Storage) -> tuple[LiveClass, Any, int, int, int]:
    """A class of three, all signed in on My class at ``T0`` (no assignment in hand)."""
    teacher = store.create_teacher("Ms Díaz", "a long password")
    info = store.create_class(teacher.id, "3B", "PRJ976", fluency_seconds=6, capture_sum=15)
    lola, mia, teo = (m.profile_id for m in store.add_members(info.id, [
        NewMember("Lola", "☀️", "1234"), NewMember("Mia", "⭐", "5678"),
        NewMember("Teo", "🌙", "4321")]))
    for pupil in (lola, mia, teo):
        ActivityNotes(store, pupil, info.id).page("my_class", None, "7D8DF", None)
    return LiveClass(Classroom(store, TeacherSession(teacher))), info, lola, mia, teo


def _view(teacher: LiveClass, class_id: int, store: Storage, *pupils: int) -> dict[int, PupilNow]:
    """The view now, after each pupil's tablet said it is still on My class (its timer)."""
    for pupil in pupils:
        ActivityNotes(store, pupil, class_id).page("my_class", None, "7D8DF", None)
    return {p.profile_id: p for p in LiveView(teacher.room).pupils(class_id)}


def _board(store: Storage, live: LiveRound, pupil: int, sets: list[Any]) -> Any:
    """A board answer as My class sends it: the sets in the order tapped, as the
    checker judged them (what the pupil's screen showed)."""
    result = check(live.puzzle, sets)
    PupilLive(store, pupil).answer(live, result, 5.0, sets, DAY)
    return result


def _move(card: Card, take: tuple[Card, ...] = ()) -> list[dict[str, Any]]:
    return [{"card": str(card), "take": [str(c) for c in take]}]


def test_a_15_found_after_a_wrong_try_is_a_right_answer_and_never_stuck(store: Storage,
                                                                        clock) -> None:
    teacher, info, lola, mia, teo = _class(store)
    clock(0.2)
    live = teacher.start(info.id, 2, seed=SEED)
    assert [sorted(map(str, s.take)) for s in live.puzzle.solutions] == [["10o", "5c"]]
    clock(3.3)
    # Lola and Mia: 7 + 10 (wrong), then 5 + 10, the only 15 -- "Found!", two stars.
    for pupil in (lola, mia):
        said = _board(store, live, pupil, ["7e 10o", "5c 10o"])
        assert (len(said.found), len(said.wrong), said.stars, said.solved) == (1, 1, 2, False)
    _board(store, live, teo, ["7e 10o"])  # only the wrong try
    clock(4.2)
    seen = _view(teacher, info.id, store, lola, mia, teo)
    for pupil in (lola, mia):
        assert (seen[pupil].answers, seen[pupil].right, seen[pupil].stuck) == (1, 1, None)
        assert seen[pupil].wrong_streak == 0
    # Teo's answer is wrong, and counted so; he answered and waits for the reveal.
    assert (seen[teo].answers, seen[teo].right, seen[teo].stuck) == (1, 0, None)
    assert seen[teo].wrong_streak == 1
    clock(8)  # the teacher leaves the round open a while: waiting is not stuck
    assert {p.stuck for p in _view(teacher, info.id, store, lola, mia, teo).values()} == {None}


def test_a_captures_round_one_capture_found_is_right(store: Storage, clock) -> None:
    teacher, info, lola, mia, teo = _class(store)
    live = teacher.start(info.id, 1, seed="a", kind="captures")
    puzzle = live.puzzle
    card = puzzle.hand[0]
    assert len(puzzle.solutions) >= 2
    first = _move(card, puzzle.solutions[0].take)[0]
    a, b = next((a, b) for i, a in enumerate(puzzle.table) for b in puzzle.table[i + 1:]
                if a.value + b.value + card.value != 15)
    wrong = _move(card, (a, b))[0]
    _board(store, live, lola, [wrong, first])  # one found, one missed, one wrong
    _board(store, live, mia, [_move(card, s.take)[0] for s in puzzle.solutions])  # all
    _board(store, live, teo, [wrong])
    clock(1)
    seen = _view(teacher, info.id, store, lola, mia, teo)
    assert [(seen[p].answers, seen[p].right) for p in (lola, mia, teo)] == [(1, 1), (1, 1),
                                                                           (1, 0)]


def test_a_best_move_round_the_best_move_is_right_another_is_not(store: Storage,
                                                                clock) -> None:
    teacher, info, lola, mia, _teo = _class(store)
    live = teacher.start(info.id, 1, seed="a", kind="best")
    best, other = live.puzzle.ranking[0], live.puzzle.ranking[1]
    assert check(live.puzzle, _move(best.card, best.take)).solved
    _board(store, live, lola, _move(best.card, best.take))
    _board(store, live, mia, _move(other.card, other.take))
    clock(1)
    seen = _view(teacher, info.id, store, lola, mia)
    assert [(seen[p].answers, seen[p].right) for p in (lola, mia)] == [(1, 1), (1, 0)]


def test_a_sweep_round_the_card_kept_back_is_right(store: Storage, clock) -> None:
    teacher, info, lola, mia, _teo = _class(store)
    live = teacher.start(info.id, 1, seed="a", kind="sweep")
    (risky,) = live.risky
    safe = next(c.card for c in live.sweep if not c.risky)
    PupilLive(store, lola).answer_sweep(live, risky, 3.0, DAY)
    PupilLive(store, mia).answer_sweep(live, safe, 3.0, DAY)
    clock(1)
    seen = _view(teacher, info.id, store, lola, mia)
    assert [(seen[p].answers, seen[p].right) for p in (lola, mia)] == [(1, 1), (1, 0)]


def test_a_quick_round_counts_each_fact_as_the_tablet_does(store: Storage, clock) -> None:
    teacher, info, lola, mia, _teo = _class(store)
    live = teacher.start(info.id, 2, seed="q", kind="quick")
    right = [q.solutions[0].value for q in live.questions]
    one_off = [right[0] % 10 + 1, *right[1:]]
    seconds = [2.0] * len(right)
    PupilLive(store, lola).answer_quick(live, right, seconds, DAY)
    row = PupilLive(store, mia).answer_quick(live, one_off, seconds, DAY)
    assert row.found == len(right) - 1  # "4 right of 5" on Mia's tablet
    clock(1)
    seen = _view(teacher, info.id, store, lola, mia)
    assert (seen[lola].answers, seen[lola].right) == (len(right), len(right))
    assert (seen[mia].answers, seen[mia].right) == (len(right), len(right) - 1)
    assert seen[mia].stuck is None


def test_a_board_puzzle_on_puzzles_counts_a_found_set_as_right(store: Storage,
                                                              clock) -> None:
    """Not only a live round: the same board on Puzzles (a find after a wrong try)."""
    teacher, info, lola, *_ = _class(store)
    ActivityNotes(store, lola, info.id).page("puzzles", None, "7D8DF", None)
    live = teacher.start(info.id, 2, seed=SEED)
    puzzle: Puzzle = live.puzzle
    sets = ["7e 10o", "5c 10o"]
    store.record_attempt(lola, Attempt.of(puzzle, check(puzzle, sets), 20.0, sets,
                                          "practice", DAY))
    store.record_attempt(lola, Attempt.of(puzzle, check(puzzle, ["7e 10o"]), 20.0,
                                          ["7e 10o"], "practice", DAY))
    clock(1)
    ActivityNotes(store, lola, info.id).page("puzzles", None, "7D8DF", None)
    mine = {p.profile_id: p for p in LiveView(teacher.room).pupils(info.id)}[lola]
    assert (mine.answers, mine.right, mine.wrong_streak) == (2, 1, 1)


def test_a_pupil_with_no_chance_to_answer_yet_is_never_stuck(store: Storage, clock) -> None:
    teacher, info, lola, mia, teo = _class(store)
    clock(10)  # ten minutes on My class while the teacher explains: nothing to answer
    live = teacher.start(info.id, 2, seed=SEED)
    clock(10 + STUCK_MINUTES - 0.2)  # the round is under four minutes old
    seen = _view(teacher, info.id, store, lola, mia, teo)
    assert {p.stuck for p in seen.values()} == {None}
    assert seen[lola].minutes_on_page == 13
    # Teo only now arrives (a new page: his time starts).
    ActivityNotes(store, teo, info.id).page("daily", None, "7D8DF", None)
    clock(10 + STUCK_MINUTES + 0.1)
    _board(store, live, lola, ["5c 10o"])
    ActivityNotes(store, teo, info.id).page("my_class", None, "7D8DF", None)
    seen = _view(teacher, info.id, store, lola, mia, teo)
    # Mia has had the round four minutes and given nothing: stuck, since she came.
    assert (seen[lola].stuck, seen[mia].stuck, seen[teo].stuck) == (None, "slow", None)
    assert seen[mia].minutes_without_right == 14
    teacher.reveal(info.id, live.id)  # nothing to answer any more: nobody is stuck
    assert {p.stuck for p in _view(teacher, info.id, store, lola, mia, teo).values()} \
        == {None}
