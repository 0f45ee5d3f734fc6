"""What differs between the two databases the storage runs on (SQLite, PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite

__all__ = ["insert_for"]


def insert_for(dialect: str) -> Callable[..., Any]:
    """The INSERT of this database (``conn.dialect.name``) that can say ON CONFLICT."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert
