"""Practice "for me": which facts an attempt answers, quick facts for a fact, puzzles chosen
for the weakest facts, levels that follow the child, streaks."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from escoba import Card
from puzzles import check, from_cards, generate
from puzzles.mastery import Answer, all_additions, fact_stats, normalise, weakest_facts
from puzzles.practice import (
    FOR_ME_KINDS,
    Attempt,
    ForMePath,
    answers_from_rows,
    askable_facts,
    assignable_facts,
    attempt_answers,
    for_me_puzzle,
    for_me_quick_facts,
    one_per_question,
    practice_candidates,
    puzzle_candidates,
    puzzle_for,
    quick_fact,
    quick_fact_for,
    quick_fact_key,
    streaks,
    suggested_level,
    weakest_questions,
)

T0 = datetime(2026, 12, 1, 9, 0)


def cards(text: str) -> list[Card]:
    return [Card.parse(c) for c in text.split()]


def history(fact: str, pattern: str, start: int = 0, seconds: float | None = None):
    return [Answer(fact, ch == "1", T0 + timedelta(minutes=start + i), seconds)
            for i, ch in enumerate(pattern)]


def test_found_facts_are_right_missed_wrong_and_a_wrong_set_misses_its_complement():
    # 7o on 3o 5c 8e 10b: solutions {8e} and {3o 5c} (RULES.md example 1)
    p = from_cards("captures", cards("3o 5c 8e 10b"), cards("7o"))
    result = check(p, "8e; 10b")  # finds 8 + 7, misses 3 + 5 + 7, 10 + 7 = 17 is wrong
    got = {f: ok for f, ok, _ in attempt_answers(p, result)}
    assert got["7+8"] is True            # found
    assert got["3+5"] is False           # only in the missed set
    assert got["15-7"] is False          # the wrong set 10 + 7: what the 7 needed was wrong
    assert all(s is None for *_, s in attempt_answers(p, result, 12.0))  # puzzles never timed
    right = {f: ok for f, ok, _ in attempt_answers(p, check(p, "8e; 3o 5c"))}
    assert right == {"7+8": True, "15-7": True, "3+5": True}


def test_a_fact_found_once_counts_right_even_if_another_set_using_it_was_missed():
    p = from_cards("fifteens", cards("7o 8c 7e 1b"))   # 7o 8c, 7e 8c, 7o 7e 1b
    result = check(p, "7o 8c")
    got = {f: ok for f, ok, _ in attempt_answers(p, result)}
    assert got["7+8"] is True             # found with 7o; missed with 7e: still right


def test_quick_facts_time_the_one_fact_asked():
    p = quick_fact([8])                    # 8 + ? = 15
    assert quick_fact_key(p) == "15-8"
    right = attempt_answers(p, check(p, 7), 2.5)
    assert sorted(right) == [("15-8", True, 2.5), ("7+8", True, 2.5)]
    wrong = attempt_answers(p, check(p, 6), 4.0)
    assert sorted(wrong) == [("15-8", False, 4.0), ("7+8", False, 4.0)]
    two = quick_fact([2, 6])               # 2 + 6 + ? = 15
    slow = dict((f, s) for f, _, s in attempt_answers(two, check(two, 7), 5.0))
    assert slow == {"15-8": 5.0, "7+8": 5.0, "2+6": None}   # a slow answer: which step?
    fast = dict((f, s) for f, _, s in attempt_answers(two, check(two, 7), 2.0))
    assert fast["2+6"] == 2.0              # within 3 s: every step was fluent
    assert attempt_answers(two, check(two, 5), 3.0) == [("15-8", False, 3.0)]


@pytest.mark.parametrize("capture_sum", [10, 15, 20])
def test_quick_fact_for_exercises_its_fact(capture_sum: int):
    made = 0
    for fact in practice_candidates(capture_sum):
        p = quick_fact_for(fact, capture_sum)
        if p is None:
            continue
        made += 1
        assert fact in {normalise(f) for f in p.facts}, fact
        assert check(p, p.solutions[0].value).solved
        assert p.solutions[0].value == capture_sum - sum(p.addends)
        # graded like a generated quick fact of its level
        assert p.addends in [tuple(a) for a in
                             __import__("puzzles.kinds", fromlist=["x"])
                             .quick_facts_of_level(p.level, capture_sum)]
    assert made >= 30
    assert quick_fact_for("9+9", 15) is None     # 18 is past 15: no quick fact for it
    assert quick_fact_for("1+1", 15).addends == (1, 1, 3)


def test_for_me_quick_facts_target_the_weakest_facts():
    answers = (history("15-7", "0", 0) + history("15-6", "10", 5)
               + history("15-8", "111", 10, seconds=1.5) + history("5+10", "111", 20))
    stats = fact_stats(answers, practice_candidates(15))
    round_ = for_me_quick_facts(stats, 15, count=3)
    asked = [quick_fact_key(p) for p in round_]
    # the two facts back in box 1 come first (less accurate first), then a new one
    assert asked[:2] == ["15-7", "15-6"]
    assert "15-8" not in asked


@pytest.mark.parametrize("capture_sum", [10, 15])
def test_a_for_me_round_asks_each_question_once(capture_sum: int) -> None:
    """15 - 5 and 5 + 10 are one question (5 + ? = 15): a child missing both was asked it
    twice in a row (found trying Quick facts as a child). Each round asks five different
    questions, the weakest facts' first."""
    both = history(f"{capture_sum}-5", "00", 0) + history(f"5+{capture_sum - 5}", "00", 5)
    stats = fact_stats(both, practice_candidates(capture_sum))
    round_ = for_me_quick_facts(stats, capture_sum, count=5)
    assert len(round_) == 5 and len({p.id for p in round_}) == 5
    assert round_[0].addends == (5,)  # the weakest first, once
    for total in (10, 15, 20):  # a new child's rounds too
        assert len({p.id for p in for_me_quick_facts({}, total, count=5)}) == 5


