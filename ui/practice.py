"""Practice glue: the child's clock and date, recording attempts, mastery per profile.

Pages call these and stay thin. Attempts go to the database at once (one
transaction each, :meth:`trainer.storage.Storage.record_attempt`); mastery is
computed from the stored attempts (:mod:`puzzles.mastery`). What is computed from
a profile's whole history is cached for every session, keyed by the profile's
:func:`data_version`: a new attempt, in any tab, changes the key, so nothing stale
is ever read, and a year of history is read once, not on every visit.
"""

from __future__ import annotations

import functools
import logging
import re
from datetime import date, datetime
from typing import Any, NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd
import streamlit as st

from puzzles import CheckResult, DailySet, Puzzle, daily_set
from puzzles.mastery import FLUENT_SECONDS, FactStats
from puzzles.practice import Attempt, ForMePath, practice_candidates
from trainer.charts import attempts_frame
from trainer.clock import now as clock_now
from trainer.just_right import JustRightSummary, just_right_summary
from trainer.progress_history import HistoryView, KeptHistories
from trainer.storage import DailyResult, ProgressContents, ProgressVersion, SlotProgress
from trainer.text import fact_text

from .errors import safe_callback
from .session import current_profile, database_url, profile_book, storage

__all__ = ["now_utc", "child_timezone", "timezone_unknown", "today", "attempt_row",
           "record_attempt",
           "record_daily", "mastery", "attempts", "data_version", "PROGRESS_CACHE_PROFILES",
           "PROGRESS_CACHE_SUMS", "progress_contents", "practice_frame", "history_view",
           "fact_stats_of",
           "cached_daily", "fact_text", "kept", "keep"]

log = logging.getLogger(__name__)
_MASTERY = "mastery_cache"

#: The profiles whose progress one replica keeps computed (issue 32): a class of 30
#: pupils and its teacher, with one spare. The teacher's views of a pupil's progress use
#: that pupil's own key, so a class needs one entry per child; a child's answer makes a
#: new key and the old one is never read again, so it is the first the least-recently-used
#: eviction drops. With fewer entries than children, a busy class evicts its own results
#: and each progress visit reads a year of attempts again.
PROGRESS_CACHE_PROFILES = 32
#: The caches keyed by a profile and a capture sum as well (a class's 15 and a child's
#: own): two sums per profile.
PROGRESS_CACHE_SUMS = 2 * PROGRESS_CACHE_PROFILES


def now_utc() -> datetime:
    """The current instant: the app's one clock (:func:`trainer.clock.now`, which
    ``ESCOBA_NOW`` sets for tests and demos; the daily puzzle depends on the date)."""
    return clock_now()


#: What an IANA time zone name looks like ("Europe/Madrid", "America/Argentina/Salta",
#: "Etc/GMT+3"): anything else a browser sends (a forged 100,000-character value) is
#: refused before it reaches the file system (ZoneInfo opens a file by that name).
_ZONE_NAME = re.compile(r"[A-Za-z0-9_+\-]{1,30}(/[A-Za-z0-9_+\-]{1,30}){0,3}")


@functools.lru_cache(maxsize=64)
def _zone(name: str | None) -> ZoneInfo | None:
    """The time zone ``name`` names, or None when it is none we know."""
    if isinstance(name, str) and _ZONE_NAME.fullmatch(name):
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            pass
    log.warning("unknown time zone %r, using UTC", str(name)[:80])
    return None


def _browser_zone_name() -> str | None:
    try:
        name = st.context.timezone
    except Exception:
        return None
    return name if isinstance(name, str) else None


def child_timezone() -> ZoneInfo:
    """The browser's time zone (``st.context.timezone``), UTC when unknown."""
    name = _browser_zone_name()
    return (_zone(name) if name else None) or ZoneInfo("UTC")


def timezone_unknown() -> bool:
    """The browser sent a time zone we do not know (the days follow UTC then): the
    Daily page says so in a sentence of its own. No time zone at all is no problem."""
    name = _browser_zone_name()
    return bool(name) and _zone(name) is None


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


def record_attempt(profile_id: int, row: Attempt, *,
                   progress: SlotProgress | None = None) -> None:
    """``row`` written; ``progress``: the page slot's new state, in the same transaction."""
    profile_book().record_attempt(profile_id, row, progress=progress)


def record_daily(profile_id: int, daily: DailySet, index: int, row: Attempt) -> DailyResult:
    result = profile_book().record_daily_answer(profile_id, daily.date.isoformat(),
                                                daily.number, index, row,
                                                slots=len(daily.puzzles))
    return result


def attempts(profile_id: int) -> list[Attempt]:
    return storage().attempts(profile_id)


class DataVersion(NamedTuple):
    """The key of a profile's cached results: the database, the profile, and its data's
    :class:`~trainer.storage.ProgressVersion` (one lookup by the profile's key)."""

    database: str | None
    profile_id: int
    data: ProgressVersion


def data_version(profile_id: int) -> DataVersion:
    """What the profile's cached results are keyed by; changes with every new attempt."""
    return DataVersion(database_url(), profile_id, storage().progress_version(profile_id))


@st.cache_data(max_entries=PROGRESS_CACHE_PROFILES, show_spinner=False)
def progress_contents(version: DataVersion) -> ProgressContents:
    """Which parts of My progress have anything to draw, until the data's next change."""
    return storage().progress_contents(version.profile_id)


