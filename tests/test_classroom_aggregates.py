"""The teacher's views read the pupils' aggregates (issue 32) and show what they showed
when they read every attempt: the fact grid's cells, the class's fact totals and the
dashboard's rows are the same as the full-history computation kept below (the app's
code until issue 32, as the reference), for random histories written every way the app
writes (out of time order too) and for the seeded school-year generator's small class,
on every day of their history and the day after, with each time limit; and a snapshot
read for one week and no attempt (as the teacher's page reads it) gives what one read
for every day and attempt gives: a cell's history too.

The assignments' progress is kept at write time too (``assignment_progress``): each
pupil's task on each assignment, in the teacher's views and in the pupil's own list, is
the one the full-history rule computes (``reference_task`` below, the app's code until
then), with assignments made before, between and after the answers, pupils who join
later or leave, assignments deleted, answers written after a *weakest* assignment but
stamped before it, and after migration 17 computed them for an older database.
"""

from __future__ import annotations

import contextlib
import json
import random
import statistics
import sys
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from puzzles.mastery import fact_stats, weakest_facts
from puzzles.practice import Attempt, answers_from_rows, askable_facts, quick_fact_for
from tests.conftest import ROOT
from tests.test_classroom import fact_quick, put, teacher
from tests.test_storage_aggregates import START, _history, undo_groups
from tests.test_storage_aggregates import _puzzle as _puzzle_attempt
from tests.test_storage_aggregates import _quick as _quick_fact
from trainer.classroom import Classroom, TeacherAuth, pupil_tasks
from trainer.classroom_views import (
    FLUENCY_LIMITS,
    HELP_ACCURACY,
    HELP_MIN_TRIES,
    STUCK_MISSES,
    STUCK_WINDOW,
    AssignmentProgress,
    FactGrid,
    HelpReason,
    PupilRow,
    PupilTask,
    fact_cell,
    fact_totals,
    fact_tries,
    pupil_task,
)
from trainer.evidence import TURN_KIND
from trainer.storage import SCHEMA_VERSION, AssignmentRow, ClassSnapshot, Storage, configure_sqlite
from trainer.storage.practice import add_attempts, attempt_values
from trainer.storage.schema import assignment_progress, fact_progress

sys.path.insert(0, str(ROOT / "bench"))


# -- the reference: every attempt read, as the views did until issue 32 ------------------


def _each_question_once(facts, capture_sum: int) -> tuple[str, ...]:
    """The facts in order, dropping one whose quick question (its addends) an earlier one
    asks: "7+8" after "15-7" (both "7 + ? = 15"), a question asked once."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for fact in facts:
        asked = tuple(quick_fact_for(fact, capture_sum).addends)
        if asked not in seen:
            seen.add(asked)
            out.append(fact)
    return tuple(out)

def reference_cells(snapshot: ClassSnapshot, limit: int,
                    facts: Sequence[str]) -> dict[int, dict[str, tuple[Any, ...]]]:
    out = {}
    for member in snapshot.members:
        tries = fact_tries(snapshot.attempts.get(member.profile_id, ()))
        out[member.profile_id] = {
            fact: (fact_cell(mine, limit), len(mine), sum(t.correct for t in mine),
                   mine[-1].when if mine else None)
            for fact in facts for mine in [tries.get(fact, [])]}
    return out


def reference_totals(grid: FactGrid, snapshot: ClassSnapshot, today: date,
                     days: int = 7) -> dict[str, tuple[int, ...]]:
    since, until = (today - timedelta(days=days - 1)).isoformat(), today.isoformat()
    counts = {f: [0, 0, 0, 0] for f in grid.facts}
    for row in grid.rows:
        for fact, mine in fact_tries(snapshot.attempts.get(row.profile_id, ())).items():
            week = [t for t in mine if since <= t.day <= until]
            if fact not in counts or not week:
                continue
            wrong = sum(1 for t in week if not t.correct)
            for i, add in enumerate((len(week), wrong, 1, 1 if wrong else 0)):
                counts[fact][i] += add
    return {f: tuple(c) for f, c in counts.items()}


def reference_row(snapshot: ClassSnapshot, pid: int, today: date) -> dict[str, Any]:
    """The dashboard's figures that come from the attempts."""
    everything = snapshot.attempts.get(pid, [])
    mine = [a for a in everything if a.kind != TURN_KIND]
    since = (today - timedelta(days=6)).isoformat()
    week = [a for a in mine if since <= a.day <= today.isoformat()]
    times = [a.seconds for a in mine if a.kind == "quick-facts" and a.correct]
    reasons = []
    if len(week) >= HELP_MIN_TRIES:
        share = sum(a.correct for a in week) / len(week)
        if share < HELP_ACCURACY:
            reasons.append(HelpReason("help.accuracy_week", {
                "percent": round(100 * share), "count": len(week)}))
    puzzles = [a for a in mine if a.kind != "quick-facts"]
    if puzzles:
        latest = puzzles[-1]
        same = [a for a in puzzles if (a.kind, a.level, a.capture_sum)
                == (latest.kind, latest.level, latest.capture_sum)][-STUCK_WINDOW:]
        misses = sum(1 for a in same if not a.correct)
        if len(same) >= STUCK_WINDOW and misses >= STUCK_MISSES:
            reasons.append(HelpReason("help.stuck_level", {
                "kind": latest.kind, "level": latest.level, "sum": latest.capture_sum,
                "misses": misses, "tries": len(same)}))
    return {
        "puzzles": len(puzzles), "quick_facts": len(mine) - len(puzzles),
        "accuracy": sum(a.correct for a in mine) / len(mine) if mine else None,
        "week_accuracy": sum(a.correct for a in week) / len(week) if week else None,
        "median_seconds": round(statistics.median(times), 2) if times else None,
        "game_turns": len(everything) - len(mine),
        "last_active": max([t for t in [everything[-1].created_at if everything else None,
                                        snapshot.last_game.get(pid)] if t is not None]
                           + [b.updated_at for b in snapshot.lessons.get(pid, {}).values()]
                           + [g.updated_at for g in snapshot.lesson_goes.get(pid, {}).values()],
                           default=None),
        "attempt_reasons": tuple(reasons)}


