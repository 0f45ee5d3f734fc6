"""The classroom's storage: teachers, classes, their pupils and assignments (issue 13).

A pupil is an ordinary profile (a nickname, a picture, settings, a PIN) plus a row of
``class_members`` naming its class and, for the teachers only, a real name. The
pupil's PIN is the profile's own ``pin_hash``: every way to the profile (the class
sign-in, "Who's playing?", a ``?p=`` in the URL) asks for the same PIN, set by the
teacher. Passwords and PINs go in as typed and only "yes" or "no" comes out: no
hash leaves this package.

Wrong passwords and wrong PINs are counted by :mod:`trainer.limits` (table
``secret_tries``) per account or pupil, per device and per pair of the two, so one
device's guesses make that device wait without locking the target out on another
(issue 27). A pupil's nickname is unique within its class (``profiles.name_scope``).

A class's data for the teacher's views is read by :meth:`ClassroomStore.class_snapshot`
in nine queries whatever the class's size (the class with its assignments; the
pupils with their lesson results, unfinished lesson goes and last game; the pupils'
progress on the assignments, :mod:`.assignment_progress`; and six of the pupils'
aggregates, :mod:`.aggregates`, from which the fact grid and the dashboard are
computed), and a tenth for every attempt when asked (the attempts export).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from puzzles.practice import Attempt

from ..names import name_key
from .assignment_progress import Task, TaskProgress, read_ahead, read_progress, start_progress
from .hashing import PASSWORD_COST, PIN_COST, hash_secret, secret_matches, waste_time
from .lessons import LessonBest, LessonGo
from .practice import _attempt
from .profiles import delete_profiles
from .schema import (
    PUPIL_IDLE_MINUTES,
    TASK_TABLES,
    Database,
    StorageError,
    assignment_progress,
    assignments,
    attempt_days,
    attempt_totals,
    attempts,
    aware,
    class_games,
    class_groups,
    class_members,
    class_presence,
    class_teachers,
    class_votes,
    classes,
    daily_results,
    fact_days,
    fact_progress,
    games,
    group_members,
    lesson_goes,
    lesson_results,
    live_answers,
    live_rounds,
    now,
    profiles,
    puzzle_streaks,
    quick_fact_seconds,
    quick_fact_times,
    teacher_invites,
    teachers,
)
from .versions import bump_class, bump_profiles

#: PostgreSQL advisory lock key of "the server's first teacher" ("escT").
_FIRST_TEACHER_LOCK = 0x65736354

__all__ = ["Teacher", "ClassInfo", "Member", "NewMember", "GroupRow",
           "AssignmentRow", "ClassSnapshot", "FactRecord", "PupilAggregates", "ClassDeletion",
           "ClassVersion", "ClassroomStore",
           "class_scope", "TaskProgress"]


@dataclass(frozen=True)
class Teacher:
    """A teacher's account as the app may see it: no password hash here."""

    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class ClassInfo:
    id: int
    teacher_id: int  # the owner
    name: str
    code: str  # as stored: "KDM472" (shown "KDM-472")
    fluency_seconds: int
    capture_sum: int
    archived_at: datetime | None
    created_at: datetime
    co_teachers: tuple[int, ...] = ()
    #: Its pupils hear goals read aloud and the sounds (issue 23; quiet by default).
    voice: bool = False
    #: Minutes without a tap before a pupil left signed in on a tablet is signed out, and
    #: when the teacher last signed out every tablet of the class (issue 27).
    idle_minutes: int = PUPIL_IDLE_MINUTES
    signed_out_at: datetime | None = None

    @property
    def archived(self) -> bool:
        return self.archived_at is not None


@dataclass(frozen=True)
class Member:
    """A pupil of a class: the profile's nickname and picture; the real name is for the
    class's teachers only (the pupils' own views never carry it)."""

    profile_id: int
    class_id: int
    nickname: str
    avatar: str
    real_name: str | None
    created_at: datetime
    locked_until: datetime | None = None
    #: The pupil's group in the class (issue 29; None: in none).
    group_id: int | None = None


@dataclass(frozen=True)
class GroupRow:
    """A group within a class (a table, a support group), named by its teachers."""

    id: int
    class_id: int
    name: str
    created_at: datetime


@dataclass(frozen=True)
class NewMember:
    """A pupil to add: nickname (already checked), picture, real name, PIN (as typed)."""

    nickname: str
    avatar: str
    pin: str
    real_name: str | None = None


@dataclass(frozen=True)
class AssignmentRow:
    id: int
    class_id: int
    kind: str  # lesson | puzzles | facts | weakest
    spec: dict[str, Any]
    due: str | None  # YYYY-MM-DD
    created_at: datetime
    #: Its pupils (issue 29): one group's, or one pupil's; neither: the whole class's.
    group_id: int | None = None
    profile_id: int | None = None

    def is_for(self, member: Member) -> bool:
        """Whether the pupil is one of the assignment's pupils (as of their group now)."""
        if self.profile_id is not None:
            return member.profile_id == self.profile_id
        if self.group_id is not None:
            return member.group_id == self.group_id
        return True


@dataclass(frozen=True)
class ClassDeletion:
    """What deleting a class removes: said to the teacher before the button that does it."""

    pupils: int
    games: int
    attempts: int
    dailies: int
    lessons: int  # lesson levels done
    assignments: int
    lesson_goes: int = 0  # lesson levels tried, not finished yet


class ClassVersion(NamedTuple):
    """The class's data version: the counter bumped by every write a teacher's view of the
    class draws (its row, co-teachers, assignments, pupils and each pupil's answers,
    games, lessons, names and pictures; :mod:`.versions`), so a cache keyed by it is
    never stale. The creation time tells apart a new class that reuses a deleted one's
    id."""

    created_at: datetime | None
    data_version: int | None


@dataclass(frozen=True)
class FactRecord:
    """A pupil's tries at one fact, from ``fact_progress`` (:mod:`.aggregates`)."""

    tries: int
    right: int
    last_at: datetime
    #: The last tries with a time or wrong, oldest first: (right, seconds or None).
    recent: tuple[tuple[bool, float | None], ...]


