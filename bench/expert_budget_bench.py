"""Expert budgets against greedy: which knobs of the search buy strength, at what time.

    .venv/bin/python bench/expert_budget_bench.py --deals 600 --seed 1 \\
        32/2/15000/5000 64/2/30000/5000 32/3/60000/5000

Each candidate is ``SAMPLES/DEPTH/WORK_BUDGET/NODE_BUDGET`` for
:class:`escoba.bots.ExpertPlayer`; each row is the same code path as
``escoba arena --bots expert greedy --rounds DEALS --seed SEED`` with the
expert built with that budget, so every candidate plays the very same paired
deals (and, where the budgets agree, the very same moves). The table is
printed as Markdown with the load average (1 minute) before and after each
row and its wall time; one JSON line per candidate on stderr. "vs first" is
the paired difference to the first candidate (same deals, same greedy
opponent: deal by deal, this candidate's edge minus the first one's), with
its own 95% interval, much narrower than either edge's. Run one at a
time: the milliseconds per move are wall clock of one core.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from escoba import bots
from escoba.arena import run_arena
from escoba.rules import Rules


def parse_budget(text: str) -> dict[str, int]:
    """``"32/2/15000/5000"`` -> the keyword arguments of ExpertPlayer."""
    samples, depth, work, nodes = (int(part) for part in text.split("/"))
    return {"samples": samples, "depth": depth, "work_budget": work, "node_budget": nodes}


def paired_gain(diffs: tuple[float, ...], base: tuple[float, ...]) -> tuple[float, float]:
    """Mean and 95% half-width of the deal-by-deal difference of two arena runs."""
    gains = [a - b for a, b in zip(diffs, base, strict=True)]
    half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
    return statistics.fmean(gains), half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("budgets", nargs="+", metavar="S/D/W/N")
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teams", action="store_true")
    args = parser.parse_args()
    rules = Rules.preset(args.rules, players=args.players, teams=args.teams)
    print(f"{rules.describe()}; {args.deals} deals (each played twice, seats swapped), "
          f"seed {args.seed}; Python {platform.python_version()}\n")
    print("| samples/depth/work/nodes | expert − greedy points/round (95% CI) | rounds won "
          "| vs first (95% CI) | expert ms/move median / p95 | load avg before/after | wall s |")
    print("|---|---|---|---|---|---|---|")
    base: tuple[float, ...] | None = None
    for text in args.budgets:
        level = f"expert:{text}"
        bots.PLAYER_LEVELS[level] = functools.partial(bots.ExpertPlayer, **parse_budget(text))
        load_before = os.getloadavg()[0]
        start = time.perf_counter()
        r = run_arena(rules, [level, "greedy"], args.deals, seed=args.seed)
        wall = time.perf_counter() - start
        load_after = os.getloadavg()[0]
        lo, hi = r.ci95
        ta = r.timing[0]
        if base is None:
            base, versus = r.pair_diffs, "—"
        else:
            gain, half = paired_gain(r.pair_diffs, base)
            versus = f"{gain:+.3f} ({gain - half:+.3f} to {gain + half:+.3f})"
        print(f"| {text} | {r.mean_diff:+.3f} ({lo:+.3f} to {hi:+.3f}) | {r.win_rate:.1%} | "
              f"{versus} | "
              f"{ta['median']:.2f} / {ta['p95']:.2f} | {load_before:.2f} / {load_after:.2f} | "
              f"{wall:.0f} |", flush=True)
        row = r.to_json() | {"budget": text, "load_before": load_before,
                             "load_after": load_after, "wall_s": round(wall, 1)}
        print(json.dumps(row), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
