"""Puzzle generation: solutions equal brute force, determinism, grading order, dict round trip."""

from __future__ import annotations

import itertools
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba.cards import Card, parse_cards
from puzzles import KINDS, Puzzle, PuzzleError, from_cards, generate, parse_id, regenerate
from puzzles.grading import BANDS, LEVEL5_CAP, QUICK_BANDS, level_of
from puzzles.model import capture_facts

SOLVER_KINDS = ("captures", "hand", "fifteens", "quick-facts")


def brute_force(p: Puzzle) -> set[tuple[Card | None, frozenset[Card]]] | set[int]:
    """Every solution by itertools, independent of the solver."""
    s = p.capture_sum
    if p.kind == "quick-facts":
        return {v for v in range(1, 11) if sum(p.addends) + v == s}
    out: set[tuple[Card | None, frozenset[Card]]] = set()
    played = list(p.hand) if p.kind != "fifteens" else [None]
    for card in played:
        need = s - (card.value if card else 0)
        for r in range(1 if card else 2, len(p.table) + 1):
            for combo in itertools.combinations(p.table, r):
                if sum(c.value for c in combo) == need:
                    out.add((card, frozenset(combo)))
    return out


def stored(p: Puzzle) -> set[tuple[Card | None, frozenset[Card]]] | set[int]:
    if p.kind == "quick-facts":
        return {sol.value for sol in p.solutions}
    return {(sol.card, frozenset(sol.take)) for sol in p.solutions}


@settings(max_examples=250, deadline=None)
@given(kind=st.sampled_from(SOLVER_KINDS), level=st.integers(1, 5),
       seed=st.one_of(st.integers(-10**9, 10**9), st.text("abcxyz0123-", min_size=1,
                                                          max_size=12)),
       capture_sum=st.sampled_from((10, 15, 20)))
def test_stored_solutions_equal_brute_force(kind, level, seed, capture_sum):
    p = generate(kind, level, seed, capture_sum)
    assert (p.kind, p.level, p.capture_sum, p.seed) == (kind, level, capture_sum, str(seed))
    assert stored(p) == brute_force(p)
    assert len(p.solutions) == len(stored(p))  # no solution listed twice
    cards = list(p.table) + list(p.hand)
    assert len(set(cards)) == len(cards) and not any(c.is_joker for c in cards)
    if kind == "captures":
        assert len(p.hand) == 1
    elif kind == "hand":
        assert len(p.hand) == 3
    else:
        assert p.hand == ()
    if kind == "quick-facts":
        assert [c.value for c in p.table] == list(p.addends)


@pytest.mark.parametrize("kind", SOLVER_KINDS)
def test_same_seed_same_puzzle_other_seed_other_puzzle(kind):
    a, b = generate(kind, 3, 42), generate(kind, 3, 42)
    assert a == b and a.to_dict() == b.to_dict()
    others = {tuple(generate(kind, 3, seed).table) for seed in range(20)}
    assert len(others) > 5


def test_seed_number_and_text_are_the_same_seed():
    assert generate("captures", 2, 7) == generate("captures", 2, "7")


@pytest.mark.parametrize("kind", SOLVER_KINDS)
@pytest.mark.parametrize("capture_sum", (10, 15, 20))
def test_to_dict_from_dict_round_trip_and_id_regenerates(kind, capture_sum):
    for level in (1, 5):
        p = generate(kind, level, "rt", capture_sum)
        assert Puzzle.from_dict(p.to_dict()) == p
        assert regenerate(p.id) == p
        assert parse_id(p.id) == (kind, level, capture_sum, "rt")


def test_cli_json_shape_of_each_kind():
    cap = generate("captures", 3, 9).to_dict()
    assert list(cap)[:8] == ["id", "kind", "level", "capture_sum", "seed", "table", "hand",
                             "solutions"]
    assert cap["id"] == "captures:3:15:9" and cap["kind"] == "captures" and cap["level"] == 3
    assert all(set(s) == {"card", "take"} for s in cap["solutions"])
    assert len(cap["facts"]) == len(cap["solutions"]) and cap["facts"][0][-1] == "15-9"
    fif = generate("fifteens", 2, 1).to_dict()
    assert "hand" not in fif and all(set(s) == {"take"} for s in fif["solutions"])
    quick = generate("quick-facts", 2, 1).to_dict()
    assert "addends" in quick and set(quick["solutions"][0]) == {"value"}


