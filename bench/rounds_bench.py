"""Rounds per second, random vs random, 2 players, classic (forced capture), one core.

    python bench/rounds_bench.py [--rounds 10000] [--seed 1]

Two loops over the same engine in the same process, each playing whole rounds
with a uniformly random legal move at every turn from the player's Observation:

- "engine loop": `escoba.match.play_game`, exactly what `escoba simulate` runs
  (players answer in the inner form, card index + take mask, and the engine
  checks every move);
- "friendly API": the same game through Move objects (`legal_moves()` and
  `play(Move)`), the way an app or a script would drive it.

Rates are rounds per second of this process's CPU time (one core), with
wall-clock rates beside them. Each loop runs ``--repeat`` times on different
seeds; the best and the median are printed, since on a shared machine other
work can only slow a run down.
"""

from __future__ import annotations

import argparse
import random
import time

from escoba import Game, Rules
from escoba.bots import RandomPlayer
from escoba.match import play_game


def engine_loop(rules: Rules, rounds: int, seed: int) -> tuple[float, float]:
    """Whole games through ``escoba.match.play_game``, exactly as ``escoba simulate``."""
    rng = random.Random(seed)
    players = [RandomPlayer(), RandomPlayer()]
    played = 0
    start, cpu = time.perf_counter(), time.process_time()
    while played < rounds:
        played += len(play_game(rules, players, rng).rounds)
    return played / (time.process_time() - cpu), played / (time.perf_counter() - start)


def friendly_loop(rules: Rules, rounds: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    played = 0
    start, cpu = time.perf_counter(), time.process_time()
    while played < rounds:
        game = Game(rules, rng=rng)
        while not game.is_over and played < rounds:
            round_ = game.start_round()
            while not round_.is_over:
                moves = game.observation(round_.to_move).legal_moves()
                game.play(moves[rng.randrange(len(moves))])
            played += 1
    return played / (time.process_time() - cpu), played / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5,
                        help="repetitions; the best and the median are reported, since "
                             "other work on a shared machine only ever slows a run down")
    args = parser.parse_args()
    rules = Rules.preset("classic")
    engine_loop(rules, 500, args.seed + 1)  # warm the solver's cache
    fast = [engine_loop(rules, args.rounds, args.seed + i) for i in range(args.repeat)]
    friendly = [friendly_loop(rules, args.rounds // 4, args.seed + i)
                for i in range(args.repeat)]

    def line(label: str, runs: list[tuple[float, float]]) -> str:
        cpu = sorted(r[0] for r in runs)
        wall = sorted(r[1] for r in runs)
        return (f"{label} best {cpu[-1]:6.0f}, median {cpu[len(cpu) // 2]:6.0f} rounds per CPU "
                f"second (wall: best {wall[-1]:.0f}, median {wall[len(wall) // 2]:.0f})")

    print(f"random vs random, 2 players, classic, forced capture: {args.rounds} rounds "
          f"x {args.repeat}")
    print(line("engine loop (escoba simulate):", fast) + "; goal 4,500")
    print(line("friendly API (Move objects):  ", friendly))


if __name__ == "__main__":
    main()
