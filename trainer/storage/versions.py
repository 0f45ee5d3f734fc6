"""Data versions: counters kept in the database, bumped by the writes the views draw.

A view's cache is keyed by a version read in one lookup by primary key
(:meth:`PracticeStore.progress_version`, :meth:`ClassroomStore.class_version`), so its
cost does not grow with the history it stands for (issue 32). Each write bumps the
versions in its own transaction: a reader sees the new rows and the new version
together, or neither.

- ``profiles.data_version``: what My progress and the practice pages draw (attempts,
  daily answers, finished games and their reviews, lesson results, the profile's own
  edits);
- ``classes.data_version``: what the teacher's views draw (the class's row, co-teachers,
  assignments, pupils joining or leaving) and every change of one of its pupils, the
  moves of their games included (the dashboard's "last active").

Profiles are bumped before classes, always: two transactions that bump both take the
rows' locks in the same order (PostgreSQL), so they wait for each other, never deadlock.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .schema import class_members, classes, game_tables, games, profiles, table_seats

__all__ = ["bump_profiles", "bump_class", "bump_game_players", "seated_children"]


def bump_profiles(conn: Connection, profile_ids: Iterable[int], *,
                  progress: bool = True) -> None:
    """These profiles changed: their versions move (unless ``progress`` is False: a change
    My progress does not draw, such as a move of a game in play) and so does the version
    of every class they are pupils of."""
    ids = sorted({int(i) for i in profile_ids})
    if not ids:
        return
    if progress:
        conn.execute(profiles.update().where(profiles.c.id.in_(ids))
                     .values(data_version=profiles.c.data_version + 1))
    theirs = sa.select(class_members.c.class_id).where(class_members.c.profile_id.in_(ids))
    conn.execute(classes.update().where(classes.c.id.in_(theirs))
                 .values(data_version=classes.c.data_version + 1))


def bump_class(conn: Connection, class_id: int) -> None:
    """The class's own data changed (its row, co-teachers, assignments, members)."""
    conn.execute(classes.update().where(classes.c.id == class_id)
                 .values(data_version=classes.c.data_version + 1))


def seated_children(conn: Connection, game_ids: Any) -> list[int]:
    """The children who sat at the tables of these games (ids, or a select of ids): the
    games are on their My progress too (:func:`.practice.games_of`)."""
    return list(conn.execute(
        sa.select(table_seats.c.profile_id)
        .join(game_tables, table_seats.c.table_id == game_tables.c.id)
        .where(game_tables.c.game_id.in_(game_ids) & (table_seats.c.kind == "human")
               & table_seats.c.profile_id.is_not(None))).scalars())


def bump_game_players(conn: Connection, game_id: int, *, finished: bool,
                      answered: int | None = None) -> None:
    """A save of the game: its owner's class sees the game's time move (the dashboard's
    "last active"); a finished game, or its review, is also on My progress of the owner
    and of every child who sat at its table; ``answered``: the child whose turns the
    save kept as evidence (their answers). Each version moves once."""
    owner = list(conn.execute(sa.select(games.c.profile_id).where(games.c.id == game_id))
                 .scalars())
    if finished:
        bump_profiles(conn, [*owner, *seated_children(conn, [game_id]),
                             *([answered] if answered is not None else [])])
        return
    if answered is not None:
        bump_profiles(conn, [answered])
    if answered is None or owner != [answered]:
        bump_profiles(conn, owner, progress=False)