@pytest.mark.parametrize("bad", [("riddles", 1, 15), ("captures", 0, 15), ("captures", 6, 15),
                                 ("captures", 1, 14), ("captures", True, 15)])
def test_bad_kind_level_or_sum_is_a_clear_error(bad):
    kind, level, capture_sum = bad
    with pytest.raises(PuzzleError):
        generate(kind, level, 0, capture_sum)


def test_bad_seed_is_a_clear_error():
    with pytest.raises(PuzzleError, match="seed"):
        generate("captures", 1, "two words")
    for bad in ("", "ünï", "a:b", "x" * 65, 1.5, None):
        with pytest.raises(PuzzleError, match="seed"):
            generate("captures", 1, bad)


# -- grading ---------------------------------------------------------------------


def brute_stats(p: Puzzle) -> dict[str, int]:
    """The statistics of README "Grading", recomputed with itertools."""
    s = p.capture_sum
    sols = sorted(brute_force(p), key=lambda x: sorted(c.index for c in x[1]))
    played = list(p.hand) if p.kind != "fifteens" else [None]
    near = 0
    for card in played:
        need = s - (card.value if card else 0)
        for r in range(1 if card else 2, len(p.table) + 1):
            for combo in itertools.combinations(p.table, r):
                near += abs(sum(c.value for c in combo) - need) == 1
    sizes = [len(t) + (1 if c else 0) for c, t in sols]
    uses: dict[Card, int] = {}
    for _, t in sols:
        for c in t:
            uses[c] = uses.get(c, 0) + 1
    largest = max([v for c, t in sols for v in [x.value for x in t] + ([c.value] if c else [])],
                  default=0)
    return {"table_size": len(p.table), "solutions": len(sols),
            "max_cards": max(sizes, default=0), "extra_cards": sum(n - 2 for n in sizes),
            "largest_addend": largest, "shared": sum(1 for k in uses.values() if k > 1),
            "near_misses": near}


def readme_difficulty(st_: dict[str, int]) -> int:
    """The formula exactly as puzzles/README.md writes it."""
    return (2 * st_["table_size"] + 3 * st_["solutions"] + 2 * max(st_["max_cards"] - 2, 0)
            + st_["extra_cards"] + 2 * st_["shared"] + min(st_["near_misses"], 8)
            + (1 if st_["largest_addend"] >= 9 else 0))


@pytest.mark.parametrize("kind", ("captures", "hand", "fifteens"))
@pytest.mark.parametrize("capture_sum", (10, 15, 20))
def test_levels_are_ordered_by_solver_statistics(kind, capture_sum):
    by_level: dict[int, list[int]] = {}
    stats_by_level: dict[int, list[dict[str, int]]] = {}
    for level in range(1, 6):
        for seed in range(25):
            p = generate(kind, level, seed, capture_sum)
            st_ = brute_stats(p)
            assert {k: getattr(p.stats, k) for k in st_} == st_, p.id
            score = readme_difficulty(st_)
            assert p.stats.difficulty == score
            # the level is exactly the band its statistics fall in
            assert level_of(score) == level, (p.id, score)
            assert score <= LEVEL5_CAP
            by_level.setdefault(level, []).append(score)
            stats_by_level.setdefault(level, []).append(st_)
    for low, high in itertools.pairwise(range(1, 6)):
        assert max(by_level[low]) < min(by_level[high])
    for key in ("table_size", "solutions"):
        means = [statistics.mean(s[key] for s in stats_by_level[lvl]) for lvl in range(1, 6)]
        assert means[0] < means[2] < means[4], (key, means)


def test_bands_are_increasing():
    assert list(BANDS) == sorted(set(BANDS)) and BANDS[-1] < LEVEL5_CAP
    for bands in QUICK_BANDS.values():
        assert list(bands) == sorted(set(bands))


@pytest.mark.parametrize("capture_sum", (10, 15, 20))
def test_quick_fact_levels_rise_with_addends_and_crossings(capture_sum):
    def weight(p):
        return p.stats.difficulty

    means = [statistics.mean(weight(generate("quick-facts", lvl, seed, capture_sum))
                             for seed in range(30)) for lvl in range(1, 6)]
    assert means == sorted(means) and means[0] < means[4]
    for lvl in range(1, 6):
        p = generate("quick-facts", lvl, 3, capture_sum)
        assert level_of(p.stats.difficulty, QUICK_BANDS[capture_sum]) == lvl


