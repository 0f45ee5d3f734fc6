"""A child's history as My progress draws it, kept up to date by reading only the attempts
added since it was last read (issue 32; no Streamlit).

My progress is drawn from every attempt a child ever made: the charts' frame, the
answers the fact model reads, the game turns, the quick facts the parent's trend
compares. Read whole, a year of daily use (7,000 attempts) took about 0.6 s after each
new answer (reading and parsing the rows, then the answers), against 40 ms for a week:
the cost grew with history. :class:`ProgressHistory` keeps what it has built and, on
the next version, reads the attempts with a higher id only
(:meth:`~trainer.storage.PracticeStore.attempts_after`), with the profile's total count
kept in the same transaction as every attempt. When its own count and that total differ
(an attempt committed late under a lower id, which PostgreSQL allows), it reads
everything again, so it never shows less than a full read would.

It keeps compact forms, not the attempts themselves (a year's attempts are 9 MB in
memory; its frame's records, answers and quick-fact rows about 3 MB), and builds the
frame again from its records (20 ms for a year, where building it from the attempts
took 80): the same frame a full read builds, dtypes included. The game turns, fewer,
are kept whole, since a game's evidence is counted across its turns.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from threading import Lock
from typing import Protocol

import pandas as pd

from puzzles.mastery import Answer
from puzzles.practice import Attempt, answers_from_rows

from .charts import attempt_record, records_frame
from .evidence import game_answers, is_game_turn

__all__ = ["AttemptSource", "QuickRow", "HistoryView", "ProgressHistory", "KeptHistories"]


class AttemptSource(Protocol):
    def attempts_after(self, profile_id: int, after_id: int) -> tuple[list[Attempt], int]: ...


@dataclass(frozen=True, slots=True)
class QuickRow:
    """What the parent's trend reads of a quick fact (:func:`trainer.progress_summary.
    parent_summary`): the same names as :class:`~puzzles.practice.Attempt`'s."""

    kind: str
    capture_sum: int
    day: str
    correct: bool
    fact_seconds: float | None

    @classmethod
    def of(cls, row: Attempt) -> QuickRow:
        return cls(row.kind, row.capture_sum, row.day, row.correct, row.fact_seconds)


@dataclass(frozen=True)
class HistoryView:
    """The history at one read: what My progress draws (never changed afterwards)."""

    frame: pd.DataFrame  # the practice's attempts (trainer.charts.attempts_frame)
    answers: tuple[Answer, ...]  # the fact model's: the practice's, then the games'
    game_turns: tuple[Attempt, ...]
    quick: tuple[QuickRow, ...]  # the practice's quick facts, oldest first


@dataclass
class ProgressHistory:
    """One profile's history, built up across reads (see the module doc). Not thread-safe
    by itself: :meth:`update` takes its lock, and the values it returns are not changed
    afterwards (a new read makes new ones)."""

    profile_id: int
    created_at: datetime | None = None
    last_id: int = 0
    count: int = 0
    records: tuple[tuple[object, ...], ...] = ()  # the practice's frame rows
    frame: pd.DataFrame = field(default_factory=lambda: records_frame([]))
    practice_answers: tuple[Answer, ...] = ()
    game_turns: tuple[Attempt, ...] = ()
    quick: tuple[QuickRow, ...] = ()
    full_reads: int = 0  # how often everything was read (a test and the benchmark look)
    _lock: Lock = field(default_factory=Lock, repr=False, compare=False)

    def update(self, store: AttemptSource, created_at: datetime | None) -> HistoryView:
        """Bring it up to date with the database (``created_at``: the profile's, from its
        version; a new profile that reuses a deleted one's id starts again), and what it
        holds then."""
        with self._lock:
            if created_at != self.created_at:
                self._reset(created_at)
            rows, total = store.attempts_after(self.profile_id, self.last_id)
            if self.count + len(rows) != total:
                self._reset(created_at)
                self.full_reads += 1
                rows, total = store.attempts_after(self.profile_id, 0)
            self._add(rows)
            return HistoryView(self.frame,
                               (*self.practice_answers, *game_answers(self.game_turns)),
                               self.game_turns, self.quick)

    def _reset(self, created_at: datetime | None) -> None:
        self.created_at, self.last_id, self.count = created_at, 0, 0
        self.records, self.frame = (), records_frame([])
        self.practice_answers, self.game_turns, self.quick = (), (), ()

    def _add(self, rows: Sequence[Attempt]) -> None:
        if not rows:
            return
        practice = [r for r in rows if not is_game_turn(r)]
        if practice:
            self.records += tuple(attempt_record(r) for r in practice)
            self.frame = records_frame(self.records)
            self.practice_answers += tuple(answers_from_rows(practice))
            self.quick += tuple(QuickRow.of(r) for r in practice if r.kind == "quick-facts")
        self.game_turns += tuple(r for r in rows if is_game_turn(r))
        self.last_id = max(self.last_id, max(r.id or 0 for r in rows))
        self.count += len(rows)


class KeptHistories:
    """The histories one process keeps for its sessions, bounded by what they hold: at
    most ``max_attempts`` attempts in all (about 430 bytes each kept: a child's year of
    daily use is 7,000, about 3 MB) and ``max_profiles`` profiles. Past either, the
    histories read least recently are dropped (a dropped one is read whole again at its
    next view); the one just read is kept whatever its size. Thread-safe.

    Bounded by count of profiles only, a replica serving a school would keep 3 MB per
    child in every process that ever served them (issue 32)."""

    def __init__(self, max_attempts: int, max_profiles: int) -> None:
        self.max_attempts, self.max_profiles = max_attempts, max_profiles
        self._kept: OrderedDict[Hashable, ProgressHistory] = OrderedDict()
        self._lock = Lock()

    def view(self, key: Hashable, profile_id: int, store: AttemptSource,
             created_at: datetime | None) -> HistoryView:
        """The profile's history brought up to date (:meth:`ProgressHistory.update`);
        ``key`` names it in this process (the database and the profile)."""
        with self._lock:
            history = self._kept.pop(key, None) or ProgressHistory(profile_id)
            self._kept[key] = history  # the most recently read last
        view = history.update(store, created_at)
        with self._lock:
            self._trim(keep=key)
        return view

    def attempts(self) -> int:
        """How many attempts the kept histories hold in all."""
        with self._lock:
            return sum(h.count for h in self._kept.values())

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, key: Hashable) -> bool:
        return key in self._kept

    def _trim(self, keep: Hashable) -> None:
        total = sum(h.count for h in self._kept.values())
        for key in list(self._kept):  # oldest first
            if total <= self.max_attempts and len(self._kept) <= self.max_profiles:
                return
            if key != keep:
                total -= self._kept.pop(key).count
