"""What a school year costs against the first week, side by side (issue 32).

Two databases of the same seeded class are made by ``bench/school_year.py``: its first
week (``--week-days``, 5) and its school year (``--days``, 180), each with the child at
home (a week, a year). On each, interleaved round by round so that the machine's load
falls on both alike:

- **version lookup**: what a rerun of My progress (the home child, a pupil) and of the
  teacher's views (the class) reads to key its caches. *Before*: the fingerprint
  queries the app ran until issue 32 (count/max/sum over the whole history; written out
  here as they were, ``OLD_PROGRESS_VERSION`` and ``OLD_CLASS_VERSION``); *after*:
  ``Storage.progress_version`` / ``class_version`` (one row by its key). Wall
  milliseconds per lookup, the median of ``--runs``;
- **dashboard refresh**: ``classroom_load.refresh_dashboard`` (the teacher's snapshot,
  dashboard and fact grid, as ``bench/classroom_load.py``'s dashboard process does),
  the CPU milliseconds of this process and the wall time, median of ``--runs``;
- **the next "for me" puzzle's history** (the home child, a pupil): what the Puzzles
  page reads to choose it after an answer. *Before*: every attempt of the child
  (``Storage.attempts``) folded into the path (``ForMePath.of``), as the page did until
  this change; *after*: the kept history brought up to date (``KeptHistories.view``,
  the attempt just written read) and its ``for_me``. Wall milliseconds, median of
  ``--runs``; the choice among 40 generated puzzles that follows is the same for both
  and not in the figure.

On SQLite files and on PostgreSQL (``ESCOBA_TEST_POSTGRES_URL``'s server, else a
throwaway cluster)::

    .venv/bin/python bench/school_year_bench.py --database sqlite,postgres --runs 15

Prints one JSON object per database; the figures are in docs/BENCHMARKS.md ("A school
year (issue 32)").
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


def old_progress_version(store: Any, profile_id: int) -> tuple[Any, ...]:
    """My progress's key before issue 32 (trainer/storage/practice.py at main): nine
    aggregates over the profile's attempts, finished games and lesson results."""
    import sqlalchemy as sa

    from trainer.storage.practice import games_of
    from trainer.storage.schema import attempts, games, lesson_results, profiles

    mine = attempts.c.profile_id == profile_id
    finished = games_of(profile_id) & (games.c.status == "finished")
    lessons = lesson_results.c.profile_id == profile_id
    parts = [
        sa.select(profiles.c.created_at).where(profiles.c.id == profile_id),
        sa.select(sa.func.count()).select_from(attempts).where(mine),
        sa.select(sa.func.max(attempts.c.id)).where(mine),
        sa.select(sa.func.count()).select_from(games).where(finished),
        sa.select(sa.func.max(games.c.updated_at)).where(finished),
        sa.select(sa.func.count(games.c.review)).where(finished),
        sa.select(sa.func.sum(sa.func.length(games.c.review))).where(finished),
        sa.select(sa.func.count()).select_from(lesson_results).where(lessons),
        sa.select(sa.func.max(lesson_results.c.updated_at)).where(lessons)]
    with store.engine.connect() as conn:
        return tuple(conn.execute(sa.select(*(p.scalar_subquery() for p in parts))).one())


def old_class_version(store: Any, class_id: int) -> tuple[Any, ...]:
    """The teacher views' key before issue 32 (trainer/storage/classroom.py at main)."""
    import sqlalchemy as sa

    from trainer.storage.schema import (
        assignments,
        attempts,
        class_members,
        games,
        lesson_goes,
        lesson_results,
    )

    pupils = sa.select(class_members.c.profile_id).where(class_members.c.class_id == class_id)
    mine = attempts.c.profile_id.in_(pupils)
    lessons = lesson_results.c.profile_id.in_(pupils)
    parts = [
        sa.select(sa.func.count()).select_from(class_members)
        .where(class_members.c.class_id == class_id),
        sa.select(sa.func.max(class_members.c.id)).where(class_members.c.class_id == class_id),
        sa.select(sa.func.count()).select_from(attempts).where(mine),
        sa.select(sa.func.max(attempts.c.id)).where(mine),
        sa.select(sa.func.count()).select_from(lesson_results).where(lessons),
        sa.select(sa.func.max(lesson_results.c.updated_at)).where(lessons),
        sa.select(sa.func.max(games.c.updated_at)).where(games.c.profile_id.in_(pupils)),
        sa.select(sa.func.count()).select_from(lesson_goes)
        .where(lesson_goes.c.profile_id.in_(pupils)),
        sa.select(sa.func.max(lesson_goes.c.updated_at))
        .where(lesson_goes.c.profile_id.in_(pupils)),
        sa.select(sa.func.count()).select_from(assignments)
        .where(assignments.c.class_id == class_id),
        sa.select(sa.func.max(assignments.c.id)).where(assignments.c.class_id == class_id),
    ]
    with store.engine.connect() as conn:
        return tuple(conn.execute(sa.select(*(p.scalar_subquery() for p in parts))).one())


