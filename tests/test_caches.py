"""The engine's bounded caches (issue 32): two generations that forget gradually.

Every cache the engine keeps across calls is a :class:`escoba.caches.Generations`;
here they are made small enough to turn over many times in a few games, and the
games must come out exactly as with the caches at their usual size, the caches
never hold more than their bound, and what is in use survives a turnover.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from escoba import Rules, movegen, solver
from escoba.bots import make_player
from escoba.caches import Generations
from escoba.match import play_game
from escoba.movegen import legal_move_pairs
from escoba.solver import subset_masks_in_range


def test_a_full_young_generation_becomes_old_and_the_old_one_is_dropped():
    cache: Generations[int, str] = Generations(4)
    for key in range(2):
        cache.put(key, str(key))
    cache.put(2, "2")  # the young generation (0, 1) was full: it is old now
    assert dict(cache) == {2: "2"} and cache.old == {0: "0", 1: "1"}
    cache.put(3, "3")
    cache.put(4, "4")  # again: (2, 3) old, (0, 1) dropped
    assert dict(cache) == {4: "4"} and cache.old == {2: "2", 3: "3"}
    assert cache.lookup(0) is None and cache.turnovers == 2


def test_a_lookup_in_the_old_generation_makes_it_young():
    cache: Generations[int, str] = Generations(4)
    cache.put(1, "a")
    cache.put(2, "b")
    cache.put(3, "c")  # 1, 2 old
    assert cache.lookup(1) == "a"
    assert 1 in cache and 1 not in cache.old
    cache.put(4, "d")  # 3, 1 old now; 2 dropped
    assert cache.lookup(1) == "a" and cache.lookup(2) is None


def test_what_is_in_use_survives_every_turnover_and_the_size_stays_bounded():
    cache: Generations[int, int] = Generations(100)
    for key in range(10_000):
        cache.put(key, key)
        assert cache.lookup(-1) in (None, -1)  # -1: used at every step
        if cache.lookup(-1) is None:
            cache.put(-1, -1)
        assert cache.entries() <= 100
    assert cache.turnovers > 100
    assert cache.lookup(-1) == -1
    # Gradual: just after a turnover the generation before it is all still there.
    young = dict(cache)
    cache.turn_over()
    assert len(cache) == 0 and cache.old == young
    assert all(cache.lookup(key) == value for key, value in young.items())


def test_a_retire_hook_sees_the_generation_becoming_old():
    retired: list[dict[int, int]] = []
    cache: Generations[int, int] = Generations(4, retire=lambda young: retired.append(dict(young)))
    for key in range(5):
        cache.put(key, key)
    assert retired == [{0: 0, 1: 1}, {2: 2, 3: 3}]


def test_resize_drops_the_earliest_entries():
    cache: Generations[int, int] = Generations(10)
    for key in range(8):
        cache.put(key, key)
    cache.resize(6)
    assert cache.entries() <= 6 and cache.lookup(7) == 7


SMALL = {"rows": 40, "cells": 16, "solutions": 30, "hands": 8}


@pytest.fixture
def small_caches() -> Iterator[list[Generations]]:
    """The engine's caches made tiny (then given back their size, emptied)."""
    caches: list[tuple[Generations, int]] = [(solver.CELL_ROWS, SMALL["rows"]),
                                             (solver._CACHE, SMALL["solutions"]),
                                             (movegen._OTHER_HANDS, SMALL["hands"])]
    caches += [(cells, SMALL["cells"]) for cells in solver._CELLS]
    limits = [cache.limit for cache, _ in caches]
    for cache, small in caches:
        cache.clear()
        cache.resize(small)
    yield [cache for cache, _ in caches]
    for (cache, _), limit in zip(caches, limits, strict=True):
        cache.clear()
        cache.resize(limit)


