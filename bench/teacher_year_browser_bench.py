"""The teacher's fact grid and dashboard in Chromium on a school year, beside the first
week (issue 32).

Two databases of the same seeded class are made by ``bench/school_year.py`` (its first
week, ``--week-days``, and its school year, ``--days``), each served by its own
``streamlit run app.py`` with the app's clock at the evening of its last school day
(``ESCOBA_NOW``). One Chromium, one context (a teacher's laptop, 1366x900) per server:
the teacher signs in and opens the class (``bench/classroom_load.py``'s
``TeacherTablet``), then, round after round, on the week's page and on the year's in
turn (the order swapped each round), taps the part's control: "Fact grid", then
"Dashboard". Each tap is timed with the page's own clock from the tap's ``click`` event
to the first painted frame where the grid (``[data-testid=fact-grid]``) or the
dashboard (``[data-testid=dashboard]``, the grid gone) of the new run is drawn.

Two ways, each tap of both:

- ``quiet``: nothing written meanwhile, the page's snapshot is kept (the class's version
  has not moved): the cost of drawing the part;
- ``answered``: a pupil of the class answers a quick fact just before the tap (written
  through the storage API in this process, as a pupil's tablet would), so the run reads
  the class's data again: what a teacher sees while the class is working.

    .venv/bin/python bench/teacher_year_browser_bench.py --taps 10

Prints one JSON object (medians, p95 by the nearest rank, every sample in ms); the
figures are in docs/BENCHMARKS.md ("A school year (issue 32)").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from datetime import time as clock_time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from classroom_load import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREEN_TIMEOUT,
    TEACHER_VIEWPORT,
    ClassSetup,
    Pupil,
    PupilLog,
    TeacherTablet,
    _nearest_rank,
    open_storage,
    serve,
)
from school_year import SchoolYear, make_school_year  # noqa: E402

FACTS = ("3+8", "7+8", "15-8", "15-6", "9+6")


def _answer(store: Any, year: SchoolYear, n: int) -> None:
    """A pupil of the class answers a quick fact (``record_attempt``, as the page does)."""
    from puzzles import check
    from puzzles.practice import Attempt, quick_fact_for

    puzzle = quick_fact_for(FACTS[n % len(FACTS)])
    value = puzzle.solutions[0].value
    attempt = Attempt.of(puzzle, check(puzzle, value), 2.0 + n % 7 / 4, [value], "quick",
                         year.last_day)
    store.record_attempt(year.pupils[n % len(year.pupils)], attempt)


def _made(path: Path, days: int) -> SchoolYear:
    """A school year made before by ``bench/school_year.py --days days`` (its first
    class), upgraded to this code's schema."""
    import sqlalchemy as sa

    from trainer.storage import sqlite_url
    from trainer.storage.schema import class_members, classes

    store = open_storage(sqlite_url(str(path)))
    with store.engine.connect() as conn:
        class_id = conn.execute(sa.select(sa.func.min(classes.c.id))).scalar()
        pupils = tuple(conn.execute(sa.select(class_members.c.profile_id).where(
            class_members.c.class_id == class_id).order_by(class_members.c.id)).scalars())
    store.engine.dispose()
    return SchoolYear(sqlite_url(str(path)), class_id, pupils, 0, {"made": "before"}, days)


def _stats(values: list[float]) -> dict[str, Any]:
    return {"median": round(statistics.median(values), 1),
            "p95": round(_nearest_rank(values, 0.95), 1), "min": round(min(values), 1),
            "max": round(max(values), 1), "n": len(values),
            "samples": [round(v, 1) for v in values]}


async def measure(years: dict[str, SchoolYear], urls: dict[str, str], taps: int
                  ) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    stores = {name: open_storage(y.database_url, migrate=False) for name, y in years.items()}
    logs = {name: PupilLog(Pupil(0, "teacher", ""), client="teacher") for name in years}
    times: dict[str, list[float]] = {}
    sign_in: dict[str, float] = {}
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        desks: dict[str, TeacherTablet] = {}
        for name, year in years.items():
            context = await browser.new_context(viewport=TEACHER_VIEWPORT, locale="en-US")
            page = await context.new_page()
            page.set_default_timeout(SCREEN_TIMEOUT * 1000)
            setup = ClassSetup(year.database_url, year.class_id, "", (), 0)
            desks[name] = TeacherTablet(page, urls[name], setup, 0.0, logs[name])
            began = time.perf_counter()
            await desks[name].sign_in()
            sign_in[name] = round((time.perf_counter() - began) * 1000)
        n = 0
        for round_no in range(taps + 1):  # the first round warms both up: not counted
            order = list(years) if round_no % 2 else list(reversed(years))
            for way in ("quiet", "answered"):
                for name in order:
                    desk = desks[name]
                    parts = desk.page.locator(".st-key-tc_part button")
                    for part, check, index in (("grid", "tc_grid", 1),
                                               ("dashboard", "tc_dashboard", 0)):
                        if way == "answered":
                            await asyncio.to_thread(_answer, stores[name], years[name], n)
                            n += 1
                        await desk.tap(part, check, parts.nth(index))
                        if round_no:
                            times.setdefault(f"{name}_{part}_{way}", []).append(
                                desk.log.samples[-1][1])
        await browser.close()
    for store in stores.values():
        store.engine.dispose()
    return {"sign_in_ms": sign_in, **{key: _stats(v) for key, v in sorted(times.items())}}


@contextlib.contextmanager
def servers(years: dict[str, SchoolYear], work: Path):
    """One ``streamlit run app.py`` per database, its clock at the last school day's
    evening."""
    with contextlib.ExitStack() as stack:
        urls = {}
        for name, year in years.items():
            env = dict(os.environ, ESCOBA_DB_PATH=year.database_url.split(":///", 1)[1],
                       ESCOBA_NOW=datetime.combine(year.last_day, clock_time(15, 30),
                                                   UTC).isoformat())
            env.pop("ESCOBA_DATABASE_URL", None)
            url, _ = stack.enter_context(serve(env, work / f"{name}.log"))
            urls[name] = url
        yield urls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--week-days", type=int, default=5)
    parser.add_argument("--days", type=int, default=180)
    parser.add_argument("--taps", type=int, default=10, help="rounds measured (each: the "
                        "grid and the dashboard, quiet and answered, on both)")
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--work", type=Path, default=None,
                        help="a folder for the databases; week.db and year.db made by "
                        "bench/school_year.py there already are used as they are")
    args = parser.parse_args()
    from trainer.storage import sqlite_url

    work = args.work or Path(tempfile.mkdtemp(prefix="teacher-year-"))
    began = time.perf_counter()
    years = {name: _made(work / f"{name}.db", days) if (work / f"{name}.db").exists()
             else make_school_year(sqlite_url(str(work / f"{name}.db")), days=days,
                                   child_days=1, seed=args.seed)
             for name, days in (("week", args.week_days), ("year", args.days))}
    made = time.perf_counter() - began
    # The pages' clock (and the answers written here) at the last school day's evening.
    with servers(years, work) as urls:
        figures = asyncio.run(measure(years, urls, args.taps))
    print(json.dumps({"machine": platform.machine(), "cpus": os.cpu_count(),
                      "load": os.getloadavg(), "taps": args.taps,
                      "written": {name: y.written for name, y in years.items()},
                      "made_seconds": round(made, 1), **figures}), flush=True)


if __name__ == "__main__":
    main()
