"""Where each pupil of a class is now, for the teacher's live view (issue 29).

One row per pupil in ``pupil_activity``, kept current two ways:

- a page run of the pupil (:meth:`ActivityStore.note_activity`, throttled by
  :class:`trainer.live_view.ActivityNotes`: a new page, assignment or tablet at once,
  else at most once a minute): the tablet's anonymous label, the page, the assignment in
  hand, since when, last seen. One ``UPDATE`` (an ``INSERT`` the first time);
- an answer (:func:`.activity_answers.note_answers`, from :func:`.practice.add_attempts`,
  in the answer's own transaction): when, right or not, wrong answers in a row, and the
  answers of the last :data:`RECENT_MINUTES` in :data:`BUCKET_SECONDS` buckets. One read
  of the row by its key and one ``UPDATE``, only for a pupil who has a row (a profile in
  no class has none: nothing is written for it).

So the teacher's view of a class, whatever its size, is one query
(:meth:`ActivityStore.live_view_read`): the class's pupils, their group, their row and
the assignment named in it, and the class's open live round, joined.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa

from .activity_answers import BUCKET_SECONDS, RECENT_MINUTES, note_answers, recent_counts
from .classroom import AssignmentRow
from .live import LiveRoundRow, live_round_row
from .schema import (
    Database,
    assignments,
    aware,
    class_groups,
    class_members,
    group_members,
    live_rounds,
    now,
    profiles,
    pupil_activity,
)

__all__ = ["ActivityRow", "ActivityStore", "BUCKET_SECONDS", "RECENT_MINUTES", "note_answers",
           "recent_counts"]


@dataclass(frozen=True, slots=True)
class ActivityRow:
    """A pupil of the class and their activity row (None fields: never seen)."""

    profile_id: int
    nickname: str
    avatar: str
    real_name: str | None
    group_name: str | None
    device: str | None
    page: str | None  # None: signed out (or never signed in)
    assignment: AssignmentRow | None
    page_since: datetime | None
    seen_at: datetime | None
    answer_at: datetime | None
    right_at: datetime | None
    wrong_streak: int
    recent: tuple[tuple[int, int, int], ...]
    answer_what: str | None


def _assignment_of(row: Any) -> AssignmentRow | None:
    if row.a_id is None:
        return None
    return AssignmentRow(row.a_id, row.a_class_id, row.a_kind, json.loads(row.a_spec), row.a_due,
                         aware(row.a_created_at),  # type: ignore[arg-type]
                         row.a_group_id, row.a_profile_id)


class ActivityStore(Database):
    """The pupils' activity rows: written by their page runs and answers, read by the
    teacher's live view."""

    def note_activity(self, class_id: int, profile_id: int, *, device: str | None,
                      page: str, assignment_id: int | None) -> None:
        """The pupil is on ``page`` (with ``assignment_id`` in hand) on the tablet
        ``device`` now. A new page or assignment starts the time on it again, and the
        wrong answers in a row."""
        stamp = now()
        # Another tab of the pupil may insert the row this instant: noted all the same.
        with contextlib.suppress(sa.exc.IntegrityError):
            self._note(class_id, profile_id, device, page, assignment_id, stamp)

    def _note(self, class_id: int, profile_id: int, device: str | None, page: str,
              assignment_id: int | None, stamp: datetime) -> None:
        c = pupil_activity.c
        moved = (c.page.is_distinct_from(page)
                 | c.assignment_id.is_distinct_from(assignment_id))
        with self.transaction() as conn:
            done = conn.execute(pupil_activity.update().where(c.profile_id == profile_id).values(
                class_id=class_id, device=device, page=page, assignment_id=assignment_id,
                seen_at=stamp,
                page_since=sa.case((moved, stamp), else_=c.page_since),
                wrong_streak=sa.case((moved, 0), else_=c.wrong_streak))).rowcount
            if not done:
                conn.execute(pupil_activity.insert().values(
                    profile_id=profile_id, class_id=class_id, device=device, page=page,
                    assignment_id=assignment_id, page_since=stamp, seen_at=stamp,
                    wrong_streak=0, recent="[]"))

    def leave_activity(self, profile_id: int) -> None:
        """The pupil signed out (switched, idle, the teacher's "sign out every tablet"):
        on no page any more; the rest stays for the view's "last seen"."""
        with self.transaction() as conn:
            conn.execute(pupil_activity.update()
                         .where(pupil_activity.c.profile_id == profile_id)
                         .values(page=None, assignment_id=None, page_since=None))

    def live_view_read(self, class_id: int) -> tuple[list[ActivityRow], LiveRoundRow | None]:
        """Every pupil of the class with their group and activity, and the class's round
        that is not closed (what "stuck" waits on), in ONE query: the round is the same on
        every row (a join on nothing with the round's one-row lookup by the class's index;
        a class with no pupils has nothing to show, round or not)."""
        a = assignments.c
        lr = live_rounds.c
        open_round = (sa.select(*(column.label(f"lr_{column.name}") for column in lr))
                      .where((lr.class_id == class_id) & (lr.state != "closed"))
                      .order_by(lr.id.desc()).limit(1).subquery("open_round"))
        query = (sa.select(class_members.c.profile_id, class_members.c.real_name,
                           profiles.c.nickname, profiles.c.avatar,
                           class_groups.c.name.label("group_name"),
                           pupil_activity.c.device, pupil_activity.c.page,
                           pupil_activity.c.page_since, pupil_activity.c.seen_at,
                           pupil_activity.c.answer_at, pupil_activity.c.right_at,
                           pupil_activity.c.wrong_streak, pupil_activity.c.recent,
                           pupil_activity.c.answer_what,
                           a.id.label("a_id"), a.class_id.label("a_class_id"),
                           a.kind.label("a_kind"), a.spec.label("a_spec"), a.due.label("a_due"),
                           a.created_at.label("a_created_at"), a.group_id.label("a_group_id"),
                           a.profile_id.label("a_profile_id"), *open_round.c)
                 .join(profiles, profiles.c.id == class_members.c.profile_id)
                 .outerjoin(group_members,
                            group_members.c.profile_id == class_members.c.profile_id)
                 .outerjoin(class_groups, class_groups.c.id == group_members.c.group_id)
                 .outerjoin(pupil_activity,
                            pupil_activity.c.profile_id == class_members.c.profile_id)
                 .outerjoin(assignments, (a.id == pupil_activity.c.assignment_id)
                            & (a.class_id == class_members.c.class_id))
                 .outerjoin(open_round, sa.true())
                 .where(class_members.c.class_id == class_id)
                 .order_by(sa.func.lower(profiles.c.nickname), class_members.c.profile_id))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        live = None
        if rows and rows[0].lr_id is not None:
            first = rows[0]._mapping
            live = live_round_row(SimpleNamespace(**{
                column.name: first[f"lr_{column.name}"] for column in lr}))
        return [ActivityRow(
            r.profile_id, r.nickname, r.avatar, r.real_name, r.group_name, r.device, r.page,
            _assignment_of(r), aware(r.page_since), aware(r.seen_at), aware(r.answer_at),
            aware(r.right_at), int(r.wrong_streak or 0),
            tuple(tuple(b) for b in json.loads(r.recent or "[]")),  # type: ignore[misc]
            r.answer_what) for r in rows], live
