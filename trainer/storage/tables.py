"""Tables between devices: a table's code and settings, its seats' occupants, presence.

Everything several devices share lives here and in the game's rows (see
:mod:`.games`), never in a process's memory: any app process (any replica behind a
proxy) reads the same table. Each change of who sits where is one transaction that
starts with a conditional update of the table's ``version`` (optimistic concurrency,
as a game's moves use the game's ``revision``): two devices joining the last seat at
once, or handing the same seat to the computer, cannot both succeed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from .schema import (
    Database,
    StorageError,
    aware,
    class_members,
    game_tables,
    games,
    now,
    profiles,
    table_seats,
)
from .versions import bump_game_players

__all__ = ["TableRow", "SeatRow", "TableStore", "TableChanged", "NewSeat", "TablePulse"]


class TableChanged(StorageError):
    """A table write refused: ``table_moved_first`` (someone changed it first),
    ``table_full``, ``table_started``, ``table_closed``, ``table_code_taken``. Nothing
    was written."""


@dataclass(frozen=True)
class TableRow:
    id: int
    code: str
    opener_id: int
    class_id: int | None
    game_id: int | None
    status: str  # waiting | playing | closed
    settings: dict[str, Any]
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class SeatRow:
    """One occupant of a seat (the current one when ``left_at`` is None)."""

    id: int
    table_id: int
    seat: int
    kind: str  # human | bot
    profile_id: int | None
    name: str
    avatar: str
    level: str
    from_round: int
    from_move: int
    last_seen: datetime | None
    left_at: datetime | None

    @property
    def is_human(self) -> bool:
        return self.kind == "human"


@dataclass(frozen=True)
class NewSeat:
    """An occupant to seat: a child (with the hash of their device's secret) or a bot."""

    seat: int
    kind: str
    name: str
    avatar: str
    level: str = ""
    profile_id: int | None = None
    token_hash: str | None = None


@dataclass(frozen=True)
class TablePulse:
    """What a device polls: the table's version and its game's revision and status. Any
    change means something to redraw."""

    version: int
    status: str
    game_revision: int | None
    game_status: str | None


def _table(row: Any) -> TableRow:
    return TableRow(id=row.id, code=row.code, opener_id=row.opener_id, class_id=row.class_id,
                    game_id=row.game_id, status=row.status, settings=json.loads(row.settings),
                    version=row.version, created_at=aware(row.created_at),  # type: ignore[arg-type]
                    updated_at=aware(row.updated_at))  # type: ignore[arg-type]


def _seat(row: Any) -> SeatRow:
    return SeatRow(id=row.id, table_id=row.table_id, seat=row.seat, kind=row.kind,
                   profile_id=row.profile_id, name=row.name, avatar=row.avatar, level=row.level,
                   from_round=row.from_round, from_move=row.from_move,
                   last_seen=aware(row.last_seen), left_at=aware(row.left_at))


class _Prefixed:
    """A joined row's columns of one table, read without their label's prefix."""

    def __init__(self, row: Any, prefix: str) -> None:
        self._mapping = row._mapping
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        return self._mapping[self._prefix + name]


def _seat_values(table_id: int, new: NewSeat, stamp: datetime, from_round: int = 1,
                 from_move: int = 1) -> dict[str, Any]:
    return {"table_id": table_id, "seat": new.seat, "kind": new.kind,
            "profile_id": new.profile_id, "name": new.name[:40], "avatar": new.avatar[:16],
            "level": new.level, "token_hash": new.token_hash, "from_round": from_round,
            "from_move": from_move, "last_seen": stamp if new.kind == "human" else None,
            "left_at": None, "created_at": stamp}


class TableStore(Database):
    """Tables over the database."""

    # -- opening, joining, starting ------------------------------------------------------
    def create_table(self, code: str, opener_id: int, *, settings: dict[str, Any],
                     seats: Sequence[NewSeat], class_id: int | None = None) -> TableRow:
        """A new table waiting for friends, with its first occupants (the opener, any
        computer players). :class:`TableChanged` ``table_code_taken`` when the code is
        in use (the caller draws another)."""
        stamp = now()
        try:
            with self.transaction() as conn:
                table_id = conn.execute(game_tables.insert().values(
                    code=code, opener_id=opener_id, class_id=class_id, game_id=None,
                    status="waiting", settings=json.dumps(settings), version=0,
                    created_at=stamp, updated_at=stamp)).inserted_primary_key[0]
                if seats:
                    conn.execute(table_seats.insert(),
                                 [_seat_values(table_id, s, stamp) for s in seats])
        except sa.exc.IntegrityError as exc:
            raise TableChanged("table_code_taken") from exc
        table = self.get_table(int(table_id))
        assert table is not None
        return table

    def _claim(self, conn: sa.Connection, table: TableRow, **values: Any) -> None:
        """The first write of every change: the table's version moves on, or nothing."""
        claimed = conn.execute(game_tables.update().where(
            (game_tables.c.id == table.id) & (game_tables.c.version == table.version))
            .values(version=table.version + 1, updated_at=now(), **values)).rowcount
        if claimed != 1:
            raise TableChanged("table_moved_first")

    def seat_child(self, table: TableRow, new: NewSeat) -> None:
        """A child takes a free seat of a waiting table (``table`` as read just before)."""
        with self.transaction() as conn:
            self._claim(conn, table)
            taken = conn.execute(sa.select(sa.func.count()).select_from(table_seats).where(
                (table_seats.c.table_id == table.id) & (table_seats.c.seat == new.seat)
                & table_seats.c.left_at.is_(None))).scalar_one()
            if taken:
                raise TableChanged("table_moved_first")
            conn.execute(table_seats.insert().values(**_seat_values(table.id, new, now())))

    def leave_waiting(self, table: TableRow, seat_id: int) -> None:
        """A child who joined leaves the waiting room: the seat is free again for a
        friend. The row goes (nobody played there: no move needs its occupant, and a
        computer filling the seat later is no hand-over). Refused with
        :class:`TableChanged` if the table moved on (it may have started)."""
        with self.transaction() as conn:
            self._claim(conn, table)
            conn.execute(table_seats.delete().where(
                (table_seats.c.id == seat_id) & (table_seats.c.table_id == table.id)))

    def start_table(self, table: TableRow, *, profile_id: int, rules: dict[str, Any],
                    seats: Sequence[dict[str, Any]], seed: int, record: dict[str, Any],
                    options: dict[str, Any], fill: Sequence[NewSeat] = ()) -> int:
        """The table's game begins (every seat taken, or ``fill``'s computer players take
        the empty ones): the game row and the table's change in one transaction. The
        game belongs to the opener (``profile_id``) but is never their game in play on
        the Play page (:meth:`GameStore.active_game` leaves table games out)."""
        stamp = now()
        with self.transaction() as conn:
            self._claim(conn, table)
            game_id = conn.execute(games.insert().values(
                profile_id=profile_id, status="playing", rules=json.dumps(rules),
                seats=json.dumps(list(seats)), options=json.dumps(options), seed=seed,
                record=json.dumps(record), created_at=stamp, updated_at=stamp,
                revision=0)).inserted_primary_key[0]
            conn.execute(game_tables.update().where(game_tables.c.id == table.id)
                         .values(game_id=game_id, status="playing"))
            if fill:
                conn.execute(table_seats.insert(),
                             [_seat_values(table.id, s, stamp) for s in fill])
            bump_game_players(conn, int(game_id), finished=False)
        return int(game_id)

    def close_table(self, table: TableRow) -> None:
        """A waiting table given up by its opener: nobody can join it any more."""
        with self.transaction() as conn:
            self._claim(conn, table, status="closed")

    def hand_seat_over(self, table: TableRow, seat: int, new: NewSeat, *, game_revision: int,
                       seats: Sequence[dict[str, Any]], from_round: int,
                       from_move: int) -> int:
        """A seat whose child left goes to a computer player from the move ``from_round``
        / ``from_move`` on: the child's occupancy ends, the computer's begins, and the
        game's seats say so, at the game's ``game_revision`` (one transaction). The
        game's new revision is returned."""
        stamp = now()
        with self.transaction() as conn:
            self._claim(conn, table)
            claimed = conn.execute(games.update().where(
                (games.c.id == table.game_id) & (games.c.revision == game_revision)
                & (games.c.status == "playing"))
                .values(seats=json.dumps(list(seats)), revision=game_revision + 1,
                        updated_at=stamp)).rowcount
            if claimed != 1:
                raise TableChanged("table_moved_first")
            conn.execute(table_seats.update().where(
                (table_seats.c.table_id == table.id) & (table_seats.c.seat == seat)
                & table_seats.c.left_at.is_(None)).values(left_at=stamp))
            conn.execute(table_seats.insert().values(
                **_seat_values(table.id, new, stamp, from_round, from_move)))
            assert table.game_id is not None  # the claim above found the game
            bump_game_players(conn, table.game_id, finished=False)
        return game_revision + 1

    # -- reading ------------------------------------------------------------------------
    def _one_table(self, where: Any) -> TableRow | None:
        """The table ``where`` names (its id, code or game), or None."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(game_tables).where(where)).first()
        return _table(row) if row is not None else None

    def get_table(self, table_id: int) -> TableRow | None:
        return self._one_table(game_tables.c.id == table_id)

    def table_by_code(self, code: str) -> TableRow | None:
        return self._one_table(game_tables.c.code == code)

    def table_of_game(self, game_id: int) -> TableRow | None:
        return self._one_table(game_tables.c.game_id == game_id)

    def seat_by_token(self, token_hash: str) -> SeatRow | None:
        """The occupancy a device's secret names (a seat handed over keeps its row, with
        ``left_at``: the device is then told so)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(table_seats)
                               .where(table_seats.c.token_hash == token_hash)).first()
        return _seat(row) if row is not None else None

    def table_seats(self, table_id: int, *, history: bool = False) -> list[SeatRow]:
        """The seats' occupants now (``history``: every occupant, oldest first)."""
        query = sa.select(table_seats).where(table_seats.c.table_id == table_id)
        if not history:
            query = query.where(table_seats.c.left_at.is_(None))
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(table_seats.c.seat, table_seats.c.id)).all()
        return [_seat(r) for r in rows]

    def table_pulse(self, table_id: int) -> TablePulse | None:
        """One small read by primary key, what each device polls about once a second."""
        with self.engine.connect() as conn:
            row = conn.execute(
                sa.select(game_tables.c.version, game_tables.c.status, games.c.revision,
                          games.c.status.label("game_status"))
                .select_from(game_tables.outerjoin(games, games.c.id == game_tables.c.game_id))
                .where(game_tables.c.id == table_id)).first()
        if row is None:
            return None
        return TablePulse(row.version, row.status, row.revision, row.game_status)

    def touch_seat(self, seat_id: int) -> None:
        """The device of this occupant is here (presence: "X left" when it stops)."""
        with self.transaction() as conn:
            conn.execute(table_seats.update().where(table_seats.c.id == seat_id)
                         .values(last_seen=now()))

    def open_tables(self, class_id: int) -> list[tuple[TableRow, list[SeatRow]]]:
        """The class's tables still waiting for friends (the newest 20), newest first,
        with their seats: ONE query (the lobby reads it again every few seconds while a
        child looks at the list)."""
        newest = (sa.select(game_tables.c.id).where(
            (game_tables.c.class_id == class_id) & (game_tables.c.status == "waiting"))
            .order_by(game_tables.c.id.desc()).limit(20))
        seat_columns = [c.label(f"seat_{c.name}") for c in table_seats.c]
        query = (sa.select(game_tables, *seat_columns)
                 .select_from(game_tables.outerjoin(table_seats, (
                     table_seats.c.table_id == game_tables.c.id) & table_seats.c.left_at.is_(None)))
                 .where(game_tables.c.id.in_(newest))
                 .order_by(game_tables.c.id.desc(), table_seats.c.seat))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        tables: dict[int, TableRow] = {}
        by_table: dict[int, list[SeatRow]] = {}
        for row in rows:
            if row.id not in tables:
                tables[row.id] = _table(row)
                by_table[row.id] = []
            if row.seat_id is not None:
                by_table[row.id].append(_seat(_Prefixed(row, "seat_")))
        return [(table, by_table[table_id]) for table_id, table in tables.items()]

    def seats_in_games(self, profile_id: int, game_ids: Sequence[int]
                       ) -> dict[int, list[SeatRow]]:
        """This profile's occupancies at the tables of ``game_ids`` (game id -> its rows:
        which seat is "you" on My games, and whether the computer took it over)."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(table_seats, game_tables.c.game_id.label("game_id"))
                .join(game_tables, game_tables.c.id == table_seats.c.table_id)
                .where(game_tables.c.game_id.in_(list(game_ids))
                       & (table_seats.c.profile_id == profile_id)
                       & (table_seats.c.kind == "human"))
                .order_by(table_seats.c.seat, table_seats.c.id)).all()
        out: dict[int, list[SeatRow]] = {}
        for row in rows:
            out.setdefault(row.game_id, []).append(_seat(row))
        return out

    def class_of(self, profile_id: int) -> int | None:
        """The class a profile is a pupil of, if any (its classmates see its tables)."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(class_members.c.class_id)
                                .where(class_members.c.profile_id == profile_id)).scalar()

    def profile_names(self, ids: Sequence[int]) -> dict[int, tuple[str, str]]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(profiles.c.id, profiles.c.nickname, profiles.c.avatar)
                                .where(profiles.c.id.in_(list(ids)))).all()
        return {r.id: (r.nickname, r.avatar) for r in rows}