def _status(complete: bool, completed_day: str | None, due: str | None, today: date) -> str:
    if complete:
        return "late" if due is not None and completed_day is not None \
            and completed_day > due else "done"
    return "overdue" if due is not None and today.isoformat() > due else "open"


def _steps(addends: Sequence[int], capture_sum: int) -> tuple[int, frozenset[tuple[int, ...]]]:
    """The number given before the ``?`` and the additions a child makes answering
    ``a + b + ? = sum``, step by step, each pair in either order: 3 + 4 + ? and 4 + 3 + ?
    are one question (7 given; 3 + 4, then 7 + 8); 1 + 1 + 3 + ? and 1 + 3 + 1 + ? are
    two (1 + 1, 2 + 3, 5 + 10 against 1 + 3, 4 + 1, 5 + 10); 8 + ? and 7 + ? are two
    (8 given, 7 given: the same 7 + 8)."""
    numbers = [*addends, capture_sum - sum(addends)]
    running, steps = numbers[0], set()
    for number in numbers[1:]:
        steps.add(tuple(sorted((running, number))))
        running += number
    return sum(addends), frozenset(steps)


def reference_task(assignment: AssignmentRow, attempts: Sequence[Attempt],
                   lessons: dict[tuple[str, str], Any], today: date) -> PupilTask:
    """A pupil's task from every attempt, oldest first (the rule docs/CLASSROOM.md states)."""
    spec, kind = assignment.spec, assignment.kind
    if kind == "lesson":  # from the lesson results, as before: no attempt
        return pupil_task(assignment, None, lessons, today)
    after = [a for a in attempts if a.created_at >= assignment.created_at]
    if kind == "puzzles":
        counted = [a for a in after if (a.kind, a.level, a.capture_sum)
                   == (spec["kind"], spec["level"], spec["capture_sum"])]
        total = spec["count"]
        complete = len(counted) >= total
        day = counted[total - 1].day if complete else None
        return PupilTask(assignment, min(len(counted), total), total, len(counted),
                         sum(a.correct for a in counted), sum(a.stars for a in counted),
                         _status(complete, day, assignment.due, today), day)
    if kind == "facts":
        facts = tuple(spec["facts"])
    else:
        before = [a for a in attempts if a.created_at < assignment.created_at]
        usable = askable_facts(spec["capture_sum"])
        facts = _each_question_once(
            weakest_facts(fact_stats(answers_from_rows(before), usable), usable,
                          count=len(usable)), spec["capture_sum"])[:spec["count"]]
    latest: dict[str, Attempt] = {}
    first_day: dict[str, str] = {}
    tried = set()
    for a in after:
        if a.kind != "quick-facts" or a.capture_sum != spec["capture_sum"]:
            continue
        # The question asked, by the addends its id names ("...:custom-3.4"): the same
        # additions step by step as the fact's question.
        asked = _steps([int(n) for n in a.puzzle_id.rsplit("custom-", 1)[1].split(".")],
                       spec["capture_sum"])
        for fact in facts:
            question = quick_fact_for(fact, spec["capture_sum"])
            if question is not None and _steps(question.addends, spec["capture_sum"]) == asked:
                latest[fact] = a
                first_day.setdefault(fact, a.day)
                tried.add(a.id)
    complete = bool(facts) and len(latest) == len(facts)
    day = max(first_day.values()) if complete else None
    return PupilTask(assignment, len(latest), len(facts), len(tried),
                     sum(1 for a in latest.values() if a.correct), None,
                     _status(complete, day, assignment.due, today), day, facts,
                     tuple(f for f in facts if f not in latest))


