"""Quick facts spread their answers (issue 33): a round or a worksheet of any level asks
no answer much more often than the others, and no question twice while its level has
others to ask. Before, level 1 and 2 nearly always asked for a 5 (a level-1 sheet of
seed "abc" had 12 answers of 5), and a child learned to tap 5."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from puzzles import LEVELS
from puzzles.kinds import facts_by_answer, quick_facts_of_level
from puzzles.practice import ANSWER_SPREAD, quick_facts_set
from puzzles.worksheet import worksheet_puzzles

SEEDS = range(120)


def _answer(puzzle) -> int:
    return puzzle.capture_sum - sum(puzzle.addends)


@pytest.mark.parametrize("capture_sum", [15, 10])
@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("count", [5, 12, 20])
def test_a_set_spreads_its_answers_and_repeats_no_question(level, count, capture_sum) -> None:
    answers_of_level = facts_by_answer(level, capture_sum)
    if not answers_of_level:
        pytest.skip("no quick facts at this level for this sum")
    distinct = {tuple(sorted(a)) for a in quick_facts_of_level(level, capture_sum)}
    share = count / len(answers_of_level)
    cap = math.ceil(ANSWER_SPREAD * share)
    seen = Counter()
    for seed in SEEDS:
        puzzles = quick_facts_set(level, count, seed, capture_sum)
        assert len(puzzles) == count
        assert all(p.level == level and p.kind == "quick-facts" for p in puzzles)
        assert all(p.solutions[0].value == _answer(p) for p in puzzles)
        answers = Counter(_answer(p) for p in puzzles)
        assert set(answers) <= set(answers_of_level)
        # no answer comes more than its cap (about twice its share), unless the level
        # has nothing else left to ask
        questions = Counter(tuple(sorted(p.addends)) for p in puzzles)
        if len(questions) == len(puzzles):
            assert max(answers.values()) <= cap, answers
        # a question asked twice only when the level could not give another new one
        if count <= len(distinct) and count <= sum(
                min(cap, len({tuple(sorted(f)) for f in facts}))
                for facts in answers_of_level.values()):
            assert len(questions) == count, questions
        # a forced repeat spreads too: no question more often than its answer's share
        assert max(questions.values()) <= max(cap, math.ceil(count / len(distinct)) + 1)
        seen.update(answers)
        assert [p.id for p in quick_facts_set(level, count, seed, capture_sum)] == \
            [p.id for p in puzzles]  # the same seed, the same set (a sheet is printed again)
    mean = sum(seen.values()) / len(answers_of_level)
    assert max(seen.values()) <= min(cap * len(SEEDS), 2.25 * mean), seen  # about twice


def test_a_level_one_worksheet_no_longer_asks_for_five_again_and_again() -> None:
    answers = Counter(_answer(p) for p in worksheet_puzzles("quick-facts", 1, 12, "abc"))
    assert answers[5] <= 4 and len(answers) == len(facts_by_answer(1, 15))