def _wall_ms(call: Callable[[], Any], repeat: int = 5) -> float:
    """The mean wall milliseconds of ``repeat`` calls (one lookup is well under a ms)."""
    began = time.perf_counter()
    for _ in range(repeat):
        call()
    return (time.perf_counter() - began) * 1000 / repeat


def lookups(store: Any, year: SchoolYear) -> dict[str, Callable[[], Any]]:
    """Each version read, before and after, for the class, a pupil and the home child."""
    pupil = year.pupils[0]
    return {
        "class_before": lambda: old_class_version(store, year.class_id),
        "class_after": lambda: store.class_version(year.class_id),
        "pupil_before": lambda: old_progress_version(store, pupil),
        "pupil_after": lambda: store.progress_version(pupil),
        "child_before": lambda: old_progress_version(store, year.child_id),
        "child_after": lambda: store.progress_version(year.child_id),
    }


def for_me_reads(store: Any, year: SchoolYear, kept: Any) -> dict[str, Callable[[], Any]]:
    """The next "for me" puzzle's history, before and after, for the home child and a
    pupil; each "after" follows one answer written (not timed), as on the page."""
    from puzzles.practice import ForMePath

    def after(profile_id: int) -> Callable[[], Any]:
        last = store.attempts(profile_id, limit=1)[0]
        created = store.progress_version(profile_id).created_at

        def answer_then_read() -> float:
            store.record_attempt(profile_id, last)
            began = time.perf_counter()
            kept.view(profile_id, profile_id, store, created)  # its for_me is kept in it
            return (time.perf_counter() - began) * 1000
        return answer_then_read

    def before(profile_id: int) -> Callable[[], float]:
        def read() -> float:
            began = time.perf_counter()
            ForMePath.of(store.attempts(profile_id))
            return (time.perf_counter() - began) * 1000
        return read

    pupil = year.pupils[0]
    return {"forme_child_before": before(year.child_id), "forme_child_after": after(year.child_id),
            "forme_pupil_before": before(pupil), "forme_pupil_after": after(pupil)}


def measure(years: dict[str, SchoolYear], runs: int) -> dict[str, Any]:
    """Interleaved rounds over the week's and the year's database: the medians."""
    from trainer.classroom import Classroom, TeacherAuth
    from trainer.progress_history import KeptHistories

    stores = {name: open_storage(y.database_url, migrate=False) for name, y in years.items()}
    rooms = {name: Classroom(store, TeacherAuth(store).sign_in(*TEACHER))
             for name, store in stores.items()}
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in years}
    reads = {name: for_me_reads(store, years[name], KeptHistories(1_000_000, 100))
             for name, store in stores.items()}
    try:
        for name, store in stores.items():  # warm: the first connection, the page cache
            for call in (*lookups(store, years[name]).values(), *reads[name].values()):
                call()  # (the kept histories' first, whole read among them)
            refresh_dashboard(rooms[name], years[name].class_id, years[name].last_day)
        for _ in range(runs):
            for name, store in stores.items():
                for key, call in lookups(store, years[name]).items():
                    samples[name].setdefault(key, []).append(_wall_ms(call))
                for key, timed in reads[name].items():
                    samples[name].setdefault(key, []).append(timed())
                refreshed = refresh_dashboard(rooms[name], years[name].class_id,
                                              years[name].last_day)
                for key in ("cpu", "total"):
                    samples[name].setdefault(f"dashboard_{key}", []).append(refreshed[key])
                samples[name]["attempts"] = [refreshed["attempts"]]
    finally:
        for store in stores.values():
            store.engine.dispose()
    return {name: {key: round(statistics.median(values), 3) for key, values in by.items()}
            for name, by in samples.items()}


@contextlib.contextmanager
def databases(kind: str, week_days: int, days: int, seed: int
              ) -> Iterator[dict[str, SchoolYear]]:
    """The week's and the year's database of ``kind`` (sqlite, postgres), filled."""
    with contextlib.ExitStack() as stack:
        urls = {}
        for name in ("week", "year"):
            if kind == "sqlite":
                folder = stack.enter_context(tempfile.TemporaryDirectory())
                urls[name] = database_url_of(os.path.join(folder, f"{name}.db"))
            else:
                urls[name] = stack.enter_context(postgres_database())
        yield {"week": make_school_year(urls["week"], days=week_days, child_days=7, seed=seed),
               "year": make_school_year(urls["year"], days=days, child_days=365, seed=seed)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default="sqlite,postgres")
    parser.add_argument("--week-days", type=int, default=5)
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    for kind in args.database.split(","):
        began = time.perf_counter()
        with databases(kind, args.week_days, args.days, args.seed) as made:
            figures = measure(made, args.runs)
            print(json.dumps({
                "database": kind, "machine": platform.machine(), "cpus": os.cpu_count(),
                "runs": args.runs,
                "written": {name: m.written for name, m in made.items()},
                "seconds": round(time.perf_counter() - began, 1),
                **figures}), flush=True)


if __name__ == "__main__":
    main()