def _games(seed: int) -> list:
    """Seeded games over the caches' users: bots that search (the expert's exact
    subsets), hands of six (cards of hands not made at import), and plain rounds."""
    rng = random.Random(seed)
    classic = Rules.preset("classic")
    six = dataclasses.replace(classic, hand_size=6)
    out = []
    for rules, levels in ((classic, ("expert", "greedy")), (six, ("random", "gentle")),
                          (classic, ("random", "random"))):
        game = play_game(rules, [make_player(level) for level in levels], rng)
        out.append([(r.score(), r.history)
                    for r in game.rounds])
    return out


def _reachable_rows() -> list[list]:
    """Every row the cache's rows lead to through their links (slots 21-30)."""
    seen: dict[int, list] = {}
    stack = list(solver.CELL_ROWS.values()) + list(solver.CELL_ROWS.old.values())
    while stack:
        row = stack.pop()
        if id(row) not in seen:
            seen[id(row)] = row
            stack.extend(link for link in row[21:] if link is not None)
    return list(seen.values())


def test_games_with_tiny_caches_come_out_as_with_large_ones(small_caches):
    small = _games(32)
    turned = {id(cache): cache.turnovers for cache in small_caches}
    assert solver.CELL_ROWS.turnovers > 10 and solver._CACHE.turnovers > 10
    assert movegen._OTHER_HANDS.turnovers > 10
    assert all(cache.entries() <= cache.limit for cache in small_caches)
    for cache in small_caches:
        cache.resize(1_000_000)
    large = _games(32)
    assert large == small
    assert {id(cache): cache.turnovers for cache in small_caches} == turned  # none here


def test_rows_dropped_by_a_turnover_are_not_kept_alive_by_links(small_caches):
    """A row links the rows one card further; after any number of turnovers every row
    reachable from the cache is in it (so the rows alive are bounded by the cache)."""
    for seed in range(6):
        _games(seed)
        cached = {id(row) for row in solver.CELL_ROWS.values()} | {
            id(row) for row in solver.CELL_ROWS.old.values()}
        reachable = _reachable_rows()
        assert len(reachable) <= solver.CELL_ROWS.limit
        assert {id(row) for row in reachable} <= cached
    assert solver.CELL_ROWS.turnovers > 50


def test_rows_hold_no_cell_the_cells_cache_has_dropped(small_caches):
    """Otherwise a row keeps a dropped cell alive and a new table gets a copy of it. The
    rows are walked for them once they add up to a share of the rows: until then a row
    may hold one of those waiting (no more), and after the walk none."""
    solver.CELL_ROWS.resize(1_000_000)  # rows kept: only the cells turn over
    walks = solver.ROW_WALKS[0]
    for seed in range(4):
        _games(seed)
        rows = list(solver.CELL_ROWS.values())
        waiting = sum(len(dropped) for dropped in solver._DROPPED)
        assert waiting < solver.DROPPED_SHARE * len(rows) + max(
            cells.entries() for cells in solver._CELLS)
        for check in ("before the walk", "after"):
            for target, cells in enumerate(solver._CELLS):
                kept = ({id(cell) for cell in cells.values()}
                        | {id(cell) for cell in cells.old.values()})
                if check == "before the walk":
                    kept |= set(solver._DROPPED[target])
                held = {id(row[target]) for row in rows if row[target] is not None}
                assert held - {id(solver.NO_SOLUTIONS)} <= kept, check
            solver.forget_dropped_cells()
    turnovers = sum(cells.turnovers for cells in solver._CELLS)
    assert turnovers > 50
    # Walked far less often than the cells turned over (each turnover walked before;
    # four of these walks are the test's own).
    assert 0 < solver.ROW_WALKS[0] - walks < turnovers / 4
    assert all(cells.entries() <= cells.limit for cells in solver._CELLS)