@pytest.mark.parametrize("capture_sum, low, high", [(10, 3, 7), (15, 7, 8), (20, 10, 10)])
def test_a_teacher_assigns_each_question_once(capture_sum: int, low: int, high: int) -> None:
    """Found by a teacher: she picked "7 + ? = 15" and "7 + 8 = ?" and her pupils were
    asked "7 + ? = 15" twice (one answer counting for both: "done" early). The picker
    offers one fact per question, the complements standing for the pairs making the
    sum; every askable question is still there."""
    pair, complement = f"{low}+{high}", f"{capture_sum}-{low}"
    offered = assignable_facts(capture_sum)
    asked = [quick_fact_for(f, capture_sum).id for f in offered]
    assert len(asked) == len(set(asked))
    assert set(asked) == {quick_fact_for(f, capture_sum).id
                          for f in askable_facts(capture_sum)}
    assert complement in offered and pair not in offered
    assert one_per_question([pair, complement, "1+2"], capture_sum) == [pair, "1+2"]
    # A pupil's weakest: five questions, never one twice.
    both = history(complement, "00", 0) + history(pair, "00", 5)
    weakest = weakest_questions(fact_stats(both, practice_candidates(capture_sum)),
                                capture_sum, count=5)
    assert len(weakest) == 5
    assert len({quick_fact_for(f, capture_sum).id for f in weakest}) == 5


def test_for_me_puzzles_exercise_the_weakest_facts_more_than_chance():
    answers = history("15-7", "0", 0) + history("3+4", "0", 5) + history("2+5", "10", 10)
    for f in all_additions()[:20]:
        answers += history(f, "1111", 30)
    stats = fact_stats(answers, practice_candidates(15))
    targets = weakest_facts(stats, practice_candidates(15), count=3)
    assert targets[:2] == ["15-7", "3+4"]
    hits = chance = 0
    for n in range(6):
        puzzle, chosen_for = for_me_puzzle(stats, [], 15, number=n)
        assert chosen_for == targets
        facts = {normalise(f) for f in puzzle.facts}
        hits += "15-7" in facts
        plain = generate(puzzle.kind, puzzle.level, f"plain-{n}", 15)
        chance += "15-7" in {normalise(f) for f in plain.facts}
    assert hits == 6                      # every "for me" puzzle makes the child find 15 - 7
    assert hits > chance


def test_for_me_puzzles_never_aim_at_facts_past_the_capture_sum():
    assert len(puzzle_candidates(15)) == len(practice_candidates(15)) - 9
    assert "8+9" not in puzzle_candidates(15) and "7+8" in puzzle_candidates(15)
    assert "8+9" in puzzle_candidates(20)
    # every fact a sum-15 puzzle can exercise is known: the new 8 + 9 is not a target
    answers = []
    for i, f in enumerate(puzzle_candidates(15)):
        answers += history(f, "1111", start=5 * i)
    stats = fact_stats(answers, practice_candidates(15))
    assert weakest_facts(stats, practice_candidates(15), count=1) == ["6+10"]  # still new
    _, targets = for_me_puzzle(stats, [], 15, number=0)
    assert not {"6+10", "8+9", "9+9", "10+10"} & set(targets)


