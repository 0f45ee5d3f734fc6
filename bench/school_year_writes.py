"""What keeping the assignments' progress costs at write time, on a school year (issue 32).

On a year made by ``bench/school_year.py`` (SQLite file or a throwaway PostgreSQL
database): a quick fact recorded by a pupil of the class (``record_attempt``, wall ms,
the median of 40 after 5), then a *weakest facts* assignment made for the class (wall ms,
and of it the part inside its transaction, when the class's writers wait), both on the
evening after the year's last school day (the app's clock, ``ESCOBA_NOW``); beside it,
in turn, the same answer with Quick facts' round kept in its transaction. ``--root``
runs another tree's code (a baseline exported to a scratch directory) on its own year::

    .venv/bin/python bench/school_year_writes.py --database /tmp/w.db
    .venv/bin/python bench/school_year_writes.py --database postgres
    .venv/bin/python bench/school_year_writes.py --database /tmp/w.db --root /tmp/base

Prints one JSON object; the figures are in docs/BENCHMARKS.md ("The assignments'
progress at write time").
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def measure(database: str, days: int, seed: int) -> dict[str, Any]:
    from classroom_load import TEACHER, open_storage, postgres_database
    from school_year import database_url_of, make_school_year

    from puzzles import check
    from puzzles.practice import Attempt, quick_fact
    from trainer.classroom import Classroom, TeacherAuth

    with contextlib.ExitStack() as stack:
        url = stack.enter_context(postgres_database()) if database == "postgres" \
            else database_url_of(database)
        year = make_school_year(url, days=days, child_days=7, seed=seed)
        # The app's clock on the evening after the year's last school day (the generated
        # year lies in the future of the real clock): the answers measured come after the
        # year's, and the assignment is made at its end, over every answer of it.
        os.environ.setdefault("ESCOBA_NOW", f"{year.last_day + timedelta(days=1)}T18:00:00Z")
        store = open_storage(url, migrate=False)
        room = Classroom(store, TeacherAuth(store).sign_in(*TEACHER))
        puzzle = quick_fact([8])

        place = _round_place(puzzle)

        def answer(with_place: bool = False) -> float:
            attempt = Attempt.of(puzzle, check(puzzle, 7), 2.5, [7], "quick", year.last_day)
            kept = {"progress": place} if with_place else {}
            began = time.perf_counter()
            store.record_attempt(year.pupils[0], attempt, **kept)
            return (time.perf_counter() - began) * 1000

        for _ in range(5):
            answer()
        answers, placed = [], []
        for _ in range(40):  # side by side: one of each in turn
            answers.append(answer())
            if place is not None:
                placed.append(answer(with_place=True))
        inside: list[float] = []
        real = store.transaction

        @contextlib.contextmanager
        def timed() -> Iterator[Any]:
            began = time.perf_counter()
            with real() as conn:
                yield conn
            inside.append((time.perf_counter() - began) * 1000)

        store.transaction = timed  # type: ignore[method-assign]
        began = time.perf_counter()
        room.create_assignment(year.class_id, "weakest", {"count": 5})
        made = (time.perf_counter() - began) * 1000
        store.transaction = real  # type: ignore[method-assign]
        store.engine.dispose()
    return {"answer_ms": round(statistics.median(answers), 2),
            # Quick facts' round kept with the answer, in its transaction (this tree's
            # code only: None for a tree without it).
            "answer_with_round_place_ms": round(statistics.median(placed), 2) if placed
            else None,
            "weakest_assignment_ms": round(made, 1),
            "in_transaction_ms": [round(ms, 1) for ms in inside],
            "written_seconds": year.written["seconds"]}


def _round_place(puzzle: Any) -> Any:
    """What Quick facts keeps with an answer (a round of five, one answered), or None
    where the tree's ``record_attempt`` keeps nothing with it."""
    try:
        from trainer.practice_sessions import QuickRound
        from trainer.storage import SlotProgress
    except ImportError:
        return None
    rnd = QuickRound("for-me", 15, [puzzle] * 5)
    rnd.answer(7)
    return SlotProgress("qf", puzzle.id, rnd.progress())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", required=True, help="a SQLite file, or 'postgres'")
    parser.add_argument("--root", default=str(HERE), help="the tree whose code runs")
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument("--seed", type=int, default=32)
    args = parser.parse_args()
    sys.path[:0] = [args.root, str(Path(args.root) / "bench")]
    print(json.dumps({"root": args.root, "database": args.database, "days": args.days,
                      **measure(args.database, args.days, args.seed)}), flush=True)


if __name__ == "__main__":
    main()
