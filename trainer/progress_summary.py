"""A parent's three questions, answered at the top of My progress (issue 33): what does
my child know, what should they practise next, and are they getting better?

Plain data from the fact stats and the attempts (no Streamlit, no plotly): the page
words it (catalog keys and their parameters) and offers "practise these", a quick-facts
round on exactly the facts named. The trend is told only over enough answers, on enough
days, comparing separate answers (the first third with the last): with too few it says
so, never two equal numbers beside a falling chart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import Protocol

from puzzles.mastery import FactStats, all_additions, all_complements, weakest_facts
from puzzles.practice import one_per_question, practice_candidates, quick_fact_for

__all__ = ["ParentSummary", "parent_summary", "KNOWN_LEVELS", "TREND_ANSWERS", "TREND_DAYS"]

class QuickAnswer(Protocol):
    """What the trend reads of an attempt: an :class:`~puzzles.practice.Attempt`, or the
    compact row My progress keeps (:class:`trainer.progress_history.QuickRow`)."""

    @property
    def kind(self) -> str: ...
    @property
    def capture_sum(self) -> int: ...
    @property
    def day(self) -> str: ...
    @property
    def correct(self) -> bool: ...
    @property
    def fact_seconds(self) -> float | None: ...


#: The levels a parent reads as "knows it": right three times running (and fluent).
KNOWN_LEVELS = frozenset({"proficient", "fluent"})
#: Quick-fact answers and days of use it takes to tell a trend (the catalogs say "three
#: different days" in words: ps_trend_too_early).
TREND_ANSWERS = 30
TREND_DAYS = 3
#: How much better counts as better: right answers (percentage points) or time (share).
_BETTER_POINTS = 10.0
_FASTER = 0.15


@dataclass(frozen=True)
class ParentSummary:
    """The three answers: what is known, what to practise, the trend."""

    known_additions: int
    additions: int
    known_complements: int
    complements: int
    capture_sum: int
    #: The facts "for me" would practise next, weakest first (e.g. ``"15-8"``, ``"7+8"``).
    practise: tuple[str, ...]
    #: ``better``, ``worse``, ``steady`` or ``too_early``.
    trend: str
    #: First and last third: right answers (0-100) and median seconds (None: untimed).
    before: tuple[float, float | None] | None
    after: tuple[float, float | None] | None
    #: Quick-fact answers and days so far, and how many more answers a trend needs.
    answers: int
    days: int
    answers_needed: int


def _third(rows: Sequence[QuickAnswer]) -> tuple[float, float | None]:
    right = 100.0 * sum(1 for r in rows if r.correct) / len(rows)
    times = [r.fact_seconds for r in rows if r.correct and r.fact_seconds is not None]
    return right, (median(times) if times else None)


def _trend(before: tuple[float, float | None],
           after: tuple[float, float | None]) -> str:
    gain = after[0] - before[0]
    faster = (before[1] is not None and after[1] is not None and before[1] > 0
              and (before[1] - after[1]) / before[1])
    if gain >= _BETTER_POINTS or (faster is not False and faster >= _FASTER and gain > -5):
        return "better"
    if gain <= -_BETTER_POINTS or (faster is not False and faster <= -_FASTER and gain < 5):
        return "worse"
    return "steady"


def parent_summary(stats: Mapping[str, FactStats], attempts: Sequence[QuickAnswer],
                   capture_sum: int = 15, count: int = 3) -> ParentSummary:
    """The three answers from a child's fact stats and attempts (oldest first)."""
    additions = [s for f, s in stats.items() if "+" in f]
    complements = all_complements(capture_sum)
    askable = [f for f in practice_candidates(capture_sum)
               if quick_fact_for(f, capture_sum) is not None]
    # "for me"'s order (the Leitner boxes), the facts not fluent first: a fact answered
    # slowly once drops to box 1 though still fluent (2 of its last 3 in time), and a
    # parent read "practise 7 + 8" beside a chart colouring it fluent.
    # One fact per question: "practise these" asked "7 + ? = 15" twice for 15-7 and 7+8.
    ordered = (one_per_question(weakest_facts(stats, askable, count=len(askable)),
                                capture_sum) if stats else [])
    practise = tuple(sorted(ordered, key=lambda f: (s := stats.get(f)) is not None
                            and s.level == "fluent")[:count])
    quick = [a for a in attempts if a.kind == "quick-facts" and a.capture_sum == capture_sum]
    days = len({a.day for a in quick})
    before = after = None
    if len(quick) >= TREND_ANSWERS and days >= TREND_DAYS:
        third = len(quick) // 3
        before, after = _third(quick[:third]), _third(quick[-third:])
        trend = _trend(before, after)
    else:
        trend = "too_early"
    return ParentSummary(
        known_additions=sum(1 for s in additions if s.level in KNOWN_LEVELS),
        additions=len(all_additions()),
        known_complements=sum(1 for f in complements
                              if (s := stats.get(f)) is not None and s.level in KNOWN_LEVELS),
        complements=len(complements), capture_sum=capture_sum, practise=practise,
        trend=trend, before=before, after=after, answers=len(quick), days=days,
        answers_needed=max(0, TREND_ANSWERS - len(quick)))