def reference_targets(assignment: AssignmentRow, member: Any) -> bool:
    """The assignment's pupils (issue 29): its one pupil, its group's, or the class's."""
    if assignment.profile_id is not None:
        return member.profile_id == assignment.profile_id
    return assignment.group_id is None or member.group_id == assignment.group_id


def reference_progress(snapshot: ClassSnapshot, today: date) -> list[AssignmentProgress]:
    return [AssignmentProgress(a, {
        m.profile_id: reference_task(a, snapshot.attempts.get(m.profile_id, []),
                                     snapshot.lessons.get(m.profile_id, {}), today)
        for m in snapshot.members if reference_targets(a, m)})
        for a in sorted(snapshot.assignments, key=lambda a: a.id, reverse=True)]


def assert_tasks_match_the_full_history(room: Classroom, class_id: int,
                                        days: Sequence[date]) -> list[AssignmentProgress]:
    """The assignments' progress, in the teacher's views (either snapshot) and each pupil's
    own list, equals the reference on each of ``days``; the last day's."""
    everything = room.snapshot(class_id)
    for today in days:
        expected = reference_progress(everything, today)
        assert room.assignments(everything, today) == expected
        assert room.assignments(room.snapshot(class_id, today, every_attempt=False),
                                today) == expected
        for member in everything.members:
            mine = {t.assignment.id: t for t in pupil_tasks(room.storage, member.profile_id,
                                                            today)}
            assert mine == {p.assignment.id: p.pupils[member.profile_id] for p in expected
                            if member.profile_id in p.pupils}
    return expected


def _figures(row: PupilRow) -> dict[str, Any]:
    return {"puzzles": row.puzzles, "quick_facts": row.quick_facts,
            "accuracy": row.accuracy, "week_accuracy": row.week_accuracy,
            "median_seconds": row.median_seconds, "game_turns": row.game_turns,
            "last_active": row.last_active,
            "attempt_reasons": tuple(r for r in row.help
                                     if r.key in ("help.accuracy_week", "help.stuck_level"))}


# -- the comparison ------------------------------------------------------------------------

def assert_views_match_the_full_history(room: Classroom, class_id: int,
                                        days: Sequence[date]) -> int:
    """Every view on each of ``days`` equals the reference; the number of pupils' attempts
    the reference read."""
    everything = room.snapshot(class_id)
    assert {m.profile_id for m in everything.members} == set(everything.aggregates)
    for today in days:
        bounded = room.snapshot(class_id, today, every_attempt=False)
        assert bounded.days_from == (today - timedelta(days=6)).isoformat()
        for snap in (everything, bounded):
            for limit in FLUENCY_LIMITS:
                grid = room.fact_grid(snap, limit)
                cells = {row.profile_id: {f: (c.state, c.tries, c.right, c.last)
                                          for f, c in row.cells.items()} for row in grid.rows}
                assert cells == reference_cells(everything, limit, grid.facts)
            grid = room.fact_grid(snap)
            totals = {f: (t.tries, t.wrong, t.pupils, t.pupils_wrong)
                      for f, t in fact_totals(grid, snap, today).items()}
            assert totals == reference_totals(grid, everything, today)
            for row in room.dashboard(snap, today):
                assert _figures(row) == reference_row(everything, row.profile_id, today)
    for member in everything.members:
        for fact in ("3+8", "7+8", "15-8"):
            assert room.cell_history(bounded, member.profile_id, fact) \
                == room.cell_history(everything, member.profile_id, fact)
    assert_tasks_match_the_full_history(room, class_id, days)
    return sum(len(a) for a in everything.attempts.values())


@pytest.mark.parametrize("seed", [11, 12, 13, 14])
def test_the_views_from_aggregates_equal_the_full_history_for_random_histories(
        make_store, seed: int) -> None:
    room = teacher(make_store())
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 3, "en").added]
    _history(room.storage, pupils, seed)
    # Assignments of every kind, with answers before and after them.
    room.create_assignment(info.id, "puzzles", {"kind": "captures", "level": 1, "count": 2})
    room.create_assignment(info.id, "facts", {"facts": ["3+8", "15-8", "15-6"]})
    room.create_assignment(info.id, "weakest", {"count": 3})
    room.create_assignment(info.id, "lesson", {"stage": "values"})
    _history(room.storage, pupils, seed + 100)
    days = [START.date() + timedelta(days=n) for n in range(-1, 12)]
    assert assert_views_match_the_full_history(room, info.id, days) > 100


