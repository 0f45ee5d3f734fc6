"""The school-year generator (bench/school_year.py, issue 32) in miniature: what it writes
reads back through the app's own storage and views as the app's own writes do.

No timing: the figures are bench/school_year_bench.py's (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import sys

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

school_year = pytest.importorskip("school_year")


def test_a_small_school_year_reads_back_through_the_app(tmp_path) -> None:
    import sqlalchemy as sa
    from classroom_load import TEACHER, open_storage, refresh_dashboard

    from puzzles.practice import quick_fact_for
    from trainer.classroom import Classroom, TeacherAuth
    from trainer.storage.schema import fact_progress

    url = school_year.database_url_of(str(tmp_path / "year.db"))
    year = school_year.make_school_year(url, pupils=3, days=4, answers=12, child_days=3,
                                        seed=5)
    again = school_year.make_school_year(
        school_year.database_url_of(str(tmp_path / "again.db")), pupils=3, days=4,
        answers=12, child_days=3, seed=5)
    assert again.written == {**year.written, "seconds": again.written["seconds"]}  # seeded
    store = open_storage(url, migrate=False)
    try:
        by_pupil = {pid: store.attempts(pid) for pid in year.pupils}
        days = {a.day for rows in by_pupil.values() for a in rows}
        assert days == {d.isoformat() for d in school_year.school_days(4)}
        modes = {a.mode for rows in by_pupil.values() for a in rows}
        assert {"quick", "daily"} <= modes and modes <= {"quick", "daily", "practice",
                                                         "for-me", "game"}
        for pid, rows in by_pupil.items():
            assert 4 * 6 <= len(rows) <= 4 * 24
            # One data version step per write the API would have made.
            assert store.progress_version(pid).data_version >= len(rows)
            dailies = store.daily_results(pid)
            assert len(dailies) == 4 and all(d.completed for d in dailies)
        assert store.class_version(year.class_id).data_version >= sum(
            len(rows) for rows in by_pupil.values())
        assert len(store.attempts(year.child_id)) > 0
        # Written in time order as a child's answers arrive: every fact's box is known
        # (a weakest assignment chooses from them, reading no attempt).
        with store.engine.connect() as conn:
            boxes = [box for (box,) in conn.execute(sa.select(fact_progress.c.box))]
        assert boxes and None not in boxes
        room = Classroom(store, TeacherAuth(store).sign_in(*TEACHER))
        refreshed = refresh_dashboard(room, year.class_id, year.last_day)
        assert refreshed["rows"] == 3
        # The page reads no attempt: the class's weakest-facts assignment, made before the
        # first day, counts every quick fact since, kept at write time (issue 32).
        assert refreshed["attempts"] == 0
        assert refreshed["answers"] == sum(len(rows) for rows in by_pupil.values())
        (task,) = room.assignments(room.snapshot(year.class_id, year.last_day,
                                                 every_attempt=False), year.last_day)
        # Each quick fact that is the question of one of the pupil's facts counts.
        assert {pid: t.tried for pid, t in task.pupils.items()} == {
            pid: sum(1 for a in rows if a.kind == "quick-facts" and a.capture_sum == 15
                     and any(sorted(quick_fact_for(f, 15).addends) == sorted(
                         int(n) for n in a.puzzle_id.rsplit("custom-", 1)[1].split("."))
                             for f in task.pupils[pid].facts))
            for pid, rows in by_pupil.items()}
    finally:
        store.engine.dispose()
