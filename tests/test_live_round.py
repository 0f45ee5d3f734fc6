"""The class plays together (issue 29): a live "find all the 15s" round, its storage on
SQLite and PostgreSQL, the teacher's and the pupils' sides, and the projector's summary,
which says how many found what and never who got it wrong."""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from puzzles import check, generate
from puzzles.practice import Attempt
from trainer.classroom import Classroom, TeacherSession
from trainer.classroom_views import ClassroomError
from trainer.live import (
    LIVE_MODE,
    MIN_WRONG_GIVERS,
    STALE_HOURS,
    LiveClass,
    LiveRound,
    PupilLive,
    summarise,
)
from trainer.storage import LiveAnswerRow, NewMember, Storage
from trainer.storage.schema import StorageError

DAY = date(2026, 12, 4)
SEED = "abc"  # fifteens:2:15:abc: 5c 6c 7e 10o, one set: 5c + 10o


@pytest.fixture
def store(make_store) -> Storage:
    """A Storage on SQLite and on PostgreSQL (conftest's ``make_store``)."""
    return make_store()


def _class(store: Storage, name: str = "Ms Díaz", code: str = "KDM472") -> tuple[Any, ...]:
    teacher = store.create_teacher(name, "a long password")
    info = store.create_class(teacher.id, "3B", code, fluency_seconds=6, capture_sum=15)
    ana, leo, mia = store.add_members(info.id, [NewMember("Ana", "🦊", "1234", "Ana García"),
                                                NewMember("Leo", "🐼", "5678"),
                                                NewMember("Mia", "🐸", "4321")])
    return LiveClass(Classroom(store, TeacherSession(teacher))), info, ana, leo, mia


def _answer(store: Storage, live: LiveRound, profile_id: int, sets: list[str]) -> Any:
    return PupilLive(store, profile_id).answer(live, check(live.puzzle, sets), 4.0, sets, DAY)


def test_a_round_every_tablet_sees_answered_once_each_with_its_evidence(store: Storage) -> None:
    teacher, info, ana, leo, _ = _class(store)
    live = teacher.start(info.id, 2, seed=SEED)
    assert [str(c) for c in live.puzzle.table] == ["5c", "6c", "7e", "10o"]
    # Every pupil's tablet regenerates the same puzzle from the stored round.
    seen = PupilLive(store, ana.profile_id).current()
    assert seen is not None and seen.puzzle == live.puzzle and seen.state == "open"
    row = _answer(store, live, ana.profile_id, ["5c 10o"])
    assert (row.correct, row.found, row.wrong) == (True, 1, 0)
    with pytest.raises(ClassroomError) as again:
        _answer(store, live, ana.profile_id, ["6c 7e"])
    assert again.value.key == "live.answered"
    assert PupilLive(store, ana.profile_id).mine(live).answer == ["5c 10o"]
    (attempt,) = store.attempts(ana.profile_id)  # the refused one wrote no attempt
    assert (attempt.mode, attempt.puzzle_id, attempt.correct) == (LIVE_MODE, live.puzzle.id,
                                                                  True)
    assert set(attempt.facts) >= {"5+10"}
    _answer(store, live, leo.profile_id, ["6c 7e"])
    assert store.live_answer_count(live.id) == 2


def test_answers_stop_at_the_reveal_and_rounds_only_move_forward(store: Storage) -> None:
    teacher, info, ana, leo, _ = _class(store)
    live = teacher.start(info.id, 2, seed=SEED)
    teacher.reveal(info.id, live.id)
    with pytest.raises(ClassroomError) as late:
        _answer(store, live, ana.profile_id, ["5c 10o"])
    assert late.value.key == "live.closed" and store.attempts(ana.profile_id) == []
    assert PupilLive(store, leo.profile_id).current().state == "revealed"
    teacher.close(info.id, live.id)
    assert PupilLive(store, leo.profile_id).current() is None
    with pytest.raises(ClassroomError) as back:
        teacher.reveal(info.id, live.id)
    assert back.value.key == "live.gone"


