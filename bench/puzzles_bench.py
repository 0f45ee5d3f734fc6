"""Speed of the puzzles package (issue 4). Prints figures for docs/BENCHMARKS.md.

    .venv/bin/python bench/puzzles_bench.py

Targets: a daily set <= 50 ms, 1,000 graded puzzles <= 2 s, a 20-puzzle
worksheet PDF <= 1 s. Timings are wall-clock on whatever machine runs this;
they are measurements, never unit tests.
"""

from __future__ import annotations

import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from puzzles import daily_set, generate


def timed(fn, *args, **kwargs) -> float:
    start = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - start


def main() -> None:
    # a daily set: 60 different dates, each generated once (no puzzle cache exists)
    first = date(2027, 1, 1)
    times = [timed(daily_set, first + timedelta(days=i)) for i in range(60)]
    print(f"daily set (5 puzzles), 60 dates: median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms  (target <= 50 ms)")

    # 1,000 graded puzzles: the four solver kinds, levels 1-5, sum 15
    kinds = ("captures", "hand", "fifteens", "quick-facts")
    start = time.perf_counter()
    for i in range(1000):
        generate(kinds[i % 4], i % 5 + 1, i, 15)
    elapsed = time.perf_counter() - start
    print(f"1,000 graded puzzles (captures/hand/fifteens/quick-facts, levels 1-5, sum 15): "
          f"{elapsed:.2f} s  (target <= 2 s)")
    for capture_sum in (10, 20):
        start = time.perf_counter()
        for i in range(1000):
            generate(kinds[i % 4], i % 5 + 1, i, capture_sum)
        print(f"1,000 graded puzzles, sum {capture_sum}: {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    for i in range(100):
        generate("best-move", i % 5 + 1, i, 15)
    print(f"100 best-move puzzles (coach-ranked deals): {time.perf_counter() - start:.2f} s")

    # worksheets: the first one pays for importing fpdf2
    from puzzles.worksheet import worksheet_pdf

    cold = timed(worksheet_pdf, "captures", 2, 20, 7)
    warm = [timed(worksheet_pdf, "captures", 2, 20, seed) for seed in range(8, 13)]
    hard = [timed(worksheet_pdf, "hand", 5, 20, seed) for seed in range(5)]
    print(f"20-puzzle worksheet PDF (captures L2): first {cold * 1000:.0f} ms (fpdf2 import "
          f"included), then median {statistics.median(warm) * 1000:.0f} ms  (target <= 1 s)")
    print(f"20-puzzle worksheet PDF (hand L5, the most cards): median "
          f"{statistics.median(hard) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