def test_steps_of_a_longer_quick_fact_carry_the_time_per_step():
    day = date(2026, 12, 1)
    two = quick_fact([3, 5])                      # 3 + 5 + ? = 15: two steps
    rows = [Attempt.of(two, check(two, 7), 5.0, [7], "quick", day),
            Attempt.of(quick_fact([8]), check(quick_fact([8]), 7), 2.0, [7], "quick", day)]
    rows = [dataclasses.replace(r, created_at=T0) for r in rows]
    got = {(a.fact, a.seconds, a.step_seconds) for a in answers_from_rows(rows)}
    assert ("3+5", None, 2.5) in got              # untimed step: 5 s for 2 steps
    assert ("15-8", 5.0, None) in got and ("15-8", 2.0, None) in got
    p = from_cards("captures", cards("3o 5c 8e"), cards("7o"))
    puzzle_row = Attempt.of(p, check(p, "8e"), 40.0, ["8e"], "practice", day)
    assert all(a.seconds is None and a.step_seconds is None
               for a in answers_from_rows([puzzle_row]))


def test_the_complement_asked_in_a_longer_quick_fact_is_paced_per_step():
    # 3 + 5 + ? = 15 in 5 s is two quick steps (2.5 s each): 15 - 8 was remembered, not
    # counted, and climbs its box; 8 + ? = 15 alone in 5 s was counted and moves it down.
    # Fluency still reads the whole question's time: 5 s is not a 3-second answer.
    day = date(2026, 12, 1)

    def rows(addends: list[int], seconds: float, times: int) -> list[Attempt]:
        p = quick_fact(addends)
        return [dataclasses.replace(Attempt.of(p, check(p, 15 - sum(addends)), seconds, [7],
                                               "quick", day),
                                    created_at=T0 + timedelta(minutes=i))
                for i in range(times)]

    two_steps = fact_stats(answers_from_rows(rows([3, 5], 5.0, 3)))
    one_step = fact_stats(answers_from_rows(rows([8], 5.0, 3)))
    assert two_steps["15-8"].box == 4 and two_steps["7+8"].box == 4
    assert one_step["15-8"].box == 1
    assert two_steps["15-8"].level == "proficient"       # timed 5 s: not fluent
    assert two_steps["15-8"].median_seconds == 5.0
    slow = fact_stats(answers_from_rows(rows([3, 5], 8.0, 3)))   # 4 s a step: counted
    assert slow["15-8"].box == 1 and slow["3+5"].box == 1


def test_puzzle_for_prefers_more_and_earlier_targets():
    p = puzzle_for(["15-7", "3+5"], "captures", 2, 15, tries=60)
    facts = {normalise(f) for f in p.facts}
    assert "15-7" in facts
    assert puzzle_for([], "fifteens", 1).id == generate("fifteens", 1, "forme-0").id


def test_suggested_level_follows_the_child():
    assert suggested_level([]) == 1
    up = [(1, 3, True)] * 3
    assert suggested_level(up) == 2
    assert suggested_level(up + [(2, 1, False)] * 2) == 1
    assert suggested_level(up + [(2, 2, True)] + [(2, 3, True)] * 2) == 2  # a 2-star breaks it
    assert suggested_level([(lv, 3, True) for lv in range(1, 6) for _ in range(3)]) == 5
    assert suggested_level([(1, 3, True)] * 15) == 2   # only the current level counts


def _level_by_the_rule(history: list[tuple[int, int, bool]]) -> int:
    """The level rule as written (start at 1; three 3-star solves in a row at the level go
    up one, two unsolved in a row down one; other levels' attempts do not count), written
    again here so that :class:`LevelWalk`'s folding is checked against the words."""
    level, good, bad = 1, 0, 0
    for lvl, stars, solved in history:
        if lvl != level:
            continue
        good, bad = (good + 1, 0) if solved and stars == 3 else (0, bad + 1) if not solved \
            else (0, 0)
        if good >= 3 and level < 5:
            level, good = level + 1, 0
        elif bad >= 2 and level > 1:
            level, bad = level - 1, 0
    return level