@dataclass(frozen=True)
class PupilAggregates:
    """What a pupil's attempts add up to (:mod:`.aggregates`), as the dashboard reads it."""

    puzzles: int = 0  # neither quick facts nor game turns
    quick_facts: int = 0
    game_turns: int = 0
    solved: int = 0  # puzzles and quick facts solved
    last_at: datetime | None = None  # the latest attempt's
    facts: dict[str, FactRecord] = field(default_factory=dict)
    #: The days read (from the snapshot's ``days_from``): day -> (puzzles and quick facts,
    #: solved), and day -> fact -> (tries, wrong).
    days: dict[str, tuple[int, int]] = field(default_factory=dict)
    fact_days: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    #: The middle one or two times of the right quick facts, in seconds (their median).
    quick_middle: tuple[float, ...] = ()
    #: The latest puzzle's kind, level and sum, and its last results there, oldest first.
    latest_puzzles: tuple[str, int, int, tuple[bool, ...]] | None = None


@dataclass(frozen=True)
class ClassSnapshot:
    """Everything the teacher's views of one class are computed from."""

    info: ClassInfo
    members: tuple[Member, ...]
    assignments: tuple[AssignmentRow, ...]
    #: Every attempt of each pupil, oldest first (when ``every_attempt``; else empty).
    attempts: dict[int, list[Attempt]] = field(default_factory=dict)
    lessons: dict[int, dict[tuple[str, str], LessonBest]] = field(default_factory=dict)
    last_game: dict[int, datetime] = field(default_factory=dict)
    #: The levels each pupil has tried and not finished yet (the "stuck" reason).
    lesson_goes: dict[int, dict[tuple[str, str], LessonGo]] = field(default_factory=dict)
    #: Each pupil's aggregates (every pupil has one, empty without attempts).
    aggregates: dict[int, PupilAggregates] = field(default_factory=dict)
    #: The first local day whose per-day aggregates were read (None: every day).
    days_from: str | None = None
    #: Whether ``attempts`` holds every attempt of the pupils, or none.
    every_attempt: bool = True
    #: Assignment id -> pupil -> progress, kept at write time (:mod:`.assignment_progress`).
    progress: dict[int, dict[int, TaskProgress]] = field(default_factory=dict)
    #: The class's groups by name (each member's is ``Member.group_id``).
    groups: tuple[GroupRow, ...] = ()

    def member(self, profile_id: int) -> Member | None:
        return next((m for m in self.members if m.profile_id == profile_id), None)


def _teacher(row: Any) -> Teacher:
    return Teacher(row.id, row.name, aware(row.created_at))  # type: ignore[arg-type]


def _class(row: Any, co: Sequence[int] = ()) -> ClassInfo:
    return ClassInfo(row.id, row.teacher_id, row.name, row.code, row.fluency_seconds,
                     row.capture_sum, aware(row.archived_at),
                     aware(row.created_at), tuple(sorted(co)),  # type: ignore[arg-type]
                     voice=bool(row.voice), idle_minutes=int(row.idle_minutes),
                     signed_out_at=aware(row.signed_out_at))


def _assignment(row: Any) -> AssignmentRow:
    return AssignmentRow(row.id, row.class_id, row.kind, json.loads(row.spec), row.due,
                         aware(row.created_at),  # type: ignore[arg-type]
                         row.group_id, row.profile_id)


def _group(row: Any) -> GroupRow:
    return GroupRow(row.id, row.class_id, row.name, aware(row.created_at))  # type: ignore[arg-type]


def _targets(conn: Connection, class_id: int, group_id: int | None,
             profile_id: int | None) -> list[int]:
    """The pupils of an assignment (the class's, a group's or one), by id."""
    query = sa.select(class_members.c.profile_id).where(class_members.c.class_id == class_id)
    if profile_id is not None:
        query = query.where(class_members.c.profile_id == profile_id)
    elif group_id is not None:
        query = query.where(class_members.c.profile_id.in_(
            sa.select(group_members.c.profile_id).where(group_members.c.group_id == group_id)))
    return list(conn.execute(query.order_by(class_members.c.profile_id)).scalars())


def _group_of_class(conn: Connection, class_id: int, group_id: int) -> bool:
    return conn.execute(sa.select(class_groups.c.id).where(
        (class_groups.c.id == group_id) & (class_groups.c.class_id == class_id))
    ).first() is not None


def _task(assignment: AssignmentRow) -> Task:
    return Task(assignment.id, assignment.kind, assignment.spec, assignment.created_at)


