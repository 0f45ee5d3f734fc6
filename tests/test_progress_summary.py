"""A parent's three questions (issue 33): what the child knows, what to practise next,
and whether it is getting better — told over enough answers only."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime, timedelta

from puzzles import check
from puzzles.mastery import fact_stats, weakest_facts
from puzzles.practice import Attempt, answers_from_rows, practice_candidates, quick_fact_for
from trainer.progress_summary import TREND_ANSWERS, TREND_DAYS, parent_summary

FACTS = ["15-8", "15-7", "15-6", "15-9", "15-5"]


def _quick(fact: str, right: bool, seconds: float, day: str) -> Attempt:
    puzzle = quick_fact_for(fact, 15)
    assert puzzle is not None
    value = puzzle.solutions[0].value if right else puzzle.solutions[0].value % 10 + 1
    attempt = Attempt.of(puzzle, check(puzzle, value), seconds, [value], "quick",
                         date.fromisoformat(day))
    _quick.made += 1  # type: ignore[attr-defined]
    # storage stamps each attempt when it is saved: one a minute, in the order made
    when = datetime.fromisoformat(day) + timedelta(minutes=_quick.made)  # type: ignore[attr-defined]
    return replace(attempt, created_at=when)


_quick.made = 0  # type: ignore[attr-defined]


def _summary(rows: list[Attempt]):
    stats = fact_stats(answers_from_rows(rows), practice_candidates(15))
    return stats, parent_summary(stats, rows, 15)


def test_too_few_answers_say_it_is_too_early_never_a_trend() -> None:
    rows = [_quick(FACTS[i % 5], i % 2 == 0, 4.0, f"2026-11-{1 + i % 5:02d}")
            for i in range(TREND_ANSWERS - 1)]
    _stats, summary = _summary(rows)
    assert summary.trend == "too_early" and summary.before is None
    assert summary.answers == TREND_ANSWERS - 1 and summary.answers_needed == 1
    # enough answers on too few days: still too early
    rows = [_quick(FACTS[i % 5], True, 2.0, "2026-11-01") for i in range(60)]
    assert _summary(rows)[1].trend == "too_early" and TREND_DAYS > 1


def test_a_child_getting_right_more_often_is_getting_better() -> None:
    rows = []
    for i in range(45):
        day = f"2026-11-{1 + i // 10:02d}"
        rows.append(_quick(FACTS[i % 5], i >= 15 or i % 3 == 0, 5.0 - i / 15, day))
    _stats, summary = _summary(rows)
    assert summary.trend == "better"
    assert summary.before is not None and summary.after is not None
    assert summary.before[0] < summary.after[0] == 100.0
    assert summary.after[1] < summary.before[1]  # faster too


def test_worse_and_steady_are_told_as_such() -> None:
    falling = [_quick(FACTS[i % 5], i < 20, 3.0, f"2026-11-{1 + i // 10:02d}")
               for i in range(45)]
    assert _summary(falling)[1].trend == "worse"
    steady = [_quick(FACTS[i % 5], i % 4 != 0, 3.0, f"2026-11-{1 + i // 10:02d}")
              for i in range(48)]
    assert _summary(steady)[1].trend == "steady"


def test_what_to_practise_is_what_for_me_practises_and_known_counts_known_facts() -> None:
    rows = [_quick("15-8", True, 2.0, "2026-11-01") for _ in range(3)]
    rows += [_quick("15-7", False, 6.0, "2026-11-01")]
    stats, summary = _summary(rows)
    askable = [f for f in practice_candidates(15) if quick_fact_for(f, 15) is not None]
    order = weakest_facts(stats, askable, count=len(askable))
    assert list(summary.practise) == [f for f in order if stats[f].level != "fluent"][:3]
    assert summary.practise[0] == "15-7"  # answered wrong: first
    assert summary.known_complements == 1 and summary.complements == 6  # 15 - 5 ... 15 - 10
    assert summary.known_additions == sum(
        1 for f, s in stats.items() if "+" in f and s.level in ("proficient", "fluent"))


def test_what_to_practise_names_facts_not_fluent_before_fluent_ones() -> None:
    """A fact right in time twice and then wrong is fluent (2 of its last 3) but back in
    Leitner box 1, first for "for me": the parent's "practise next" names the facts not
    fluent first (a parent read "practise 15 − 8" beside a chart colouring it fluent)."""
    rows = [_quick("15-8", True, 2.0, "2026-11-01") for _ in range(2)]
    rows += [_quick("15-8", False, 2.0, "2026-11-01")]
    rows += [_quick("15-7", True, 9.0, "2026-11-01")]
    stats, summary = _summary(rows)
    assert stats["15-8"].level == "fluent" and stats["15-8"].box == 1
    askable = [f for f in practice_candidates(15) if quick_fact_for(f, 15) is not None]
    assert weakest_facts(stats, askable, count=3)[0] == "15-8"  # "for me"'s first
    assert "15-8" not in summary.practise and summary.practise[0] == "15-7"
    assert all(stats[f].level != "fluent" for f in summary.practise)
