"""The daily puzzle: five puzzles of rising level, the same for everyone on a date.

A day's set is seeded by its ISO date alone (never by the clock, the user or
the release), and numbered by days since 2026-12-01, which is #1.
``tests/data/daily_golden.json`` pins several dates' puzzles: any change to
the generator that would change a past daily fails that test (see README).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from .i18n import translator
from .kinds import generate
from .model import Puzzle, PuzzleError

__all__ = ["EPOCH", "DAILY_PLAN", "DailySet", "parse_date", "daily_number", "daily_set",
           "share_text"]

#: Daily #1.
EPOCH = date(2026, 12, 1)
#: The kind of each of the five puzzles; their levels are 1 to 5. Best-move is
#: left out because it depends on the coach, whose judgement may improve between
#: releases; quick facts have their own page.
DAILY_PLAN: tuple[str, ...] = ("captures", "fifteens", "hand", "captures", "fifteens")
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_SQUARES = {3: "🟩", 2: "🟨", 1: "🟧"}


def parse_date(value: date | str) -> date:
    """A ``date``, or an ISO ``YYYY-MM-DD`` text; raises :class:`PuzzleError` otherwise."""
    if isinstance(value, date):
        return value
    text = str(value).strip()
    try:
        if not _ISO.fullmatch(text):
            raise ValueError
        day = date.fromisoformat(text)
    except ValueError:
        raise PuzzleError(f"not a date: {value!r} (expected YYYY-MM-DD, e.g. 2026-12-01)") \
            from None
    return day


def daily_number(day: date | str) -> int:
    """The daily's number: 2026-12-01 is #1. Earlier dates have no daily."""
    d = parse_date(day)
    number = (d - EPOCH).days + 1
    if number < 1:
        raise PuzzleError(f"there is no daily puzzle before {EPOCH.isoformat()} (#1); "
                          f"got {d.isoformat()}")
    return number


@dataclass(frozen=True, slots=True)
class DailySet:
    """One day's five puzzles, levels 1 to 5."""

    date: date
    number: int
    capture_sum: int
    puzzles: tuple[Puzzle, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"date": self.date.isoformat(), "number": self.number,
                "capture_sum": self.capture_sum,
                "puzzles": [p.to_dict() for p in self.puzzles]}


def daily_set(day: date | str, capture_sum: int = 15) -> DailySet:
    """The five puzzles of ``day`` (same date and sum, same puzzles, for everyone)."""
    d = parse_date(day)
    number = daily_number(d)
    iso = d.isoformat()
    puzzles = tuple(generate(kind, level, f"daily-{iso}-{level}", capture_sum)
                    for level, kind in enumerate(DAILY_PLAN, start=1))
    return DailySet(d, number, capture_sum, puzzles)


def share_text(daily: DailySet | int, stars: Sequence[int | None], lang: str = "en") -> str:
    """A spoiler-free text to share: the number, the stars, one square per puzzle.

    ``stars`` holds each puzzle's stars (1-3) or ``None`` if not played. No
    card appears, so sharing gives nothing away. The line is in ``lang``::

        Escoba daily #12 ⭐ 13/15
        🟩🟩🟨🟩🟧
    """
    number = daily.number if isinstance(daily, DailySet) else int(daily)
    if len(stars) != len(DAILY_PLAN):
        raise PuzzleError(f"a daily has {len(DAILY_PLAN)} puzzles, got {len(stars)} results")
    squares = []
    for s in stars:
        if s is not None and s not in _SQUARES:
            raise PuzzleError(f"stars are 1, 2 or 3 (or None if not played), got {s!r}")
        squares.append(_SQUARES[s] if s is not None else "⬜")
    total = sum(s for s in stars if s is not None)
    tr = translator(lang)
    sum_note = ""
    if isinstance(daily, DailySet) and daily.capture_sum != 15:
        sum_note = tr("share_sum", sum=daily.capture_sum)
    return (tr("share_daily", number=number, sum_note=sum_note, stars=total,
               most=3 * len(DAILY_PLAN)) + "\n" + "".join(squares))
