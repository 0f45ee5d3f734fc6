"""Wrong secrets counted in the database: one row per (scope, subject).

A scope names what is guessed and from where (``parent_pin`` per profile,
``parent_pin_device`` per device, ``class_code_device``, ``class_code_server``);
the policy (how many are free, how long to wait) is :mod:`trainer.limits`'. The
count lives here, not in a browser session or a process, so a new tab, another
replica or a restart finds the same count and the same wait.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from .dialects import insert_for
from .schema import Database, aware, secret_tries

__all__ = ["SecretTries", "LimitStore"]


@dataclass(frozen=True)
class SecretTries:
    """Wrong secrets in a row for one subject: how many, until when it must wait, and
    when the last one was."""

    failures: int
    locked_until: datetime | None
    last_failure: datetime | None


_NONE = SecretTries(0, None, None)


class LimitStore(Database):
    """The counts of wrong secrets."""

    def secret_tries(self, keys: Sequence[tuple[str, str]]) -> dict[tuple[str, str], SecretTries]:
        """The counts of these (scope, subject) keys (zero for a key never failed)."""
        out = {key: _NONE for key in keys}
        if not keys:
            return out
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(secret_tries).where(sa.or_(*(
                (secret_tries.c.scope == scope) & (secret_tries.c.subject == subject)
                for scope, subject in keys)))).all()
        for row in rows:
            out[(row.scope, row.subject)] = SecretTries(int(row.failures),
                                                        aware(row.locked_until),
                                                        aware(row.last_failure))
        return out

    def count_secret_failure(self, key: tuple[str, str], at: datetime,
                             wait: Callable[[SecretTries], tuple[int, datetime | None]]
                             ) -> SecretTries:
        """One more wrong secret for ``key``, in one transaction: ``wait`` turns the row
        as it was into the new count and the time to wait until (the policy). A row is
        locked while it is read (PostgreSQL ``FOR UPDATE``; SQLite's writer lock is
        taken first by an update), so two replicas counting at once count two."""
        scope, subject = key
        where = (secret_tries.c.scope == scope) & (secret_tries.c.subject == subject)
        with self.transaction() as conn:
            # Take the write lock first (SQLite) with a no-op update; then read the row.
            touched = conn.execute(secret_tries.update().where(where).values(
                failures=secret_tries.c.failures)).rowcount
            if not touched:  # the first wrong one: a row (another process's, if it won)
                conn.execute(insert_for(conn.dialect.name)(secret_tries).values(
                    scope=scope, subject=subject, failures=0, locked_until=None,
                    last_failure=at).on_conflict_do_nothing())
            query = sa.select(secret_tries).where(where)
            if conn.dialect.name == "postgresql":
                query = query.with_for_update()
            row = conn.execute(query).one()
            before = SecretTries(int(row.failures), aware(row.locked_until),
                                 aware(row.last_failure))
            failures, until = wait(before)
            conn.execute(secret_tries.update().where(where).values(
                failures=failures, locked_until=until, last_failure=at))
        return SecretTries(failures, until, at)

    def clear_secret_tries(self, key: tuple[str, str]) -> None:
        """The right secret: the subject's count starts again."""
        scope, subject = key
        with self.transaction() as conn:
            conn.execute(secret_tries.delete().where(
                (secret_tries.c.scope == scope) & (secret_tries.c.subject == subject)))

    def secret_tries_of(self, scope: str, prefixes: Sequence[str]) -> dict[str, SecretTries]:
        """Every count of ``scope`` whose subject starts with one of ``prefixes`` (a
        pupil's counts per device: ``"<profile id>|"``), by subject, in one query: what
        the teacher is shown for a class."""
        if not prefixes:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(secret_tries).where(
                (secret_tries.c.scope == scope) & _starts_with_any(prefixes))).all()
        return {row.subject: SecretTries(int(row.failures), aware(row.locked_until),
                                         aware(row.last_failure)) for row in rows}

    def clear_secret_tries_of(self, keys: Sequence[tuple[str, str]], scope: str,
                              prefixes: Sequence[str]) -> None:
        """Several counts start again at once, in one transaction: ``keys``, and every
        subject of ``scope`` starting with one of ``prefixes`` (a teacher unlocks a pupil,
        or gives the whole class new PINs)."""
        with self.transaction() as conn:
            for key_scope, subject in keys:
                conn.execute(secret_tries.delete().where(
                    (secret_tries.c.scope == key_scope) & (secret_tries.c.subject == subject)))
            if prefixes:
                conn.execute(secret_tries.delete().where(
                    (secret_tries.c.scope == scope) & _starts_with_any(prefixes)))


def _starts_with_any(prefixes: Sequence[str]) -> Any:
    """``subject`` starts with one of ``prefixes`` (``substr``: no LIKE wildcards to escape)."""
    return sa.or_(*(sa.func.substr(secret_tries.c.subject, 1, len(p)) == p for p in prefixes))