def test_the_views_from_aggregates_equal_the_full_history_for_a_school_year(tmp_path) -> None:
    school_year = pytest.importorskip("school_year")
    from classroom_load import TEACHER

    url = school_year.database_url_of(str(tmp_path / "year.db"))
    year = school_year.make_school_year(url, pupils=4, days=12, answers=25, child_days=2,
                                        seed=32)
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    try:
        store = Storage(engine, migrate=False)
        room = Classroom(store, TeacherAuth(store).sign_in(*TEACHER))
        days = school_year.school_days(12)
        read = assert_views_match_the_full_history(
            room, year.class_id, [*days[::3], days[-1], days[-1] + timedelta(days=1)])
        assert read > 4 * 12 * 15
    finally:
        engine.dispose()


@pytest.mark.parametrize("seed", [1, 2])
def test_the_median_time_from_the_counts_per_second_is_every_right_answer_s(
        make_store, seed: int) -> None:
    """The dashboard's median of the right quick facts' times, found from the counts per
    second and the middle seconds' hundredths only: the middle places in one second, in
    two seconds next to each other or with empty seconds between them, at a second's
    edge, one answer, only wrong answers, and many random times with ties."""
    rng = random.Random(seed)
    room = teacher(make_store())
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 8, "en").added]
    times: list[list[tuple[float, bool]]] = [
        [(1.2, True), (1.2, True), (3.4, True), (3.4, True)],  # two seconds, one empty between
        [(0.99, True), (1.0, True), (1.01, True), (9.5, False)],  # at a second's edge
        [(1.99, True), (2.0, True)],
        [(5.0, True)],
        [(2.5, False), (3.5, False)],  # no right answer: no median
        [(round(rng.uniform(0.5, 12), 2), rng.random() < 0.8) for _ in range(201)],
        [(rng.choice((1.5, 2.25, 3.0, 7.77)), True) for _ in range(40)],
        [(round(rng.uniform(1, 3), 1), True) for _ in range(rng.randint(50, 90))],
    ]
    facts = ("3+8", "7+8", "15-8", "15-6")
    for pid, mine in zip(pupils, times, strict=True):
        for n, (seconds, right) in enumerate(mine):
            when = START + timedelta(minutes=n)
            put(room.storage, pid, fact_quick(facts[n % 4], right, seconds, when), when)
    today = START.date()
    rows = {r.profile_id: r for r in room.dashboard(
        room.snapshot(info.id, today, every_attempt=False), today)}
    for pid, mine in zip(pupils, times, strict=True):
        right = [seconds for seconds, ok in mine if ok]
        assert rows[pid].median_seconds == (
            round(statistics.median(right), 2) if right else None), mine


def test_a_snapshot_read_for_one_week_refuses_an_earlier_week(make_store) -> None:
    room = teacher(make_store())
    info = room.create_class("3B")
    room.generate_pupils(info.id, 2, "en")
    today = START.date()
    snap = room.snapshot(info.id, today)
    room.dashboard(snap, today + timedelta(days=3))  # a later day: its days were read
    with pytest.raises(ValueError):
        room.dashboard(snap, today - timedelta(days=1))


# -- assignments' progress kept at write time ----------------------------------------------

#: Long before the tests' assignments: answers stamped then but written after them.
LONG_AGO = datetime(2026, 9, 1, 9, 0, tzinfo=UTC)


def _late(store: Storage, pupils: Sequence[int], seed: int) -> None:
    """A bulk import of answers stamped before every assignment (they change a weakest
    assignment's facts, and count toward nothing)."""
    rng = random.Random(seed)
    rows = []
    for n in range(12):
        make = rng.choice((_quick_fact, _quick_fact, _puzzle_attempt))
        rows.append(attempt_values(rng.choice(list(pupils)), make(rng, LONG_AGO),
                                   LONG_AGO + timedelta(minutes=n)))
    with store.transaction() as conn:
        add_attempts(conn, rows)