def test_level_one_is_a_first_day():
    for seed in range(60):
        p = generate("captures", 1, seed)
        assert len(p.table) <= 4 and len(p.solutions) <= 2
        assert all(len(s.take) <= 2 for s in p.solutions)


def test_level_five_is_hard():
    for seed in range(20):
        p = generate("captures", 5, seed)
        assert len(p.table) >= 7 and p.stats.difficulty >= BANDS[4]


def test_a_small_share_of_captures_puzzles_have_no_capture():
    puzzles = [generate("captures", level, seed) for level in (1, 2, 3, 4, 5)
               for seed in range(100)]
    none = [p for p in puzzles if not p.solutions]
    assert 0.02 <= len(none) / len(puzzles) <= 0.2
    assert all(p.level <= 2 for p in none)


# -- facts -----------------------------------------------------------------------


def test_facts_add_table_cards_then_the_played_card_and_name_the_complement():
    assert capture_facts(parse_cards("5c 3o"), Card.parse("7o"), 15) == ("3+5", "8+7", "15-7")
    assert capture_facts(parse_cards("8e"), Card.parse("7o"), 15) == ("8+7", "15-7")
    assert capture_facts(parse_cards("7o 8e"), None, 15) == ("7+8", "15-8")


def test_every_solution_lists_its_facts():
    for kind in SOLVER_KINDS:
        p = generate(kind, 3, 5)
        for sol in p.solutions:
            additions = [f for f in sol.facts if "+" in f]
            complements = [f for f in sol.facts if "-" in f]
            assert len(complements) == 1
            cards = len(sol.take) + (sol.card is not None) if kind != "quick-facts" \
                else len(p.addends) + 1
            assert len(additions) == cards - 1
            last = additions[-1].split("+")
            assert int(last[0]) + int(last[1]) == p.capture_sum


def test_from_cards_rules_md_example_one():
    p = from_cards("captures", parse_cards("3o 5c 8e 10b"), parse_cards("7o"))
    assert stored(p) == {(Card.parse("7o"), frozenset(parse_cards("8e"))),
                         (Card.parse("7o"), frozenset(parse_cards("3o 5c")))}
    assert p.seed.startswith("custom-") and level_of(p.stats.difficulty) == p.level
    with pytest.raises(PuzzleError):
        from_cards("captures", parse_cards("3o 5c"), parse_cards("3o"))


def test_every_kind_is_known():
    assert set(SOLVER_KINDS) | {"best-move", "scopa"} == set(KINDS)  # scopa: its own file


# -- best move (needs escoba.coach) -----------------------------------------------


@settings(max_examples=25, deadline=None)
@given(level=st.integers(1, 5), seed=st.integers(0, 10**6),
       capture_sum=st.sampled_from((10, 15, 20)))
def test_best_move_ranks_every_legal_move_and_keeps_the_best(level, seed, capture_sum):
    from puzzles.grading import MOVE_BANDS

    p = generate("best-move", level, seed, capture_sum)
    # every legal move (forced captures), by brute force, is ranked exactly once
    legal = set()
    for card in p.hand:
        takes = {frozenset(t) for r in range(1, len(p.table) + 1)
                 for t in itertools.combinations(p.table, r)
                 if sum(c.value for c in t) + card.value == capture_sum}
        legal |= {(card, t) for t in takes} or {(card, frozenset())}
    ranked = [(m.card, frozenset(m.take)) for m in p.ranking]
    assert len(ranked) == len(set(ranked)) and set(ranked) == legal
    scores = [m.score for m in p.ranking]
    assert scores == sorted(scores, reverse=True)
    best = {(m.card, frozenset(m.take)) for m in p.ranking if m.score == scores[0]}
    assert stored(p) == best
    assert scores[0] - scores[1] >= 0.05 - 1e-4  # one clear answer
    assert level_of(p.stats.difficulty, MOVE_BANDS) == level
    assert Puzzle.from_dict(p.to_dict()) == p and regenerate(p.id) == p
    assert all(m.reason for m in p.ranking)
