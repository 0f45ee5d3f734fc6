"""What went wrong with the database, told as it is (issue 25).

Two troubles are not bugs and must not be told as "Oops, your game is saved":

- **unavailable**: the database cannot be written (or reached) right now: a file made
  read-only, a full disk, a PostgreSQL server down. Nothing was saved; once storage
  comes back, trying again works.
- **damaged**: the file is not a sound database any more ("database disk image is
  malformed"): only a grown-up can help, by restoring a backup.

:func:`storage_trouble` reads an exception (and what caused it); the app words each
trouble (ui/errors.py). No Streamlit here.
"""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa

__all__ = ["UNAVAILABLE", "DAMAGED", "storage_trouble", "trouble_line"]

UNAVAILABLE = "storage_unavailable"
DAMAGED = "storage_damaged"

#: SQLite's words for a file that is no database, or a broken one.
_DAMAGED_WORDS = ("malformed", "not a database", "file is encrypted", "corrupt")


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and what caused it (``raise ... from``, an exception while handling one)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 8:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _driver_error(exc: BaseException) -> BaseException:
    """The database driver's own exception inside SQLAlchemy's wrapper."""
    return getattr(exc, "orig", None) or exc


def storage_trouble(exc: BaseException) -> str | None:
    """:data:`DAMAGED`, :data:`UNAVAILABLE`, or None when ``exc`` is no storage trouble
    (a constraint refused a row, a bug: those are told otherwise)."""
    for link in _chain(exc):
        driver = _driver_error(link)
        text = str(driver).lower()
        if isinstance(link, sa.exc.DBAPIError) or isinstance(driver, sqlite3.Error):
            if any(word in text for word in _DAMAGED_WORDS):
                return DAMAGED
            if isinstance(link, sa.exc.IntegrityError | sa.exc.ProgrammingError) \
                    or isinstance(driver, sqlite3.IntegrityError | sqlite3.ProgrammingError):
                return None
            if isinstance(link, sa.exc.OperationalError | sa.exc.InterfaceError) \
                    or isinstance(driver, sqlite3.OperationalError) \
                    or link.__class__.__name__ in ("OperationalError", "InterfaceError"):
                return UNAVAILABLE
            if isinstance(link, sa.exc.DatabaseError) or isinstance(driver, sqlite3.DatabaseError):
                return DAMAGED if "disk image" in text else UNAVAILABLE
    return None


def trouble_line(exc: BaseException) -> str:
    """The driver's one-line message ("database disk image is malformed"): what the log
    says, for a grown-up. Never the statement or its parameters (they may hold a
    child's nickname)."""
    for link in _chain(exc):
        if isinstance(link, sa.exc.DBAPIError | sqlite3.Error):
            driver = _driver_error(link)
            lines = str(driver).strip().splitlines()
            return f"{type(driver).__name__}: {lines[0] if lines else ''}"[:300]
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0] if lines else ''}"[:300]
