"""Practice: every puzzle and quick-fact attempt, and each day's daily result."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa

from puzzles.practice import Attempt

from .activity_answers import note_answers
from .aggregates import insert_attempts
from .assignment_progress import add_to_assignments
from .progress import SlotProgress, write_progress
from .schema import (
    AGGREGATES,
    TASK_TABLES,
    Database,
    attempt_totals,
    attempts,
    aware,
    daily_results,
    game_tables,
    games,
    lesson_results,
    now,
    profiles,
    table_seats,
)
from .versions import bump_profiles

__all__ = ["DailyResult", "PracticeStore", "ProgressVersion", "ProgressContents",
           "add_attempts"]

_JSON_FIELDS = ("facts", "answers", "answer")
# The attempt's fields that are columns: those storage sets (id, created_at) and
# the ones computed from others (properties) are not among the dataclass fields.
_STORED = tuple(f.name for f in dataclasses.fields(Attempt) if f.name not in ("id", "created_at"))


@dataclass(frozen=True)
class DailyResult:
    """One child's daily on one date: stars per puzzle (``None``: not answered yet).

    Each slot is written once, by the first answer to that puzzle; once all five
    are answered the result is complete and never changes (playing the day
    again is recorded as attempts only).
    """

    day: str
    number: int
    stars: tuple[int | None, ...]
    completed_at: datetime | None

    @property
    def completed(self) -> bool:
        return self.completed_at is not None

    @property
    def total(self) -> int:
        return sum(s or 0 for s in self.stars)


def attempt_values(profile_id: int, attempt: Attempt, stamp: datetime) -> dict[str, Any]:
    values = {name: getattr(attempt, name) for name in _STORED}
    for name in _JSON_FIELDS:
        values[name] = json.dumps(values[name], ensure_ascii=False)
    values.update(profile_id=profile_id, created_at=stamp)
    return values


def add_attempts(conn: sa.Connection, rows: Sequence[dict[str, Any]]) -> list[int]:
    """Attempt rows (:func:`attempt_values`) inserted with their aggregates and their
    pupils' progress on their class's assignments (:mod:`.assignment_progress`) and
    their activity rows (:mod:`.activity`: the teacher's live view), in
    ``conn``'s transaction: the one way an attempt is written. Their ids, in order."""
    ids = insert_attempts(conn, attempts, rows, AGGREGATES)
    if not ids:
        return ids
    add_to_assignments(conn, TASK_TABLES, rows, ids)
    note_answers(conn, rows)  # the teacher's live view (issue 29)
    return ids


def games_of(profile_id: int) -> sa.ColumnElement[bool]:
    """The games a profile may list and count: its own rows, and the games of the tables
    where it joined a seat (a child's occupancy row in ``table_seats``, kept when the
    seat was handed to the computer; a child who left the waiting room has no row).
    Here, not in :mod:`.games`, because My progress's version counts them too."""
    seated = (sa.select(game_tables.c.game_id)
              .join(table_seats, table_seats.c.table_id == game_tables.c.id)
              .where((table_seats.c.profile_id == profile_id)
                     & (table_seats.c.kind == "human") & game_tables.c.game_id.is_not(None)))
    return (games.c.profile_id == profile_id) | games.c.id.in_(seated)


def _attempt(row: Any) -> Attempt:
    values = {name: getattr(row, name) for name in _STORED}
    for name in _JSON_FIELDS:
        values[name] = json.loads(values[name])
    return Attempt(**values, id=row.id, created_at=aware(row.created_at))


def _daily(row: Any) -> DailyResult:
    return DailyResult(row.day, row.number, tuple(json.loads(row.stars)),
                       aware(row.completed_at))


class ProgressVersion(NamedTuple):
    """A profile's data version: the counter every write My progress draws from bumps
    (:mod:`.versions`), so a cache keyed by it is never stale, and read by the profile's
    id, however long its history. The creation time tells apart a new profile that
    reuses the id of a deleted one (its counter starts again)."""

    created_at: datetime | None
    data_version: int | None


class ProgressContents(NamedTuple):
    """Which parts of My progress have anything to draw (a new child sees a welcome)."""

    attempts: bool
    finished_games: bool  # the tables' games the child sat at included
    lessons: bool  # lesson levels done


class PracticeStore(Database):
    """Attempts and daily results over the database."""

    def record_attempt(self, profile_id: int, attempt: Attempt, *,
                       progress: SlotProgress | None = None) -> int:
        """One puzzle or quick-fact attempt, in a transaction; its id. ``progress``:
        where the answer leaves the child's page slot (Quick facts' round), written in
        the same transaction (a killed process keeps both or neither)."""
        with self.transaction() as conn:
            (new_id,) = add_attempts(conn, [attempt_values(profile_id, attempt, now())])
            if progress is not None:
                write_progress(conn, profile_id, progress)
            bump_profiles(conn, [profile_id])
            return int(new_id)

    def record_daily_answer(self, profile_id: int, day: str, number: int, index: int,
                            attempt: Attempt, slots: int = 5) -> DailyResult:
        """A daily puzzle's attempt and, if that puzzle had no answer yet, its stars.

        One transaction: the attempt and the day's result are written together.
        The first answer to each puzzle fills its slot; when all ``slots`` are
        filled the result is complete, and nothing changes it afterwards (the
        update only touches a row that is not complete, and only an empty slot).
        """
        attempt = dataclasses.replace(attempt, daily_date=day)
        try:
            return self._record_daily_answer(profile_id, day, number, index, attempt, slots)
        except sa.exc.IntegrityError:
            # Two tabs created the day's row at the same moment: the row exists now.
            return self._record_daily_answer(profile_id, day, number, index, attempt, slots)

    def _record_daily_answer(self, profile_id: int, day: str, number: int, index: int,
                             attempt: Attempt, slots: int) -> DailyResult:
        stamp = now()
        with self.transaction() as conn:
            add_attempts(conn, [attempt_values(profile_id, attempt, stamp)])
            # Lock the day's row where the database can (PostgreSQL); SQLite
            # serialises writers anyway.
            query = sa.select(daily_results).where(
                (daily_results.c.profile_id == profile_id) & (daily_results.c.day == day))
            row = conn.execute(query.with_for_update()).first()
            if row is None:
                conn.execute(daily_results.insert().values(
                    profile_id=profile_id, day=day, number=number,
                    stars=json.dumps([None] * slots), created_at=stamp))
                row = conn.execute(query).first()
            stars = json.loads(row.stars)
            if row.completed_at is None and stars[index] is None:
                stars[index] = attempt.stars
                done = all(s is not None for s in stars)
                conn.execute(daily_results.update().where(
                    (daily_results.c.id == row.id) & daily_results.c.completed_at.is_(None))
                    .values(stars=json.dumps(stars), completed_at=stamp if done else None))
                row = conn.execute(query).first()
            bump_profiles(conn, [profile_id])
        return _daily(row)

    def daily_result(self, profile_id: int, day: str) -> DailyResult | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(daily_results).where(
                (daily_results.c.profile_id == profile_id) & (daily_results.c.day == day))
            ).first()
        return _daily(row) if row is not None else None

    def daily_results(self, profile_id: int) -> list[DailyResult]:
        """Every daily of the profile, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(daily_results)
                                .where(daily_results.c.profile_id == profile_id)
                                .order_by(daily_results.c.day)).all()
        return [_daily(r) for r in rows]

    def attempts(self, profile_id: int, *, limit: int | None = None) -> list[Attempt]:
        """The profile's attempts, oldest first (the newest ``limit`` if given)."""
        query = sa.select(attempts).where(attempts.c.profile_id == profile_id)
        if limit is not None:
            query = query.order_by(attempts.c.id.desc()).limit(limit)
        else:
            query = query.order_by(attempts.c.id)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        out = [_attempt(r) for r in rows]
        return out[::-1] if limit is not None else out

    def attempts_after(self, profile_id: int, after_id: int) -> tuple[list[Attempt], int]:
        """The profile's attempts with an id above ``after_id``, oldest first, and how many
        attempts the profile has in all (its ``attempt_totals`` row, kept in the same
        transaction as every attempt), read in one transaction: a reader that keeps the
        attempts it has read adds these, and when its count and the total differ (an
        attempt committed late with a lower id, on PostgreSQL) reads them all again."""
        query = sa.select(attempts).where((attempts.c.profile_id == profile_id)
                                          & (attempts.c.id > after_id)).order_by(attempts.c.id)
        total = sa.select(attempt_totals.c.puzzles + attempt_totals.c.quick_facts
                          + attempt_totals.c.game_turns).where(
            attempt_totals.c.profile_id == profile_id)
        with self.engine.connect() as conn, conn.begin():
            rows = conn.execute(query).all()
            count = conn.execute(total).scalar()
        return [_attempt(r) for r in rows], int(count or 0)

    def progress_version(self, profile_id: int) -> ProgressVersion:
        """What My progress is drawn from, as a version: one lookup by primary key (see
        :class:`ProgressVersion`; ``(None, None)`` for a profile that is not there)."""
        query = sa.select(profiles.c.created_at, profiles.c.data_version).where(
            profiles.c.id == profile_id)
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return ProgressVersion(None, None) if row is None else \
            ProgressVersion(aware(row.created_at), row.data_version)

    def progress_contents(self, profile_id: int) -> ProgressContents:
        """Whether the profile has attempts, finished games and lesson levels done: three
        ``EXISTS`` by indexed columns, each stopping at the first row (callers cache it
        by :meth:`progress_version`)."""
        parts = [
            sa.select(attempts.c.id).where(attempts.c.profile_id == profile_id),
            sa.select(games.c.id).where(games_of(profile_id) & (games.c.status == "finished")),
            sa.select(lesson_results.c.id).where(lesson_results.c.profile_id == profile_id)]
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(*(part.exists() for part in parts))).one()
        return ProgressContents(*(bool(v) for v in row))