def test_a_new_round_closes_the_one_before(store: Storage) -> None:
    teacher, info, *_ = _class(store)
    first = teacher.start(info.id, 1, seed="a")
    second = teacher.start(info.id, 3, seed="b")
    assert teacher.current(info.id).id == second.id != first.id
    with pytest.raises(ClassroomError):
        teacher.reveal(info.id, first.id)


def test_a_round_belongs_to_its_class_and_its_teachers(store: Storage) -> None:
    teacher, info, ana, *_ = _class(store)
    other, other_info, mia2, *_ = _class(store, "Mr Ruiz", "PRT396")
    live = teacher.start(info.id, 2, seed=SEED)
    with pytest.raises(ClassroomError) as theirs:
        other.reveal(info.id, live.id)
    assert theirs.value.key == "class.not_yours"
    with pytest.raises(ClassroomError):
        other.board(info.id)
    # A pupil of another class cannot answer this class's round (forged round id).
    with pytest.raises(ClassroomError) as gone:
        _answer(store, live, mia2.profile_id, ["5c 10o"])
    assert gone.value.key == "live.gone"
    assert PupilLive(store, mia2.profile_id).current() is None
    with pytest.raises(ClassroomError) as level:
        teacher.start(info.id, 9)
    assert level.value.key == "live.bad_level"


def test_the_projector_sees_pictures_of_who_is_in_and_a_count_while_open(store: Storage) -> None:
    teacher, info, ana, leo, mia = _class(store)
    PupilLive(store, ana.profile_id).here()
    PupilLive(store, leo.profile_id).here()
    PupilLive(store, leo.profile_id).leave()
    board = teacher.board(info.id)
    assert board.present == ("🦊",) and board.round is None
    later = datetime.now(UTC) + timedelta(minutes=6)
    assert teacher.board(info.id, at=later).present == ()  # not seen for a while: gone
    live = teacher.start(info.id, 2, seed=SEED)
    _answer(store, live, ana.profile_id, ["5c 10o"])
    board = teacher.board(info.id, touch=False)
    assert board.summary.answered == 1 and board.summary.sets == ()  # nothing before the reveal


def test_the_reveal_counts_each_set_and_says_the_common_wrong_sum(store: Storage) -> None:
    teacher, info, ana, leo, mia = _class(store)
    live = teacher.start(info.id, 2, seed=SEED)
    _answer(store, live, ana.profile_id, ["5c 10o"])
    _answer(store, live, leo.profile_id, ["6c 10o"])  # 6 + 10 = 16
    _answer(store, live, mia.profile_id, ["6c 10o", "5c 10o"])
    teacher.reveal(info.id, live.id)
    summary = teacher.board(info.id).summary
    assert summary.answered == 3 and summary.all_right == 1
    (right,) = summary.sets
    assert ([str(c) for c in right.cards], right.total, right.found_by) == (["5c", "10o"], 15, 2)
    wrong = summary.common_wrong
    assert (wrong.arithmetic, wrong.off, wrong.count) == ("6 + 10 = 16", 1, 2)


def _rows(*answers: list[str]) -> list[LiveAnswerRow]:
    """Answers to the fifteens puzzle of :data:`SEED`, one a pupil (ids 1001, 1002...)."""
    stamp = datetime(2026, 12, 4, 9, tzinfo=UTC)
    return [LiveAnswerRow(1, 1001 + i, sets, False, 0, 1, stamp)
            for i, sets in enumerate(answers)]


def test_the_summary_holds_counts_only_never_a_pupil() -> None:
    puzzle = generate("fifteens", 2, SEED)
    summary = summarise(puzzle, _rows(["6c 10o"], ["6c 7e"], ["6c 7e"], ["6c 10o"]))
    text = repr(summary)
    assert not any(str(pid) in text for pid in range(1001, 1005))
    names = {f.name for f in fields(summary)}
    assert not names & {"profile_id", "profile_ids", "pupils", "names", "ranking"}
    # Equal counts: the smaller values win, the same on every replica.
    assert summary.common_wrong.arithmetic == "6 + 7 = 13" and summary.common_wrong.off == -2
    assert summary.common_wrong.count == 2


