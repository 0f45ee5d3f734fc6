"""check(): found, missed, wrong with arithmetic, duplicates, malformed, stars."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba.cards import parse_cards
from puzzles import check, from_cards, generate
from puzzles.checker import stars_for


@pytest.fixture
def example():
    """RULES.md example 1: table 3, 5, Sota, Rey; play 7 -> {Sota} or {3, 5}."""
    return from_cards("captures", parse_cards("3o 5c 8e 10b"), parse_cards("7o"))


def test_all_found_three_stars(example):
    r = check(example, ["8e", "3o 5c"])
    assert r.solved and r.stars == 3
    assert {tuple(map(str, s.take)) for s in r.found} == {("8e",), ("3o", "5c")}
    assert not r.missed and not r.wrong and not r.duplicates and not r.malformed
    assert r.facts == ("8+7", "15-7", "3+5")


def test_one_missed_two_stars(example):
    r = check(example, "8e")
    assert not r.solved and r.stars == 2
    assert [tuple(map(str, s.take)) for s in r.missed] == [("3o", "5c")]


def test_a_hint_costs_a_star(example):
    assert check(example, ["8e", "3o 5c"], hints=1).stars == 2
    assert check(example, ["8e", "3o 5c"], hints=2).stars == 1
    assert check(example, "8e", hints=1).stars == 1


def test_wrong_sum_has_its_arithmetic_written_out(example):
    r = check(example, ["8e", "3o 5c", "3o 8e"])
    assert [w.message for w in r.wrong] == ["3 + 8 + 7 = 18, not 15"]
    assert r.wrong[0].key == "wrong_sum" and r.wrong[0].params["total"] == 18
    assert not r.solved and r.stars == 2  # a wrong set counts like a miss


def test_fifteens_wrong_group_arithmetic():
    p = from_cards("fifteens", parse_cards("3o 5c 8e 7b"))
    r = check(p, ["7b 8e", "3o 5c 8e"])
    assert [w.message for w in r.wrong] == ["3 + 5 + 8 = 16, not 15"]
    assert len(r.found) == 1


def test_cards_not_on_the_table(example):
    r = check(example, ["8e", "3o 5c", "2b 6c"])
    assert [(w.key, w.message) for w in r.wrong] == [("not_on_table", "2b 6c are not on the table")]


def test_duplicates_are_reported_once_and_not_counted_twice(example):
    r = check(example, ["3o 5c", "5c 3o", "7o: 3o 5c", "8e"])
    assert r.solved and r.stars == 3
    assert r.duplicates == ("5c 3o", "7o: 3o 5c")


@pytest.mark.parametrize("item, reason", [
    ("7x 3o", "unknown card '7x'"),
    ("3o 3o", "named twice"),
    ("7o", "name the table cards"),
])
def test_malformed_items_are_reported_never_raised(example, item, reason):
    r = check(example, ["8e", "3o 5c", item])
    assert len(r.malformed) == 1 and reason in r.malformed[0].message
    assert r.solved  # a malformed item is reported, not counted as wrong


@pytest.mark.parametrize("answer", [None, 42, [None], [{"take": 5}], [[1, 2]], {"card": 3},
                                    object(), [b"3o"], "", "  ;; ", [{"card": "zz"}]])
def test_any_junk_is_handled(example, answer):
    r = check(example, answer)
    assert not r.solved and r.stars in (1, 2, 3)


def test_none_is_an_answer():
    p = from_cards("captures", parse_cards("10o 10c"), parse_cards("9e"))
    assert not p.solutions
    assert check(p, "none").solved and check(p, "none").stars == 3
    assert check(p, ["None"]).solved
    empty = check(p, [])
    assert not empty.solved and empty.missed_none and empty.stars == 2
    wrong = check(p, "10o")
    assert wrong.wrong[0].message == "10 + 9 = 19, not 15"


def test_none_when_there_is_a_capture_is_wrong(example):
    r = check(example, "none")
    assert r.wrong[0].key == "not_none" and len(r.missed) == 2 and r.stars == 1


def test_hand_puzzles_need_the_played_card():
    p = from_cards("hand", parse_cards("3o 5c 8e 10b"), parse_cards("7o 2c 5e"))
    # 7o: {8e} {3o 5c}; 2c: {3o 10b} {5c 8e}; 5e: {10b}
    assert len(p.solutions) == 5
    r = check(p, ["7o: 8e", "7o takes 3o 5c", "2c 3o 10b", "5c 8e 2c",
                  {"card": "5e", "take": ["10b"]}])
    assert r.solved and r.stars == 3
    r = check(p, ["8e"])
    assert r.malformed and "which card of your hand" in r.malformed[0].message
    r = check(p, ["7o 2c 8e"])
    assert r.wrong[0].key == "two_played"
    r = check(p, [{"card": "9b", "take": ["8e"]}])
    assert r.wrong[0].key == "not_in_hand"


def test_quick_facts():
    p = generate("quick-facts", 2, 11)
    v = p.solutions[0].value
    assert check(p, v).solved and check(p, str(v)).stars == 3
    wrong = check(p, [v + 1, v])
    expected = " + ".join(map(str, [*p.addends, v + 1]))
    assert wrong.wrong[0].message == f"{expected} = {p.capture_sum + 1}, not {p.capture_sum}"
    assert check(p, "seven").malformed
    assert check(p, [v, v]).duplicates == (str(v),)


@pytest.mark.parametrize("misses, hints, stars", [(0, 0, 3), (1, 0, 2), (0, 1, 2), (1, 1, 1),
                                                   (3, 0, 1)])
def test_stars(misses, hints, stars):
    assert stars_for(misses, hints) == stars


def test_result_to_dict_is_json_ready(example):
    data = check(example, ["8e", "3o 8e", "zz"]).to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["wrong"][0]["message"] == "3 + 8 + 7 = 18, not 15"


def test_best_move_answers_say_why_a_move_is_not_the_best():
    from escoba.moves import Move

    p = generate("best-move", 2, 5)
    best = p.solutions[0]
    r = check(p, Move(best.card, frozenset(best.take)))
    assert r.solved and r.stars == 3
    worst = p.ranking[-1]
    r = check(p, {"card": str(worst.card), "take": [str(c) for c in worst.take]})
    assert not r.solved and r.missed == p.solutions
    assert r.wrong[0].key == "not_best" and r.wrong[0].params["reason"] == worst.reason


def test_hints_point_at_a_missed_solution(example):
    from puzzles import hint

    first = hint(example)
    assert (first.key, dict(first.params)) == ("need", {"card": "7o", "need": 8})
    after = hint(example, ["8e"], strength=2)  # {8e} found: the hint is about {3o 5c}
    assert (after.key, after.params["first"]) == ("starts_with", "3o")
    assert hint(example, ["8e", "3o 5c"]).key == "all_found"
    fif = from_cards("fifteens", parse_cards("3o 5c 7b 8e"))
    assert hint(fif, ["7b 8e"]).params == {"card": "7b"}  # the group 3 + 5 + 7, by its largest
    q = generate("quick-facts", 1, 2)
    assert hint(q).params["start"] == sum(q.addends)


_JUNK = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-5, 30), st.text(max_size=12),
              st.sampled_from(["3o", "5c", "8e", "10b", "7o", "none", "7o: 3o 5c", "JK1"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["card", "take", "x"]), inner,
                                            max_size=2)),
    max_leaves=8)


@settings(max_examples=200, deadline=None)
@given(kind=st.sampled_from(["captures", "hand", "fifteens", "quick-facts"]),
       seed=st.integers(0, 50), answer=_JUNK)
def test_check_never_raises_and_accounts_for_every_solution(kind, seed, answer):
    p = generate(kind, 2, seed)
    r = check(p, answer)
    assert set(r.found) | set(r.missed) == set(p.solutions)
    assert not set(r.found) & set(r.missed)
    assert r.stars in (1, 2, 3)
    json.dumps(r.to_dict())