@pytest.mark.parametrize("seed", [21, 22])
def test_assignments_progress_kept_at_write_time_equals_the_full_history(
        make_store, seed: int) -> None:
    room = teacher(make_store())
    info = room.create_class("3B")
    # An assignment of each kind before any answer, then answers, more assignments, more
    # answers; a pupil who joins later, one who leaves, one assignment taken back.
    room.create_assignment(info.id, "weakest", {"count": 4})
    room.create_assignment(info.id, "facts", {"facts": ["3+8", "15-8", "15-6", "2+9"]})
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 3, "en").added]
    _history(room.storage, pupils, seed)
    room.create_assignment(info.id, "puzzles", {"kind": "captures", "level": 1, "count": 3})
    room.create_assignment(info.id, "puzzles", {"kind": "fifteens", "level": 2, "count": 2},
                           due=START.date() + timedelta(days=2))
    # One fact, often answered: done on the day of its first try after it was made.
    room.create_assignment(info.id, "facts", {"facts": ["15-8"]},
                           due=START.date() + timedelta(days=1))
    dropped = room.create_assignment(info.id, "facts", {"facts": ["5+5"]})
    room.create_assignment(info.id, "weakest", {"count": 3}, due=START.date())
    room.create_assignment(info.id, "lesson", {"stage": "values"})
    late = room.generate_pupils(info.id, 1, "en").added[0].profile_id
    _history(room.storage, [*pupils, late], seed + 100)
    _late(room.storage, [*pupils, late], seed)
    room.create_assignment(info.id, "weakest", {"count": 5})
    _history(room.storage, [*pupils, late], seed + 200)
    room.delete_assignment(info.id, dropped.id)
    room.remove_pupil(info.id, pupils[0])
    days = [START.date() + timedelta(days=n) for n in range(-1, 12)]
    expected = assert_tasks_match_the_full_history(room, info.id, days)
    # The answers counted toward something: every kind has a pupil who did part of it.
    kinds = {p.assignment.kind for p in expected
             if any(t.tried for t in p.pupils.values())}
    assert kinds == {"puzzles", "facts", "weakest"}
    # Nothing is kept for the assignment taken back or the pupil who left.
    with room.storage.engine.connect() as conn:
        kept = set(conn.execute(sa.select(assignment_progress.c.assignment_id,
                                          assignment_progress.c.profile_id)))
    assert kept == {(p.assignment.id, pid) for p in expected
                    if p.assignment.kind != "lesson" for pid in p.pupils}


@pytest.mark.parametrize("seed", [41, 42])
def test_group_and_pupil_assignments_count_only_their_pupils(make_store, seed: int) -> None:
    """Issue 29: an assignment for a group or one pupil has progress rows for its pupils
    only, kept as pupils move between groups, a group is deleted and a pupil leaves."""
    room = teacher(make_store())
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 5, "en").added]
    red, blue = room.create_group(info.id, "Red"), room.create_group(info.id, "Blue")
    for pid in pupils[:2]:
        room.set_pupil_group(info.id, pid, red.id)
    room.set_pupil_group(info.id, pupils[2], blue.id)
    _history(room.storage, pupils, seed)
    room.create_assignment(info.id, "weakest", {"count": 3}, group_id=red.id)
    room.create_assignment(info.id, "facts", {"facts": ["3+8", "15-8", "15-6"]},
                           group_id=blue.id)
    room.create_assignment(info.id, "puzzles", {"kind": "captures", "level": 1, "count": 2},
                           profile_id=pupils[3])
    room.create_assignment(info.id, "puzzles", {"kind": "captures", "level": 1, "count": 2},
                           profile_id=pupils[4])
    room.create_assignment(info.id, "facts", {"facts": ["15-8", "7+8"]})
    room.create_assignment(info.id, "lesson", {"stage": "values"}, group_id=red.id)
    _history(room.storage, pupils, seed + 100)
    # A pupil moves from red to blue (their answers since blue's assignment count), one
    # joins red, one leaves every group; then more answers, a new group taken back with
    # its assignment, a pupil with their own assignment leaves the class.
    room.set_pupil_group(info.id, pupils[1], blue.id)
    room.set_pupil_group(info.id, pupils[3], red.id)
    room.set_pupil_group(info.id, pupils[2], None)
    green = room.create_group(info.id, "Green")
    room.set_pupil_group(info.id, pupils[0], green.id)
    room.create_assignment(info.id, "facts", {"facts": ["2+9"]}, group_id=green.id)
    _history(room.storage, pupils, seed + 200)
    room.delete_group(info.id, green.id)
    room.remove_pupil(info.id, pupils[4])
    days = [START.date() + timedelta(days=n) for n in range(-1, 12, 3)]
    expected = assert_tasks_match_the_full_history(room, info.id, days)
    by_kind = {(p.assignment.kind, p.assignment.group_id, p.assignment.profile_id):
               set(p.pupils) for p in expected}
    assert by_kind == {
        ("weakest", red.id, None): {pupils[3]},
        ("facts", blue.id, None): {pupils[1]},
        ("puzzles", None, pupils[3]): {pupils[3]},
        ("facts", None, None): set(pupils[:4]),
        ("lesson", red.id, None): {pupils[3]}}
    with room.storage.engine.connect() as conn:
        kept = set(conn.execute(sa.select(assignment_progress.c.assignment_id,
                                          assignment_progress.c.profile_id)))
    assert kept == {(p.assignment.id, pid) for p in expected
                    if p.assignment.kind != "lesson" for pid in p.pupils}