def start_quick_facts(facts: list[str], capture_sum: int) -> None:
    """Open Quick facts on a round of exactly these facts ("practise these" on My
    progress), as "for me" (they are what "for me" practises next)."""
    from puzzles.practice import quick_fact_for
    from trainer.practice_sessions import QUICK_FACTS_SLOT, PuzzleKeeper, QuickRound

    puzzles = [p for f in facts if (p := quick_fact_for(f, capture_sum)) is not None]
    if not puzzles:
        return
    profile = current_profile()
    if profile is not None:
        # A round left unfinished must not come back instead of this one on a reload.
        PuzzleKeeper(storage(), profile.id, QUICK_FACTS_SLOT).clear()
    st.session_state["keep_qf_mode"] = "for-me"
    st.session_state["keep_qf_sum"] = capture_sum
    for widget in ("qf_mode", "qf_sum"):  # the page's choices start from the kept ones
        st.session_state.pop(widget, None)
    st.session_state["qf_round"] = QuickRound("for-me", capture_sum, puzzles)
    st.switch_page("app_pages/quick_facts.py")


#: Attempts the kept histories of one process hold in all (about 430 bytes each): a
#: class of 30 with a school year each (216,000 in bench/school_year.py) fits, in about
#: 110 MB at most whatever the school's size.
HISTORY_ATTEMPTS = 250_000


@st.cache_resource(show_spinner=False)
def _kept_histories() -> KeptHistories:
    """The profiles' histories as this process last read them, shared by its sessions
    and brought up to date by the attempts added since (trainer.progress_history)."""
    return KeptHistories(HISTORY_ATTEMPTS, max_profiles=PROGRESS_CACHE_PROFILES)


def history_view(version: DataVersion) -> HistoryView:
    """The profile's history at ``version``: the attempts added since the last read are
    read, not the whole history (a year of it took 0.6 s after each answer)."""
    return _kept_histories().view((version.database, version.profile_id),
                                  version.profile_id, storage(), version.data.created_at)


def for_me_path(profile_id: int) -> ForMePath:
    """What the child's next "for me" puzzle is chosen from, from the kept history: the
    attempts since the last read are read, not a year of them at every puzzle."""
    return history_view(data_version(profile_id)).for_me


@st.cache_data(max_entries=PROGRESS_CACHE_PROFILES, show_spinner=False)
def practice_frame(version: DataVersion) -> pd.DataFrame:
    """The profile's practice (puzzles and quick facts, not game turns) as a frame, for
    the charts: a copy of the kept one, so that no chart can change what is kept."""
    return history_view(version).frame


class GamesVersion(NamedTuple):
    """The key of what is computed from a profile's finished games alone: the database,
    the profile (its creation time: a new profile reusing a deleted one's id), and
    :meth:`~trainer.storage.Storage.finished_games_mark` (one indexed count)."""

    database: str | None
    profile_id: int
    created_at: datetime | None
    finished: tuple[int, int, int]


def games_version(version: DataVersion) -> GamesVersion:
    """``version``'s profile's finished games, as a key: unchanged by a quick fact or a
    puzzle (keyed by the whole data version, Play read 200 finished games again on its
    first run after every answer)."""
    return GamesVersion(version.database, version.profile_id, version.data.created_at,
                        storage().finished_games_mark(version.profile_id))


@st.cache_data(max_entries=PROGRESS_CACHE_PROFILES, show_spinner=False)
def _just_right(games: GamesVersion, day: date) -> JustRightSummary:
    return just_right_summary(storage().finished_games(games.profile_id), now_utc())


def just_right_of(version: DataVersion, day: date) -> JustRightSummary:
    """The child's "just right" strength now and a week ago (trainer.just_right), from
    their finished games: the new-game form's default level and strength, and My
    progress's sentence for a parent. Read again when a game finishes (or is deleted) or
    the day turns, not after a quick fact or a puzzle."""
    return _just_right(games_version(version), day)


@st.cache_data(max_entries=PROGRESS_CACHE_PROFILES, show_spinner=False)
def game_turns(version: DataVersion) -> pd.DataFrame:
    """The profile's game turns that were evidence, one row each (the chances chart)."""
    return attempts_frame(history_view(version).game_turns)


@st.cache_data(max_entries=PROGRESS_CACHE_SUMS, show_spinner=False)
def fact_stats_of(version: DataVersion, capture_sum: int,
                  limit: float = FLUENT_SECONDS) -> dict[str, FactStats]:
    """Mastery of ``capture_sum``'s facts from the history of ``version``, "fluent" read
    at ``limit`` seconds (:func:`fluency_limit`)."""
    stats = history_view(version).fact_stats(practice_candidates(capture_sum))
    return {fact: s.at_limit(limit) for fact, s in stats.items()}


def fluency_limit(profile_id: int) -> float:
    """The seconds a fact must be answered within to be fluent for this profile: its
    class's limit for a pupil (the teacher's fact grid and dashboard read the same), the
    usual 3 seconds otherwise. Two reads by key, on My progress only."""
    member = storage().membership(profile_id)
    info = storage().get_class(member.class_id) if member is not None else None
    return float(info.fluency_seconds) if info is not None else FLUENT_SECONDS


def mastery(profile_id: int, capture_sum: int = 15) -> dict[str, FactStats]:
    """Per fact: level, Leitner box, accuracy, median time (cached until the next attempt).

    The last result is kept in this session too (copying it out of the shared cache
    is cheap, but not free), under the same key."""
    key = (data_version(profile_id), capture_sum)
    cached = st.session_state.get(_MASTERY)
    if cached is not None and cached[0] == key:
        return cached[1]
    stats = fact_stats_of(*key)
    st.session_state[_MASTERY] = (key, stats)
    return stats


def kept(key: str, default: Any) -> Any:
    """A choice's value kept across pages (widget state is dropped when a page is left)."""
    return st.session_state.get(f"keep_{key}", default)


@safe_callback
def keep(key: str) -> None:
    """``on_change`` of a choice: remember its value for :func:`kept`."""
    st.session_state[f"keep_{key}"] = st.session_state.get(key)
