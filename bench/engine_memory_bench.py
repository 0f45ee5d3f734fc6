"""The engine's caches: whole clear at the cap (before issue 32) against two generations.

    .venv/bin/python bench/engine_memory_bench.py --seconds 120 --scale 0.05   # the cliff
    .venv/bin/python bench/engine_memory_bench.py --seconds 600 --scale 1 --old-limits  # the hour
    .venv/bin/python bench/engine_memory_bench.py --bytes 60                   # bytes an entry

Two worker processes started together (same seed, same games, the same load on this
machine), one per policy, each playing computer games as fast as it can for
``--seconds``: the app's opponents against each other (expert, just right, gentle,
greedy; classic rules, and hands of six now and then so that hands not made at import
are met too) one game in four, gentle against greedy the others (their moves are
microseconds, mostly the engine's legal moves: where a cache's miss shows). The policies:

- ``whole-clear``: each cache one dict of the limits the engine had before issue 32
  (``OLD_LIMITS``), emptied all at once when full (the engine's caches of this branch
  given that behaviour: same code otherwise);
- ``generations``: the engine as it is (:class:`escoba.caches.Generations`, its limits).

Both have the same limits (the policy alone differs) unless ``--old-limits`` gives
``whole-clear`` those of before issue 32 (``OLD_LIMITS``). ``--scale`` multiplies the
limits, so that small caches fill within the run. Each worker samples its RSS
(/proc/self/statm) every half second and times every move: the CPU time of its
thread (``time.thread_time_ns``, which the other processes on a loaded machine do not
inflate) from a seat being asked for its move to the next seat being asked (the bot's
choice, the engine applying it, the next legal moves and observation). Prints, per
policy: RSS over time; per move (the quick players' and the searching players' apart)
p50, p99 and the slowest, the same in the second after each time a cache cleared or
turned over against the other moves, and the p99 of each second (median and worst).

The time axis is also given in *class time*: a class of 30 at one tap every 2 s makes
about 54,000 moves an hour and the computer as many (``--class-moves-per-hour``,
100,000); "5 min" and "1 h" below are the RSS when the worker had played that many
moves, a simulation compressed many times over.

``--bytes SECONDS`` instead fills the caches for that long (tracemalloc on) and prints
each cache's bytes per entry: what it frees when emptied, divided by its entries.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path
from typing import BinaryIO

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from escoba import Rules, movegen, solver, valuation  # noqa: E402
from escoba.bots import make_player  # noqa: E402
from escoba.caches import Generations  # noqa: E402
from escoba.match import play_game  # noqa: E402

#: The limits before issue 32 (entries of one dict, cleared whole when reached).
OLD_LIMITS = {"rows": 100_000, "cells": 20_000, "solutions": 500_000, "solution_rows": 25_000,
              "hands": 200_000}


def caches() -> dict[str, list[Generations]]:
    return {"rows": [solver.CELL_ROWS], "cells": list(solver._CELLS),
            "solutions": [solver._CACHE], "solution_rows": [solver.SOLUTION_ROWS],
            "hands": [movegen._OTHER_HANDS]}


class WholeClear(Generations):
    """The policy before issue 32: one dict, emptied all at once when full."""

    __slots__ = ()

    def turn_over(self) -> None:
        dict.clear(self)
        self.old = {}
        self.turnovers += 1


def set_policy(policy: str, scale: float, old_limits: bool) -> None:
    for name, group in caches().items():
        for cache in group:
            limit = OLD_LIMITS[name] if old_limits and policy == "whole-clear" else cache.limit
            limit = max(2, round(limit * scale))
            if policy == "whole-clear":
                cache.__class__ = WholeClear
                cache.resize(2 * limit)  # one dict of the limit: its "young generation"
            else:
                cache.resize(limit)


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def turnovers() -> int:
    return sum(cache.turnovers for group in caches().values() for cache in group)


class Timed:
    """A player whose every move is timed, from its being asked to the next seat's
    (the time is the previous seat's move), and who samples the RSS every half second.

    The moves go to a file 8,192 at a time, so that the records do not grow the RSS
    they measure."""

    clock: list[int] = [0, 0]  # when the last seat was asked (thread CPU ns; 0: a new
    # game), and whether that seat searches (expert, just right)
    moves = array("d")  # wall s since the start, CPU ns, searches (0/1): three a move
    count = [0]
    out: BinaryIO
    samples: list[tuple[float, float, int]] = []  # (wall s, RSS MB, moves so far)

    def __init__(self, level: str, start: float) -> None:
        self.player = make_player(level)
        self.name = self.player.name
        self.start = start
        self.searches = int(level in SEARCHING)

    def choose_pair(self, observation, rng):
        now = time.thread_time_ns()
        clock = self.clock
        wall = time.perf_counter() - self.start
        if clock[0]:
            moves = self.moves
            moves.extend((wall, now - clock[0], clock[1]))
            self.count[0] += 1
            if len(moves) >= 3 * 8192:
                moves.tofile(self.out)
                del moves[:]
        if wall >= len(self.samples) / 2:
            self.samples.append((round(wall, 2), round(rss_mb(), 2), self.count[0]))
        clock[1] = self.searches
        clock[0] = time.thread_time_ns()
        return self.player.choose_pair(observation, rng)


#: The app's opponents; the two that search spend milliseconds a move in it, the
#: others microseconds, mostly in the engine (its caches).
LEVELS = ("expert", "just_right", "gentle", "greedy")
SEARCHING = ("expert", "just_right")


def worker(policy: str, scale: float, seconds: float, seed: int, old_limits: bool,
           moves_file: str) -> None:
    set_policy(policy, scale, old_limits)
    Timed.out = open(moves_file, "wb")  # noqa: SIM115 - open for the whole run
    rng = random.Random(seed)
    classic = Rules.preset("classic")
    six = dataclasses.replace(classic, hand_size=6)
    start = time.perf_counter()
    clears: list[tuple[float, str, int]] = []  # (wall s, cache, moves before it)
    turn_over = Generations.turn_over if policy == "generations" else WholeClear.turn_over
    names = {id(cache): name for name, group in caches().items() for cache in group}

    def noted(cache: Generations) -> None:  # when each clear or turnover happens
        clears.append((time.perf_counter() - start, names[id(cache)], Timed.count[0]))
        turn_over(cache)

    if policy == "generations":
        Generations.turn_over = noted  # type: ignore[method-assign]
    else:
        WholeClear.turn_over = noted  # type: ignore[method-assign]
    games = 0
    while time.perf_counter() - start < seconds:
        rules = six if games % 10 == 9 else classic
        Timed.clock[0] = 0
        # One game of two of the app's opponents, then three of the quick ones.
        levels = LEVELS if games % 4 == 0 else ("gentle", "greedy")
        play_game(rules, [Timed(rng.choice(levels), start) for _ in range(2)], rng)
        games += 1
    samples = Timed.samples
    samples.append((round(time.perf_counter() - start, 2), round(rss_mb(), 2), Timed.count[0]))
    Timed.moves.tofile(Timed.out)
    Timed.out.close()
    print(json.dumps({"policy": policy, "games": games, "samples": samples, "clears": clears,
                      "turnovers": turnovers(),
                      "entries": {name: sum(c.entries() for c in group)
                                  for name, group in caches().items()},
                      "moves": Timed.count[0]}))


def percentile(values: list[int], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] / 1000  # µs


def report(result: dict, moves_per_hour: int) -> None:
    clears = [t for t, _, _ in result["clears"]]
    samples = result["samples"]
    records = list(zip(*[iter(result["records"])] * 3, strict=True))

    def rss_at(count: int) -> str:
        for t, rss, done in samples:
            if done >= count:
                return f"{rss:.1f} MB (at {t:.0f} s)"
        return "not reached"

    print(f"## {result['policy']}: {result['games']} games, {result['moves']} moves, "
          f"{result['turnovers']} clears or turnovers; entries at the end {result['entries']}")
    print(f"RSS: start {samples[0][1]:.1f} MB, end {samples[-1][1]:.1f} MB, "
          f"max {max(s[1] for s in samples):.1f} MB; in class time, 5 min: "
          f"{rss_at(moves_per_hour // 12)}, 1 h: {rss_at(moves_per_hour)}")
    step = max(1, len(samples) // 12)
    print("RSS over time (s: MB): "
          + ", ".join(f"{t:.0f}: {rss:.1f}" for t, rss, _ in samples[::step] + samples[-1:]))
    for searches, kind in ((0, "quick players' moves"), (1, "searching players' moves")):
        moves = [(t, int(ns)) for t, ns, s in records if s == searches]
        after, elsewhere = [], []
        j = 0
        for t, ns in moves:  # within a second after a clear or a turnover
            while j < len(clears) and clears[j] < t - 1.0:
                j += 1
            (after if j < len(clears) and clears[j] <= t else elsewhere).append(ns)
        by_second: dict[int, list[int]] = {}
        for t, ns in moves:
            by_second.setdefault(int(t), []).append(ns)
        seconds = sorted(percentile(v, 99) for v in by_second.values() if len(v) >= 50)
        every = [ns for _, ns in moves]
        print(f"{kind}, µs of CPU: p50 {percentile(every, 50):.0f}, p99 "
              f"{percentile(every, 99):.0f}, max {max(every, default=0) / 1000:.0f}; "
              f"in the second after a clear or turnover ({len(after)} moves) p50 "
              f"{percentile(after, 50):.0f}, p99 {percentile(after, 99):.0f}; elsewhere "
              f"({len(elsewhere)}) p50 {percentile(elsewhere, 50):.0f}, p99 "
              f"{percentile(elsewhere, 99):.0f}; p99 of each second: median "
              f"{seconds[len(seconds) // 2] if seconds else float('nan'):.0f}, worst "
              f"{seconds[-1] if seconds else float('nan'):.0f}")
    # Around each time a cache filled: the quick players' moves among the 1,000 moves
    # before it and the 1,000 after (the refill's cost shows in the mean first).
    print("around a fill, quick players' moves, µs of CPU (1,000 moves before / after): "
          "cache: fills, mean, p50, p99")
    for name in OLD_LIMITS:
        marks = [done for _, which, done in result["clears"] if which == name]
        before: list[int] = []
        after: list[int] = []
        for done in marks:
            before += [int(ns) for _, ns, s in records[max(0, done - 1000):done] if not s]
            after += [int(ns) for _, ns, s in records[done:done + 1000] if not s]
        if marks:
            print(f"  {name}: {len(marks)}, mean {sum(before) / len(before) / 1000:.1f} / "
                  f"{sum(after) / len(after) / 1000:.1f}, p50 {percentile(before, 50):.0f} / "
                  f"{percentile(after, 50):.0f}, p99 {percentile(before, 99):.0f} / "
                  f"{percentile(after, 99):.0f}")


def measure_bytes(seconds: float) -> None:
    import tracemalloc
    tracemalloc.start()
    rng = random.Random(7)
    classic = Rules.preset("classic")
    six = dataclasses.replace(classic, hand_size=6)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_game(classic, [make_player("expert"), make_player("just_right")], rng)
        play_game(six, [make_player("random"), make_player("greedy")], rng)
        for _ in range(5):
            play_game(classic, [make_player("random"), make_player("random")], rng)

    def traced() -> int:
        gc.collect()
        return tracemalloc.get_traced_memory()[0]

    def step(name: str, entries: int, limit: int, clear) -> None:
        before = traced()
        clear()
        freed = traced()
        per = (before - freed) / entries if entries else 0
        print(f"{name:22s} {entries:8d} entries, {(before - freed) / 1e6:6.2f} MB: "
              f"{per:5.0f} B an entry; limit {limit:,} ≈ {per * limit / 2**20:5.1f} MiB")

    rows, cells, sols = solver.CELL_ROWS, solver._CELLS, solver._CACHE
    step("CELL_ROWS", rows.entries(), rows.limit, rows.clear)
    step("_CELLS (20 targets)", sum(c.entries() for c in cells), sum(c.limit for c in cells),
         lambda: [c.clear() for c in cells])
    step("_CACHE", sols.entries(), sols.limit, sols.clear)
    hands = movegen._OTHER_HANDS
    step("_OTHER_HANDS", hands.entries(), hands.limit, hands.clear)
    for fn in (valuation._card_values_cached, valuation._marginals):
        info = fn.cache_info()
        step(fn.__name__, info.currsize, info.maxsize, fn.cache_clear)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--scale", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--class-moves-per-hour", type=int, default=100_000)
    parser.add_argument("--policies", default="whole-clear,generations")
    parser.add_argument("--old-limits", action="store_true",
                        help="whole-clear with the limits of before issue 32 (else the same as "
                             "the generations': the policy alone differs)")
    parser.add_argument("--bytes", type=float, default=0, metavar="SECONDS")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--moves-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bytes:
        measure_bytes(args.bytes)
        return
    if args.worker:
        worker(args.worker, args.scale, args.seconds, args.seed, args.old_limits,
               args.moves_file)
        return
    print(f"{args.seconds:.0f} s a policy, limits × {args.scale} "
          f"({'whole-clear: before issue 32' if args.old_limits else 'the same for both'}), "
          f"seed {args.seed}, "
          f"both at once; {os.getloadavg()[0]:.1f} load average at the start")
    policies = args.policies.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        files = [str(Path(tmp) / f"{policy}.moves") for policy in policies]
        procs = [subprocess.Popen([sys.executable, __file__, "--worker", policy,
                                   "--scale", str(args.scale), "--seconds", str(args.seconds),
                                   "--seed", str(args.seed), "--moves-file", moves_file]
                                  + (["--old-limits"] if args.old_limits else []),
                                  stdout=subprocess.PIPE, text=True)
                 for policy, moves_file in zip(policies, files, strict=True)]
        results = [json.loads(proc.communicate()[0]) for proc in procs]
        for result, moves_file in zip(results, files, strict=True):
            result["records"] = array("d", Path(moves_file).read_bytes())
    for result in results:
        report(result, args.class_moves_per_hour)


if __name__ == "__main__":
    main()