@contextlib.contextmanager
def upgraded(store: Storage) -> Iterator[Storage]:
    """The app starting again on ``store``'s database, whose schema was set back: it
    migrates to the latest version."""
    engine = sa.create_engine(store.engine.url)
    configure_sqlite(engine)
    try:
        again = Storage(engine)
        assert again.schema_version() == SCHEMA_VERSION
        yield again
    finally:
        engine.dispose()


def test_migration_17_computes_the_assignments_progress_of_the_answers_before_it(
        make_store) -> None:
    store = make_store()
    room = teacher(store)
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 3, "en").added]
    _history(store, pupils, 31)
    room.create_assignment(info.id, "weakest", {"count": 4})
    room.create_assignment(info.id, "facts", {"facts": ["3+8", "15-8", "7+8"]})
    room.create_assignment(info.id, "puzzles", {"kind": "captures", "level": 1, "count": 2})
    _history(store, pupils, 32)
    days = [START.date() + timedelta(days=n) for n in (0, 5, 11)]
    before = assert_tasks_match_the_full_history(room, info.id, days)
    # The database as it was at version 16: no progress kept (nor migration 18's groups,
    # none here), the same attempts.
    with store.engine.begin() as conn:
        assignment_progress.drop(conn)
        undo_groups(conn)
        conn.exec_driver_sql("DELETE FROM schema_version WHERE version >= 17")
    with upgraded(store) as again:
        room = Classroom(again, room.session)
        assert assert_tasks_match_the_full_history(room, info.id, days) == before


def test_migration_24_keeps_each_facts_last_tries_of_any_kind(make_store) -> None:
    """Until migration 24 a fact kept only its last tries with a time or wrong, so a fact
    answered right in puzzles since kept its old wrong answers as "mostly wrong" (a
    school year's class read red on 1 + 1). Upgraded, the kept tries are what the write
    path keeps now and every view equals the full history again."""
    store = make_store()
    room = teacher(store)
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 3, "en").added]
    _history(store, pupils, 41)
    days = [START.date() + timedelta(days=n) for n in (0, 5, 11)]
    assert_views_match_the_full_history(room, info.id, days)
    with store.engine.connect() as conn:
        kept_now = {(r.profile_id, r.fact): r.recent for r in conn.execute(
            sa.select(fact_progress.c.profile_id, fact_progress.c.fact,
                      fact_progress.c.recent))}
    # The database as it was at version 23: only the tries with a time or wrong kept.
    old = {key: json.dumps([e for e in json.loads(recent) if e[4] is not None or not e[3]])
           for key, recent in kept_now.items()}
    assert old != kept_now  # some right puzzle answers were among the last tries
    with store.engine.begin() as conn:
        for (pid, fact), recent in old.items():
            conn.execute(fact_progress.update().where(
                (fact_progress.c.profile_id == pid) & (fact_progress.c.fact == fact))
                .values(recent=recent))
        conn.exec_driver_sql("DELETE FROM schema_version WHERE version >= 24")
    with upgraded(store) as again:
        with again.engine.connect() as conn:
            assert {(r.profile_id, r.fact): r.recent for r in conn.execute(
                sa.select(fact_progress.c.profile_id, fact_progress.c.fact,
                          fact_progress.c.recent))} == kept_now
        assert_views_match_the_full_history(Classroom(again, room.session), info.id, days)


