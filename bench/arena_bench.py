"""Arena figures for docs/BENCHMARKS.md: every pair of computer-player levels.

    .venv/bin/python bench/arena_bench.py --deals 1000 --seed 1
    .venv/bin/python bench/arena_bench.py --deals 500 --seed 1 --players 3
    .venv/bin/python bench/arena_bench.py --deals 500 --seed 1 --teams

Each row is ``escoba arena --bots A B --rounds DEALS --seed SEED`` (the same
code path); the table is printed as Markdown, one JSON line per pair on
stderr. Single process: the timings are those of one core.

The pseudo-level ``coach`` (this script only, not a level of the game) plays
the coach's best move, ``escoba.coach.analyse(obs)[0]``: it measures how good
the judgement behind hints, reviews and puzzles is, e.g. ``--pairs coach:greedy``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from escoba import bots
from escoba.arena import run_arena
from escoba.coach import analyse
from escoba.rules import Rules

LEVELS = ("expert", "greedy", "gentle", "random")


class CoachPlayer(bots.GreedyPlayer):
    """Plays the coach's best move; claims a renuncio like greedy."""

    name = "coach"

    def choose_pair(self, observation, rng):
        best = analyse(observation)[0].move
        return best.card.index, best.take_mask


bots.PLAYER_LEVELS.setdefault("coach", CoachPlayer)  # this process only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--teams", action="store_true")
    parser.add_argument("--pairs", nargs="*", default=None, metavar="A:B",
                        help="only these pairs, e.g. expert:greedy")
    args = parser.parse_args()
    players = args.players or (4 if args.teams else 2)
    rules = Rules.preset(args.rules, players=players, teams=args.teams)
    pairs = ([tuple(p.split(":")) for p in args.pairs] if args.pairs
             else list(itertools.combinations(LEVELS, 2)))
    print(f"{rules.describe()}; {args.deals} deals per pair (each played twice, seats "
          f"swapped), seed {args.seed}; Python {platform.python_version()}\n")
    print("| A | B | A − B points/round (95% CI) | A rounds won | A ms/move median / p95 "
          "| B ms/move median / p95 |")
    print("|---|---|---|---|---|---|")
    for a, b in pairs:
        r = run_arena(rules, [a, b], args.deals, seed=args.seed)
        lo, hi = r.ci95
        ta, tb = r.timing
        print(f"| {a} | {b} | {r.mean_diff:+.3f} ({lo:+.3f} to {hi:+.3f}) | "
              f"{r.win_rate:.1%} | {ta['median']:.2f} / {ta['p95']:.2f} | "
              f"{tb['median']:.2f} / {tb['p95']:.2f} |", flush=True)
        print(json.dumps(r.to_json()), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
