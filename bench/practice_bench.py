"""How long the practice pages take to rerun, for a child with a long history.

A profile gets ``--days`` days of practice written straight into SQLite (per
day: 10 quick facts, 4 puzzles, the daily; plus ``--games`` finished games
with a review), then AppTest measures, interleaved with an empty page's rerun
(so machine load hits both alike):

- Progress: the whole page (every query, pandas, nine plotly figures);
- Puzzles: a tap on a table-card pill (the commonest rerun while solving);
- Quick facts: a tap on a number (check, record in a transaction, next question);
- "for me": choosing the next puzzle (mastery from every attempt, 40 seeds).

    .venv/bin/python bench/practice_bench.py --days 30 --runs 15

Prints one JSON object; the figures go to docs/BENCHMARKS.md ("Practice and
progress (issue 6)").
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _quiet() -> None:
    for name in ("streamlit", "trainer.storage"):
        logging.getLogger(name).setLevel(logging.ERROR)


def fill(store, profile_id: int, days: int, games: int, now: datetime) -> int:
    """Write a plausible history; returns the number of attempts written."""
    from escoba import Rules
    from puzzles import check, daily_set, generate
    from puzzles.practice import Attempt, quick_fact
    from tests.test_storage import play_to_end
    from trainer.gameplay import GameSession, SeatSpec
    from trainer.storage.practice import add_attempts, attempt_values

    rng = random.Random(3)
    count = 0
    rows = []
    for d in range(days):
        when = now - timedelta(days=days - d)
        day = when.date().isoformat()
        for i in range(10):
            q = quick_fact([rng.randint(5, 10)])
            value = q.solutions[0].value if rng.random() < 0.8 else 1
            r = check(q, value)
            secs = round(rng.uniform(1, 6), 2)
            rows.append(attempt_values(profile_id, Attempt.of(
                q, r, secs, [value], "quick", when.date()), when + timedelta(minutes=i)))
        for i in range(4):
            p = generate(rng.choice(["captures", "fifteens", "hand"]), rng.randint(1, 5),
                         f"bench-{d}-{i}")
            given = [{"card": str(s.card), "take": [str(c) for c in s.take]} if s.card else
                     {"take": [str(c) for c in s.take]} for s in p.solutions
                     if rng.random() < 0.8]
            r = check(p, given or ["none"])
            rows.append(attempt_values(profile_id, Attempt.of(
                p, r, 40.0, given, "practice", when.date()), when + timedelta(minutes=30 + i)))
        if day >= "2026-12-01":
            daily = daily_set(day)
            for k, p in enumerate(daily.puzzles):
                store.record_daily_answer(profile_id, day, daily.number, k, Attempt(
                    day=day, mode="daily", puzzle_id=p.id, kind=p.kind, level=p.level,
                    capture_sum=15, facts=p.facts, answers=(), answer=(), correct=True,
                    found=1, missed=0, wrong=0, seconds=30.0, hints=0,
                    stars=rng.randint(1, 3)))
                count += 1
    with store.transaction() as conn:  # as record_attempt writes them, aggregates too
        add_attempts(conn, rows)
    count += len(rows)
    for g in range(games):
        session = GameSession.new(Rules.preset("classic", target=5),
                                  [SeatSpec("human", "Ana"),
                                   SeatSpec("bot", "B", level=["gentle", "greedy"][g % 2])],
                                  g, storage=store, profile_id=profile_id)
        play_to_end(session, seed=g)
        store.save_review(session.game_id, [{"round": 1, "move_no": 1, "move": "7o",
                                             "best": "7o", "lost": 0.5,
                                             "mistakes": [["x", {}]]}] * rng.randint(0, 6))
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()

    db = Path(tempfile.mkdtemp()) / "bench.db"
    os.environ["ESCOBA_DB_PATH"] = str(db)
    now = datetime(2026, 12, 31, 17, 0, tzinfo=UTC)
    os.environ["ESCOBA_NOW"] = now.isoformat()
    import sqlalchemy as sa
    from streamlit.testing.v1 import AppTest

    from puzzles.mastery import fact_stats
    from puzzles.practice import answers_from_rows, for_me_puzzle, practice_candidates
    from tests.test_app_helpers import create_profile, new_app
    from trainer.storage import Storage

    _quiet()
    at = create_profile(new_app())
    store = Storage(sa.create_engine(f"sqlite:///{db}"))
    pid = store.list_profiles()[0].id
    t0 = time.perf_counter()
    attempts = fill(store, pid, args.days, args.games, now)
    fill_s = time.perf_counter() - t0
    _quiet()
    empty = AppTest.from_string("import streamlit as st\n", default_timeout=60).run()

    def timed(action) -> float:
        start = time.perf_counter()
        action()
        return time.perf_counter() - start

    times: dict[str, list[float]] = {"empty": [], "progress": [], "puzzle_pill": [],
                                     "quick_tap": []}
    for i in range(args.runs):
        times["empty"].append(timed(empty.run))
        at.switch_page("app_pages/progress.py")
        times["progress"].append(timed(at.run))
        assert not at.exception, at.exception
        at.switch_page("app_pages/puzzles.py").run()
        state = at.session_state["pz_state"]
        card = str(state.puzzle.table[i % len(state.puzzle.table)])
        widget = at.pills(key="pz_table").set_value([card])
        times["puzzle_pill"].append(timed(widget.run))
        at.switch_page("app_pages/quick_facts.py").run()
        rnd = at.session_state["qf_round"]
        if rnd.index >= len(rnd.puzzles):
            at.button(key="qf_again").click().run()
            rnd = at.session_state["qf_round"]
        button = at.button(key=f"qf_n_{rnd.puzzles[rnd.index].solutions[0].value}").click()
        times["quick_tap"].append(timed(button.run))
        assert not at.exception, at.exception

    rows = store.attempts(pid)
    start = time.perf_counter()
    for n in range(args.runs):
        stats = fact_stats(answers_from_rows(rows), practice_candidates(15))
        for_me_puzzle(stats, rows, 15, n)
    for_me_ms = 1000 * (time.perf_counter() - start) / args.runs

    med = {k: round(1000 * statistics.median(v), 1) for k, v in times.items()}
    print(json.dumps({
        "python": platform.python_version(), "days": args.days, "games": args.games,
        "attempts": attempts, "fill_seconds": round(fill_s, 2), "runs": args.runs,
        "median_ms": med,
        "ratio_to_empty": {k: round(med[k] / med["empty"], 1) for k in med if k != "empty"},
        "for_me_ms": round(for_me_ms, 1),
    }, indent=1))


if __name__ == "__main__":
    main()
