"""Profiles: a nickname, an avatar, settings and an optional parent's PIN."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..names import clean_name, name_key
from .hashing import PIN_COST, hash_secret, secret_matches
from .schema import (
    AGGREGATES,
    Database,
    StorageError,
    assignment_progress,
    assignments,
    attempts,
    aware,
    class_members,
    class_presence,
    class_votes,
    daily_results,
    games,
    group_members,
    lesson_goes,
    lesson_results,
    live_answers,
    moves,
    now,
    profiles,
    results,
)
from .versions import bump_profiles, seated_children

__all__ = ["Profile", "ProfileData", "ProfileStore", "hash_pin", "pin_matches", "pin_problem",
           "delete_profiles"]

#: A PIN is 4 to 8 digits: a parent's lock against a sibling, not a password.
PIN_DIGITS = (4, 8)


def pin_problem(pin: str) -> tuple[str, dict[str, Any]] | None:
    """Why a typed PIN cannot be set (catalog key, parameters), or None."""
    low, high = PIN_DIGITS
    if not (pin.isascii() and pin.isdigit() and low <= len(pin) <= high):
        return "pin_format", {"low": low, "high": high}
    return None


def hash_pin(pin: str) -> str:
    """``scrypt$n$r$p$salt$hash`` of a PIN, with a fresh random salt (about 50 ms)."""
    return hash_secret(pin, PIN_COST)


def pin_matches(pin: str, stored: str) -> bool:
    """Whether ``pin`` is the one ``stored`` (by :func:`hash_pin`) was made from."""
    return secret_matches(pin, stored)


@dataclass(frozen=True)
class Profile:
    id: int
    nickname: str
    avatar: str
    settings: dict[str, Any]
    created_at: datetime
    #: A parent set a PIN: choosing this profile, renaming or deleting it asks for it.
    protected: bool = False


@dataclass(frozen=True)
class ProfileData:
    """What is stored for a profile: what deleting it removes."""

    games: int
    attempts: int  # every stored answer: puzzles, quick facts and game turns
    dailies: int
    lessons: int = 0  # lesson levels done
    lesson_goes: int = 0  # lesson levels tried, not finished yet
    quick_facts: int = 0  # of the attempts: quick-fact answers
    game_turns: int = 0  # of the attempts: game turns kept as evidence

    @property
    def puzzles(self) -> int:
        """Of the attempts: puzzle answers (the daily's included)."""
        return self.attempts - self.quick_facts - self.game_turns


def _profile(row: Any) -> Profile:
    return Profile(row.id, row.nickname, row.avatar, json.loads(row.settings or "{}"),
                   aware(row.created_at), row.pin_hash is not None)  # type: ignore[arg-type]


@contextmanager
def _taken(nickname: str) -> Iterator[None]:
    """A write the unique nickname key refused (another tab took the name meanwhile) is
    told as the name taken, as the check before it would have told it."""
    try:
        yield
    except sa.exc.IntegrityError:
        raise StorageError("profile_taken", nickname=nickname) from None


class ProfileStore(Database):
    """Profiles over the database."""

    def _name_free(self, conn: Connection, nickname: str, but: int | None = None,
                   scope: str = "") -> None:
        # The friendly refusal, before the write; the unique (name_scope, name_key) is what
        # holds when two tabs or replicas pass this check at once (the write then fails:
        # _taken). Only the scope's names are compared: a class's "Lucía" is no other's.
        found = conn.execute(sa.select(profiles.c.id).where(
            (profiles.c.name_key == name_key(nickname))
            & (profiles.c.name_scope == scope))).scalars()
        if any(profile_id != but for profile_id in found):
            raise StorageError("profile_taken", nickname=nickname)

    def create_profile(self, nickname: str, avatar: str,
                       settings: dict[str, Any] | None = None) -> Profile:
        """A new profile; :class:`StorageError` ``profile_empty``/``profile_taken``."""
        nickname = clean_name(nickname)
        if not nickname:
            raise StorageError("profile_empty")
        with _taken(nickname), self.transaction() as conn:
            self._name_free(conn, nickname)
            new_id = conn.execute(profiles.insert().values(
                nickname=nickname, name_key=name_key(nickname), name_scope="",
                avatar=avatar[:16],
                settings=json.dumps(settings or {}), created_at=now())).inserted_primary_key[0]
        profile = self.get_profile(int(new_id))
        assert profile is not None
        return profile

    def list_profiles(self) -> list[Profile]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(profiles).order_by(
                sa.func.lower(profiles.c.nickname), profiles.c.id)).all()
        return [_profile(r) for r in rows]

    def get_profile(self, profile_id: int) -> Profile | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(profiles).where(profiles.c.id == profile_id)).first()
        return _profile(row) if row is not None else None

    def languages(self, profile_ids: Sequence[int]) -> dict[int, str]:
        """The language each of these profiles last chose in the app (their settings'
        ``lang``), for those that chose one: the report home is written in it."""
        if not profile_ids:
            return {}
        query = sa.select(profiles.c.id, profiles.c.settings).where(
            profiles.c.id.in_(list(profile_ids)))
        out = {}
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                try:
                    lang = json.loads(row.settings or "{}").get("lang")
                except (ValueError, AttributeError):  # a damaged row chose nothing
                    continue
                if isinstance(lang, str) and lang:
                    out[row.id] = lang
        return out

    def update_settings(self, profile_id: int, settings: dict[str, Any]) -> None:
        with self.transaction() as conn:
            conn.execute(profiles.update().where(profiles.c.id == profile_id)
                         .values(settings=json.dumps(settings)))
            bump_profiles(conn, [profile_id])

    # -- a parent's controls: each asks the PIN when one is set ----------------------------
    def check_pin(self, profile_id: int, pin: str | None) -> bool:
        """Whether ``pin`` opens the profile (any PIN does when it has none)."""
        with self.engine.connect() as conn:
            stored = conn.execute(sa.select(profiles.c.pin_hash)
                                  .where(profiles.c.id == profile_id)).scalar()
        return stored is None or (pin is not None and pin_matches(pin, stored))

    def _require_pin(self, profile_id: int, pin: str | None) -> None:
        if not self.check_pin(profile_id, pin):
            raise StorageError("pin_wrong")

    def set_pin(self, profile_id: int, new_pin: str | None, *, pin: str | None = None) -> None:
        """Set, change (``new_pin``) or remove (``None``) the PIN; ``pin`` is the current one.

        :class:`StorageError` ``pin_wrong`` or ``pin_format``; nothing changes then.
        """
        self._require_pin(profile_id, pin)
        if new_pin is not None and (problem := pin_problem(new_pin)) is not None:
            raise StorageError(problem[0], **problem[1])
        with self.transaction() as conn:
            conn.execute(profiles.update().where(profiles.c.id == profile_id).values(
                pin_hash=hash_pin(new_pin) if new_pin is not None else None))
            bump_profiles(conn, [profile_id])

    def rename_profile(self, profile_id: int, nickname: str, *, pin: str | None = None
                       ) -> Profile:
        """A new nickname; :class:`StorageError` ``pin_wrong``, ``profile_empty`` or
        ``profile_taken`` (nothing changes then)."""
        self._require_pin(profile_id, pin)
        nickname = clean_name(nickname)
        if not nickname:
            raise StorageError("profile_empty")
        with _taken(nickname), self.transaction() as conn:
            scope = conn.execute(sa.select(profiles.c.name_scope)
                                 .where(profiles.c.id == profile_id)).scalar() or ""
            self._name_free(conn, nickname, but=profile_id, scope=scope)
            conn.execute(profiles.update().where(profiles.c.id == profile_id)
                         .values(nickname=nickname, name_key=name_key(nickname)))
            bump_profiles(conn, [profile_id])
        profile = self.get_profile(profile_id)
        assert profile is not None
        return profile

    def profile_data(self, profile_id: int) -> ProfileData:
        """How many games, attempts and daily results are stored for the profile."""
        def count(table: sa.Table) -> Any:
            return sa.select(sa.func.count()).select_from(table).where(
                table.c.profile_id == profile_id).scalar_subquery()

        def counted(where: Any) -> Any:
            return sa.select(sa.func.count()).select_from(attempts).where(
                attempts.c.profile_id == profile_id, where).scalar_subquery()

        with self.engine.connect() as conn:
            row = conn.execute(sa.select(
                count(games), count(attempts), count(daily_results), count(lesson_results),
                count(lesson_goes), counted(attempts.c.kind == "quick-facts"),
                counted(attempts.c.mode == "game"))).one()
        return ProfileData(*(int(v) for v in row))

    def delete_profile(self, profile_id: int, *, pin: str | None = None) -> None:
        """Remove a profile and everything stored for it (``pin_wrong``: nothing goes)."""
        self._require_pin(profile_id, pin)
        with self.transaction() as conn:
            delete_profiles(conn, [profile_id])


