"""The seeds "for me" chooses its puzzles among, with the facts each one exercises, built
once and shipped as data (``puzzles/data/forme_pool.json.gz``; issue 32).

Choosing a "for me" puzzle used to generate up to 40 puzzles to keep the one that covers
the child's weakest facts best: 20-50 ms of a replica's CPU at every puzzle, a fifth of
what a class's taps cost it (docs/BENCHMARKS.md, "Where a tap's CPU goes"), the same work
in every replica. The puzzles of a seed never change (:func:`puzzles.kinds.generate` is
deterministic), so the facts of seeds ``forme-0`` .. ``forme-(POOL_SIZE-1)`` of every
kind, level and capture sum "for me" can ask are written once by::

    .venv/bin/python -m puzzles.pool --write

and read at the first choice (a few milliseconds); a choice then scores 40 fact sets and
generates only the puzzle it keeps. ``tests/test_pool.py`` checks the file against the
generator (a version of the generator that changes a puzzle fails it: write it again).

Each child reads a kind's pool from an offset of their own (:func:`offset_of`), 40
seeds further at each puzzle of that kind, so two children do not get the same puzzles
in the same order, and a child reads a seed of one kind, level and sum again only after
``POOL_SIZE / 40`` (20) puzzles of that kind.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import zlib
from collections.abc import Sequence
from pathlib import Path

from .kinds import generate
from .mastery import all_additions, normalise
from .model import CAPTURE_SUMS

__all__ = ["POOL_SIZE", "POOL_PREFIX", "POOL_PATH", "POOL_KINDS", "POOL_LEVELS", "pool_facts",
           "offset_of", "seed_facts", "build_pool", "write_pool"]

#: Seeds per kind, level and capture sum.
POOL_SIZE = 800
#: The seeds' names: ``forme-0`` ... (what :func:`puzzles.practice.puzzle_for` searched
#: with its default prefix before the pool, so its choices are unchanged).
POOL_PREFIX = "forme"
POOL_PATH = Path(__file__).resolve().parent / "data" / "forme_pool.json.gz"
#: The kinds "for me" takes turns with (puzzles.practice.FOR_ME_KINDS and Scopa).
POOL_KINDS: tuple[str, ...] = ("captures", "fifteens", "hand", "scopa")
POOL_LEVELS: tuple[int, ...] = (1, 2, 3, 4, 5)
_FORMAT = 1


def seed_facts(kind: str, level: int, capture_sum: int, index: int) -> frozenset[str]:
    """The facts (normalised) the puzzle of pool seed ``index`` exercises, generated."""
    puzzle = generate(kind, level, f"{POOL_PREFIX}-{index}", capture_sum)
    known = set(universe_of(capture_sum))
    facts = {normalise(x) for x in puzzle.facts}
    assert facts - {None} <= known, facts - known  # every key normalise gives is in it
    return frozenset(f for f in facts if f is not None)


def universe_of(capture_sum: int) -> list[str]:
    """The facts a pool's masks name, in bit order: every fact key of the sum a puzzle
    can name (``15-1`` .. ``15-10``: a puzzle may name ``15-3`` on the way to a set,
    though only ``15-5`` .. ``15-10`` are practised), then the 55 additions."""
    return [f"{capture_sum}-{v}" for v in range(1, 11) if v < capture_sum] + all_additions()


def _mask(facts: frozenset[str], universe: Sequence[str]) -> int:
    return sum(1 << i for i, fact in enumerate(universe) if fact in facts)


def build_pool(size: int = POOL_SIZE) -> dict[str, object]:
    """Every pool, generated (about a minute): the file's contents."""
    pools: dict[str, list[int]] = {}
    for capture_sum in CAPTURE_SUMS:
        universe = universe_of(capture_sum)
        for kind in POOL_KINDS:
            for level in POOL_LEVELS:
                pools[_key(kind, level, capture_sum)] = [
                    _mask(seed_facts(kind, level, capture_sum, i), universe)
                    for i in range(size)]
    return {"format": _FORMAT, "size": size, "prefix": POOL_PREFIX,
            "universe": {str(s): universe_of(s) for s in CAPTURE_SUMS},
            "pools": pools}


def write_pool(path: Path = POOL_PATH, size: int = POOL_SIZE) -> None:
    """Generate every pool and write the file (``mtime=0``: the same bytes each time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(build_pool(size), separators=(",", ":"), sort_keys=True)
    path.write_bytes(gzip.compress(text.encode(), mtime=0))


def _key(kind: str, level: int, capture_sum: int) -> str:
    return f"{kind}/{level}/{capture_sum}"


@functools.lru_cache(maxsize=1)
def _pools() -> dict[str, object]:
    try:
        data = json.loads(gzip.decompress(POOL_PATH.read_bytes()))
    except (OSError, ValueError):
        return {}  # no file (a checkout being built): every choice generates, as before
    if data.get("format") != _FORMAT or data.get("prefix") != POOL_PREFIX:
        return {}
    return data


@functools.lru_cache(maxsize=64)
def pool_facts(kind: str, level: int, capture_sum: int) -> tuple[frozenset[str], ...] | None:
    """The facts of each pool seed of a kind, level and sum, in seed order; ``None`` when
    the pool has none (then the caller generates)."""
    data = _pools()
    masks = data.get("pools", {}).get(_key(kind, level, capture_sum)) if data else None
    universe = data.get("universe", {}).get(str(capture_sum)) if data else None
    if not masks or not universe:
        return None
    return tuple(frozenset(fact for i, fact in enumerate(universe) if mask >> i & 1)
                 for mask in masks)


def offset_of(prefix: str) -> int:
    """Where a child's walk through the pools starts: 0 for the pool's own prefix (the
    choices of before, for the tests and the benchmarks), else a stable hash of it."""
    return 0 if prefix == POOL_PREFIX else zlib.crc32(prefix.encode()) % POOL_SIZE


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m puzzles.pool",
        description='Write the facts of the "for me" seeds (puzzles/data/forme_pool.json.gz).')
    parser.add_argument("--write", action="store_true", help="generate and write the file")
    parser.add_argument("--size", type=int, default=POOL_SIZE, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 0
    write_pool(size=args.size)
    print(f"wrote {POOL_PATH} ({POOL_PATH.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
