"""``escoba arena``: two computer players over paired deals (see :mod:`escoba.arena`).

    escoba arena --bots expert greedy --rounds 2000 --seed 1 --json

``--rounds N`` plays N deals, each twice with the seats swapped (2N rounds).
"""

from __future__ import annotations

import argparse
import sys

from .cli import MAX_GAMES, CliError, add_rules_args, count_arg, emit, rules_from_args

__all__ = ["register"]


def _cmd_arena(args: argparse.Namespace) -> int:
    from .arena import run_arena
    from .bots import PLAYER_LEVELS

    for name in args.bots:
        if name not in PLAYER_LEVELS:
            raise CliError(f"unknown bot {name!r} (choose from {', '.join(PLAYER_LEVELS)})")
    args.rounds = count_arg(args.rounds, "--rounds")
    if args.players is not None:
        args.set = [*(args.set or []), f"players={args.players}"]
    elif args.teams:
        args.set = [*(args.set or []), "players=4"]
    rules = rules_from_args(args)

    def progress(i: int) -> None:
        if args.progress and (i + 1) % 100 == 0:
            print(f"{i + 1}/{args.rounds} deals", file=sys.stderr, flush=True)

    result = run_arena(rules, args.bots, args.rounds, seed=args.seed, on_pair=progress)
    data = result.to_json()
    a, b = args.bots
    lo, hi = result.ci95
    t = result.timing
    human = "\n".join([
        f"{rules.describe()}: {result.deals} deals, {result.rounds} rounds "
        f"(seats swapped), seed {args.seed}",
        f"{a} - {b}: {result.mean_diff:+.3f} points per round (95% CI {lo:+.3f} to {hi:+.3f})",
        f"points per round: {a} {result.points[0]:.3f}, {b} {result.points[1]:.3f}",
        f"rounds won: {a} {result.win_rate:.1%}, {b} {1 - result.win_rate:.1%} "
        f"(ties count half; {result.ties} ties)",
        f"ms per move: {a} median {t[0]['median']:.2f}, p95 {t[0]['p95']:.2f}; "
        f"{b} median {t[1]['median']:.2f}, p95 {t[1]['p95']:.2f}",
        f"elapsed {result.elapsed:.1f} s",
    ])
    return emit(args, data, human)


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add the ``arena`` command."""
    p = sub.add_parser(
        "arena", help="two computer players over paired deals, with statistics",
        description="Play paired deals (each deck twice, seats swapped) between two bot "
                    "levels; report the mean points-per-round difference with a 95% "
                    "confidence interval, win rate and milliseconds per move.")
    p.add_argument("--bots", nargs=2, required=True, metavar="LEVEL",
                   help="two levels: random, gentle, greedy, expert")
    p.add_argument("--rounds", default="1000", metavar="N",
                   help=f"deals to play, 1 to {MAX_GAMES:,}; each is played twice, seats "
                        "swapped (default 1000)")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=None,
                   help="players at the table (default 2; 4 with --teams); seats "
                        "alternate between the two bots")
    add_rules_args(p)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--progress", action="store_true", help="report progress on stderr")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(handler=_cmd_arena)
