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
frame again from its records when a view first asks for it (20 ms for a year, where
building it from the attempts took 80): the same frame a full read builds, dtypes
included. The game turns, fewer, are kept whole, since a game's evidence is counted
across its turns; their answers are counted again only when a game turn arrives. So
what is read after every answer (the fact model, the next "for me" puzzle) costs about a
millisecond whatever the history, and the charts' frame is built only for My progress.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from threading import Lock
from typing import Protocol

import pandas as pd

from puzzles.mastery import Answer, FactStats, normalise, stats_of_fact
from puzzles.practice import Attempt, ForMePath, answers_from_rows

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


class _FrameCell:
    """The practice's frame of some records, built when first asked and then kept: My
    progress's charts ask for it; the fact model and "for me", read after every answer,
    do not (a year's frame takes about 20 ms to build)."""

    __slots__ = ("_records", "_frame")

    def __init__(self, records: tuple[tuple[object, ...], ...]) -> None:
        self._records: tuple[tuple[object, ...], ...] = records
        self._frame: pd.DataFrame | None = None

    def get(self) -> pd.DataFrame:
        if self._frame is None:  # two threads may both build it: the same frame, kept once
            self._frame = records_frame(self._records)
        return self._frame


@dataclass(frozen=True)
class HistoryView:
    """The history at one read: what My progress draws (never changed afterwards)."""

    answers: tuple[Answer, ...]  # the fact model's: the practice's, then the games'
    game_turns: tuple[Attempt, ...]
    quick: tuple[QuickRow, ...]  # the practice's quick facts, oldest first
    for_me: ForMePath  # what the next "for me" puzzle is chosen from
    _frame: _FrameCell = field(repr=False, compare=False)
    _answered: Mapping[str, FactStats] = field(repr=False, compare=False)

    @property
    def frame(self) -> pd.DataFrame:
        """The practice's attempts (trainer.charts.attempts_frame), built on first use."""
        return self._frame.get()

    def fact_stats(self, facts: Iterable[str] = ()) -> dict[str, FactStats]:
        """``puzzles.mastery.fact_stats(self.answers, facts)``, from the stats kept per
        fact: only the facts the newest answers touched were counted again."""
        out = dict(self._answered)
        for fact in facts:
            key = normalise(fact)
            if key is not None and key not in out:
                out[key] = stats_of_fact(key, ())
        return out


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
    practice_answers: tuple[Answer, ...] = ()
    game_turns: tuple[Attempt, ...] = ()
    quick: tuple[QuickRow, ...] = ()
    for_me: ForMePath = ForMePath()
    full_reads: int = 0  # how often everything was read (a test and the benchmark look)
    # Built from the above when a view first needs them, again only after they change:
    # after a quick fact, the games' answers (about 20 ms for a year) are not recounted.
    _frame: _FrameCell = field(default_factory=lambda: _FrameCell(()), repr=False)
    _game_answers: tuple[Answer, ...] | None = field(default=None, repr=False)
    # The fact model kept per fact: the practice's answers of each fact (in the order
    # they came), the games' (None: to be grouped again, after a game turn), the stats of
    # every answered fact in fact_stats's order, and the facts to count again.
    _practice_by_fact: dict[str, list[Answer]] = field(default_factory=dict, repr=False)
    _game_by_fact: dict[str, list[Answer]] | None = field(default=None, repr=False)
    _answered: Mapping[str, FactStats] = field(default_factory=dict, repr=False)
    _touched: set[str] = field(default_factory=set, repr=False)
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
            if self._game_answers is None:
                self._game_answers = tuple(game_answers(self.game_turns))
            self._count_facts_again()
            return HistoryView((*self.practice_answers, *self._game_answers),
                               self.game_turns, self.quick, self.for_me, self._frame,
                               self._answered)

    def _count_facts_again(self) -> None:
        """Bring the kept fact stats up to date: every fact after a game turn (a game's
        answers are counted across its turns), else only the facts just answered."""
        assert self._game_answers is not None
        if self._game_by_fact is None:
            self._game_by_fact = _by_fact(self._game_answers)
            self._touched = {*self._practice_by_fact, *self._game_by_fact}
        if not self._touched:
            return
        games = self._game_by_fact
        old = self._answered
        # fact_stats's order: the facts as they first come in the practice, then the games'
        order = [*self._practice_by_fact,
                 *(k for k in games if k not in self._practice_by_fact)]
        self._answered = {
            key: stats_of_fact(key, [*self._practice_by_fact.get(key, ()),
                                     *games.get(key, ())])
            if key in self._touched else old[key]
            for key in order}
        self._touched = set()

    def _reset(self, created_at: datetime | None) -> None:
        self.created_at, self.last_id, self.count = created_at, 0, 0
        self.records, self._frame = (), _FrameCell(())
        self.practice_answers, self.game_turns, self.quick = (), (), ()
        self.for_me, self._game_answers = ForMePath(), None
        self._practice_by_fact, self._game_by_fact = {}, None
        self._answered, self._touched = {}, set()

    def _add(self, rows: Sequence[Attempt]) -> None:
        if not rows:
            return
        practice = [r for r in rows if not is_game_turn(r)]
        if practice:
            self.records += tuple(attempt_record(r) for r in practice)
            self._frame = _FrameCell(self.records)
            new_answers = answers_from_rows(practice)
            self.practice_answers += tuple(new_answers)
            for key, answers in _by_fact(new_answers).items():
                self._practice_by_fact.setdefault(key, []).extend(answers)
                self._touched.add(key)
            self.quick += tuple(QuickRow.of(r) for r in practice if r.kind == "quick-facts")
        turns = tuple(r for r in rows if is_game_turn(r))
        if turns:
            self.game_turns += turns
            self._game_answers = self._game_by_fact = None
        self.for_me = self.for_me.add(rows)
        self.last_id = max(self.last_id, max(r.id or 0 for r in rows))
        self.count += len(rows)


def _by_fact(answers: Iterable[Answer]) -> dict[str, list[Answer]]:
    """Answers grouped by their normalised fact, in their order (as fact_stats groups)."""
    out: dict[str, list[Answer]] = {}
    for answer in answers:
        key = normalise(answer.fact)
        if key is not None:
            out.setdefault(key, []).append(answer)
    return out


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
