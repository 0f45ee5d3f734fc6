"""The capture solver against a perft file and a brute-force enumeration."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from helpers import card, cards
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba.cards import CARDS, CardError, mask_of
from escoba.solver import (
    capture_masks,
    captures,
    hand_captures,
    has_capture,
    is_capture,
    subsets_totalling,
)

PERFT = Path(__file__).parent / "data" / "capture_perft.txt"


def perft_cases():
    for line in PERFT.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        capture_sum, table, played, expected = (p.strip() for p in line.split(";"))
        sets = [] if expected == "-" else [s.split() for s in expected.split("|")]
        yield pytest.param(int(capture_sum), table, played, sets, id=f"{played}@{table}")


@pytest.mark.parametrize(("capture_sum", "table", "played", "expected"), list(perft_cases()))
def test_capture_perft(capture_sum, table, played, expected):
    got = captures(cards(table), card(played), capture_sum)
    assert [sorted(str(c) for c in s) for s in got] == [sorted(s) for s in expected]
    table_mask = mask_of(cards(table))
    assert has_capture(table_mask, card(played).index, capture_sum) == bool(expected)


def brute_force(table: list, played, capture_sum: int) -> set[frozenset]:
    out = set()
    for k in range(1, len(table) + 1):
        for combo in itertools.combinations(table, k):
            group = [*combo, played]
            jokers = sum(c.is_joker for c in group)
            rest = capture_sum - sum(c.value for c in group)
            if (jokers == 0 and rest == 0) or (jokers and jokers <= rest <= 10 * jokers):
                out.add(frozenset(combo))
    return out


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=2, max_size=13, unique=True),
       st.sampled_from((10, 15, 20)))
def test_captures_equal_brute_force(picked, capture_sum):
    played, table = picked[0], picked[1:]
    got = captures(table, played, capture_sum)
    assert len(got) == len(set(got)), "a capture is listed twice"
    assert set(got) == brute_force(table, played, capture_sum)
    table_mask = mask_of(table)
    assert has_capture(table_mask, played.index, capture_sum) == bool(got)
    for s in got:
        assert is_capture(table_mask, played.index, mask_of(s), capture_sum)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CARDS[:40]), min_size=1, max_size=12, unique=True),
       st.integers(1, 25))
def test_subsets_totalling_equal_brute_force(table, total):
    expected = {frozenset(c) for k in range(1, len(table) + 1)
                for c in itertools.combinations(table, k) if sum(x.value for x in c) == total}
    assert set(subsets_totalling(table, total)) == expected


def test_equal_values_of_different_suits_are_different_captures():
    got = captures(cards("5o 5c 5e"), card("10b"))
    assert got == [frozenset(cards("5o")), frozenset(cards("5c")), frozenset(cards("5e"))]


def test_captures_come_fewest_cards_first():
    got = captures(cards("1o 2o 3o 4o 5o 6o 7o"), card("8c"))
    sizes = [len(s) for s in got]
    assert sizes == sorted(sizes)


def test_hand_captures_per_card():
    result = hand_captures(cards("3o 5c 8e 10b"), cards("7o 2c 9b"))
    assert result[card("7o")] == [frozenset(cards("8e")), frozenset(cards("3o 5c"))]
    assert set(result[card("2c")]) == {frozenset(cards("3o 10b")), frozenset(cards("5c 8e"))}
    assert result[card("9b")] == []


def test_a_joker_played_counts_as_any_value():
    got = captures(cards("5o 9c"), card("JK1"))
    # JK + 5 (JK=10), JK + 9 (JK=6); 5 + 9 = 14 leaves 1 for the joker
    assert set(got) == {frozenset(cards("5o")), frozenset(cards("9c")),
                        frozenset(cards("5o 9c"))}


def test_a_joker_on_the_table_is_wild_too():
    assert frozenset(cards("JK2")) in captures(cards("JK2 10o"), card("7c"))


def test_a_rey_cannot_capture_with_capture_sum_ten():
    assert captures(cards("1o 2o 3o 4o"), card("10c"), capture_sum=10) == []
    assert captures(cards("10o 10c"), card("10b"), capture_sum=20) == [
        frozenset(cards("10o")), frozenset(cards("10c"))]


def test_bad_input_is_refused_clearly():
    with pytest.raises(CardError, match="unknown card '7x'"):
        cards("3o 7x")
    with pytest.raises(CardError, match="twice"):
        cards("3o 3o")
    with pytest.raises(CardError, match="both played and on the table"):
        captures(cards("3o 5c"), card("3o"))


def test_capture_masks_never_include_the_played_card():
    table = mask_of(CARDS[:40])
    for index in range(40):
        for s in capture_masks(table, index, 15):
            assert not s >> index & 1


# -- the legal-move generator's cache: solution cells (issue 17) ---------------------


#: The largest target the solver's rows are checked at (every limit is at or below it).
BRUTE_TOP = 19


def _count_vectors(counts: list[int], values: tuple[int, ...], total: int = 0):
    """Every count vector over ``values`` (k cards of each value, at most its count)
    totalling at most :data:`BRUTE_TOP`, in ``itertools.product``'s order; a vector is
    cut off as soon as its total passes the top (its extensions only grow)."""
    if not values:
        yield ()
        return
    value, rest = values[0], values[1:]
    for k in range(counts[value - 1] + 1):
        if total + k * value > BRUTE_TOP:
            break
        for tail in _count_vectors(counts, rest, total + k * value):
            yield (k, *tail)


def brute_cells(counts: list[int]) -> dict[int, tuple[tuple[int, ...], tuple]]:
    """The cell of every target up to :data:`BRUTE_TOP` by brute force: every count
    vector, highest value first, fewest cards first (the order the legal moves come in),
    split full / partial; one walk over the vectors, each filed under its total."""
    found: dict[int, tuple[list[int], list[tuple[int, tuple[tuple[int, int], ...]]]]] = {}
    values = tuple(range(10, 0, -1))
    for ks in _count_vectors(counts, values):
        taken = list(zip(ks, values, strict=True))
        fulls, partials = found.setdefault(sum(k * v for k, v in taken), ([], []))
        full = sum(15 << 4 * (v - 1) for k, v in taken if k and k == counts[v - 1])
        partial = tuple((4 * (v - 1), k) for k, v in taken if k and k < counts[v - 1])
        (partials.append((full, partial)) if partial else fulls.append(full))
    return {total: (tuple(f), tuple(p)) for total, (f, p) in found.items()}


@settings(max_examples=300, deadline=None)
@given(counts=st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 3, 4]), min_size=10, max_size=10),
       limit=st.sampled_from([9, 14, 19]))
def test_solution_cells_and_rows_equal_brute_force(counts, limit):
    from escoba.solver import solution_cell, solution_row, value_counts

    sig = sum(c << 3 * (v - 1) for v, c in enumerate(counts, start=1))
    table = sum(((1 << c) - 1) << 4 * (v - 1) for v, c in enumerate(counts, start=1))
    nibbles = value_counts(table)
    assert nibbles == sum(c << 4 * (v - 1) for v, c in enumerate(counts, start=1))
    row = solution_row(sig, limit)
    cells = brute_cells(counts)
    for target in range(BRUTE_TOP + 1):
        expected = cells.get(target, ((), ())) if 0 < target <= limit else ((), ())
        assert row[target][:2] == expected
        if 0 < target <= limit:
            assert solution_cell(sig, target)[:2] == expected


def test_value_counts_count_each_value_of_a_table():
    from escoba.solver import counts_key, value_counts

    assert value_counts(mask_of(cards("3o 3c 5e"))) == 0x10200
    assert value_counts(mask_of(CARDS[:40])) == 0x4444444444
    assert value_counts(0) == 0
    rng = random.Random(5)
    for _ in range(500):
        table = mask_of(rng.sample(CARDS[:40], rng.randint(0, 12)))
        assert counts_key(table) == value_counts(table).to_bytes(5, "little")


@given(mask=st.integers(0, (1 << 42) - 1))
def test_value_sum_adds_the_capture_values_of_the_plain_cards(mask):
    from escoba.cards import value_sum

    assert value_sum(mask) == sum(i // 4 + 1 for i in range(40) if mask >> i & 1)
