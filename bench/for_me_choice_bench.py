"""Choosing a "for me" puzzle: from the pool's facts against generating every seed, in
one run (issue 32, puzzles/pool.py).

    .venv/bin/python bench/for_me_choice_bench.py --children 30 --puzzles 12

Each simulated child (its own prefix, as the app gives one per profile) asks for its
next puzzles with the same weakest facts: first as before the pool (the child's own
seeds ``forme-p<child>-<n>``, 40 generated and scored per choice), then from the pool
(40 fact sets scored, the one kept generated). Besides the time, how much of the
targets the chosen puzzles cover: the pool must choose as well. The process's caches
are cleared before each side, and the pool's file is read inside the pool side's time
(its first choice pays it, as a replica's first does).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from puzzles import kinds, pool  # noqa: E402
from puzzles.mastery import Answer, fact_stats, normalise, weakest_facts  # noqa: E402
from puzzles.practice import (  # noqa: E402
    FOR_ME_KINDS,
    for_me_puzzle,
    puzzle_candidates,
    puzzle_for,
)


def _clear() -> None:
    for cached in (pool._pools, pool.pool_facts):
        cached.cache_clear()
    for name in dir(kinds):
        clear = getattr(getattr(kinds, name), "cache_clear", None)
        if clear is not None:
            clear()


def _choices(children: int, puzzles: int, before: bool) -> tuple[list[float], list[float]]:
    """Each choice's milliseconds, and how much of its targets each chosen puzzle covers
    (0-1, earlier targets weighing more, as the choice scores them)."""
    from datetime import datetime

    when = datetime(2026, 12, 7, 9)
    stats = fact_stats([Answer(f, n % 3 != 0, when, 4.0)
                        for n, f in enumerate(puzzle_candidates(15)[:20])],
                       puzzle_candidates(15))
    targets = weakest_facts(stats, puzzle_candidates(15), count=3)
    weights = {f: len(targets) - i for i, f in enumerate(targets)}
    times, covered = [], []
    for child in range(children):
        for number in range(puzzles):
            start = time.perf_counter()
            if before:  # the choice before the pool: the child's own seeds, each generated
                kind = FOR_ME_KINDS[number % len(FOR_ME_KINDS)]
                puzzle = puzzle_for(targets, kind, 1, 15, prefix=f"forme-p{child}",
                                    start=number * 40)
            else:
                puzzle, chosen_for = for_me_puzzle(stats, [], 15, number,
                                                   prefix=f"forme-p{child}")
                assert chosen_for == targets
            times.append((time.perf_counter() - start) * 1000)
            facts = {normalise(f) for f in puzzle.facts}
            covered.append(sum(w for f, w in weights.items() if f in facts)
                           / sum(weights.values()))
    return times, covered


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--children", type=int, default=30)
    parser.add_argument("--puzzles", type=int, default=12, help="choices per child")
    args = parser.parse_args(argv)
    _clear()
    generated, covered_before = _choices(args.children, args.puzzles, before=True)
    _clear()
    pooled, covered_after = _choices(args.children, args.puzzles, before=False)
    for name, times, covered in (("before: seeds generated", generated, covered_before),
                                 ("from the pool", pooled, covered_after)):
        ordered = sorted(times)
        print(f"{name:>24}: {len(times)} choices, median {statistics.median(times):.2f} ms, "
              f"p95 {ordered[int(0.95 * (len(ordered) - 1))]:.2f} ms, "
              f"first {times[0]:.1f} ms, total {sum(times) / 1000:.2f} s; "
              f"targets covered {100 * statistics.mean(covered):.0f} %")
    print(f"median ratio: {statistics.median(generated) / statistics.median(pooled):.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