def test_migration_25_counts_an_answer_for_the_fact_whose_question_it_is(make_store) -> None:
    """Until migration 25 a quick fact counted for every chosen fact it exercised: a wrong
    "3 + 4 + ? = 15" was also a wrong "7 + ? = 15" (a teacher saw 2 of 4 right where the
    child's round said 3). Upgraded, the progress kept is counted again the new way and
    equals the reference; the facts each pupil had stay."""
    store = make_store()
    room = teacher(store)
    info = room.create_class("3B")
    (pupil,) = [p.profile_id for p in room.generate_pupils(info.id, 1, "en").added]
    task = room.create_assignment(info.id, "facts", {"facts": ["15-7", "15-8", "3+4"]})
    later = task.created_at + timedelta(minutes=1)
    for n, (fact, right) in enumerate((("15-7", True), ("15-8", True), ("3+4", False))):
        put(store, pupil, fact_quick(fact, right, 2.0, later), later + timedelta(seconds=n))
    today = later.date()
    (now,) = assert_tasks_match_the_full_history(room, info.id, [today])
    assert (now.pupils[pupil].done, now.pupils[pupil].right) == (3, 2)
    # The row as the old count kept it: the wrong 3 + 4 + ? also the latest for 15-7.
    with store.engine.begin() as conn:
        marks = json.loads(conn.execute(sa.select(assignment_progress.c.marks)).scalar())
        marks["15-7"][2:] = marks["3+4"][2:]
        conn.execute(assignment_progress.update().values(marks=json.dumps(marks), tried=4))
        conn.exec_driver_sql("DELETE FROM schema_version WHERE version >= 25")
    before = room.assignments(room.snapshot(info.id), today)[0].pupils[pupil]
    assert (before.tried, before.right) == (4, 1)
    with upgraded(store) as again:
        (after,) = assert_tasks_match_the_full_history(Classroom(again, room.session),
                                                       info.id, [today])
        assert after == now


def test_an_answer_written_as_an_assignment_is_made_counts_once(make_store) -> None:
    store = make_store()
    room = teacher(store)
    info = room.create_class("3B")
    (pupil,) = [p.profile_id for p in room.generate_pupils(info.id, 1, "en").added]
    later = datetime.now(UTC) + timedelta(hours=1)  # stamped after the assignment
    made: list[AssignmentRow] = []
    maker = threading.Thread(target=lambda: made.append(
        room.create_assignment(info.id, "facts", {"facts": ["15-8"]})))
    with store.transaction() as conn:  # the answer's transaction, not committed yet
        add_attempts(conn, [attempt_values(pupil, fact_quick("15-8", True, 2.0, later),
                                           later)])
        maker.start()
        maker.join(timeout=1.0)
        assert maker.is_alive()  # the assignment waits for the answer ...
    maker.join(timeout=10)
    assert made  # ... and then reads it: counted by the one, not the other
    (task,) = room.assignments(room.snapshot(info.id), later.date())
    assert (task.pupils[pupil].tried, task.pupils[pupil].done) == (1, 1)
    assert task == reference_progress(room.snapshot(info.id), later.date())[0]


@pytest.mark.parametrize("boxes", ["kept", "unknown"])
def test_an_answer_written_while_a_weakest_assignment_reads_ahead_is_weighed(
        make_store, monkeypatch, boxes: str) -> None:
    """Answers written after the read ahead and before the assignment's transaction are
    among those its facts are chosen from: from the boxes kept at write time (read in the
    transaction), or, where a box is unknown, from the attempts read ahead and read again
    for the pupil whose attempts changed meanwhile."""
    import trainer.storage.classroom as storage_classroom

    store = make_store()
    room = teacher(store)
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 2, "en").added]
    _history(store, pupils, 41)
    if boxes == "unknown":  # as after a try written out of time order
        with store.transaction() as conn:
            conn.execute(fact_progress.update().values(box=None, box_key=None))
    usable = askable_facts(15)

    def weakest(pid: int) -> tuple[str, ...]:  # from the answers stamped before now
        mine = [a for a in store.attempts(pid) if a.created_at < datetime.now(UTC)]
        stats = fact_stats(answers_from_rows(mine), usable)
        return _each_question_once(weakest_facts(stats, usable, count=len(usable)), 15)[:3]

    before = {pid: weakest(pid) for pid in pupils}
    reading = storage_classroom.read_ahead
    weighed: list[Any] = []

    def then_answers(*args: Any) -> Any:
        weighed.append(reading(*args))
        # Stamped before the assignment, written after its answers were weighed: they are
        # among the answers its facts are chosen from.
        when = datetime.now(UTC) - timedelta(minutes=5)
        for _ in range(4):  # the weakest fact weighed, known now: no longer among them
            put(store, pupils[1], fact_quick(before[pupils[1]][0], True, 1.0, when), when)
        return weighed[0]

    monkeypatch.setattr(storage_classroom, "read_ahead", then_answers)
    room.create_assignment(info.id, "weakest", {"count": 3})
    monkeypatch.setattr(storage_classroom, "read_ahead", reading)
    (task,) = assert_tasks_match_the_full_history(room, info.id, [START.date()])
    assert task.pupils[pupils[1]].facts != before[pupils[1]]
    assert task.pupils[pupils[0]].facts == before[pupils[0]]
    if boxes == "unknown":  # read ahead: the pupils whose boxes are unknown
        assert set(weighed[0]) == set(pupils)