def test_a_wrong_sum_one_pupil_gave_is_not_in_the_summary_at_all() -> None:
    puzzle = generate("fifteens", 2, SEED)
    assert MIN_WRONG_GIVERS == 2
    # Nobody wrong (0 givers): no wrong sum.
    assert summarise(puzzle, _rows(["5c 10o"], ["5c 10o"])).common_wrong is None
    # One pupil's wrong sum: on a small class's big screen it says who gave it.
    lone = summarise(puzzle, _rows(["5c 10o"], ["6c 10o"]))
    assert lone.common_wrong is None and "16" not in repr(lone)
    # Two lone wrong sums tie at one each: still nobody's to show.
    assert summarise(puzzle, _rows(["6c 10o"], ["6c 7e"])).common_wrong is None
    # Said twice by one pupil is still one pupil.
    assert summarise(puzzle, _rows(["6c 10o", "6c 10o"])).common_wrong is None
    # Two pupils gave it: shown, with how many.
    two = summarise(puzzle, _rows(["6c 10o"], ["5c 10o"], ["6c 10o"])).common_wrong
    assert (two.arithmetic, two.off, two.count) == ("6 + 10 = 16", 1, 2)
    # The most given wins over a smaller sum given by fewer; a lone one never outranks.
    most = summarise(puzzle, _rows(["6c 7e"], ["6c 7e"], ["7e 10o"], ["7e 10o"], ["7e 10o"],
                                   ["5c 6c"])).common_wrong
    assert (most.arithmetic, most.count) == ("7 + 10 = 17", 3)


def test_storage_refuses_a_second_answer_by_its_key(store: Storage) -> None:
    _, info, ana, *_ = _class(store)
    row = store.start_live_round(info.id, "fifteens", {"puzzle": f"fifteens:2:15:{SEED}"})
    live = LiveRound.of(row)
    attempt_of = PupilLive(store, ana.profile_id)
    attempt_of.answer(live, check(live.puzzle, ["5c 10o"]), 2.0, ["5c 10o"], DAY)
    again = Attempt.of(live.puzzle, check(live.puzzle, []), 1.0, [], LIVE_MODE, DAY)
    with pytest.raises(StorageError) as refused:
        store.record_live_answer(live.id, ana.profile_id, [], again)
    assert refused.value.key == "live.answered"
    assert [a.answer for a in store.live_answers(live.id)] == [["5c 10o"]]


def test_deleting_a_pupil_or_the_class_takes_their_live_rows(store: Storage) -> None:
    teacher, info, ana, leo, _ = _class(store)
    live = teacher.start(info.id, 2, seed=SEED)
    PupilLive(store, ana.profile_id).here()
    _answer(store, live, ana.profile_id, ["5c 10o"])
    _answer(store, live, leo.profile_id, ["5c 10o"])
    store.remove_member(info.id, ana.profile_id)
    assert [a.profile_id for a in store.live_answers(live.id)] == [leo.profile_id]
    assert store.present_pupils(info.id, datetime(2000, 1, 1, tzinfo=UTC)) == []
    store.delete_class(info.id)
    assert store.live_round(info.id) is None and store.live_answers(live.id) == []


def test_a_round_left_open_overnight_is_not_put_before_the_pupils(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher, info, ana, *_ = _class(store)
    live = teacher.start(info.id, 2, seed=SEED)
    assert PupilLive(store, ana.profile_id).current().id == live.id
    monkeypatch.setenv("ESCOBA_NOW", (live.created_at + timedelta(hours=STALE_HOURS, minutes=1))
                       .isoformat().replace("+00:00", "Z"))
    assert PupilLive(store, ana.profile_id).current() is None
    assert store.live_round(info.id).id == live.id  # the projector still shows it, to close
