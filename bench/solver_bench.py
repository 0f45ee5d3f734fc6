"""Capture solver vs a brute-force itertools.combinations baseline, same positions, same process.

    python bench/solver_bench.py [--positions 10000] [--seed 1]

Prints, per table size, the time each takes for all positions of that size and
the speed-up. Both must return the same sets (checked). The solver is timed
twice: "cold" with its value-solution cache emptied first (the cost of filling
it is included), and "warm", the steady state a game reaches after a few moves.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time

from escoba.cards import VALUE
from escoba.solver import _CACHE, capture_masks


def brute_force(table: list[int], card: int, capture_sum: int = 15) -> list[int]:
    target = capture_sum - VALUE[card]
    out = []
    for k in range(1, len(table) + 1):
        for combo in itertools.combinations(table, k):
            if sum(VALUE[i] for i in combo) == target:
                mask = 0
                for i in combo:
                    mask |= 1 << i
                out.append(mask)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    positions = []
    for _ in range(args.positions):
        n = rng.randint(4, 12)
        picked = rng.sample(range(40), n + 1)
        positions.append((picked[1:], picked[0]))
    by_size: dict[int, list] = {}
    for table, card in positions:
        by_size.setdefault(len(table), []).append((table, card))

    def timed(fn, group):
        start = time.perf_counter()
        results = [fn(t, c) for t, c in group]
        return time.perf_counter() - start, results

    masks = {id(t): sum(1 << i for i in t) for t, _ in positions}
    print(f"{args.positions} random positions, tables of 4-12 cards, capture sum 15")
    print(f"{'cards':>5} {'positions':>9} {'brute ms':>9} {'cold ms':>8} {'warm ms':>8} "
          f"{'cold x':>7} {'warm x':>7}")
    _CACHE.clear()
    totals = {"brute": 0.0, "cold": 0.0, "warm": 0.0}
    big = {"brute": 0.0, "warm": 0.0, "cold": 0.0}
    for size in sorted(by_size):
        group = by_size[size]
        brute_t, brute_r = timed(brute_force, group)
        cold_t, cold_r = timed(lambda t, c: capture_masks(masks[id(t)], c), group)
        warm_t, warm_r = timed(lambda t, c: capture_masks(masks[id(t)], c), group)
        for a, b in zip(brute_r, warm_r, strict=True):
            assert sorted(a) == sorted(b)
        assert cold_r == warm_r
        totals["brute"] += brute_t
        totals["cold"] += cold_t
        totals["warm"] += warm_t
        if size >= 8:
            big["brute"] += brute_t
            big["cold"] += cold_t
            big["warm"] += warm_t
        print(f"{size:>5} {len(group):>9} {brute_t * 1e3:>9.1f} {cold_t * 1e3:>8.1f} "
              f"{warm_t * 1e3:>8.1f} {brute_t / cold_t:>7.1f} {brute_t / warm_t:>7.1f}")
    print(f"{'all':>5} {len(positions):>9} {totals['brute'] * 1e3:>9.1f} "
          f"{totals['cold'] * 1e3:>8.1f} {totals['warm'] * 1e3:>8.1f} "
          f"{totals['brute'] / totals['cold']:>7.1f} {totals['brute'] / totals['warm']:>7.1f}")
    print(f"tables of 8+ cards: {big['brute'] / big['cold']:.1f}x faster cold, "
          f"{big['brute'] / big['warm']:.1f}x warm (goal: 20x)")


if __name__ == "__main__":
    main()