def test_a_weakest_assignment_reads_no_attempt_where_the_boxes_are_kept(make_store) -> None:
    """Made on a class whose boxes are all kept, a *weakest* assignment reads no attempt
    (a year of answers weighed took seconds); its facts are the full history's."""
    store = make_store()
    room = teacher(store)
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 3, "en").added]
    rng = random.Random(5)
    when = datetime.now(UTC) - timedelta(days=3)
    for _ in range(60):  # in time order: every box kept
        when += timedelta(minutes=rng.randint(1, 90))
        fact = rng.choice(("3+8", "7+8", "15-8", "6+9", "5+5", "4+7"))
        put(store, rng.choice(pupils), fact_quick(fact, rng.random() < 0.7,
                                                  rng.choice((1.0, 2.5, 6.0)), when), when)
    with store.engine.connect() as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(fact_progress)
                            .where(fact_progress.c.box.is_(None))).scalar() == 0
    statements: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    sa.event.listen(store.engine, "before_cursor_execute", note)
    try:
        room.create_assignment(info.id, "weakest", {"count": 3})
    finally:
        sa.event.remove(store.engine, "before_cursor_execute", note)
    assert not [s for s in statements if "FROM attempts" in s], statements
    assert_tasks_match_the_full_history(room, info.id, [when.date()])


@pytest.mark.parametrize("seed", [21, 22, 23])
def test_a_pupils_fluent_facts_are_one_count_for_the_teacher_and_my_progress(
        make_store, seed: int) -> None:
    """The dashboard's "fluent additions" and "fluent complements", the fact grid's
    fluent cells and the pupil's My progress ("Fluent in N of 55 additions", the chart's
    colours) are one rule at the class's time limit, game turns included (a try-out of a
    school year found a teacher and a parent reading three different counts, then the
    complements apart for pupils who played: My progress read a game's repeats once)."""
    from puzzles.mastery import all_complements, summary_line
    from puzzles.practice import practice_candidates
    from trainer.progress_history import ProgressHistory

    room = teacher(make_store())
    info = room.create_class("3B")
    pupils = [p.profile_id for p in room.generate_pupils(info.id, 4, "en").added]
    rng = random.Random(seed)
    def turn(rng: random.Random, when: datetime) -> Attempt:
        """A game's turn that asked one fact, timed or not, in one of three games (a
        game's repeats of a fact weigh once in My progress, the grid reads each)."""
        fact = rng.choice(("3+8", "7+8", "15-8", "15-6", "5+5", "2+9"))
        right = rng.random() < 0.7
        return Attempt(day=when.date().isoformat(), mode="game",
                       puzzle_id=f"game-{rng.randint(1, 3)}-r1-m{rng.randrange(10**6)}",
                       kind=TURN_KIND, level=0, capture_sum=15, facts=(fact,),
                       answers=((fact, right, rng.choice((None, 1.5, 2.5, 4.5, 9.0))),),
                       answer=(), correct=right, found=1, missed=0, wrong=0 if right else 1,
                       seconds=4.0, hints=0, stars=0)

    with room.storage.transaction() as conn:  # quick facts, puzzles and game turns
        rows = [attempt_values(pid, make(rng, when), when)
                for pid in pupils for n in range(80)
                for make in [rng.choice((_quick_fact, _quick_fact, _puzzle_attempt, turn))]
                for when in [START + timedelta(minutes=rng.randrange(60) * 5,
                                               seconds=n)]]
        add_attempts(conn, rows)
    today = START.date() + timedelta(days=1)
    fluent_somewhere = set()
    for limit in FLUENCY_LIMITS:
        room.update_class(info.id, fluency_seconds=limit)
        snap = room.snapshot(info.id, today)
        grid = room.fact_grid(snap)
        for row in room.dashboard(snap, today):
            profile = room.storage.get_profile(row.profile_id)
            kept = ProgressHistory(row.profile_id).update(room.storage, profile.created_at)
            mine = {f: s.at_limit(limit)
                    for f, s in kept.fact_stats(practice_candidates(15)).items()}
            fluent = {f for f, s in mine.items() if s.level == "fluent"}
            cells = grid.row(row.profile_id)
            assert fluent == {f for f in grid.facts if cells.cells[f].state == "fast"}
            assert summary_line(mine)[1]["fluent"] == row.fluent_additions
            assert summary_line(mine)[1]["limit"] == f"{limit:g}"
            assert len(fluent & set(all_complements(15))) == row.fluent_complements
            fluent_somewhere |= {(limit, f) for f in fluent}
    # The counts are not all nothing, and a longer limit makes more facts fluent.
    assert {limit for limit, _ in fluent_somewhere} == set(FLUENCY_LIMITS)
