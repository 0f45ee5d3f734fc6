"""What Play's first run after an answer reads for the "just right" level (issue 32).

The new-game form's default level and the computer's strength come from the child's
finished games (trainer.just_right). Keyed by the child's whole data version, they were
computed again after every quick fact and puzzle: up to 200 finished games read and
their strength estimated. Keyed by the finished games (``finished_games_mark``: one
count), an answer costs that count and a cache hit. Both measured here, side by side in
the same run, on a ``bench/school_year.py`` database: the child at home and every
pupil of the class.

    .venv/bin/python bench/school_year.py --database /tmp/year.db
    .venv/bin/python bench/just_right_key_bench.py --database /tmp/year.db

Prints one JSON object: per profile kind, the median and p95 milliseconds of each way.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402

from trainer.clock import now as now_utc  # noqa: E402
from trainer.just_right import just_right_summary  # noqa: E402
from trainer.storage import Storage, configure_sqlite, sqlite_url  # noqa: E402


def _ms(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _figures(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {"median_ms": round(statistics.median(ordered), 2),
            "p95_ms": round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True,
                        help="a bench/school_year.py SQLite file or a PostgreSQL URL")
    parser.add_argument("--runs", type=int, default=5, help="reads per profile and way")
    args = parser.parse_args(argv)
    url = args.database if "://" in args.database else sqlite_url(args.database)
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    store = Storage(engine, migrate=False)
    kinds = {"child at home": [p.id for p in store.list_profiles()
                               if p.nickname == "Home child"],
             "pupil": [p.id for p in store.list_profiles() if p.nickname != "Home child"]}
    out: dict[str, object] = {"database": engine.dialect.name}
    for kind, ids in kinds.items():
        before: list[float] = []
        after: list[float] = []
        games = []
        for pid in ids:
            games.append(len(store.finished_games(pid)))
            # Before: every answer moved the key, so the games were read and estimated.
            before += _ms(lambda pid=pid: just_right_summary(store.finished_games(pid),
                                                             now_utc()), args.runs)
            # After: the finished games' mark is read; the summary is the cache's.
            after += _ms(lambda pid=pid: store.finished_games_mark(pid), args.runs)
        out[kind] = {"profiles": len(ids), "finished_games_median": statistics.median(games),
                     "before": _figures(before), "after": _figures(after)}
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
