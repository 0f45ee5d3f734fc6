"""Practice glue: the child's clock and date, recording attempts, mastery per profile.

Pages call these and stay thin. Attempts go to the database at once (one
transaction each, :meth:`trainer.storage.Storage.record_attempt`); mastery is
computed from the stored attempts (:mod:`puzzles.mastery`) and cached in
session state until the next attempt of this session.
"""

from __future__ import annotations

import functools
import logging
import os
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import streamlit as st

from puzzles import CheckResult, DailySet, Puzzle, daily_set
from puzzles.mastery import FactStats, fact_stats
from puzzles.practice import Attempt, answers_from_rows, practice_candidates
from trainer.storage import DailyResult

from .errors import safe_callback
from .session import storage

__all__ = ["now_utc", "child_timezone", "today", "attempt_row", "record_attempt",
           "record_daily", "mastery", "attempts", "cached_daily", "fact_text", "kept", "keep"]

log = logging.getLogger(__name__)
_MASTERY = "mastery_cache"


def now_utc() -> datetime:
    """The current instant. ``ESCOBA_NOW`` (ISO, e.g. ``2026-12-02T23:30:00Z``) fixes it
    for tests and demos (the daily puzzle depends on the date)."""
    fixed = os.environ.get("ESCOBA_NOW")
    if fixed:
        try:
            value = datetime.fromisoformat(fixed.replace("Z", "+00:00"))
            return value if value.tzinfo else value.replace(tzinfo=UTC)
        except ValueError:
            log.warning("ignoring ESCOBA_NOW=%r (not an ISO date and time)", fixed)
    return datetime.now(UTC)


@functools.lru_cache(maxsize=64)
def _zone(name: str | None) -> ZoneInfo:
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            log.warning("unknown time zone %r, using UTC", name)
    return ZoneInfo("UTC")


def child_timezone() -> ZoneInfo:
    """The browser's time zone (``st.context.timezone``), UTC when unknown."""
    try:
        name = st.context.timezone
    except Exception:
        name = None
    return _zone(name)


def today() -> date:
    """The date where the child is (the daily puzzle changes at the child's midnight)."""
    return now_utc().astimezone(child_timezone()).date()


@functools.lru_cache(maxsize=8)
def cached_daily(day: date) -> DailySet:
    return daily_set(day)


def attempt_row(puzzle: Puzzle, result: CheckResult, seconds: float, answer: list[Any],
                mode: str) -> Attempt:
    """The attempt a child just made, dated where the child is."""
    return Attempt.of(puzzle, result, seconds, answer, mode, today())


def _changed() -> None:
    st.session_state.pop(_MASTERY, None)


def record_attempt(profile_id: int, row: Attempt) -> None:
    storage().record_attempt(profile_id, row)
    _changed()


def record_daily(profile_id: int, daily: DailySet, index: int, row: Attempt) -> DailyResult:
    result = storage().record_daily_answer(profile_id, daily.date.isoformat(), daily.number,
                                           index, row, slots=len(daily.puzzles))
    _changed()
    return result


def attempts(profile_id: int) -> list[Attempt]:
    return storage().attempts(profile_id)


def mastery(profile_id: int, capture_sum: int = 15) -> dict[str, FactStats]:
    """Per fact: level, Leitner box, accuracy, median time (cached until the next attempt)."""
    cached = st.session_state.get(_MASTERY)
    if cached is not None and cached[0] == (profile_id, capture_sum):
        return cached[1]
    stats = fact_stats(answers_from_rows(storage().attempts(profile_id)),
                       practice_candidates(capture_sum))
    st.session_state[_MASTERY] = ((profile_id, capture_sum), stats)
    return stats


def fact_text(fact: str) -> str:
    """``"3+5"`` -> ``"3 + 5"``; ``"15-7"`` -> ``"15 − 7"`` (how a child reads it)."""
    return fact.replace("+", " + ").replace("-", " − ")


def kept(key: str, default: Any) -> Any:
    """A choice's value kept across pages (widget state is dropped when a page is left)."""
    return st.session_state.get(f"keep_{key}", default)


@safe_callback
def keep(key: str) -> None:
    """``on_change`` of a choice: remember its value for :func:`kept`."""
    st.session_state[f"keep_{key}"] = st.session_state.get(key)
