"""How fast My progress and the first page are in the real browser, next to a baseline.

One profile gets a year of daily use written straight into SQLite
(``bench/practice_bench.py``'s ``fill``: every day 10 quick facts, 4 puzzles
and the daily; plus ``--games`` finished games with a review). Then
``streamlit run serve.py`` serves it on a free loopback port (and a bare
one-title Streamlit page on another, the first paint's baseline), and Debian's
Chromium, driven by Playwright, measures with the page's own clock
(``performance.now()``, polled every animation frame):

- first paint: a new browser context (cold cache, new session) opens ``/``;
  ``fcp`` is the Performance API's first-contentful-paint (Streamlit's empty
  frame), ``content`` the first frame where the page's title is drawn.
  Baseline: the bare Streamlit page, opened the same way;
- progress (menu): on Help, a tap on "My progress" in the sidebar until the
  download button is there and every chart's SVG is drawn. Baseline: the tap
  back to Help until it is drawn (and no chart is left);
- progress (menu, new answer): the same, just after an answer is written to the
  database (as another tab would): the cached charts are stale and built again;
- progress (URL): ``/progress?p=<id>`` typed in, from navigation start to the
  last chart drawn (a new session: nothing cached in it). Baseline:
  ``/help?p=<id>`` until drawn.

Each measure and its baseline alternate ``--runs`` times, so machine load
hits both alike. The first round is a warm-up (not counted).

``--week-days 7`` (issue 32) adds a second child in the same database with a week of
the same daily use (and a game per week of the year's games): the progress measures
are taken for both children, one after the other in each round, the year's figures
against the week's (goal: within 1.5×).

    .venv/bin/python bench/progress_browser_bench.py --days 365 --games 25 --runs 7
    .venv/bin/python bench/progress_browser_bench.py --days 365 --week-days 7 --runs 7

Prints one JSON object (milliseconds); figures go to docs/BENCHMARKS.md
("My progress in the browser (issue 10)").
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from datetime import time as clock
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.board_browser_bench import CHROMIUM, CHROMIUM_ARGS, opened_cold  # noqa: E402
from bench.practice_bench import _quiet, fill  # noqa: E402

#: A tablet upright: My progress's charts one under another.
VIEWPORT = {"width": 1024, "height": 1366}
HELP = "How to play"  # the Help page's title and menu entry in English
BARE_PAGE = 'import streamlit as st\n\nst.title("Baseline")\n'

# The charts My progress draws when opened: its first part, the additions grid (the
# page shows one part at a time; it drew all nine charts at once before).
CHARTS = 1
_PROGRESS_DRAWN = """({charts: n}) => {
  const ready = document.querySelector('.st-key-ch_csv');
  const plots = [...document.querySelectorAll('.js-plotly-plot')];
  const drawn = plots.filter(
    p => p._fullLayout && p.querySelector('.cartesianlayer .trace, .heatmaplayer .hm'));
  return ready && drawn.length >= n && performance.now();
}"""
_HELP_DRAWN = """({help}) => {
  const title = document.querySelector('h1');
  return title && title.textContent.includes(help) && document.querySelector('ul li')
    && !document.querySelector('.js-plotly-plot')
    && !document.querySelector('[data-testid="stStatusWidget"]') && performance.now();
}"""
_TITLE_DRAWN = "() => document.querySelector('h1') && performance.now()"


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--week-days", type=int, default=0,
                        help="also a child with this many days of use, measured beside")
    args = parser.parse_args()

    import sqlalchemy as sa
    from playwright.sync_api import sync_playwright

    from puzzles.daily import EPOCH
    from tests.conftest import streamlit_server
    from trainer.storage import Storage

    _quiet()
    work = Path(tempfile.mkdtemp(prefix="progress-bench-"))
    db = work / "bench.db"
    # The year ends today: a daily every day since the first one.
    now = datetime.combine(EPOCH + timedelta(days=args.days), clock(17), UTC)
    store = Storage(sa.create_engine(f"sqlite:///{db}"))
    pid = store.create_profile("Ana", "🦊").id
    start = time.perf_counter()
    count = fill(store, pid, args.days, args.games, now)
    fill_seconds = time.perf_counter() - start
    last = store.attempts(pid, limit=1)[0]
    answer = dataclasses.replace(last, id=None, created_at=None)  # answered again
    children = {"": pid}
    if args.week_days:
        week = store.create_profile("Bea", "🐼").id
        fill(store, week, args.week_days, max(1, args.games * args.week_days // args.days),
             now)
        children["week_"] = week
    counts = {prefix: len(store.attempts(child)) for prefix, child in children.items()}
    bare = work / "bare.py"
    bare.write_text(BARE_PAGE)
    env = dict(os.environ, ESCOBA_DB_PATH=str(db), ESCOBA_NOW=now.isoformat())
    env.pop("ESCOBA_DATABASE_URL", None)

    measured = ("progress_menu", "progress_menu_new_answer", "help_menu", "progress_url",
                "help_url")
    times: dict[str, list[float]] = {k: [] for k in (
        "first_fcp", "first_content", "bare_fcp", "bare_content",
        *(prefix + m for prefix in children for m in measured))}
    with streamlit_server(ROOT / "serve.py", env, work / "app.log", 90) as url, \
            streamlit_server(bare, env, work / "bare.log", 90) as bare_url, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

        def cold(address: str) -> tuple[float, float]:
            """A new context (empty cache, new session): (fcp, title drawn) in ms."""
            content, fcp = opened_cold(browser, address, _TITLE_DRAWN, VIEWPORT)
            return fcp, content

        marks = {"charts": CHARTS, "help": HELP}
        context = browser.new_context(viewport=VIEWPORT, locale="en-US")
        page = context.new_page()
        page.set_default_timeout(60_000)

        def by_url(path: str, drawn: str, child: int) -> float:
            page.goto(f"{url}{path}?p={child}")
            return page.wait_for_function(drawn, arg=marks, timeout=60_000).json_value()

        def by_menu(name: str, drawn: str) -> float:
            page.evaluate("""name => {
                const link = [...document.querySelectorAll('[data-testid="stSidebarNav"] a')]
                  .find(a => a.textContent.includes(name));
                window.__tapped = performance.now();
                link.click();
            }""", name)
            end = page.wait_for_function(drawn, arg=marks, timeout=60_000).json_value()
            return end - page.evaluate("window.__tapped")

        def new_answer(child: int) -> float:
            """An answer written (as another tab would), then My progress from the menu:
            its cached charts are stale and built again."""
            store.record_attempt(child, answer)
            return by_menu("My progress", _PROGRESS_DRAWN)

        def steps(prefix: str, child: int) -> list[tuple[str, Callable[[], float]]]:
            return [
                (prefix + "help_url", lambda: by_url("/help", _HELP_DRAWN, child)),
                (prefix + "progress_menu", lambda: by_menu("My progress", _PROGRESS_DRAWN)),
                (prefix + "help_menu", lambda: by_menu(HELP, _HELP_DRAWN)),
                (prefix + "progress_menu_new_answer", lambda: new_answer(child)),
                (prefix + "help_menu", lambda: by_menu(HELP, _HELP_DRAWN)),
                (prefix + "progress_url", lambda: by_url("/progress", _PROGRESS_DRAWN, child)),
            ]

        for run in range(args.runs + 1):
            first = cold(f"{url}/")
            baseline = cold(f"{bare_url}/")
            results = [("first_fcp", first[0]), ("first_content", first[1]),
                       ("bare_fcp", baseline[0]), ("bare_content", baseline[1])]
            order = list(children.items())
            if run % 2:  # the year first in one round, the week first in the next
                order.reverse()
            for prefix, child in order:
                results += [(name, step()) for name, step in steps(prefix, child)]
            if run:  # the first round warms the server's imports and the browser's cache
                for name, value in results:
                    times[name].append(value)
            print(f"run {run}: " + ", ".join(f"{k} {v:.0f}" for k, v in results),
                  file=sys.stderr)
        context.close()
        browser.close()

    medians = {k: _median(v) for k, v in times.items()}
    print(json.dumps({
        "python": platform.python_version(), "days": args.days, "games": args.games,
        "attempts": count, "attempts_by_child": counts,
        "fill_seconds": round(fill_seconds, 1), "runs": args.runs,
        "median_ms": medians,
        "range_ms": {k: [round(min(v)), round(max(v))] for k, v in times.items()},
        "minus_baseline_ms": {
            "first_content": medians["first_content"] - medians["bare_content"],
            "progress_menu": medians["progress_menu"] - medians["help_menu"],
            "progress_menu_new_answer":
                medians["progress_menu_new_answer"] - medians["help_menu"],
            "progress_url": medians["progress_url"] - medians["help_url"]},
        "year_over_week": {
            m: round(medians[m] / medians["week_" + m], 2)
            for m in ("progress_menu", "progress_menu_new_answer", "progress_url")
            if medians.get("week_" + m)},
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }, indent=1))


if __name__ == "__main__":
    main()