_KINDS = ("captures", "scopa", "quick-facts")
# Narrow on purpose: runs of 3-star solves and of misses at the child's level are common.
_ROW = hs.tuples(hs.sampled_from(_KINDS), hs.sampled_from((15, 10)), hs.integers(1, 3),
                 hs.sampled_from((3, 3, 2, 0)), hs.sampled_from((True, True, False)),
                 hs.sampled_from(("for-me", "practice", "daily", "quick", "game")))


def _rows(spec: list[tuple[str, int, int, int, bool, str]]) -> list[Attempt]:
    return [Attempt(day="2026-12-03", mode=mode, puzzle_id=f"{kind}:{level}:{i}", kind=kind,
                    level=level, capture_sum=capture_sum, facts=(), answers=(), answer=(),
                    correct=correct, found=0, missed=0, wrong=0, seconds=5.0, hints=0,
                    stars=stars)
            for i, (kind, capture_sum, level, stars, correct, mode) in enumerate(spec)]


@given(hs.lists(_ROW, max_size=80), hs.data())
def test_the_for_me_path_kept_as_it_grows_is_the_whole_historys(spec, data) -> None:
    """Issue 32: "for me" reads a path kept as attempts arrive instead of a year of
    attempts at each puzzle; continued from any split it is what the whole history gives,
    and says what the level rule, the kinds' turns and the count say of the attempts."""
    rows = _rows(spec)
    split = data.draw(hs.integers(0, len(rows)))
    whole = ForMePath.of(rows)
    assert ForMePath.of(rows[:split]).add(rows[split:]) == whole
    assert whole.answered == sum(r.mode == "for-me" for r in rows)
    assert whole.kinds() == ((*FOR_ME_KINDS, "scopa") if any(r.kind == "scopa" for r in rows)
                             else FOR_ME_KINDS)
    for kind in _KINDS:
        for capture_sum in (15, 10):
            of_kind = [(r.level, r.stars, r.correct) for r in rows
                       if r.kind == kind and r.capture_sum == capture_sum]
            assert whole.level(kind, capture_sum) == _level_by_the_rule(of_kind) \
                == suggested_level(of_kind)
    number = data.draw(hs.integers(0, 5))
    by_path = for_me_puzzle({}, whole, 15, number, prefix="t")
    assert by_path == for_me_puzzle({}, rows, 15, number, prefix="t")


def test_streaks_current_and_best():
    d = date(2026, 12, 10)
    days = [date(2026, 12, n) for n in (1, 2, 3, 5, 6, 9)]
    assert streaks(days, d) == (1, 3)          # yesterday's run of one is still alive
    assert streaks(days + [d], d) == (2, 3)
    assert streaks(days, date(2026, 12, 11)) == (0, 3)   # a missed day breaks it
    assert streaks([], d) == (0, 0)


def test_a_for_me_round_starts_with_what_was_missed_last() -> None:
    """A child's first round (5, 6, 7, 8, 9 + ? = 15) with 6 + ? missed: the next round
    was the same five in the same order (least recently practised first is the order
    they were answered in). The one missed comes first now, the others after, as before."""
    answers = []
    for minute, (fact, result) in enumerate((("15-5", "1"), ("15-6", "0"), ("15-7", "1"),
                                             ("15-8", "1"), ("15-9", "1"))):
        answers += history(fact, result, minute, seconds=6.0)
    stats = fact_stats(answers, practice_candidates(15))
    asked = [quick_fact_key(p) for p in for_me_quick_facts(stats, 15, count=5)]
    assert asked[0] == "15-6"
    assert [f for f in asked if f != "15-6"] == [
        f for f in weakest_questions(stats, 15, 5) if f != "15-6"]


def test_a_quick_facts_id_names_its_addends_and_its_question_reads_one_way() -> None:
    """The grid's history reads what an attempt was asked from its puzzle's id: every
    quick fact a round or a worksheet asks gives its addends back; no other id does."""
    from puzzles import generate
    from puzzles.practice import quick_fact_addends, quick_facts_set, quick_question_text

    for level in (1, 3, 5):
        for puzzle in quick_facts_set(level, 20, "ids", 15):
            assert quick_fact_addends(puzzle.id) == puzzle.addends
            assert quick_question_text(puzzle.addends, 15) == (
                " + ".join(map(str, puzzle.addends)) + " + ? = 15")
    for other in (generate("captures", 1, "x").id, "quick-facts:1:15:abc",
                  "quick-facts:1:15:custom-3.x", "nonsense"):
        assert quick_fact_addends(other) is None, other
    assert quick_question_text((7,), 15, 8) == "7 + 8 = 15"
