"""The teacher's views read the pupils' aggregates (issue 32) and show what they showed
when they read every attempt: the fact grid's cells, the class's fact totals and the
dashboard's rows are the same as the full-history computation kept below (the app's
code until issue 32, as the reference), for random histories written every way the app
writes (out of time order too) and for the seeded school-year generator's small class,
on every day of their history and the day after, with each time limit; and a snapshot
read for one week, with only the attempts the assignments count (as the teacher's page
reads it), gives what one read for every day and attempt gives: the assignments'
progress and a cell's history too.
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from tests.conftest import ROOT
from tests.test_classroom import teacher
from tests.test_storage_aggregates import START, _history
from trainer.classroom import Classroom, TeacherAuth
from trainer.classroom_views import (
    FLUENCY_LIMITS,
    HELP_ACCURACY,
    HELP_MIN_TRIES,
    STUCK_MISSES,
    STUCK_WINDOW,
    FactGrid,
    HelpReason,
    PupilRow,
    fact_cell,
    fact_totals,
    fact_tries,
)
from trainer.evidence import TURN_KIND
from trainer.storage import ClassSnapshot, Storage, configure_sqlite

sys.path.insert(0, str(ROOT / "bench"))


# -- the reference: every attempt read, as the views did until issue 32 ------------------

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
        assert room.assignments(bounded, today) == room.assignments(everything, today)
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


def test_a_snapshot_read_for_one_week_refuses_an_earlier_week(make_store) -> None:
    room = teacher(make_store())
    info = room.create_class("3B")
    room.generate_pupils(info.id, 2, "en")
    today = START.date()
    snap = room.snapshot(info.id, today)
    room.dashboard(snap, today + timedelta(days=3))  # a later day: its days were read
    with pytest.raises(ValueError):
        room.dashboard(snap, today - timedelta(days=1))