def test_legal_moves_stay_right_while_the_caches_turn_over(small_caches):
    """Every table and hand of random positions, against subset sums counted afresh."""
    rng = random.Random(5)
    rules = Rules.preset("classic")
    for _ in range(400):
        cards = rng.sample(range(40), rng.randint(1, 12))
        hand = sum(1 << c for c in cards[:rng.randint(1, min(5, len(cards)))])
        table = sum(1 << c for c in cards) & ~hand
        expected = set()
        for card in range(40):
            if hand >> card & 1:
                takes = [t for t in subset_masks_in_range(table, 15 - solver.VALUE[card],
                                                           15 - solver.VALUE[card]) if t]
                expected |= {(card, t) for t in takes} or {(card, 0)}
        assert set(legal_move_pairs(rules, hand, table)) == expected
    assert solver.CELL_ROWS.turnovers > 5 and all(
        cache.entries() <= cache.limit for cache in small_caches)


def test_the_hands_made_at_import_are_never_dropped(small_caches):
    before = len(movegen._HAND_CARDS)
    _games(3)
    assert len(movegen._HAND_CARDS) == before == 40 + 780 + 9880


def _walk_while_another_thread_writes(walk, cache: Generations) -> RuntimeError | None:
    """``walk(cache)`` 300 times while another thread adds and removes entries of both
    generations, as another session's game does (a thread switch every microsecond):
    the first error the walk raised, or None."""
    import sys
    import threading

    stop = threading.Event()

    def other_game() -> None:
        key = 10**9
        while not stop.is_set():
            key += 1
            cache.old[key] = solver.NO_SOLUTIONS
            cache.old.pop(key - 50, None)  # a cell promoted out of the old generation
            cache[key] = [None] * 31  # a row added
            cache.pop(key - 50, None)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    writer = threading.Thread(target=other_game)
    writer.start()
    try:
        for _ in range(300):
            try:
                walk(cache)
            except RuntimeError as error:
                return error
        return None
    finally:
        stop.set()
        writer.join()
        sys.setswitchinterval(interval)


@pytest.mark.parametrize("walk", ["unlink rows", "forget cells"])
def test_a_turnover_walk_holds_up_while_another_thread_plays(walk, monkeypatch):
    """The app plays its sessions in threads: the walks a turnover makes over a
    generation (the rows' links cut, the old cells noted) copy it first. Walking the dict
    itself raised "dictionary changed size during iteration" in tests/test_properties.py's
    threads in a full test run (2026-12-06)."""
    monkeypatch.setattr(solver, "_DROPPED", [{} for _ in range(20)])
    cache: Generations = Generations(100_000)
    for key in range(3000):
        cache[key] = [None] * 31
        cache.old[key] = ((1,), (), ())
    walks = {"unlink rows": solver._unlink_rows,
             "forget cells": lambda generations: solver._forget_cells(generations, 3)}
    assert _walk_while_another_thread_writes(walks[walk], cache) is None


def test_a_cell_noted_during_the_walk_waits_for_the_next_walk(monkeypatch):
    """A cell another thread's turnover notes while the rows are walked is not among
    those walked for: it stays noted for the next walk (forgetting it unwalked left rows
    holding a dropped cell, a leak), and those walked for are forgotten."""
    walked, late = ((1,), (), ()), ((2,), (), ())
    dropped = [{} for _ in range(20)]
    dropped[3][id(walked)] = walked

    class Rows(Generations):
        def values(self):  # the walk's copy of the rows: another thread notes a cell
            dropped[3][id(late)] = late
            return super().values()

    rows: Generations = Rows(100)
    holding_walked, holding_late = [None] * 20, [None] * 20
    holding_walked[3], holding_late[3] = walked, late
    rows[1], rows[2] = holding_walked, holding_late
    monkeypatch.setattr(solver, "_DROPPED", dropped)
    monkeypatch.setattr(solver, "CELL_ROWS", rows)
    solver.forget_dropped_cells()
    assert holding_walked[3] is None and holding_late[3] is late
    assert dropped[3] == {id(late): late}  # waits for the next walk
    solver.forget_dropped_cells()
    assert holding_late[3] is None and dropped[3] == {}
