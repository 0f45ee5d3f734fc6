"""What the teacher's live view costs (issue 29), beside the dashboard's refresh.

A school year of a class of 30 (``bench/school_year.py``, 180 days by default), every
pupil then signed in on a tablet as in a lesson: their page noted
(``ActivityNotes.page``), and a few answers each in the last minutes written through
``Storage.record_attempt`` (so their activity rows carry recent answers, wrong ones in a
row, an assignment in hand); a class of 3 in the same database the same way. Then,
interleaved round by round so the machine's load falls on both alike:

- **live view refresh**: ``LiveView.pupils(class, touch=False)`` -- what the part's
  timer runs -- the CPU milliseconds of this process, the wall milliseconds and the
  statements sent (the access check's and the view's one query), for the class of 30
  and the class of 3;
- **dashboard refresh** (the baseline): ``classroom_load.refresh_dashboard`` on the
  same class of 30, CPU and wall;
- **the writes**: a page run's note (``Storage.note_activity``, once a minute at most per
  tablet) and an answer (``record_attempt`` of a pupil) with its activity row's read and
  update, beside the same answer with ``note_answers`` left out (the answer as before).

On SQLite files and on PostgreSQL (``ESCOBA_TEST_POSTGRES_URL``'s server, else a
throwaway cluster)::

    .venv/bin/python bench/live_view_bench.py --database sqlite,postgres --runs 15

Prints one JSON object per database; the figures are in docs/BENCHMARKS.md ("The
teacher's live view (issue 29)").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from classroom_load import TEACHER, open_storage, postgres_database, refresh_dashboard  # noqa: E402
from school_year import SchoolYear, database_url_of, make_school_year  # noqa: E402

PAGES = ("my_class", "puzzles", "quick_facts", "daily", "lessons")


def _attempt(correct: bool) -> Any:
    from puzzles.practice import Attempt

    return Attempt(day="2026-12-04", mode="quick", puzzle_id="quick-facts:1:15:x",
                   kind="quick-facts", level=1, capture_sum=15, facts=["7+8"],
                   answers=[["7+8", correct, 2.0]], answer=[8], correct=correct,
                   found=int(correct), missed=0, wrong=int(not correct), seconds=2.0,
                   hints=0, stars=3 if correct else 0, fact="7+8")


def in_lesson(store: Any, class_id: int, pupils: list[int], task_id: int | None) -> None:
    """Every pupil on a tablet, on a page, with a few answers of the last minutes."""
    from trainer.live_view import ActivityNotes, device_label

    for i, pupil in enumerate(pupils):
        page = PAGES[i % len(PAGES)]
        ActivityNotes(store, pupil, class_id).page(
            page, task_id if page == "my_class" else None, device_label(f"tablet {i}"), None)
        for k in range(i % 7):
            store.record_attempt(pupil, _attempt(correct=(k + i) % 3 != 0))


def small_class(store: Any) -> tuple[int, list[int]]:
    from trainer.classroom import Classroom, TeacherAuth

    room = Classroom(store, TeacherAuth(store).sign_in(*TEACHER))
    info = room.create_class("Small 1A", fluency_seconds=6, capture_sum=15)
    added = room.generate_pupils(info.id, 3, "en")
    return info.id, [p.profile_id for p in added.added]


class Statements:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *args: Any) -> None:
        self.count += 1


def _timed(call: Callable[[], Any]) -> tuple[float, float]:
    """(CPU ms of this process, wall ms) of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    call()
    return (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


def measure(year: SchoolYear, runs: int) -> dict[str, Any]:
    import sqlalchemy as sa

    import trainer.storage.practice as practice
    from trainer.classroom import Classroom, TeacherAuth
    from trainer.live_view import LiveView

    store = open_storage(year.database_url, migrate=True)
    room = Classroom(store, TeacherAuth(store).sign_in(*TEACHER))
    view = LiveView(room)
    (task,) = store.assignments(year.class_id)
    in_lesson(store, year.class_id, list(year.pupils), task.id)
    small_id, small = small_class(store)
    in_lesson(store, small_id, small, None)
    samples: dict[str, list[float]] = {}

    def add(key: str, value: float) -> None:
        samples.setdefault(key, []).append(value)

    counter = Statements()
    sa.event.listen(store.engine, "before_cursor_execute", counter)
    statements: dict[str, int] = {}
    for name, class_id in (("class_30", year.class_id), ("class_3", small_id)):
        before = counter.count
        seen = view.pupils(class_id, touch=False)
        statements[name] = counter.count - before
        assert len(seen) == (30 if name == "class_30" else 3)
    sa.event.remove(store.engine, "before_cursor_execute", counter)
    noted = real = practice.note_answers
    pupil = year.pupils[0]
    try:
        refresh_dashboard(room, year.class_id, year.last_day)  # warm
        for _ in range(runs):
            for name, class_id in (("class_30", year.class_id), ("class_3", small_id)):
                cpu, wall = _timed(lambda c=class_id: view.pupils(c, touch=False))
                add(f"live_{name}_cpu", cpu)
                add(f"live_{name}_wall", wall)
            refreshed = refresh_dashboard(room, year.class_id, year.last_day)
            add("dashboard_cpu", refreshed["cpu"])
            add("dashboard_wall", refreshed["total"])
            add("note_page_wall", _timed(lambda: store.note_activity(
                year.class_id, pupil, device="AB12C", page="puzzles", assignment_id=None))[1])
            for label, fn in (("answer_with_activity", real),
                              ("answer_without", lambda *_: None)):
                practice.note_answers = fn
                add(f"{label}_wall", _timed(lambda: store.record_attempt(
                    pupil, _attempt(False)))[1])
            practice.note_answers = noted
    finally:
        practice.note_answers = noted
        store.engine.dispose()
    out: dict[str, Any] = {key: round(statistics.median(v), 3) for key, v in samples.items()}
    out["statements"] = statements
    out["ratio_cpu_dashboard_over_live"] = round(out["dashboard_cpu"]
                                                 / max(out["live_class_30_cpu"], 1e-6), 1)
    return out


@contextlib.contextmanager
def database(kind: str, days: int, seed: int) -> Iterator[SchoolYear]:
    with contextlib.ExitStack() as stack:
        if kind == "sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory())
            url = database_url_of(os.path.join(folder, "year.db"))
        else:
            url = stack.enter_context(postgres_database())
        yield make_school_year(url, days=days, child_days=7, seed=seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="sqlite,postgres")
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    for kind in args.database.split(","):
        began = time.perf_counter()
        with database(kind, args.days, args.seed) as year:
            figures = measure(year, args.runs)
            print(json.dumps({
                "database": kind, "machine": platform.machine(), "cpus": os.cpu_count(),
                "runs": args.runs, "days": args.days, "written": year.written,
                "seconds": round(time.perf_counter() - began, 1), **figures}), flush=True)


if __name__ == "__main__":
    main()
