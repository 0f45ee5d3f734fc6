"""A pupil's answers on their activity row (the teacher's live view, issue 29), in the
answer's own transaction: :func:`note_answers`, called by :func:`.practice.add_attempts`.
Apart from :mod:`.activity` (which reads the rows with their assignments, from
:mod:`.classroom`) because :mod:`.classroom` imports :mod:`.practice`: no import cycle."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa

from .schema import pupil_activity

__all__ = ["BUCKET_SECONDS", "RECENT_MINUTES", "counts_right", "note_answers", "note_vote",
           "recent_counts"]

#: The answers of the last minutes are kept in buckets of this many seconds ...
BUCKET_SECONDS = 10
#: ... for this many minutes (older buckets are dropped at the next answer).
RECENT_MINUTES = 5


def _bucket(at: datetime) -> int:
    return int(at.timestamp()) // BUCKET_SECONDS * BUCKET_SECONDS


def recent_counts(recent: Sequence[Sequence[int]], at: datetime,
                  minutes: int = RECENT_MINUTES) -> tuple[int, int]:
    """(answers, right answers) in the buckets of the last ``minutes`` before ``at``."""
    since = _bucket(at - timedelta(minutes=minutes))
    total = right = 0
    for start, answers, good in recent:
        if since < start <= at.timestamp():
            total += answers
            right += good
    return total, right


def counts_right(row: Mapping[str, Any]) -> bool:
    """Whether an answer (an attempt row) is a right one on the live view: what the
    pupil's own screen called right -- solved (``correct``), or at least one right set
    found (``found``: "Found!" on the board, a round of the 15s where a wrong try came
    before the find). ``correct`` alone means *perfect* (nothing missed, nothing wrong):
    a pupil who found the only 15 after one wrong try was counted "0 right of 1" and
    shown stuck. A one-answer kind (a quick fact, a best move, a sweep card) has
    ``found`` 1 exactly when it is right, so it is unchanged."""
    return bool(row.get("correct")) or int(row.get("found") or 0) > 0


def note_answers(conn: sa.Connection, rows: Sequence[dict[str, Any]]) -> None:
    """The answers (attempt rows) on their pupils' activity rows, in ``conn``'s
    transaction. A profile without a row (in no class) is left alone."""
    by_pupil: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_pupil.setdefault(int(row["profile_id"]), []).append(row)
    for profile_id, mine in by_pupil.items():
        kept = conn.execute(sa.select(pupil_activity.c.recent, pupil_activity.c.wrong_streak,
                                      pupil_activity.c.right_at)
                            .where(pupil_activity.c.profile_id == profile_id)
                            .with_for_update()).first()
        if kept is None:
            continue
        buckets = {int(b[0]): [int(b[1]), int(b[2])] for b in json.loads(kept.recent)}
        streak, right_at = int(kept.wrong_streak), kept.right_at
        last: dict[str, Any] = mine[-1]
        for row in mine:
            stamp = row["created_at"]
            counts = buckets.setdefault(_bucket(stamp), [0, 0])
            counts[0] += 1
            if counts_right(row):
                counts[1] += 1
                streak, right_at = 0, stamp
            else:
                streak += 1
        oldest = _bucket(last["created_at"] - timedelta(minutes=RECENT_MINUTES))
        recent = sorted([start, *counts] for start, counts in buckets.items() if start > oldest)
        what = f"{last.get('mode', '')}:{last.get('kind', '')}:{last.get('level', '')}"[:48]
        conn.execute(pupil_activity.update().where(pupil_activity.c.profile_id == profile_id)
                     .values(recent=json.dumps(recent), wrong_streak=streak, right_at=right_at,
                             answer_at=last["created_at"], answer_what=what))


def note_vote(conn: sa.Connection, profile_id: int, stamp: datetime) -> None:
    """A vote at the class's game (a move the engine took: its sum is right), in the
    vote's transaction: the pupil answered, so the live view's "long with no right
    answer" starts again, as after a right answer, and so do the wrong answers in a row.
    Not counted among the last minutes' answers: the vote's evidence is, once the
    teacher closes the turn (:meth:`.class_games.ClassGameStore.save_class_turn`),
    through :func:`note_answers` like any answer. One ``UPDATE`` by the row's key."""
    conn.execute(pupil_activity.update().where(pupil_activity.c.profile_id == profile_id)
                 .values(right_at=stamp, wrong_streak=0))
