"""A class's live rounds (issue 29): the round on the projector, the pupils' answers, and
who was last seen on My class.

A class has one round at a time that is not closed: starting one closes the one before.
An answer is written with its attempt (the pupil's evidence) and the pupil's and class's
versions in one transaction, and only while the round is open; a second answer of the
same pupil is refused by the table's key, whichever replica wrote the first.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from puzzles.practice import Attempt

from .practice import add_attempts, attempt_values
from .schema import (
    Database,
    StorageError,
    aware,
    class_members,
    class_presence,
    live_answers,
    live_rounds,
    now,
)
from .versions import bump_class, bump_profiles

__all__ = ["LiveRoundRow", "LiveAnswerRow", "LiveStore", "ROUND_STATES"]

#: Where a round is, in order.
ROUND_STATES: tuple[str, ...] = ("open", "revealed", "closed")


@dataclass(frozen=True, slots=True)
class LiveRoundRow:
    id: int
    class_id: int
    kind: str
    spec: dict[str, Any]
    state: str
    created_at: datetime
    revealed_at: datetime | None


@dataclass(frozen=True, slots=True)
class LiveAnswerRow:
    round_id: int
    profile_id: int
    answer: list[Any]
    correct: bool
    found: int
    wrong: int
    created_at: datetime


def live_round_row(row: Any) -> LiveRoundRow:
    created = aware(row.created_at)
    assert created is not None
    return LiveRoundRow(row.id, row.class_id, row.kind, json.loads(row.spec), row.state,
                        created, aware(row.revealed_at))


def _answer(row: Any) -> LiveAnswerRow:
    created = aware(row.created_at)
    assert created is not None
    return LiveAnswerRow(row.round_id, row.profile_id, json.loads(row.answer), row.correct,
                         row.found, row.wrong, created)


class LiveStore(Database):
    def start_live_round(self, class_id: int, kind: str, spec: dict[str, Any]) -> LiveRoundRow:
        """A new open round of the class; the round before it, if any, is closed."""
        with self.transaction() as conn:
            bump_class(conn, class_id)  # the class's row first: starts of two tabs queue
            conn.execute(live_rounds.update().where(
                (live_rounds.c.class_id == class_id) & (live_rounds.c.state != "closed"))
                .values(state="closed"))
            new_id = conn.execute(live_rounds.insert().values(
                class_id=class_id, kind=kind, spec=json.dumps(spec, sort_keys=True),
                state="open", created_at=now())).inserted_primary_key[0]
            return live_round_row(conn.execute(sa.select(live_rounds)
                                       .where(live_rounds.c.id == new_id)).one())

    def live_round(self, class_id: int) -> LiveRoundRow | None:
        """The class's round that is not closed (one lookup by the class's index)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(live_rounds).where(
                (live_rounds.c.class_id == class_id) & (live_rounds.c.state != "closed"))
                .order_by(live_rounds.c.id.desc()).limit(1)).first()
        return None if row is None else live_round_row(row)

    def set_live_round_state(self, class_id: int, round_id: int, state: str) -> LiveRoundRow:
        """Reveal or close a round of this class (a round only moves forward: revealing a
        closed round, or one of another class, is refused with ``live.gone``)."""
        if state not in ROUND_STATES[1:]:
            raise ValueError(f"a round is revealed or closed, not {state!r}")
        before = ROUND_STATES[:ROUND_STATES.index(state)]
        values: dict[str, Any] = {"state": state}
        if state == "revealed":
            values["revealed_at"] = now()
        with self.transaction() as conn:
            bump_class(conn, class_id)
            moved = conn.execute(live_rounds.update().where(
                (live_rounds.c.id == round_id) & (live_rounds.c.class_id == class_id)
                & live_rounds.c.state.in_(before)).values(**values)).rowcount
            if not moved:
                raise StorageError("live.gone")
            return live_round_row(conn.execute(sa.select(live_rounds)
                                       .where(live_rounds.c.id == round_id)).one())

    def record_live_answer(self, round_id: int, profile_id: int, answer: list[Any],
                           attempt: Attempt | Sequence[Attempt]) -> LiveAnswerRow:
        """A pupil's answer to an open round of their class, with its attempts (evidence:
        one, or a quick round's one a question), in one transaction. Refused
        (``StorageError``) when the round is not open any more (``live.closed``), is not
        their class's (``live.gone``), or they answered it already (``live.answered``):
        then nothing is written."""
        stamp = now()
        attempts = [attempt] if isinstance(attempt, Attempt) else list(attempt)
        correct = all(a.correct for a in attempts)
        found = sum(a.found for a in attempts)
        wrong = sum(a.wrong for a in attempts)
        try:
            with self.transaction() as conn:
                row = conn.execute(sa.select(live_rounds.c.state).where(
                    (live_rounds.c.id == round_id) & live_rounds.c.class_id.in_(
                        sa.select(class_members.c.class_id)
                        .where(class_members.c.profile_id == profile_id)))).first()
                if row is None:
                    raise StorageError("live.gone")
                if row.state != "open":
                    raise StorageError("live.closed")
                conn.execute(live_answers.insert().values(
                    round_id=round_id, profile_id=profile_id, answer=json.dumps(answer),
                    correct=correct, found=found, wrong=wrong, created_at=stamp))
                add_attempts(conn, [attempt_values(profile_id, a, stamp) for a in attempts])
                bump_profiles(conn, [profile_id])
        except sa.exc.IntegrityError:
            raise StorageError("live.answered") from None
        return LiveAnswerRow(round_id, profile_id, list(answer), correct, found, wrong, stamp)

    def live_answers(self, round_id: int) -> list[LiveAnswerRow]:
        """Every answer to the round, in the order they came."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(live_answers).where(live_answers.c.round_id == round_id)
                                .order_by(live_answers.c.created_at,
                                          live_answers.c.profile_id)).all()
        return [_answer(r) for r in rows]

    def live_answer_count(self, round_id: int) -> int:
        """How many have answered (the projector's count, refreshed every second or two)."""
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(live_answers)
                                    .where(live_answers.c.round_id == round_id)).scalar() or 0)

    def live_answer_of(self, round_id: int, profile_id: int) -> LiveAnswerRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(live_answers).where(
                (live_answers.c.round_id == round_id)
                & (live_answers.c.profile_id == profile_id))).first()
        return None if row is None else _answer(row)

    # -- who is in ------------------------------------------------------------------------
    def touch_presence(self, class_id: int, profile_id: int) -> None:
        """The pupil is on My class now (signed in, or the page's timer)."""
        stamp = now()
        # Another tab of the pupil may write the row this instant: seen all the same.
        with contextlib.suppress(sa.exc.IntegrityError):
            self._touch(class_id, profile_id, stamp)

    def _touch(self, class_id: int, profile_id: int, stamp: datetime) -> None:
        with self.transaction() as conn:
            moved = conn.execute(class_presence.update().where(
                class_presence.c.profile_id == profile_id)
                .values(class_id=class_id, seen_at=stamp)).rowcount
            if not moved:
                conn.execute(class_presence.insert().values(
                    profile_id=profile_id, class_id=class_id, seen_at=stamp))

    def leave_presence(self, profile_id: int) -> None:
        """The pupil tapped "Not you? Switch": not in any more."""
        with self.transaction() as conn:
            conn.execute(class_presence.delete().where(class_presence.c.profile_id == profile_id))

    def present_pupils(self, class_id: int, since: datetime) -> list[int]:
        """The class's pupils seen on My class since ``since``."""
        with self.engine.connect() as conn:
            return list(conn.execute(sa.select(class_presence.c.profile_id).where(
                (class_presence.c.class_id == class_id) & (class_presence.c.seen_at >= since))
                .order_by(class_presence.c.profile_id)).scalars())
