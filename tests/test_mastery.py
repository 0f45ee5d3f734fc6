"""Mastery levels, Leitner boxes and "for me" on crafted answer histories."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from puzzles.mastery import (
    Answer,
    addition,
    all_additions,
    all_complements,
    fact_level,
    fact_stats,
    leitner_box,
    normalise,
    stats_of_fact,
    summary_line,
    weakest_facts,
)

T0 = datetime(2026, 12, 1, 9, 0)


def answers(fact: str, pattern: str, seconds: float | None = None, start: int = 0):
    """'1101' -> right, right, wrong, right, a minute apart."""
    return [Answer(fact, ch == "1", T0 + timedelta(minutes=start + i), seconds)
            for i, ch in enumerate(pattern)]


def test_fact_keys_are_canonical():
    assert addition(8, 3) == "3+8"
    assert normalise("8+3") == "3+8"
    assert normalise(" 15 - 7 ") == "15-7"
    assert normalise("12+3") is None          # a running total past 10
    assert normalise("banana") is None
    assert len(all_additions()) == 55
    assert all_complements(15) == [f"15-{v}" for v in range(5, 11)]
    assert all_complements(10) == [f"10-{v}" for v in range(1, 10)]
    with pytest.raises(ValueError):
        addition(0, 3)


@pytest.mark.parametrize(("pattern", "level"), [
    ("", "new"),
    ("0", "attempted"),
    ("1010", "attempted"),        # 50 %
    ("1110110", "familiar"),      # 71 %, last three not all right
    ("0111", "proficient"),       # last three right
    ("1111111110", "familiar"),   # 90 %, but the last was wrong
    ("0000000111", "proficient"),  # recent run counts
])
def test_levels_untimed(pattern, level):
    assert fact_level(answers("3+5", pattern)) == level


def test_fluent_is_two_of_the_last_three_timed_or_wrong_tries_in_time():
    slow = answers("3+5", "111", seconds=4.2)
    fast = answers("3+5", "11", seconds=2.1, start=10)
    assert fact_level(slow) == "proficient"
    assert fact_level(slow + fast[:1]) == "proficient"     # one in time of three
    assert fact_level(slow + fast) == "fluent"             # two of the last three
    # untimed (puzzle) answers make a fact proficient, never fluent, and do not push
    # the timed ones out of the last three
    puzzles = answers("3+5", "11111", start=20)
    assert fact_level(puzzles) == "proficient"
    assert fact_level(slow + fast + puzzles) == "fluent"
    # one slip in three keeps it fluent, two undo it (XtraMath's rule, the grid's)
    one_miss = answers("3+5", "0", 1.0, start=30)
    assert fact_level(slow + fast + one_miss) == "fluent"
    assert fact_level(slow + fast + one_miss + one_miss) == "familiar"
    # a wrong answer in a puzzle counts as a slip too
    assert fact_level(slow + fast + answers("3+5", "00", start=40)) == "familiar"
    # within a class's longer limit the slow answers were in time
    assert fact_level(slow, limit=6) == "fluent"
    assert fact_level(slow, limit=4.2) == "fluent" and fact_level(slow, limit=4.1) != "fluent"


def test_stats_read_again_at_a_class_limit_equal_stats_read_at_it():
    rng = random.Random(7)
    for _ in range(300):
        items = [Answer("3+5", rng.random() < 0.7, T0 + timedelta(minutes=i),
                        rng.choice((None, None, 1.5, 2.9, 3.0, 4.5, 5.9, 6.0, 9.0, 12.5)))
                 for i in range(rng.randrange(0, 9))]
        at_three = stats_of_fact("3+5", items)
        for limit in (3, 6, 12):
            assert at_three.at_limit(limit) == stats_of_fact("3+5", items, limit)
            assert at_three.at_limit(limit).level == (fact_level(items, limit) if items
                                                      else "new")


def test_leitner_box_moves_up_and_a_miss_sends_back_to_one():
    assert leitner_box([]) == 1
    assert leitner_box(answers("3+5", "11")) == 3            # sets found in puzzles
    assert leitner_box(answers("3+5", "11111111")) == 5
    assert leitner_box(answers("3+5", "11110", seconds=2.0)) == 1   # a wrong quick fact
    assert leitner_box(answers("3+5", "111101", seconds=2.0)) == 2
    # a set missed in a puzzle is weak evidence: one box down, not back to 1
    assert leitner_box(answers("3+5", "11110")) == 4
    assert leitner_box(answers("3+5", "0000")) == 1


def test_leitner_box_moves_up_only_on_quick_answers():
    fast, slow = answers("3+5", "111", seconds=2.5), answers("3+5", "1", 7.0, start=5)
    assert leitner_box(fast) == 4
    # right but slow: counted, not remembered; one box down
    assert leitner_box(fast + slow) == 3
    assert leitner_box(answers("3+5", "111", seconds=7.0)) == 1
    # a step of a longer quick fact: the question's time per step decides
    step = [Answer("3+5", True, T0 + timedelta(minutes=i), None, pace)
            for i, pace in enumerate([2.0, 2.4, 5.5])]
    assert leitner_box(step[:2]) == 3
    assert leitner_box(step) == 2
    assert step[2].pace == 5.5 and fast[0].pace == 2.5 and answers("3+5", "1")[0].pace is None
    # timed by a question of two steps: the pace is the time per step
    assert Answer("15-8", True, T0, 5.0, None, steps=2).pace == 2.5


def test_stats_merge_orderings_and_ignore_outside_facts():
    history = answers("8+3", "10", seconds=2.0) + answers("3+8", "1", seconds=4.0, start=5)
    history += answers("12+3", "1")
    stats = fact_stats(reversed(history), facts=["6+9"])
    assert set(stats) == {"3+8", "6+9"}
    s = stats["3+8"]
    assert (s.answers, s.correct, s.history) == (3, 2, (True, False, True))
    assert s.median_seconds == 3.0          # median of correct timed answers 2.0 and 4.0
    assert stats["6+9"].level == "new" and stats["6+9"].answers == 0


def test_for_me_targets_the_weakest_facts():
    history = (answers("3+5", "11111") + answers("6+9", "110", seconds=2.0, start=10)
               + answers("7+8", "0", seconds=2.0, start=20) + answers("2+4", "111", start=30))
    stats = fact_stats(history)
    picked = weakest_facts(stats, ["3+5", "6+9", "7+8", "2+4", "1+1"], count=3)
    # 6+9 and 7+8 are back in box 1 (a quick fact missed), least recently practised first
    assert picked[:2] == ["6+9", "7+8"]
    assert picked[2] == "1+1"               # then a new fact, before well-known ones
    assert "3+5" not in picked


def test_for_me_reviews_facts_when_their_box_is_due():
    history = (answers("3+5", "11111") + answers("2+4", "11", start=10)
               + answers("6+9", "1", start=20))            # boxes 5, 3 and 2, same morning
    stats = fact_stats(history)
    facts = ["3+5", "2+4", "6+9"]
    assert [stats[f].box for f in facts] == [5, 3, 2]
    same_day = weakest_facts(stats, facts, count=3)
    assert same_day == ["6+9", "2+4", "3+5"]               # nothing due: lowest box first
    # box 2 comes back after a day, box 3 after two, box 5 after eight
    day = timedelta(days=1)
    assert weakest_facts(stats, facts, count=1, now=T0 + day) == ["6+9"]
    assert weakest_facts(stats, facts + ["1+1"], count=2, now=T0 + 2 * day) \
        == ["1+1", "6+9"]                                  # new before reviews
    eight = weakest_facts(stats, facts, count=3, now=T0 + 8 * day)
    assert eight == ["6+9", "2+4", "3+5"]                  # all due: lowest box first
    # within a box, the longest overdue first
    more = fact_stats(answers("2+4", "11") + answers("4+4", "11", start=60 * 24 * 3))
    assert weakest_facts(more, ["4+4", "2+4"], count=2, now=T0 + 9 * day) == ["2+4", "4+4"]


def test_summary_line_for_parents():
    history = []
    for i, fact in enumerate(["1+2", "2+3", "6+9"]):
        history += answers(fact, "111", seconds=1.5 + i, start=i * 10)
    key, params = summary_line(fact_stats(history))
    assert key == "mastery_summary"
    assert params == {"fluent": 2, "total": 55, "slowest": "6+9", "limit": "3", "timed": True}
    # the slowest named is one not fluent, though a fluent one is slower over its history
    history = answers("6+9", "111", seconds=2.9) + answers("2+3", "001", 1.0, start=10)
    stats = fact_stats(history)
    assert stats["6+9"].level == "fluent" and stats["2+3"].level != "fluent"
    assert stats["6+9"].median_seconds > stats["2+3"].median_seconds
    assert summary_line(stats)[1]["slowest"] == "2+3"
    # every timed addition fluent: none is named the slowest (it read "slowest: 6 + 9"
    # beside a green cell)
    stats = fact_stats(answers("6+9", "111", seconds=2.9) + answers("2+3", "11", start=10))
    assert summary_line(stats)[1]["slowest"] is None and summary_line(stats)[1]["timed"]
