"""Lesson results: each profile's best stars and plays at every lesson level (issue 12),
and the go at each level not finished yet (how many tries, how many wrong), which is
what shows a teacher a pupil stuck on a lesson level (docs/CLASSROOM.md)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .schema import Database, aware, lesson_goes, lesson_results, now
from .versions import bump_profiles

__all__ = ["LessonBest", "LessonGo", "LessonStore"]


@dataclass(frozen=True)
class LessonBest:
    """A profile's best at one level: most stars, fewest plays (each its own best), and
    when the level was first and last done."""

    stage: str
    level: str
    stars: int
    plays: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class LessonGo:
    """A profile's go at a level it has not finished yet: the tries judged since the
    first one (across restarts and days) and how many were wrong. Gone once the level
    is finished."""

    stage: str
    level: str
    tries: int
    wrong: int
    started_at: datetime
    updated_at: datetime


def _go(row: Any) -> LessonGo:
    return LessonGo(row.stage, row.level, row.tries, row.wrong, aware(row.started_at),
                    aware(row.updated_at))  # type: ignore[arg-type]


def _best(row: Any) -> LessonBest:
    return LessonBest(row.stage, row.level, row.stars, row.plays,
                      aware(row.created_at), aware(row.updated_at))  # type: ignore[arg-type]


class LessonStore(Database):
    """Lesson results over the database."""

    def record_lesson(self, profile_id: int, stage: str, level: str, stars: int,
                      plays: int) -> LessonBest:
        """A level just done: kept at once, in one transaction; the best is never lowered.

        The stars kept are the most ever earned and the plays the fewest, each
        compared inside the UPDATE itself, so two tabs finishing the same level at
        the same moment cannot write a lower score over a higher one.
        """
        if not (isinstance(stars, int) and 1 <= stars <= 3):
            raise ValueError(f"stars are 1-3, got {stars!r}")
        if not (isinstance(plays, int) and plays >= 0):
            raise ValueError(f"plays are a count, got {plays!r}")
        try:
            return self._record_lesson(profile_id, stage, level, stars, plays)
        except sa.exc.IntegrityError:
            # Two tabs created the level's row at the same moment: the row exists now.
            return self._record_lesson(profile_id, stage, level, stars, plays)

    def _record_lesson(self, profile_id: int, stage: str, level: str, stars: int,
                       plays: int) -> LessonBest:
        stamp = now()
        mine = ((lesson_results.c.profile_id == profile_id) & (lesson_results.c.stage == stage)
                & (lesson_results.c.level == level))
        with self.transaction() as conn:
            found = conn.execute(sa.select(lesson_results.c.id).where(mine)).first()
            if found is None:
                conn.execute(lesson_results.insert().values(
                    profile_id=profile_id, stage=stage, level=level, stars=stars, plays=plays,
                    created_at=stamp, updated_at=stamp))
            else:
                column = lesson_results.c
                conn.execute(lesson_results.update().where(column.id == found.id).values(
                    stars=sa.case((column.stars < stars, stars), else_=column.stars),
                    plays=sa.case((column.plays > plays, plays), else_=column.plays),
                    updated_at=stamp))
            # The level is finished: its go is over (the next try starts a new one).
            conn.execute(lesson_goes.delete().where(
                (lesson_goes.c.profile_id == profile_id) & (lesson_goes.c.stage == stage)
                & (lesson_goes.c.level == level)))
            bump_profiles(conn, [profile_id])
            return _best(conn.execute(sa.select(lesson_results).where(mine)).one())

    def record_lesson_try(self, profile_id: int, stage: str, level: str, *,
                          right: bool) -> LessonGo:
        """One try the runner judged at a level not finished yet, in one transaction.

        The counts grow inside the UPDATE itself (two tabs cannot lose a try); the go
        starts with the first try and lasts until :meth:`record_lesson` finishes the
        level, whatever restarts or days come between.
        """
        wrong = 0 if right else 1
        try:
            return self._record_try(profile_id, stage, level, wrong)
        except sa.exc.IntegrityError:
            # Two tabs began the go at the same moment: the row exists now.
            return self._record_try(profile_id, stage, level, wrong)

    def _record_try(self, profile_id: int, stage: str, level: str, wrong: int) -> LessonGo:
        stamp = now()
        column = lesson_goes.c
        mine = ((column.profile_id == profile_id) & (column.stage == stage)
                & (column.level == level))
        with self.transaction() as conn:
            changed = conn.execute(lesson_goes.update().where(mine).values(
                tries=column.tries + 1, wrong=column.wrong + wrong, updated_at=stamp)).rowcount
            if not changed:
                conn.execute(lesson_goes.insert().values(
                    profile_id=profile_id, stage=stage, level=level, tries=1, wrong=wrong,
                    started_at=stamp, updated_at=stamp))
            # The teacher sees a pupil stuck on a level; My progress does not show goes.
            bump_profiles(conn, [profile_id], progress=False)
            return _go(conn.execute(sa.select(lesson_goes).where(mine)).one())

    def lesson_goes(self, profile_id: int) -> dict[tuple[str, str], LessonGo]:
        """The profile's unfinished goes per ``(stage, level)``."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(lesson_goes)
                                .where(lesson_goes.c.profile_id == profile_id)
                                .order_by(lesson_goes.c.stage, lesson_goes.c.level)).all()
        return {(r.stage, r.level): _go(r) for r in rows}

    def lesson_results(self, profile_id: int) -> dict[tuple[str, str], LessonBest]:
        """The profile's best per ``(stage, level)``: the lesson map and My progress."""
        with self.engine.connect() as conn:
            return _results(conn, profile_id)


def _results(conn: Connection, profile_id: int) -> dict[tuple[str, str], LessonBest]:
    rows = conn.execute(sa.select(lesson_results)
                        .where(lesson_results.c.profile_id == profile_id)
                        .order_by(lesson_results.c.stage, lesson_results.c.level)).all()
    return {(r.stage, r.level): _best(r) for r in rows}
