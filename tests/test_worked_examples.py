"""The worked examples at the end of RULES.md, one test each."""

from __future__ import annotations

import pytest
from helpers import card, cards, stacked_round

from escoba import IllegalMoveError, Move, Rules, captures


def as_sets(text_sets: list[str]) -> set[frozenset]:
    return {frozenset(cards(t)) for t in text_sets}


def test_example_1_seven_captures_sota_or_three_and_five():
    # Table 3, 5, Sota, Rey; play 7: {Sota} (7+8) and {3, 5} (7+3+5).
    table = cards("3o 5c 8e 10b")
    assert set(captures(table, card("7o"))) == as_sets(["8e", "3o 5c"])


def test_example_1_choosing_three_and_five_takes_more_cards():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    played = round_.play(Move(card("7o"), frozenset(cards("3o 5c"))))
    assert played.take == frozenset(cards("3o 5c"))
    assert set(round_.table) == set(cards("8e 10b"))
    assert set(round_.pile(1)) == set(cards("7o 3o 5c"))  # seat 1 plays first (dealer 0)


def test_example_2_caballo_on_sota_and_rey_captures_nothing():
    # 9+8 = 17, 9+10 = 19: the Caballo is laid down.
    assert captures(cards("8e 10b"), card("9b")) == []
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["9b 1c 2c", "4e 6e 1b"], "8e 10b 3c 4o")
    round_.play(Move(card("9b")))
    assert card("9b") in round_.table


def test_example_3_six_captures_the_caballo():
    assert captures(cards("8e 10b 9b"), card("6c")) == [frozenset(cards("9b"))]


def test_example_4_rey_on_two_and_three_is_an_escoba():
    # 10 + 2 + 3 = 15 clears the table: escoba.
    assert captures(cards("2c 3c"), card("10o")) == [frozenset(cards("2c 3c"))]
    rules = Rules.preset("classic")
    # Dealer 0, so seat 1 plays first; its hand is listed first.
    round_ = stacked_round(rules, ["6c 1e 1b", "10o 1c 1o"], "2c 3c 4o 5o")
    first = round_.play(Move(card("6c"), frozenset(cards("4o 5o"))))  # leaves 2c 3c
    assert not first.escoba
    sweep = round_.play(Move(card("10o"), frozenset(cards("2c 3c"))))
    assert sweep.escoba
    assert round_.table == ()
    assert round_.escobas == (1, 0)


def test_example_5_rey_needs_five_as_needs_fourteen():
    assert captures(cards("5o"), card("10b")) == [frozenset(cards("5o"))]
    assert captures(cards("4o"), card("10b")) == []
    assert captures(cards("10o 4c"), card("1b")) == [frozenset(cards("10o 4c"))]
    assert captures(cards("10o 3c"), card("1b")) == []


def test_example_6_eight_captures_a_seven_or_two_and_five():
    assert set(captures(cards("7c 2e 5b"), card("8o"))) == as_sets(["7c", "2e 5b"])


def test_example_7_initial_table_of_fifteen_goes_to_the_dealer():
    rules = Rules.preset("classic")  # dealer_takes
    round_ = stacked_round(rules, ["3c 4c 6c", "3e 4e 6e"], "1o 2o 5o 7o", dealer=0)
    assert round_.table == ()
    assert set(round_.pile(0)) == set(cards("1o 2o 5o 7o"))
    assert round_.escobas == (0, 0)           # not an escoba
    assert round_.last_capturer == 0          # but a capture


def test_example_8_frequent_fifteens():
    for played, table in [("10o", "5c"), ("9o", "6c"), ("8o", "7c"),
                          ("7o", "3c 5e"), ("6o", "4c 5e")]:
        assert frozenset(cards(table)) in captures(cards(table), card(played)), played


def test_a_forced_capture_cannot_be_refused():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    with pytest.raises(IllegalMoveError, match="a capture is forced"):
        round_.play(Move(card("7o")))
