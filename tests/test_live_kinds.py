"""More kinds of live round (issue 29): a position from a real game (the class's own
finished games, else a seeded deal) asked three ways, "which cards make 15 with this
card?", "where is the sweep risk?" and "what would you play?", and a set of quick facts.
Each kind on SQLite and PostgreSQL: started, answered on the tablets, judged by the
checker, the coach or the hints (never by this code), summed up for the projector in
counts only, and written as evidence for each pupil's facts."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from datetime import UTC, date, datetime
from typing import Any

import pytest

from escoba import Card, Rules
from puzzles import check
from puzzles.mastery import normalise
from puzzles.rng import Rng
from tests import test_live_round
from tests.test_live_round import _class
from trainer.classroom_views import ClassroomError
from trainer.gameplay import GameSession, SeatSpec
from trainer.hints import assess, sweep_warning
from trainer.live import (
    LIVE_KINDS,
    LIVE_MODE,
    MIN_WRONG_GIVERS,
    QUICK_COUNT,
    Choice,
    LiveClass,
    LiveRound,
    PupilLive,
    WrongSum,
    _dealt_positions,
    find_position,
    summarise,
)
from trainer.storage import LiveAnswerRow, Storage

DAY = date(2026, 12, 4)
store = test_live_round.store  # the same fixture: SQLite, and PostgreSQL when there is one


def _reveal(teacher: LiveClass, info: Any, live: LiveRound) -> Any:
    teacher.reveal(info.id, live.id)
    board = teacher.board(info.id)
    assert board.round is not None and board.round.state == "revealed"
    return board.summary


def _move(card: Card, take: tuple[Card, ...] = ()) -> list[dict[str, Any]]:
    return [{"card": str(card), "take": [str(c) for c in take]}]


def test_every_kind_starts_and_every_tablet_sees_the_same_round(store: Storage) -> None:
    teacher, info, ana, *_ = _class(store)
    for kind in LIVE_KINDS:
        live = teacher.start(info.id, 2, seed="s1", kind=kind)
        seen = PupilLive(store, ana.profile_id).current()
        assert seen == live and seen.kind == kind
    with pytest.raises(ClassroomError) as bad:
        teacher.start(info.id, 2, kind="chess")
    assert bad.value.key == "live.bad_kind"


def test_a_captures_round_counts_each_capture_and_the_common_wrong_sum(store: Storage) -> None:
    teacher, info, ana, leo, mia = _class(store)
    live = teacher.start(info.id, 1, seed="a", kind="captures")
    puzzle = live.puzzle
    assert live.source == "deal"  # the class has played no game yet
    assert puzzle.kind == "captures" and len(puzzle.hand) == 1
    assert len(puzzle.solutions) >= 2  # a position that asks well
    card = puzzle.hand[0]
    every = [_move(card, s.take)[0] for s in puzzle.solutions]  # as the board sends them
    first = every[0]
    # A set the checker says is wrong: two table cards that do not make 15 with the card.
    a, b = next((a, b) for i, a in enumerate(puzzle.table) for b in puzzle.table[i + 1:]
                if a.value + b.value + card.value != 15)
    wrong = _move(card, (a, b))[0]
    for pid, sets in ((ana.profile_id, every), (leo.profile_id, [first, wrong]),
                      (mia.profile_id, [wrong])):
        PupilLive(store, pid).answer(live, check(puzzle, sets), 5.0, sets, DAY)
    summary = _reveal(teacher, info, live)
    assert (summary.answered, summary.all_right) == (3, 1)
    assert [s.found_by for s in summary.sets][0] == 2
    for right in summary.sets:  # the table cards then the card, making 15
        assert right.cards[-1] == card and right.total == 15
    values = tuple(sorted((a.value, b.value))) + (card.value,)
    total = sum(values)
    assert summary.common_wrong.count == 2
    assert summary.common_wrong.arithmetic == f"{' + '.join(map(str, values))} = {total}"
    assert summary.common_wrong.off == total - 15
    (attempt,) = store.attempts(ana.profile_id)
    assert (attempt.mode, attempt.kind, attempt.correct) == (LIVE_MODE, "captures", True)
    (missed,) = store.attempts(mia.profile_id)
    assert not missed.correct and any(not ok for _f, ok, _s in missed.answers)


def test_a_sweep_round_is_judged_by_the_hints(store: Storage) -> None:
    teacher, info, ana, leo, mia = _class(store)
    live = teacher.start(info.id, 1, seed="a", kind="sweep")
    assert len(live.sweep) == len(live.puzzle.hand) >= 2
    (risky,) = live.risky  # a position that asks well: one card to keep
    safe = [c for c in live.sweep if not c.risky]
    for choice in live.sweep:  # the judge is the hints' sweep warning on the lay-down
        assert sum(choice.values) == choice.total
        assert choice.total == sum(c.value for c in live.puzzle.table) + choice.card.value
    judged = next(c for c in live.sweep if c.risky)
    assert judged.need == 15 - judged.total
    pupil = PupilLive(store, ana.profile_id)
    row = pupil.answer_sweep(live, risky, 3.0, DAY)
    assert (row.correct, row.answer) == (True, [{"card": str(risky), "take": []}])
    PupilLive(store, leo.profile_id).answer_sweep(live, safe[0].card, 3.0, DAY)
    PupilLive(store, mia.profile_id).answer_sweep(live, safe[0].card, 3.0, DAY)
    with pytest.raises(ClassroomError) as again:
        pupil.answer_sweep(live, risky, 3.0, DAY)
    assert again.value.key == "live.answered"
    summary = _reveal(teacher, info, live)
    assert (summary.answered, summary.all_right) == (3, 1)
    counts = {c.card: (c.count, c.right) for c in summary.choices}
    assert counts[risky] == (1, True) and counts[safe[0].card] == (2, False)
    wrong = summary.common_wrong
    assert (wrong.arithmetic, wrong.count) == (safe[0].arithmetic, 2)
    # Evidence: the fact that spots the risk ("a 3 makes 15 with the 12 left").
    fact = normalise(f"15-{judged.need}")
    (right,) = store.attempts(ana.profile_id)
    assert (right.mode, right.correct, right.answers[0][:2]) == (LIVE_MODE, True, (fact, True))
    (missed,) = store.attempts(leo.profile_id)
    assert (missed.correct, missed.answers[0][:2]) == (False, (fact, False))


def test_the_sweep_judgement_is_the_hints_own() -> None:
    spec = find_position(None, 0, "sweep", 15, "b")
    live = LiveRound.of(_row("sweep", spec))
    assert live.risky and len(live.risky) < len(live.sweep)
    # Dealt again from the same seed, the hints say the same of each lay-down.
    for obs in _dealt_positions(15, Rng("escoba-live/1", "sweep", 15, "b")):
        if tuple(obs.table) == live.puzzle.table and tuple(sorted(obs.hand)) == live.puzzle.hand:
            lays = {a.move.card: a for a in assess(obs) if not a.move.take}
            assert {c for c in obs.hand if sweep_warning(lays[c])} == set(live.risky)
            break
    else:  # pragma: no cover
        raise AssertionError("the position is not the deal's")


def _row(kind: str, spec: dict[str, Any]) -> Any:
    from trainer.storage import LiveRoundRow

    return LiveRoundRow(1, 1, kind, spec, "open", datetime(2026, 12, 4, tzinfo=UTC), None)


def test_a_best_move_round_shows_the_spread_and_the_coachs_move(store: Storage) -> None:
    teacher, info, ana, leo, mia = _class(store)
    live = teacher.start(info.id, 1, seed="a", kind="best")
    puzzle = live.puzzle
    assert puzzle.kind == "best-move" and len(puzzle.ranking) >= 2
    best, other = puzzle.ranking[0], puzzle.ranking[1]
    for pid, move in ((ana.profile_id, best), (leo.profile_id, other),
                      (mia.profile_id, other)):
        answer = _move(move.card, move.take)
        PupilLive(store, pid).answer(live, check(puzzle, answer), 6.0, answer, DAY)
    summary = _reveal(teacher, info, live)
    assert (summary.answered, summary.all_right) == (3, 1)
    spread = [(c.card, c.take, c.count, c.right) for c in summary.choices]
    assert spread == [(other.card, tuple(sorted(other.take)), 2, False),
                      (best.card, tuple(sorted(best.take)), 1, True)]
    (mine,) = store.attempts(ana.profile_id)
    assert (mine.mode, mine.kind, mine.correct) == (LIVE_MODE, "best-move", True)


def test_the_best_move_has_its_bar_even_when_nobody_chose_it(store: Storage) -> None:
    teacher, info, ana, *_ = _class(store)
    live = teacher.start(info.id, 1, seed="b", kind="best")
    other = live.puzzle.ranking[-1]
    answer = _move(other.card, other.take)
    PupilLive(store, ana.profile_id).answer(live, check(live.puzzle, answer), 6.0, answer, DAY)
    summary = _reveal(teacher, info, live)
    assert [c.count for c in summary.choices if c.right] == [0]


def test_a_quick_round_counts_each_fact_and_its_common_wrong_answer(store: Storage) -> None:
    teacher, info, ana, leo, mia = _class(store)
    live = teacher.start(info.id, 2, seed="q", kind="quick")
    assert len(live.questions) == QUICK_COUNT
    assert all(q.kind == "quick-facts" for q in live.questions)
    right = [q.solutions[0].value for q in live.questions]
    one_off = [right[0] + 1 if right[0] < 10 else right[0] - 1, *right[1:]]
    seconds = [2.0] * QUICK_COUNT
    PupilLive(store, ana.profile_id).answer_quick(live, right, seconds, DAY)
    PupilLive(store, leo.profile_id).answer_quick(live, one_off, seconds, DAY)
    PupilLive(store, mia.profile_id).answer_quick(live, one_off, seconds, DAY)
    with pytest.raises(ClassroomError):
        PupilLive(store, ana.profile_id).answer_quick(live, right[:2], seconds[:2], DAY)
    summary = _reveal(teacher, info, live)
    assert (summary.answered, summary.all_right) == (3, 1)
    first = summary.questions[0]
    assert (first.right, first.answer, first.addends) == (1, right[0],
                                                          live.questions[0].addends)
    values = (*live.questions[0].addends, one_off[0])
    assert first.common_wrong.arithmetic == f"{' + '.join(map(str, values))} = {sum(values)}"
    assert first.common_wrong.off == one_off[0] - right[0] and first.common_wrong.count == 2
    assert [q.right for q in summary.questions[1:]] == [3] * (QUICK_COUNT - 1)
    # One attempt per fact, timed like any quick fact: evidence for the pupil's facts.
    rows = store.attempts(leo.profile_id)
    assert len(rows) == QUICK_COUNT and all(r.mode == LIVE_MODE for r in rows)
    assert [r.correct for r in rows] == [False] + [True] * (QUICK_COUNT - 1)
    assert rows[0].fact == f"15-{sum(live.questions[0].addends)}"


def test_no_kind_shows_a_wrong_answer_only_one_pupil_gave(store: Storage) -> None:
    teacher, info, ana, leo, mia = _class(store)
    # Quick facts: Leo and Mia each miss a different fact, once each.
    live = teacher.start(info.id, 2, seed="q", kind="quick")
    right = [q.solutions[0].value for q in live.questions]
    seconds = [2.0] * QUICK_COUNT
    leo_says = [right[0] % 10 + 1, *right[1:]]
    mia_says = [right[0], right[1] % 10 + 1, *right[2:]]
    for pid, values in ((ana.profile_id, right), (leo.profile_id, leo_says),
                        (mia.profile_id, mia_says)):
        PupilLive(store, pid).answer_quick(live, values, seconds, DAY)
    summary = _reveal(teacher, info, live)
    assert [q.right for q in summary.questions[:2]] == [2, 2]
    assert all(q.common_wrong is None for q in summary.questions)
    # Where is the sweep risk? One safe card chosen by one pupil.
    live = teacher.start(info.id, 1, seed="a", kind="sweep")
    (risky,) = live.risky
    safe = next(c for c in live.sweep if not c.risky)
    PupilLive(store, ana.profile_id).answer_sweep(live, risky, 3.0, DAY)
    PupilLive(store, leo.profile_id).answer_sweep(live, safe.card, 3.0, DAY)
    summary = _reveal(teacher, info, live)
    assert summary.common_wrong is None
    # The lone safe card is not drawn on its own: counted among the others.
    assert safe.card not in {c.card for c in summary.choices}
    assert summary.others == 1 and {c.card: c.count for c in summary.choices}[risky] == 1
    # Which cards make 15? One pupil's wrong set.
    live = teacher.start(info.id, 1, seed="a", kind="captures")
    card = live.puzzle.hand[0]
    a, b = next((a, b) for i, a in enumerate(live.puzzle.table) for b in live.puzzle.table[i + 1:]
                if a.value + b.value + card.value != 15)
    wrong = _move(card, (a, b))
    PupilLive(store, mia.profile_id).answer(live, check(live.puzzle, wrong), 5.0, wrong, DAY)
    assert _reveal(teacher, info, live).common_wrong is None


def test_a_pupil_answers_a_round_only_in_its_own_way(store: Storage) -> None:
    teacher, info, ana, *_ = _class(store)
    quick = teacher.start(info.id, 2, seed="q", kind="quick")
    pupil = PupilLive(store, ana.profile_id)
    with pytest.raises(ClassroomError):
        pupil.answer_sweep(quick, Card.parse("7o"), 1.0, DAY)
    sweep = teacher.start(info.id, 1, seed="a", kind="sweep")
    with pytest.raises(ClassroomError):  # a card not in the hand
        pupil.answer_sweep(sweep, next(c for c in sweep.puzzle.table), 1.0, DAY)
    assert store.attempts(ana.profile_id) == []


def test_positions_come_from_the_classs_own_finished_games(store: Storage) -> None:
    teacher, info, ana, *_ = _class(store)
    rules = Rules.preset("classic", target=5)
    seats = [SeatSpec("human", "Ana"), SeatSpec("bot", "Bot", level="greedy")]
    from tests.test_storage import play_to_end

    session = GameSession.new(rules, seats, 11, storage=store, profile_id=ana.profile_id)
    play_to_end(session)
    assert store.finished_games(ana.profile_id)
    game_cards = set()
    record = store.complete_record(store.list_games(ana.profile_id)[0])
    for entry in record["rounds"]:
        game_cards |= set(entry.get("deck", []))
    for kind in ("captures", "sweep", "best"):
        live = teacher.start(info.id, 1, seed="g", kind=kind)
        assert live.source == "game", kind
    # Another class, with no game: a seeded deal, the same for the same seed.
    other = store.create_class(teacher.room.session.teacher.id, "4A", "PRT396",
                               fluency_seconds=6, capture_sum=15)
    one = teacher.start(other.id, 1, seed="g", kind="captures")
    two = teacher.start(other.id, 1, seed="g", kind="captures")
    assert one.source == "deal" and one.puzzle == two.puzzle


def _walk(value: Any) -> list[Any]:
    if is_dataclass(value):
        return [value] + [x for f in fields(value) for x in _walk(getattr(value, f.name))]
    if isinstance(value, tuple | list):
        return [x for v in value for x in _walk(v)]
    return [value]


def test_the_summaries_of_every_kind_hold_counts_only_never_a_pupil(store: Storage) -> None:
    teacher, info, ana, *_ = _class(store)
    stamp = datetime(2026, 12, 4, 9, tzinfo=UTC)
    for kind in LIVE_KINDS:
        live = teacher.start(info.id, 2, seed="p", kind=kind)
        if kind == "quick":
            answer: list[Any] = [1, 2, 3, 4, 5]
        elif kind in ("best", "sweep"):
            answer = _move(live.puzzle.hand[0])
        else:
            answer = [" ".join(str(c) for c in live.puzzle.table[:2])]
        rows = [LiveAnswerRow(live.id, 1001, answer, False, 0, 1, stamp),
                LiveAnswerRow(live.id, 1002, answer, False, 0, 1, stamp)]
        summary = summarise(live, rows)
        assert "1001" not in repr(summary) and "1002" not in repr(summary)
        for item in _walk(summary):
            if is_dataclass(item):
                names = {f.name for f in fields(item)}
                assert not names & {"profile_id", "profile_ids", "pupils", "names",
                                    "nickname", "avatar"}, kind
        # One pupil's answer, or two pupils' same answer: a wrong answer (a wrong sum, a
        # wrong move or card) is in a summary only when two pupils or more gave it.
        for given in (rows[:1], rows):
            wrong = [item for item in _walk(summarise(live, given))
                     if isinstance(item, WrongSum)
                     or (isinstance(item, Choice) and not item.right)]
            assert all(item.count >= MIN_WRONG_GIVERS for item in wrong), (kind, wrong)
            if len(given) == 1:
                assert not wrong, kind


def test_a_round_of_a_kind_this_module_does_not_know_is_not_drawn(store: Storage) -> None:
    # Another part may keep its own kind of class round in the same table: neither the
    # projector's round nor a pupil's tablet reads it as one of these.
    teacher, info, ana, *_ = _class(store)
    store.start_live_round(info.id, "vote", {"anything": 1})
    assert PupilLive(store, ana.profile_id).current() is None
    assert teacher.current(info.id) is None and teacher.board(info.id).round is None


def _lone_and_pair(kind: str, live: LiveRound) -> tuple[Any, Any, Any]:
    """A right answer and two wrong ones of a best or sweep round, as answers."""
    if kind == "best":
        best, *rest = live.puzzle.ranking
        assert len(rest) >= 2
        return (_move(best.card, best.take), _move(rest[0].card, rest[0].take),
                _move(rest[1].card, rest[1].take))
    (risky, *_), safe = sorted(live.risky), [c.card for c in live.sweep if not c.risky]
    assert len(safe) >= 2
    return _move(risky), _move(safe[0]), _move(safe[1])


@pytest.mark.parametrize("kind", ["best", "sweep"])
def test_a_wrong_choice_is_drawn_alone_only_when_two_pupils_chose_it(kind: str) -> None:
    # Positions with two wrong choices or more: a best move with three moves, a sweep
    # round with two safe cards.
    for seed in map(str, range(200)):
        live = LiveRound.of(_row(kind, find_position(None, 0, kind, 15, seed)))
        if (len(live.puzzle.ranking) >= 3 if kind == "best"
                else len(live.sweep) - len(live.risky) >= 2):
            break
    else:  # pragma: no cover
        raise AssertionError("no position with two wrong choices")
    right, pair, lone = _lone_and_pair(kind, live)
    stamp = datetime(2026, 12, 4, 9, tzinfo=UTC)

    def rows(*answers: Any) -> list[LiveAnswerRow]:
        return [LiveAnswerRow(live.id, 1000 + i, a, False, 0, 1, stamp)
                for i, a in enumerate(answers)]

    def drawn(summary: Any) -> dict[str, tuple[int, bool]]:
        return {f"{c.card}{c.take}": (c.count, c.right) for c in summary.choices}

    def key(answer: Any) -> str:
        (move,) = answer
        return f"{Card.parse(move['card'])}{tuple(sorted(map(Card.parse, move['take'])))}"

    # One pupil each on two wrong choices: neither is drawn, both counted as the others.
    summary = summarise(live, rows(right, pair, lone))
    assert key(pair) not in drawn(summary) and key(lone) not in drawn(summary)
    assert summary.others == 2 and drawn(summary)[key(right)] == (1, True)
    assert all(c.right for c in summary.choices)
    # Two pupils on the same wrong choice: drawn with its count; the lone one still not.
    summary = summarise(live, rows(right, pair, pair, lone))
    assert drawn(summary)[key(pair)] == (2, False) and key(lone) not in drawn(summary)
    assert summary.others == 1
    # The right answer is drawn whatever its count (one pupil, or none).
    summary = summarise(live, rows(pair, pair))
    assert drawn(summary)[key(right)] == (0, True) and summary.others == 0


def test_a_lay_down_in_what_would_you_play_is_told_in_words_a_child_reads() -> None:
    from ui.practice_view import puzzle_deck, wrong_text

    said: dict[str, str] = {}
    for seed in map(str, range(300)):
        puzzle = LiveRound.of(_row("best", find_position(None, 0, "best", 15, seed))).puzzle
        deck = puzzle_deck(puzzle)
        lays = {m.card for m in puzzle.ranking if not m.take}
        for card in puzzle.hand:
            result = check(puzzle, _move(card))
            if result.solved:  # the coach's own move is a lay-down: praised as the best
                assert (card, ()) == (puzzle.ranking[0].card, puzzle.ranking[0].take)
                said.setdefault("best", str(card))
                continue
            (wrong,) = result.wrong
            text = wrong_text(wrong, deck)
            assert "= " not in text, text  # never "5 = 5, not 15"
            if card in lays:  # allowed, not the best: the coach's words for it
                assert wrong.key == "not_best" and text.startswith("That move is allowed")
                said.setdefault("allowed", text)
            else:  # the card captures, and the rules say it must
                assert wrong.key == "must_capture", wrong
                assert text.startswith("Here the ") and "must take" in text, text
                said.setdefault("must", text)
        if len(said) == 3:
            break
    assert set(said) == {"best", "allowed", "must"}, said
