"""Where a simulated round's work goes: cProfile, or bytecodes executed per function.

    python bench/rounds_profile.py [--games 300] [--warmup 20] [--opcodes]

The workload of ``rounds_instructions.sh`` (random vs random, classic, seeded,
``--warmup`` games first to fill the caches). cProfile's times are inflated by
its own cost per call, so ``--opcodes`` counts instead the bytecodes each
function executes per round (``sys.settrace`` with opcode events: slow, so use
fewer games, e.g. ``--games 20``). Bytecodes are not instructions: on CPython
3.11 one costs from a few dozen machine instructions to several hundred (an
operation on a 40-bit mask, a named tuple's field read), so use
``rounds_instructions.sh`` to decide and these to see where to look.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import random
import sys
from types import FrameType
from typing import Any

from escoba import Rules
from escoba.bots import RandomPlayer
from escoba.match import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--opcodes", action="store_true",
                        help="bytecodes per function per round instead of cProfile")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    rules = Rules.preset("classic")
    players = [RandomPlayer(), RandomPlayer()]
    rng = random.Random(1)
    for _ in range(args.warmup):
        play_game(rules, players, rng)
    if not args.opcodes:
        profile = cProfile.Profile()
        profile.enable()
        rounds = sum(len(play_game(rules, players, rng).rounds) for _ in range(args.games))
        profile.disable()
        print(f"{rounds} rounds")
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)
        return
    counts: collections.Counter[tuple[str, str]] = collections.Counter()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            counts[(code.co_filename.rsplit("/", 1)[-1], code.co_name)] += 1
        return tracer

    sys.settrace(tracer)
    rounds = sum(len(play_game(rules, players, rng).rounds) for _ in range(args.games))
    sys.settrace(None)
    total = sum(counts.values())
    print(f"{rounds} rounds, {total / rounds:.0f} bytecodes per round")
    for (file, name), n in counts.most_common(args.top):
        print(f"{n / rounds:8.0f} {100 * n / total:5.1f}%  {file}:{name}")


if __name__ == "__main__":
    main()