class ClassroomStore(Database):
    """Teachers, classes, pupils and assignments over the database."""

    # -- teachers ---------------------------------------------------------------------
    def create_teacher(self, name: str, password: str) -> Teacher:
        """A new account whatever the server has (the command line's way, and the tests');
        ``teacher_taken`` if the name, folded, has one already."""
        return self.create_first_or_invited_teacher(name, password, at=now(), invite_hash=None,
                                                    any_time=True)

    def get_teacher(self, teacher_id: int) -> Teacher | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(teachers.c.id, teachers.c.name, teachers.c.created_at)
                               .where(teachers.c.id == teacher_id)).first()
        return _teacher(row) if row is not None else None

    def teacher_named(self, name: str) -> Teacher | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(teachers.c.id, teachers.c.name, teachers.c.created_at)
                               .where(teachers.c.name_key == name_key(name))).first()
        return _teacher(row) if row is not None else None

    def teacher_password_matches(self, name: str, password: str) -> Teacher | None:
        """The teacher whose account ``name`` is and whose password this is, else None
        (an unknown name takes as long as a wrong password: no account is told). Wrong
        ones are counted by the caller (trainer.limits), not here: per device and per
        account, so one device's guesses never lock the account on another (issue 27)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(teachers).where(teachers.c.name_key == name_key(name))
                               ).first()
        if row is None:
            waste_time(PASSWORD_COST)
            return None
        return _teacher(row) if secret_matches(password, row.password_hash) else None

    def teacher_count(self) -> int:
        """How many teacher accounts the server has (none: the first visitor may make one)."""
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(teachers)).scalar()
                       or 0)

    # -- invitations (issue 27) ---------------------------------------------------------
    def create_invite(self, teacher_id: int | None, code_hash: str, *, at: datetime,
                      expires_at: datetime) -> None:
        """An invitation code (its SHA-256), made by ``teacher_id`` (None: the command
        line)."""
        with self.transaction() as conn:
            conn.execute(teacher_invites.insert().values(
                code_hash=code_hash, created_by=teacher_id, created_at=at,
                expires_at=expires_at))

    def open_invites(self, teacher_id: int, at: datetime) -> list[datetime]:
        """When the teacher's unused, unexpired invitations expire (soonest first)."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(teacher_invites.c.expires_at).where(
                (teacher_invites.c.created_by == teacher_id)
                & teacher_invites.c.used_at.is_(None)
                & (teacher_invites.c.expires_at > at))
                .order_by(teacher_invites.c.expires_at)).scalars().all()
        return [aware(r) for r in rows]  # type: ignore[misc]

    def create_first_or_invited_teacher(self, name: str, password: str, *, at: datetime,
                                        invite_hash: str | None,
                                        any_time: bool = False) -> Teacher:
        """A new account, in one transaction: the server's first (``invite_hash`` None and
        no teacher yet), or by an invitation, used up by it, or (``any_time``) made at the
        server's command line. ``invite_needed`` (teachers
        exist, no code), ``invite_bad`` (unknown, used or expired: the same refusal),
        ``teacher_taken``. PostgreSQL serialises the "no teacher yet" check with an
        advisory lock; SQLite's writer lock, taken first by the no-op update, does."""
        key = name_key(name)
        digest = hash_secret(password, PASSWORD_COST)
        try:
            with self.transaction() as conn:
                if conn.dialect.name == "postgresql":
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                                 {"key": _FIRST_TEACHER_LOCK})
                else:
                    # A write that changes nothing but begins SQLite's write transaction
                    # (a WHERE on the key, not a constant the planner would drop).
                    conn.execute(teachers.update().where(teachers.c.id == -1)
                                 .values(name=teachers.c.name))
                if invite_hash is None:
                    if not any_time and conn.execute(
                            sa.select(teachers.c.id).limit(1)).first() is not None:
                        raise StorageError("invite_needed")
                else:
                    row = conn.execute(sa.select(teacher_invites.c.id).where(
                        (teacher_invites.c.code_hash == invite_hash)
                        & teacher_invites.c.used_at.is_(None)
                        & (teacher_invites.c.expires_at > at))).first()
                    if row is None:
                        raise StorageError("invite_bad")
                if conn.execute(sa.select(teachers.c.id).where(teachers.c.name_key == key)
                                ).first() is not None:
                    raise StorageError("teacher_taken", name=name)
                new_id = conn.execute(teachers.insert().values(
                    name=name, name_key=key, password_hash=digest, created_at=at,
                    failed_attempts=0)).inserted_primary_key[0]
                if invite_hash is not None:
                    used = conn.execute(teacher_invites.update().where(
                        (teacher_invites.c.id == row.id) & teacher_invites.c.used_at.is_(None))
                        .values(used_at=at, used_by=new_id)).rowcount
                    if used != 1:  # another tab used it meanwhile
                        raise StorageError("invite_bad")
        except sa.exc.IntegrityError:
            raise StorageError("teacher_taken", name=name) from None
        teacher = self.get_teacher(int(new_id))
        assert teacher is not None
        return teacher

    def set_teacher_password(self, teacher_id: int, password: str) -> None:
        with self.transaction() as conn:
            conn.execute(teachers.update().where(teachers.c.id == teacher_id).values(
                password_hash=hash_secret(password, PASSWORD_COST), failed_attempts=0,
                locked_until=None))

    # -- classes ----------------------------------------------------------------------
    def create_class(self, teacher_id: int, name: str, code: str, *, fluency_seconds: int,
                     capture_sum: int) -> ClassInfo:
        """A new class; ``class_code_taken`` if another class has the code (draw another)."""
        try:
            with self.transaction() as conn:
                if conn.execute(sa.select(classes.c.id).where(classes.c.code == code)
                                ).first() is not None:
                    raise StorageError("class_code_taken", code=code)
                new_id = conn.execute(classes.insert().values(
                    teacher_id=teacher_id, name=name, code=code,
                    fluency_seconds=fluency_seconds, capture_sum=capture_sum,
                    created_at=now())).inserted_primary_key[0]
        except sa.exc.IntegrityError:
            raise StorageError("class_code_taken", code=code) from None
        info = self.get_class(int(new_id))
        assert info is not None
        return info

    def get_class(self, class_id: int) -> ClassInfo | None:
        with self.engine.connect() as conn:
            return _read_class(conn, classes.c.id == class_id)

    def class_by_code(self, code: str) -> ClassInfo | None:
        with self.engine.connect() as conn:
            return _read_class(conn, classes.c.code == code)

    def classes_of(self, teacher_id: int) -> list[ClassInfo]:
        """The classes a teacher owns or co-teaches, by name."""
        co = sa.select(class_teachers.c.class_id).where(class_teachers.c.teacher_id == teacher_id)
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(classes).where(
                (classes.c.teacher_id == teacher_id) | classes.c.id.in_(co))
                .order_by(sa.func.lower(classes.c.name), classes.c.id)).all()
            ids = [r.id for r in rows]
            co_rows = conn.execute(sa.select(class_teachers.c.class_id,
                                             class_teachers.c.teacher_id)
                                   .where(class_teachers.c.class_id.in_(ids))).all() if ids else []
        by_class: dict[int, list[int]] = {}
        for class_id, other in co_rows:
            by_class.setdefault(class_id, []).append(other)
        return [_class(r, by_class.get(r.id, ())) for r in rows]

    def update_class(self, class_id: int, **values: Any) -> ClassInfo:
        """Change ``name``, ``code``, ``fluency_seconds``, ``capture_sum``, ``voice`` or
        ``archived_at``; ``class_code_taken`` if the new code is another class's."""
        allowed = {"name", "code", "fluency_seconds", "capture_sum", "archived_at", "voice"}
        if not values or set(values) - allowed:
            raise ValueError(f"a class has {sorted(allowed)}, not {sorted(set(values) - allowed)}")
        try:
            with self.transaction() as conn:
                if "code" in values and conn.execute(sa.select(classes.c.id).where(
                        (classes.c.code == values["code"]) & (classes.c.id != class_id))
                ).first() is not None:
                    raise StorageError("class_code_taken", code=values["code"])
                conn.execute(classes.update().where(classes.c.id == class_id).values(**values))
                bump_class(conn, class_id)
        except sa.exc.IntegrityError:
            raise StorageError("class_code_taken", code=values.get("code")) from None
        info = self.get_class(class_id)
        assert info is not None
        return info

    def set_class_tablets(self, class_id: int, *, idle_minutes: int | None = None,
                          signed_out_at: datetime | None = None) -> ClassInfo | None:
        """The class's shared-tablet settings (issue 27): the idle minutes before a pupil
        is signed out, and the moment every tablet of the class was signed out."""
        values: dict[str, Any] = {}
        if idle_minutes is not None:
            values["idle_minutes"] = int(idle_minutes)
        if signed_out_at is not None:
            values["signed_out_at"] = signed_out_at
        if values:
            with self.transaction() as conn:
                conn.execute(classes.update().where(classes.c.id == class_id).values(**values))
                bump_class(conn, class_id)
        return self.get_class(class_id)

    def add_co_teacher(self, class_id: int, teacher_id: int) -> None:
        with self.transaction() as conn:
            if conn.execute(sa.select(class_teachers.c.id).where(
                    (class_teachers.c.class_id == class_id)
                    & (class_teachers.c.teacher_id == teacher_id))).first() is None:
                conn.execute(class_teachers.insert().values(
                    class_id=class_id, teacher_id=teacher_id, created_at=now()))
                bump_class(conn, class_id)

    def remove_co_teacher(self, class_id: int, teacher_id: int) -> None:
        with self.transaction() as conn:
            conn.execute(class_teachers.delete().where(
                (class_teachers.c.class_id == class_id)
                & (class_teachers.c.teacher_id == teacher_id)))
            bump_class(conn, class_id)

    def class_deletion(self, class_id: int) -> ClassDeletion:
        """How much deleting the class removes (its pupils with all their data)."""
        pupils = sa.select(class_members.c.profile_id).where(class_members.c.class_id == class_id)

        def count(table: sa.Table) -> Any:
            return sa.select(sa.func.count()).select_from(table).where(
                table.c.profile_id.in_(pupils)).scalar_subquery()

        with self.engine.connect() as conn:
            row = conn.execute(sa.select(
                sa.select(sa.func.count()).select_from(class_members)
                .where(class_members.c.class_id == class_id).scalar_subquery(),
                count(games), count(attempts), count(daily_results), count(lesson_results),
                sa.select(sa.func.count()).select_from(assignments)
                .where(assignments.c.class_id == class_id).scalar_subquery(),
                count(lesson_goes))).one()
        return ClassDeletion(*(int(v) for v in row))

    def delete_class(self, class_id: int) -> None:
        """Remove the class, its assignments and co-teachers, and its pupils' profiles with
        everything stored for them, in one transaction."""
        with self.transaction() as conn:
            pupils = list(conn.execute(sa.select(class_members.c.profile_id)
                                       .where(class_members.c.class_id == class_id)).scalars())
            delete_profiles(conn, pupils)
            conn.execute(assignment_progress.delete().where(assignment_progress.c.assignment_id.in_(
                sa.select(assignments.c.id).where(assignments.c.class_id == class_id))))
            conn.execute(assignments.delete().where(assignments.c.class_id == class_id))
            theirs = sa.select(class_groups.c.id).where(class_groups.c.class_id == class_id)
            conn.execute(group_members.delete().where(group_members.c.group_id.in_(theirs)))
            conn.execute(class_groups.delete().where(class_groups.c.class_id == class_id))
            rounds = sa.select(live_rounds.c.id).where(live_rounds.c.class_id == class_id)
            conn.execute(live_answers.delete().where(live_answers.c.round_id.in_(rounds)))
            conn.execute(live_rounds.delete().where(live_rounds.c.class_id == class_id))
            conn.execute(class_presence.delete().where(class_presence.c.class_id == class_id))
            played = sa.select(class_games.c.id).where(class_games.c.class_id == class_id)
            conn.execute(class_votes.delete().where(class_votes.c.game_id.in_(played)))
            conn.execute(class_games.delete().where(class_games.c.class_id == class_id))
            conn.execute(class_teachers.delete().where(class_teachers.c.class_id == class_id))
            conn.execute(classes.delete().where(classes.c.id == class_id))

    # -- pupils -----------------------------------------------------------------------
    def class_name_keys(self, class_id: int) -> set[str]:
        """The folded nicknames of the class's pupils: a nickname is unique within its
        class, not across the server (issue 27; other classes' names are never read)."""
        with self.engine.connect() as conn:
            return set(conn.execute(sa.select(profiles.c.name_key).where(
                profiles.c.name_scope == class_scope(class_id))).scalars())

    def add_members(self, class_id: int, pupils: Sequence[NewMember]) -> list[Member]:
        """New profiles, each a pupil of the class with its PIN, in one transaction: all are
        added or none (``profile_taken`` names a nickname another profile has by now)."""
        stamp = now()
        digests = [hash_secret(p.pin, PIN_COST) for p in pupils]  # slow: outside the transaction
        try:
            with self.transaction() as conn:
                taken = set(conn.execute(sa.select(profiles.c.name_key).where(
                    profiles.c.name_scope == class_scope(class_id))).scalars())
                ids = []
                for pupil, digest in zip(pupils, digests, strict=True):
                    key = name_key(pupil.nickname)
                    if key in taken:
                        raise StorageError("profile_taken", nickname=pupil.nickname)
                    taken.add(key)
                    profile_id = conn.execute(profiles.insert().values(
                        nickname=pupil.nickname, name_key=key,
                        name_scope=class_scope(class_id), avatar=pupil.avatar[:16],
                        settings="{}",
                        created_at=stamp, pin_hash=digest)).inserted_primary_key[0]
                    conn.execute(class_members.insert().values(
                        class_id=class_id, profile_id=profile_id, real_name=pupil.real_name,
                        failed_attempts=0, created_at=stamp, card_pin=pupil.pin))
                    ids.append(int(profile_id))
                # The class's row before its assignments are read (an assignment being made
                # waits or is waited for); the whole class's are the new pupils' too (a
                # weakest one: the first new facts, as no answer came before); a new pupil
                # is in no group yet.
                bump_class(conn, class_id)
                tasks = [_task(_assignment(r)) for r in conn.execute(
                    sa.select(assignments).where(
                        (assignments.c.class_id == class_id) & assignments.c.group_id.is_(None)
                        & assignments.c.profile_id.is_(None)))]
                start_progress(conn, TASK_TABLES, tasks, ids, new_pupils=True)
        except sa.exc.IntegrityError:
            raise StorageError("profile_taken", nickname="") from None
        found = {m.profile_id: m for m in self.members(class_id)}
        return [found[i] for i in ids]

    def members(self, class_id: int) -> list[Member]:
        """The class's pupils by nickname."""
        with self.engine.connect() as conn:
            rows = conn.execute(_members_query().where(class_members.c.class_id == class_id)
                                .order_by(sa.func.lower(profiles.c.nickname))).all()
        return [_member(r) for r in rows]

    def membership(self, profile_id: int) -> Member | None:
        """The profile's place in a class, if it is a pupil (then its teacher manages it)."""
        with self.engine.connect() as conn:
            row = conn.execute(_members_query().where(class_members.c.profile_id == profile_id)
                               ).first()
        return _member(row) if row is not None else None

    def managed_profile_ids(self) -> set[int]:
        """The profiles that are pupils of a class (a device's "Who's playing?" may leave
        them out: they sign in through their class)."""
        with self.engine.connect() as conn:
            return set(conn.execute(sa.select(class_members.c.profile_id)).scalars())

    def set_member_pin(self, class_id: int, profile_id: int, pin: str) -> None:
        """The teacher's new PIN for a pupil (its lock and count of wrong PINs cleared)."""
        digest = hash_secret(pin, PIN_COST)
        with self.transaction() as conn:
            if not _is_member(conn, class_id, profile_id):
                raise StorageError("not_in_class")
            conn.execute(profiles.update().where(profiles.c.id == profile_id)
                         .values(pin_hash=digest))
            conn.execute(class_members.update().where(class_members.c.profile_id == profile_id)
                         .values(failed_attempts=0, locked_until=None, card_pin=pin))
            bump_profiles(conn, [profile_id])

    def set_member_pins(self, class_id: int, pins: dict[int, str]) -> None:
        """New PINs for several pupils at once, in one transaction."""
        digests = {pid: (hash_secret(pin, PIN_COST), pin) for pid, pin in pins.items()}
        with self.transaction() as conn:
            for profile_id, (digest, pin) in digests.items():
                if not _is_member(conn, class_id, profile_id):
                    raise StorageError("not_in_class")
                conn.execute(profiles.update().where(profiles.c.id == profile_id)
                             .values(pin_hash=digest))
                conn.execute(class_members.update()
                             .where(class_members.c.profile_id == profile_id)
                             .values(failed_attempts=0, locked_until=None, card_pin=pin))
            bump_profiles(conn, digests)

    def member_pin_matches(self, class_id: int, profile_id: int, pin: str) -> bool:
        """Whether ``pin`` is the pupil's (checked against the hash). ``not_in_class`` when
        the profile is not a pupil of this class (a code of another class, an edited
        request). Wrong PINs are counted by the caller (trainer.limits): per pupil, device
        and pair, so one tablet's guesses never lock the pupil out on another (issue 27)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(profiles.c.pin_hash)
                .join(class_members, profiles.c.id == class_members.c.profile_id)
                .where((class_members.c.class_id == class_id)
                       & (class_members.c.profile_id == profile_id))).first()
        if row is None:
            raise StorageError("not_in_class")
        if row.pin_hash is None:
            waste_time(PIN_COST)
            return False
        return secret_matches(pin, row.pin_hash)

    def card_pin(self, class_id: int, profile_id: int) -> str | None:
        """The PIN printed on the pupil's login card (None for a pupil made before it was
        kept: a new PIN gives one). The caller is the class's teacher (trainer.classroom
        checks); no pupil's page reads it."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(class_members.c.card_pin).where(
                (class_members.c.class_id == class_id)
                & (class_members.c.profile_id == profile_id))).scalar()

    def set_real_name(self, class_id: int, profile_id: int, real_name: str | None) -> None:
        with self.transaction() as conn:
            conn.execute(class_members.update().where(
                (class_members.c.class_id == class_id)
                & (class_members.c.profile_id == profile_id)).values(real_name=real_name))
            # My progress never shows the real name: only the class's version moves.
            bump_profiles(conn, [profile_id], progress=False)

    def rename_member(self, class_id: int, profile_id: int, nickname: str) -> None:
        """The teacher's new nickname for a pupil (already checked by the classroom), in one
        transaction: ``not_in_class``, or ``profile_taken`` when the unique name key refuses
        it (another tab took the name meanwhile); nothing changes then."""
        try:
            with self.transaction() as conn:
                if not _is_member(conn, class_id, profile_id):
                    raise StorageError("not_in_class")
                conn.execute(profiles.update().where(profiles.c.id == profile_id)
                             .values(nickname=nickname, name_key=name_key(nickname)))
                bump_profiles(conn, [profile_id])
        except sa.exc.IntegrityError:
            raise StorageError("profile_taken", nickname=nickname) from None

    def set_member_avatar(self, class_id: int, profile_id: int, avatar: str) -> None:
        """The teacher's new picture for a pupil (``not_in_class`` for another's)."""
        with self.transaction() as conn:
            if not _is_member(conn, class_id, profile_id):
                raise StorageError("not_in_class")
            conn.execute(profiles.update().where(profiles.c.id == profile_id)
                         .values(avatar=avatar[:16]))
            bump_profiles(conn, [profile_id])

    def remove_member(self, class_id: int, profile_id: int) -> None:
        """Delete a pupil: the profile and everything stored for it (a managed account has
        no life outside its class)."""
        with self.transaction() as conn:
            if not _is_member(conn, class_id, profile_id):
                raise StorageError("not_in_class")
            delete_profiles(conn, [profile_id])

    # -- assignments ------------------------------------------------------------------
    def create_assignment(self, class_id: int, kind: str, spec: dict[str, Any],
                          due: str | None, *, group_id: int | None = None,
                          profile_id: int | None = None) -> AssignmentRow:
        """A new assignment for the whole class, one of its groups (``group_id``) or one
        pupil (``profile_id``), with its pupils' progress from what they answered so far
        (a *weakest* one's facts chosen now), in one transaction: ``group_missing`` or
        ``not_in_class`` for a group or pupil that is not the class's (nothing is made)."""
        stamp = now()
        ahead = None
        if kind == "weakest":  # its pupils' every answer, weighed before the transaction
            with self.engine.connect() as conn:
                ahead = read_ahead(conn, TASK_TABLES, Task(0, kind, spec, stamp),
                                   _targets(conn, class_id, group_id, profile_id))
        with self.transaction() as conn:
            # The class's row first: an answer being written, or pupils being added, wait
            # or are waited for, and are then read (assignment_progress's module doc).
            bump_class(conn, class_id)
            if group_id is not None and not _group_of_class(conn, class_id, group_id):
                raise StorageError("group_missing")
            if profile_id is not None and not _is_member(conn, class_id, profile_id):
                raise StorageError("not_in_class")
            pupils = _targets(conn, class_id, group_id, profile_id)
            new_id = conn.execute(assignments.insert().values(
                class_id=class_id, kind=kind, spec=json.dumps(spec, sort_keys=True), due=due,
                created_at=stamp, group_id=group_id,
                profile_id=profile_id)).inserted_primary_key[0]
            row = conn.execute(sa.select(assignments).where(assignments.c.id == new_id)).one()
            task = _assignment(row)
            start_progress(conn, TASK_TABLES, [_task(task)], pupils, ahead=ahead)
        return task

    def assignments(self, class_id: int) -> list[AssignmentRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(assignments).where(assignments.c.class_id == class_id)
                                .order_by(assignments.c.id)).all()
        return [_assignment(r) for r in rows]

    def delete_assignment(self, class_id: int, assignment_id: int) -> None:
        with self.transaction() as conn:
            mine = sa.select(assignments.c.id).where(
                (assignments.c.id == assignment_id) & (assignments.c.class_id == class_id))
            conn.execute(assignment_progress.delete().where(
                assignment_progress.c.assignment_id.in_(mine)))
            conn.execute(assignments.delete().where(
                (assignments.c.id == assignment_id) & (assignments.c.class_id == class_id)))
            bump_class(conn, class_id)

    # -- groups (issue 29) --------------------------------------------------------------
    def groups(self, class_id: int) -> list[GroupRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(class_groups).where(class_groups.c.class_id == class_id)
                                .order_by(class_groups.c.id)).all()
        return [_group(r) for r in rows]

    def create_group(self, class_id: int, name: str) -> GroupRow:
        """A new group (the name already checked): ``group_taken`` when the class has a
        group of that name (folded: "Table 1" and "table 1" are one)."""
        try:
            with self.transaction() as conn:
                new_id = conn.execute(class_groups.insert().values(
                    class_id=class_id, name=name, name_key=name_key(name),
                    created_at=now())).inserted_primary_key[0]
                bump_class(conn, class_id)
                row = conn.execute(sa.select(class_groups).where(class_groups.c.id == new_id)
                                   ).one()
        except sa.exc.IntegrityError:
            raise StorageError("group_taken", name=name) from None
        return _group(row)

    def rename_group(self, class_id: int, group_id: int, name: str) -> GroupRow:
        """The group's new name: ``group_missing`` (not the class's), ``group_taken``."""
        try:
            with self.transaction() as conn:
                if not _group_of_class(conn, class_id, group_id):
                    raise StorageError("group_missing")
                conn.execute(class_groups.update().where(class_groups.c.id == group_id)
                             .values(name=name, name_key=name_key(name)))
                bump_class(conn, class_id)
                row = conn.execute(sa.select(class_groups)
                                   .where(class_groups.c.id == group_id)).one()
        except sa.exc.IntegrityError:
            raise StorageError("group_taken", name=name) from None
        return _group(row)

    def delete_group(self, class_id: int, group_id: int) -> None:
        """Remove the group with its assignments (and their progress); its pupils stay in
        the class, in no group. ``group_missing`` when it is not the class's."""
        with self.transaction() as conn:
            bump_class(conn, class_id)
            if not _group_of_class(conn, class_id, group_id):
                raise StorageError("group_missing")
            theirs = sa.select(assignments.c.id).where(assignments.c.group_id == group_id)
            conn.execute(assignment_progress.delete().where(
                assignment_progress.c.assignment_id.in_(theirs)))
            conn.execute(assignments.delete().where(assignments.c.group_id == group_id))
            conn.execute(group_members.delete().where(group_members.c.group_id == group_id))
            conn.execute(class_groups.delete().where(class_groups.c.id == group_id))

    def set_pupil_group(self, class_id: int, profile_id: int, group_id: int | None) -> None:
        """Put a pupil in a group of their class, or in none: they leave their former
        group's assignments (their progress rows go) and get the new group's, counted from
        what they answered since each was made, in one transaction (``not_in_class``,
        ``group_missing``)."""
        with self.transaction() as conn:
            # The class's row first, as the assignment's maker takes it: an answer being
            # written waits or is waited for, then is read here (My progress draws no
            # group: the pupil's own version stays).
            bump_class(conn, class_id)
            if not _is_member(conn, class_id, profile_id):
                raise StorageError("not_in_class")
            if group_id is not None and not _group_of_class(conn, class_id, group_id):
                raise StorageError("group_missing")
            before = conn.execute(sa.select(group_members.c.group_id).where(
                group_members.c.profile_id == profile_id)).scalar()
            if before == group_id:
                return
            if before is not None:
                conn.execute(assignment_progress.delete().where(
                    (assignment_progress.c.profile_id == profile_id)
                    & assignment_progress.c.assignment_id.in_(
                        sa.select(assignments.c.id).where(assignments.c.group_id == before))))
                conn.execute(group_members.delete().where(
                    group_members.c.profile_id == profile_id))
            if group_id is None:
                return
            conn.execute(group_members.insert().values(group_id=group_id,
                                                       profile_id=profile_id))
            tasks = [_task(_assignment(r)) for r in conn.execute(
                sa.select(assignments).where(assignments.c.group_id == group_id))]
            start_progress(conn, TASK_TABLES, tasks, [profile_id])

    # -- what the teacher's views read ------------------------------------------------
    def class_snapshot(self, class_id: int, *, only: int | None = None,
                       days_from: str | None = None,
                       every_attempt: bool = True) -> ClassSnapshot | None:
        """The class, its assignments and groups, its pupils (each with their group) with
        their lesson results and last game,
        their progress on the assignments, their attempts (every one, or none) and their
        aggregates (per-day ones from the local day ``days_from`` on, every day if None):
        a fixed number of queries, whatever the number of pupils.
        ``only`` reads one pupil's data for the pupil's own list of assignments, which
        reads no aggregates (none are read then)."""
        with self.engine.connect() as conn:
            # 1. the class with its assignments and co-teachers (few rows: a class has few)
            rows = conn.execute(
                sa.select(classes, assignments.c.id.label("a_id"),
                          assignments.c.kind.label("a_kind"), assignments.c.spec.label("a_spec"),
                          assignments.c.due.label("a_due"),
                          assignments.c.created_at.label("a_created"),
                          assignments.c.group_id.label("a_group"),
                          assignments.c.profile_id.label("a_pupil"),
                          class_teachers.c.teacher_id.label("co_id"))
                .outerjoin(assignments, assignments.c.class_id == classes.c.id)
                .outerjoin(class_teachers, class_teachers.c.class_id == classes.c.id)
                .where(classes.c.id == class_id).order_by(assignments.c.id)).all()
            if not rows:
                return None
            info = _class(rows[0], {r.co_id for r in rows if r.co_id is not None})
            tasks = tuple({r.a_id: AssignmentRow(r.a_id, class_id, r.a_kind,
                                                 json.loads(r.a_spec), r.a_due,
                                                 aware(r.a_created),  # type: ignore[arg-type]
                                                 r.a_group, r.a_pupil)
                           for r in rows if r.a_id is not None}.values())
            # 2. the pupils with their last game, then their lesson results and
            # unfinished lesson goes (one row per level, the two tables one under the
            # other: no product of the two), each read on its own: joined, every lesson
            # row carried its pupil's columns and the last game (a year: 1,500 rows).
            mine = class_members.c.class_id == class_id
            if only is not None:
                mine = mine & (class_members.c.profile_id == only)
            # Each pupil's last game: one look in the index on games (profile_id,
            # updated_at) per pupil (migration 22), not a year of games grouped.
            last_game = sa.select(sa.func.max(games.c.updated_at)).where(
                games.c.profile_id == class_members.c.profile_id).scalar_subquery()
            members: dict[int, Member] = {}
            last: dict[int, datetime] = {}
            for r in conn.execute(_members_query(last_game.label("last_game")).where(mine)
                                  .order_by(sa.func.lower(profiles.c.nickname),
                                            profiles.c.id)):
                if r.profile_id not in members:
                    members[r.profile_id] = _member(r)
                    if r.last_game is not None:
                        last[r.profile_id] = aware(r.last_game)  # type: ignore[assignment]
            # The class's lesson rows only (not every profile's).
            theirs = sa.select(class_members.c.profile_id).where(mine)
            levels = sa.union_all(
                sa.select(lesson_results.c.profile_id, sa.literal(1).label("done"),
                          lesson_results.c.stage, lesson_results.c.level,
                          lesson_results.c.stars.label("first"),
                          lesson_results.c.plays.label("second"),
                          lesson_results.c.created_at.label("l_created"),
                          lesson_results.c.updated_at.label("l_updated"))
                .where(lesson_results.c.profile_id.in_(theirs)),
                sa.select(lesson_goes.c.profile_id, sa.literal(0).label("done"),
                          lesson_goes.c.stage, lesson_goes.c.level,
                          lesson_goes.c.tries.label("first"),
                          lesson_goes.c.wrong.label("second"),
                          lesson_goes.c.started_at.label("l_created"),
                          lesson_goes.c.updated_at.label("l_updated"))
                .where(lesson_goes.c.profile_id.in_(theirs)))
            lessons: dict[int, dict[tuple[str, str], LessonBest]] = {pid: {} for pid in members}
            goes: dict[int, dict[tuple[str, str], LessonGo]] = {pid: {} for pid in members}
            for r in conn.execute(levels):
                if r.profile_id not in members:  # joined as this was read
                    continue
                if r.done:
                    lessons[r.profile_id][(r.stage, r.level)] = LessonBest(
                        r.stage, r.level, r.first, r.second, aware(r.l_created),
                        aware(r.l_updated))  # type: ignore[arg-type]
                else:
                    goes[r.profile_id][(r.stage, r.level)] = LessonGo(
                        r.stage, r.level, r.first, r.second, aware(r.l_created),
                        aware(r.l_updated))  # type: ignore[arg-type]
            if only is not None:  # the pupil's own list: their assignments only
                tasks = tuple(t for t in tasks
                              if only in members and t.is_for(members[only]))
            groups = tuple(_group(r) for r in conn.execute(
                sa.select(class_groups).where(class_groups.c.class_id == class_id)
                .order_by(class_groups.c.id)))
            # 3. their progress on the assignments, and every attempt if asked (oldest first)
            pupils = sa.select(class_members.c.profile_id).where(mine)
            progress = read_progress(conn, TASK_TABLES, [t.id for t in tasks
                                                         if t.kind != "lesson"], pupils)
            attempt_rows = conn.execute(sa.select(attempts).where(
                attempts.c.profile_id.in_(pupils)).order_by(attempts.c.id)).all() \
                if every_attempt else []
            # 4. their aggregates
            aggregates = _read_aggregates(conn, pupils, list(members), days_from) \
                if only is None else {}
        by_pupil: dict[int, list[Attempt]] = {pid: [] for pid in members}
        for r in attempt_rows:
            by_pupil.setdefault(r.profile_id, []).append(_attempt(r))
        return ClassSnapshot(info, tuple(members.values()), tasks, by_pupil, lessons, last,
                             goes, aggregates, days_from, every_attempt, progress, groups)

    def class_version(self, class_id: int) -> ClassVersion:
        """See :class:`ClassVersion`: one lookup by primary key, whatever the class's
        history (``(None, None)`` for a class that is not there)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(classes.c.created_at, classes.c.data_version)
                               .where(classes.c.id == class_id)).first()
        return ClassVersion(None, None) if row is None else \
            ClassVersion(aware(row.created_at), row.data_version)


def _read_aggregates(conn: Connection, pupils: sa.Select, ids: Sequence[int],
                     days_from: str | None) -> dict[int, PupilAggregates]:
    """The pupils' aggregates (:mod:`.aggregates`): six queries of rows that do not grow
    with the answers given (per-day ones bounded by ``days_from``)."""
    def of(table: sa.Table) -> Any:
        return table.c.profile_id.in_(pupils)

    def recent_days(table: sa.Table) -> Any:
        return of(table) if days_from is None else of(table) & (table.c.day >= days_from)

    parts: dict[int, dict[str, Any]] = {
        pid: {"facts": {}, "days": {}, "fact_days": {}} for pid in ids}
    for r in conn.execute(sa.select(attempt_totals).where(of(attempt_totals))):
        parts[r.profile_id].update(puzzles=r.puzzles, quick_facts=r.quick_facts,
                                   game_turns=r.game_turns, solved=r.solved,
                                   last_at=aware(r.last_at))
    for r in conn.execute(sa.select(fact_progress).where(of(fact_progress))):
        parts[r.profile_id]["facts"][r.fact] = FactRecord(
            r.tries, r.right, aware(r.last_at),  # type: ignore[arg-type]
            tuple((bool(e[3]), e[4]) for e in json.loads(r.recent)))
    for r in conn.execute(sa.select(attempt_days).where(recent_days(attempt_days))):
        parts[r.profile_id]["days"][r.day] = (r.practice, r.solved)
    for r in conn.execute(sa.select(fact_days).where(recent_days(fact_days))):
        parts[r.profile_id]["fact_days"].setdefault(r.day, {})[r.fact] = (r.tries, r.wrong)
    for pid, values in _quick_middles(conn, of(quick_fact_seconds)).items():
        parts[pid]["quick_middle"] = values
    latest: dict[int, Any] = {}
    for r in conn.execute(sa.select(puzzle_streaks).where(of(puzzle_streaks))):
        if r.profile_id not in latest or r.last_id > latest[r.profile_id].last_id:
            latest[r.profile_id] = r
    for pid, r in latest.items():
        parts[pid]["latest_puzzles"] = (r.kind, r.level, r.capture_sum, tuple(
            bool(solved) for _, solved in json.loads(r.recent)))
    return {pid: PupilAggregates(**values) for pid, values in parts.items()}


def _quick_middles(conn: Connection, pupils: Any) -> dict[int, tuple[float, ...]]:
    """Each pupil's one or two middle times of the right quick facts (their median's:
    the 0-based places ``(n - 1) // 2`` and ``n // 2``), in seconds, found by the
    database in one statement: the running counts per whole second
    (``quick_fact_seconds``: a few dozen rows a pupil, whatever the year) say which one or
    two seconds hold the middle places; only those seconds' hundredths are read and
    counted on (at most a hundred rows a pupil), not the year's every distinct time."""
    seconds, times = quick_fact_seconds, quick_fact_times

    def middle(table: Any, key: Any, start: Any = 0) -> Any:
        """``table``'s rows whose running count (from ``start``) covers a middle place."""
        upto = start + sa.func.sum(table.c.answers).over(partition_by=table.c.profile_id,
                                                          order_by=key)
        running = sa.select(table, upto.label("upto")).subquery()
        return running, (running.c.upto > (running.c.total - 1) / 2) \
            & (running.c.upto - running.c.answers <= running.c.total / 2)

    counted = sa.select(seconds, sa.func.sum(seconds.c.answers).over(
        partition_by=seconds.c.profile_id).label("total")).where(pupils).subquery()
    per_second, holds = middle(counted, counted.c.seconds)
    picked = sa.select(per_second.c.profile_id, per_second.c.seconds, per_second.c.total,
                       (per_second.c.upto - per_second.c.answers).label("before")
                       ).where(holds).subquery()
    fine = sa.select(times.c.profile_id, times.c.centiseconds, times.c.answers,
                     picked.c.total, picked.c.before).join(picked, (
                         picked.c.profile_id == times.c.profile_id)
                         & (times.c.centiseconds >= picked.c.seconds * 100)
                         & (times.c.centiseconds < picked.c.seconds * 100 + 100)).subquery()
    # The middle seconds are next to each other in the order: their hundredths count on
    # from the answers before the first of them.
    per_time, covers = middle(fine, fine.c.centiseconds, sa.func.min(fine.c.before).over(
        partition_by=fine.c.profile_id))
    found: dict[int, list[float]] = {}
    for r in conn.execute(sa.select(per_time).where(covers)
                          .order_by(per_time.c.profile_id, per_time.c.centiseconds)):
        first, last = int(r.upto) - r.answers, int(r.upto) - 1
        places = {(int(r.total) - 1) // 2, int(r.total) // 2}
        found.setdefault(r.profile_id, []).extend(
            r.centiseconds / 100 for place in sorted(places) if first <= place <= last)
    return {pid: tuple(values) for pid, values in found.items()}


def class_scope(class_id: int) -> str:
    """The ``profiles.name_scope`` of a class's pupils: their nicknames are unique in it."""
    return f"class:{int(class_id)}"


def _read_class(conn: Connection, where: Any) -> ClassInfo | None:
    row = conn.execute(sa.select(classes).where(where)).first()
    if row is None:
        return None
    co = conn.execute(sa.select(class_teachers.c.teacher_id)
                      .where(class_teachers.c.class_id == row.id)).scalars().all()
    return _class(row, co)


def _members_query(*extra: Any) -> sa.Select:
    return (sa.select(class_members.c.profile_id, class_members.c.class_id,
                      class_members.c.real_name, class_members.c.created_at,
                      class_members.c.locked_until, profiles.c.nickname, profiles.c.avatar,
                      group_members.c.group_id, *extra)
            .join(profiles, profiles.c.id == class_members.c.profile_id)
            .outerjoin(group_members, group_members.c.profile_id == class_members.c.profile_id))


def _member(row: Any) -> Member:
    return Member(row.profile_id, row.class_id, row.nickname, row.avatar, row.real_name,
                  aware(row.created_at), aware(row.locked_until),  # type: ignore[arg-type]
                  row.group_id)


def _is_member(conn: Connection, class_id: int, profile_id: int) -> bool:
    return conn.execute(sa.select(class_members.c.id).where(
        (class_members.c.class_id == class_id)
        & (class_members.c.profile_id == profile_id))).first() is not None

