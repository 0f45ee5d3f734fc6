"""The "for me" pool (puzzles/pool.py): the shipped file is the generator's output, a
choice read from it is the choice generating every seed would make, and children walk
it from offsets of their own."""

from __future__ import annotations

import gzip
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles import pool
from puzzles.mastery import all_additions, all_complements
from puzzles.model import CAPTURE_SUMS
from puzzles.practice import FOR_ME_KINDS, SCOPA_KIND, for_me_puzzle, puzzle_for

KEYS = [(kind, level, s) for s in CAPTURE_SUMS for kind in pool.POOL_KINDS
        for level in pool.POOL_LEVELS]


def test_the_pool_holds_every_kind_level_and_sum_for_me_can_ask() -> None:
    assert set(pool.POOL_KINDS) == {*FOR_ME_KINDS, SCOPA_KIND}
    for key in KEYS:
        facts = pool.pool_facts(*key)
        assert facts is not None and len(facts) == pool.POOL_SIZE, key
        # puzzles that exercise facts (a Scopa level 1 set is often one card: none)
        assert sum(1 for f in facts if f) > pool.POOL_SIZE // 5, key


def test_the_shipped_pool_is_what_the_generator_makes() -> None:
    """Seeds drawn at random from every pool, generated again (a change of the
    generator that changes a puzzle fails here: ``python -m puzzles.pool --write``)."""
    rng = random.Random(32)
    for key in KEYS:
        facts = pool.pool_facts(*key)
        assert facts is not None
        for index in [0, pool.POOL_SIZE - 1, *rng.sample(range(pool.POOL_SIZE), 6)]:
            assert facts[index] == pool.seed_facts(*key, index), (key, index)


def test_writing_the_pool_again_gives_the_same_bytes_for_its_first_seeds(tmp_path) -> None:
    path = tmp_path / "pool.json.gz"
    pool.write_pool(path, size=3)
    again = path.read_bytes()
    pool.write_pool(path, size=3)
    assert path.read_bytes() == again  # no time stamp in the file
    small = json.loads(gzip.decompress(again))
    shipped = json.loads(gzip.decompress(pool.POOL_PATH.read_bytes()))
    assert small["universe"] == shipped["universe"]
    assert small["universe"]["15"] == [f"15-{v}" for v in range(1, 11)] + all_additions()
    for key, masks in small["pools"].items():
        assert masks == shipped["pools"][key][:3], key


@settings(max_examples=40, deadline=None)
@given(targets=st.lists(st.sampled_from([*all_complements(15), *all_additions()]),
                        max_size=4, unique=True),
       key=st.sampled_from([k for k in KEYS if k[2] == 15]),
       start=st.integers(0, 2 * pool.POOL_SIZE))
def test_a_choice_from_the_pool_is_the_choice_generating_every_seed_makes(
        targets: list[str], key: tuple[str, int, int], start: int) -> None:
    kind, level, capture_sum = key
    from_pool = puzzle_for(targets, kind, level, capture_sum, start=start, tries=12)
    with pytest.MonkeyPatch.context() as patch:  # no pool: each seed generated
        patch.setattr("puzzles.practice.pool_facts", lambda *args: None)
        generated = puzzle_for(targets, kind, level, capture_sum, start=start, tries=12)
    assert from_pool == generated


def test_the_seeds_past_the_pools_end_wrap_round() -> None:
    targets = ["15-7", "7+8"]
    kind, level = "hand", 2
    chosen = puzzle_for(targets, kind, level, 15, start=pool.POOL_SIZE - 5, tries=10)
    indices = [i % pool.POOL_SIZE for i in range(pool.POOL_SIZE - 5, pool.POOL_SIZE + 5)]
    scores = [sum(len(targets) - n for n, t in enumerate(targets)
                  if t in pool.seed_facts(kind, level, 15, i)) for i in indices]
    best = indices[scores.index(max(scores))]  # the first of the best
    assert chosen.seed == f"forme-{best}"


def test_children_walk_the_pool_from_offsets_of_their_own() -> None:
    firsts = {for_me_puzzle({}, [], 15, 0, prefix=f"forme-p{pid}")[0].id
              for pid in range(1, 31)}
    # thirty children, mostly different first puzzles (windows of 40 seeds of 800 from
    # thirty offsets overlap: some share their best)
    assert len(firsts) >= 20
    assert pool.offset_of(pool.POOL_PREFIX) == 0
    assert all(0 <= pool.offset_of(f"forme-p{n}") < pool.POOL_SIZE for n in range(100))
    # A child's next puzzle of a kind is from seeds not read for the one before.
    one = [for_me_puzzle({}, [], 15, n, prefix="forme-p7")[0] for n in range(0, 12, 3)]
    assert len({p.id for p in one}) == len(one)


@pytest.mark.parametrize("scopa", [False, True])
def test_every_window_of_a_kinds_pool_is_read_before_one_comes_back(scopa: bool) -> None:
    """Three kinds, or four with Scopa: each kind reads all 20 windows of 40 seeds of its
    pool before one comes back (stepping by every kind's puzzles, four kinds came back to
    the same 40 seeds, and the same puzzle, every 20 puzzles)."""
    from puzzles.practice import ForMePath

    path = ForMePath(scopa_seen=scopa)
    kinds = path.kinds()
    windows = pool.POOL_SIZE // 40
    offset = pool.offset_of("forme-p7")
    seen: dict[str, list[int]] = {kind: [] for kind in kinds}
    for number in range(windows * len(kinds)):
        puzzle, _ = for_me_puzzle({}, path, 15, number, prefix="forme-p7")
        index = int(puzzle.seed.rsplit("-", 1)[1])
        seen[puzzle.kind].append((index - offset) % pool.POOL_SIZE // 40)
    for kind in kinds:
        assert sorted(seen[kind]) == list(range(windows)), (kind, seen[kind])


def test_without_the_file_a_choice_generates_as_before(monkeypatch) -> None:
    monkeypatch.setattr(pool, "POOL_PATH", pool.POOL_PATH.with_name("missing.json.gz"))
    pool._pools.cache_clear()
    pool.pool_facts.cache_clear()
    try:
        assert pool.pool_facts("captures", 1, 15) is None
        chosen = puzzle_for(["15-7"], "captures", 1, 15)
    finally:
        pool._pools.cache_clear()
        pool.pool_facts.cache_clear()
    assert chosen == puzzle_for(["15-7"], "captures", 1, 15)
