"""The optional compiled core (bench/compile_engine.py, issue 17): used when built, never stale.

CI runs the engine tests twice: in pure Python, then with the core compiled and
``ESCOBA_REQUIRE_COMPILED=1``, which makes a missing or failed build a failure here
instead of a silent fall-back to pure Python.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from compile_engine import MODULES  # noqa: E402

NAMES = [m.removesuffix(".py").replace("/", ".") for m in MODULES]


def _is_compiled(name: str) -> bool:
    origin = importlib.import_module(name).__file__ or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def test_the_compiled_core_is_in_use_when_required():
    if os.environ.get("ESCOBA_REQUIRE_COMPILED") != "1":
        pytest.skip("pure Python run (ESCOBA_REQUIRE_COMPILED=1 asks for the compiled core)")
    assert [n for n in NAMES if not _is_compiled(n)] == []


def test_a_compiled_module_is_not_older_than_its_source():
    """A build shadows its .py: after an edit without a rebuild the tests would check
    the old code. Rebuild with ``make fast`` (or remove it with ``make pure``)."""
    compiled = [n for n in NAMES if _is_compiled(n)]
    if not compiled:
        pytest.skip("no compiled core built: pure Python")
    for name in compiled:
        source = ROOT / (name.replace(".", "/") + ".py")
        # The .so files themselves (a grouped mypyc module's __file__ names no real file).
        builds = [p for p in source.parent.glob(source.stem + ".*")
                  if p.name.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))]
        assert builds, name
        for build in builds:
            assert build.stat().st_mtime >= source.stat().st_mtime, (
                f"{build} is older than {source}: run `make fast` again")
    assert [n for n in NAMES if not _is_compiled(n)] == [], "a partial build"


def _played_round(seed: int, moves: int):
    from escoba import Game, Rules

    game = Game(Rules.preset("classic"), rng=random.Random(seed))
    round_ = game.start_round()
    rng = random.Random(seed)
    for _ in range(moves):
        if round_.is_over:
            break
        pairs = round_.legal_move_pairs()
        round_.play_pair(*pairs[rng.randrange(len(pairs))])
    return round_


def test_the_copy_list_names_every_attribute_a_round_holds():
    """``Round.copy`` of a compiled round copies ``_ROUND_ATTRIBUTES`` one by one: an
    attribute added to Round but not to the list would be missing from its copies."""
    from escoba.round import _ROUND_ATTRIBUTES, Round
    from escoba.rules import Rules

    if _is_compiled("escoba.round"):
        pytest.skip("a compiled round has no __dict__ to compare with (the pure run checks)")
    finished = _played_round(3, 200)  # played to the end: scored
    assert finished.is_over
    positioned = Round.from_position(Rules.preset("classic"), [["7o"], ["3c"]], ["8b"])
    for round_ in (_played_round(1, 5), finished, positioned):
        assert sorted(vars(round_)) == sorted(_ROUND_ATTRIBUTES)


def test_a_copied_round_plays_on_like_the_original_and_apart_from_it():
    original = _played_round(7, 9)
    twin = original.copy()
    assert twin.observation(0) == original.observation(0)
    rng = random.Random(5)
    while not original.is_over:
        pairs = original.legal_move_pairs()
        assert twin.legal_move_pairs() == pairs
        pair = pairs[rng.randrange(len(pairs))]
        original.play_pair(*pair)
        twin.play_pair(*pair)
        assert twin.observation(original.to_move) == original.observation(original.to_move)
    assert twin.score() == original.score()
    again = original.copy()
    assert again.is_over and again.score() == original.score()
    fresh = _played_round(7, 9)
    fork = fresh.copy()
    fork.play_pair(*fork.legal_move_pairs()[0])
    assert fresh.cards_accounted() == fork.cards_accounted()
    assert fresh.observation(0) != fork.observation(0)  # playing the copy left the original
