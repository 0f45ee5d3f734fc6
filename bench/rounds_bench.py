"""Rounds per second, random vs random, 2 players, classic (forced capture), one core,
side by side with the JavaScript engine of the OMerkel/escoba web game.

    python bench/rounds_bench.py [--rounds 10000] [--seed 1] [--repeat 5] [--peer PATH]

Two loops over the same engine in the same process, each playing whole rounds
with a uniformly random legal move at every turn from the player's Observation:

- "engine loop": `escoba.match.play_game`, exactly what `escoba simulate` runs
  (players answer in the inner form, card index + take mask, and the engine
  checks every move);
- "friendly API": the same game through Move objects (`legal_moves()` and
  `play(Move)`), the way an app or a script would drive it.

The peer (issue 17): when ``node`` is installed, each repetition of the engine
loop is followed at once by a run of the peer's `rounds.mjs` (the same workload
on the JavaScript engine, after its JIT warm-up; see ../shared/peers/README.md),
so the two are measured interleaved, under the same load, and the ratio is
printed per repetition and as the median. Both rates there are wall-clock rates
(the peer measures wall-clock time); ours is also given per CPU second.

Each loop runs ``--repeat`` times on different seeds; the best and the median
are printed, since on a shared machine other work can only slow a run down.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import time
from pathlib import Path

from escoba import Game, Rules
from escoba.bots import RandomPlayer
from escoba.match import play_game

ROOT = Path(__file__).resolve().parent.parent
PEER_SCRIPT = Path("peers") / "omerkel-escoba" / "rounds.mjs"


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


def find_peer(given: str | None) -> Path | None:
    """The peer's rounds.mjs: ``--peer``, ``$ESCOBA_PEER``, or a ``shared`` folder
    beside the checkout (or beside the folder of worktrees that holds it)."""
    if given:
        return Path(given)
    if os.environ.get("ESCOBA_PEER"):
        return Path(os.environ["ESCOBA_PEER"])
    for base in (ROOT.parent, ROOT.parent.parent):
        candidate = base / "shared" / PEER_SCRIPT
        if candidate.exists():
            return candidate
    return None


def peer_run(node: str, script: Path, games: int, warmup: int) -> float:
    """One run of the peer: its rounds per (wall-clock) second after its JIT warm-up."""
    done = subprocess.run([node, str(script), str(games), str(warmup)], capture_output=True,
                          text=True, check=True, timeout=600)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    if result.get("rejected"):
        raise RuntimeError(f"the peer refused {result['rejected']} moves: not the same workload")
    return float(result["rounds_per_second"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5,
                        help="repetitions; the best and the median are reported, since "
                             "other work on a shared machine only ever slows a run down")
    parser.add_argument("--peer", help="the peer's rounds.mjs (default: found beside the "
                                       "checkout, or $ESCOBA_PEER)")
    parser.add_argument("--peer-games", type=int, default=1000,
                        help="games per peer run (about six rounds each)")
    parser.add_argument("--peer-warmup", type=int, default=150,
                        help="the peer's JIT warm-up games, not measured")
    parser.add_argument("--no-peer", action="store_true", help="measure our engine only")
    parser.add_argument("--no-friendly", action="store_true", help="skip the Move-object loop")
    args = parser.parse_args()
    rules = Rules.preset("classic")
    node = None if args.no_peer else shutil.which("node")
    script = find_peer(args.peer) if node else None
    if node and (script is None or not script.exists()):
        print(f"peer not found ({script or 'no shared/peers folder beside the checkout'}); "
              "give --peer PATH to compare")
        script = None
    elif not node and not args.no_peer:
        print("node is not installed: the JavaScript peer is not measured")

    print(f"random vs random, 2 players, classic, forced capture: {args.rounds} rounds "
          f"x {args.repeat}" + (f", interleaved with the peer ({args.peer_games} games a run "
                                f"after {args.peer_warmup} warm-up games)" if script else ""))
    engine_loop(rules, 500, args.seed + 1000)  # warm the solver's cache
    fast: list[tuple[float, float]] = []
    ratios: list[float] = []
    for i in range(args.repeat):
        cpu, wall = engine_loop(rules, args.rounds, args.seed + i)
        fast.append((cpu, wall))
        line = f"  repetition {i + 1}: ours {wall:6.0f} rounds/s (CPU {cpu:6.0f})"
        if script is not None and node is not None:
            peer = peer_run(node, script, args.peer_games, args.peer_warmup)
            ratios.append(wall / peer)
            line += f", peer {peer:6.0f} rounds/s, ours / peer {wall / peer:.2f}"
        print(line, flush=True)
    friendly = [] if args.no_friendly else [
        friendly_loop(rules, args.rounds // 4, args.seed + i) for i in range(args.repeat)]

    def summary(label: str, runs: list[tuple[float, float]]) -> str:
        cpu = sorted(r[0] for r in runs)
        wall = sorted(r[1] for r in runs)
        return (f"{label} best {cpu[-1]:6.0f}, median {statistics.median(cpu):6.0f} rounds "
                f"per CPU second (wall: best {wall[-1]:.0f}, median "
                f"{statistics.median(wall):.0f})")

    print(summary("engine loop (escoba simulate):", fast))
    if friendly:
        print(summary("friendly API (Move objects):  ", friendly))
    if ratios:
        print(f"ours / JavaScript peer (wall clock, per repetition): "
              f"{' '.join(f'{r:.2f}' for r in ratios)}; median {statistics.median(ratios):.2f}"
              f" (goal 1.5)")


if __name__ == "__main__":
    main()