def delete_profiles(conn: Connection, profile_ids: Sequence[int]) -> None:
    """Remove these profiles and everything stored for them, inside the caller's
    transaction (deleting a profile, or a class with its pupils)."""
    ids = list(profile_ids)
    if not ids:
        return
    game_ids = sa.select(games.c.id).where(games.c.profile_id.in_(ids))
    # Their classes lose pupils, and the children who sat at their tables' games lose
    # those games from My progress: all of them see their versions move.
    bump_profiles(conn, [*ids, *seated_children(conn, game_ids)])
    conn.execute(attempts.delete().where(attempts.c.profile_id.in_(ids)))
    for aggregate in (*AGGREGATES, assignment_progress):
        conn.execute(aggregate.delete().where(aggregate.c.profile_id.in_(ids)))
    # A pupil's own assignments go with them (their progress, only theirs, went above).
    conn.execute(assignments.delete().where(assignments.c.profile_id.in_(ids)))
    conn.execute(group_members.delete().where(group_members.c.profile_id.in_(ids)))
    conn.execute(daily_results.delete().where(daily_results.c.profile_id.in_(ids)))
    conn.execute(lesson_results.delete().where(lesson_results.c.profile_id.in_(ids)))
    conn.execute(lesson_goes.delete().where(lesson_goes.c.profile_id.in_(ids)))
    conn.execute(live_answers.delete().where(live_answers.c.profile_id.in_(ids)))
    conn.execute(class_votes.delete().where(class_votes.c.profile_id.in_(ids)))
    conn.execute(class_presence.delete().where(class_presence.c.profile_id.in_(ids)))
    conn.execute(moves.delete().where(moves.c.game_id.in_(game_ids)))
    conn.execute(results.delete().where(results.c.game_id.in_(game_ids)))
    conn.execute(games.delete().where(games.c.profile_id.in_(ids)))
    conn.execute(class_members.delete().where(class_members.c.profile_id.in_(ids)))
    conn.execute(profiles.delete().where(profiles.c.id.in_(ids)))
