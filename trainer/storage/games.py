"""Games: their record, every move as its own row, finished rounds' points, the review.

Every write that belongs together (the moves of one action, the record they
extend, the round results they complete) happens in one transaction, so a crash
or a refresh never leaves half a move behind. A save names the game's revision
it extends (optimistic concurrency): a second tab showing an older position, or
a game another tab has left, is refused with :class:`GameChanged` and nothing is
written.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from .practice import add_attempts, attempt_values, games_of
from .schema import (
    Database,
    StorageError,
    aware,
    game_tables,
    games,
    moves,
    now,
    results,
    table_seats,
)
from .versions import bump_game_players, bump_profiles

__all__ = ["GameRow", "GameChanged", "GameStore", "MoveRow", "RoundResult", "record_shareable"]

#: ``(round_no, move_no, entry)``: a move's place in the game and its record entry.
MoveRow = tuple[int, int, dict[str, Any]]


@dataclass(frozen=True)
class RoundResult:
    """A finished round's points per side and category (``points[side]["escobas"]``...)."""

    round_no: int
    points: list[dict[str, int]]
    created_at: datetime | None = None

    def side_points(self, side: int) -> int:
        return sum(int(v) for v in self.points[side].values()) if side < len(self.points) else 0

    def escobas(self, side: int) -> int:
        # Each escoba is one point of its category: the count is the points.
        return int(self.points[side].get("escobas", 0)) if side < len(self.points) else 0


def record_shareable(status: str) -> bool:
    """Whether a game's record may reach a browser: its decks hold every hidden card, so
    only once no round of it can be played (finished, or left: a left game refuses every
    save, in every tab). Not even *mesa abierta*: its hands are face up, but the deck
    still says which cards come next."""
    return status != "playing"


class GameChanged(StorageError):
    """A save refused: ``game_closed`` (the game was left or ended elsewhere) or
    ``game_stale`` (another tab moved first). Nothing was written."""


@dataclass(frozen=True)
class GameRow:
    id: int
    profile_id: int
    status: str
    rules: dict[str, Any]
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    seed: int
    record: dict[str, Any]
    winner: int | None
    review: Any
    created_at: datetime
    updated_at: datetime
    revision: int = 0
    #: The seat of the profile the row was read for, at a table's game (each seated child
    #: reads the opener's row, from their own seat); ``None``: a game of this device,
    #: whose child is its first human seat. Set by :meth:`GameStore.finished_games`.
    viewer_seat: int | None = None

    @property
    def record_shareable(self) -> bool:
        """See :func:`record_shareable`."""
        return record_shareable(self.status)


def _game(row: Any, viewer_seat: int | None = None) -> GameRow:
    return GameRow(
        id=row.id, profile_id=row.profile_id, status=row.status,
        rules=json.loads(row.rules), seats=json.loads(row.seats),
        options=json.loads(row.options or "{}"), seed=row.seed,
        record=json.loads(row.record), winner=row.winner,
        review=json.loads(row.review) if row.review else None,
        created_at=aware(row.created_at), updated_at=aware(row.updated_at),  # type: ignore[arg-type]
        revision=row.revision, viewer_seat=viewer_seat,
    )


def _not_at_a_table() -> sa.ColumnElement[bool]:
    """Games of this device only: a table's game (docs/TABLES.md) is played from the
    "Play a friend" page, never resumed on Play nor abandoned by a new game there."""
    return ~sa.exists().where(game_tables.c.game_id == games.c.id)


def _seat_at_table(profile_id: int) -> sa.ScalarSelect[Any]:
    """The seat ``profile_id`` joined at the table of the game in the outer query (its
    lowest, should a child have sat twice), or NULL for a game of this device."""
    return (sa.select(sa.func.min(table_seats.c.seat))
            .join(game_tables, game_tables.c.id == table_seats.c.table_id)
            .where((game_tables.c.game_id == games.c.id)
                   & (table_seats.c.profile_id == profile_id)
                   & (table_seats.c.kind == "human"))
            .scalar_subquery())


@functools.cache
def _claim(record: bool, finished: bool) -> sa.Update:
    """The conditional update a save starts with (built once: a move is saved often)."""
    values: dict[str, Any] = {"revision": sa.bindparam("new_revision"),
                              "updated_at": sa.bindparam("stamp")}
    if record:
        values["record"] = sa.bindparam("record")
    if finished:
        values.update(status=sa.bindparam("status"), winner=sa.bindparam("winner"))
    return games.update().where(
        (games.c.id == sa.bindparam("game_id")) & (games.c.revision == sa.bindparam("revision"))
        & (games.c.status == "playing")).values(**values)


class GameStore(Database):
    """Games over the database."""

    def create_game(self, profile_id: int, *, rules: dict[str, Any],
                    seats: Sequence[dict[str, Any]], seed: int, record: dict[str, Any],
                    options: dict[str, Any] | None = None) -> int:
        """A new game in play for ``profile_id``; earlier games in play are abandoned."""
        stamp = now()
        with self.transaction() as conn:
            conn.execute(games.update().where(
                (games.c.profile_id == profile_id) & (games.c.status == "playing")
                & _not_at_a_table())
                .values(status="abandoned", updated_at=stamp, revision=games.c.revision + 1))
            new_id = conn.execute(games.insert().values(
                profile_id=profile_id, status="playing", rules=json.dumps(rules),
                seats=json.dumps(list(seats)), options=json.dumps(options or {}),
                seed=seed, record=json.dumps(record), created_at=stamp,
                updated_at=stamp, revision=0)).inserted_primary_key[0]
            bump_profiles(conn, [profile_id], progress=False)  # the class's "last active"
        return int(new_id)

    def save_progress(self, game_id: int, record: dict[str, Any] | None, *, revision: int,
                      new_moves: Sequence[MoveRow] = (),
                      new_results: Sequence[RoundResult] = (),
                      winner: int | None = None, finished: bool = False,
                      evidence: Sequence[Any] = (),
                      evidence_profile: int | None = None, review: Any = None) -> int:
        """Moves, the record they extend and any round results, in one transaction.

        ``review``: the coach's review of a finished game (stored JSON), written with
        the save that finishes it, so that every finished game has one.

        ``evidence``: the child's turns as attempts (:mod:`trainer.evidence`), written in
        the same transaction as the moves they belong to, for ``evidence_profile`` (a
        table's child at their own seat) or else the game's profile.

        ``revision`` is the game's revision this save extends; the new revision is
        returned. :class:`GameChanged` when the game is no longer in play or another
        save came first (nothing is written then). ``record`` (the game's record so
        far) may be ``None`` when only moves were added: the moves table is the
        authority for moves (see :meth:`complete_record`), so the record is rewritten
        only when a round is dealt or the game ends, not on every move.
        """
        stamp = now()
        values: dict[str, Any] = {"new_revision": revision + 1, "stamp": stamp,
                                  "game_id": game_id, "revision": revision}
        if record is not None:
            values["record"] = json.dumps(record)
        if finished:
            values.update(status="finished", winner=winner)
        try:
            with self.transaction() as conn:
                # First, and conditional: the row lock (PostgreSQL) or the write lock
                # (SQLite) makes a second tab's save wait, then find the revision moved.
                claimed = conn.execute(_claim(record is not None, finished), values).rowcount
                if claimed != 1:
                    raise self._why_refused(conn, game_id)
                if new_moves:
                    conn.execute(moves.insert(), [
                        {"game_id": game_id, "round_no": round_no, "move_no": move_no,
                         "entry": json.dumps(entry), "created_at": stamp}
                        for round_no, move_no, entry in new_moves])
                for result in new_results:
                    conn.execute(results.insert().values(
                        game_id=game_id, round_no=result.round_no,
                        points=json.dumps(result.points), created_at=stamp))
                if review is not None:
                    conn.execute(games.update().where(games.c.id == game_id)
                                 .values(review=json.dumps(review)))
                answered = None  # whose turns this save keeps as evidence
                if evidence:
                    answered = evidence_profile if evidence_profile is not None else \
                        conn.execute(sa.select(games.c.profile_id)
                                     .where(games.c.id == game_id)).scalar_one()
                    add_attempts(conn, [attempt_values(answered, item, stamp)
                                        for item in evidence])
                bump_game_players(conn, game_id, finished=finished, answered=answered)
        except sa.exc.IntegrityError as exc:
            # A move at a place another save has taken: the revision check stops this
            # first, so only a caller counting its own moves wrongly gets here.
            raise GameChanged("game_stale") from exc
        return revision + 1

    @staticmethod
    def _why_refused(conn: sa.Connection, game_id: int) -> GameChanged:
        status = conn.execute(sa.select(games.c.status).where(games.c.id == game_id)).scalar()
        return GameChanged("game_stale" if status == "playing" else "game_closed")

    def game_state(self, game_id: int) -> tuple[str, int] | None:
        """``(status, revision)`` of a game: one indexed read, cheap on every rerun."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games.c.status, games.c.revision)
                               .where(games.c.id == game_id)).first()
        return (row.status, row.revision) if row is not None else None

    def save_review(self, game_id: int, review: Any) -> None:
        with self.transaction() as conn:
            conn.execute(games.update().where(games.c.id == game_id)
                         .values(review=json.dumps(review)))
            bump_game_players(conn, game_id, finished=True)

    def abandon_game(self, game_id: int) -> None:
        with self.transaction() as conn:
            conn.execute(games.update().where(games.c.id == game_id)
                         .values(status="abandoned", updated_at=now(),
                                 revision=games.c.revision + 1))
            bump_game_players(conn, game_id, finished=False)

    def get_game(self, game_id: int) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
        return _game(row) if row is not None else None

    def active_game(self, profile_id: int) -> GameRow | None:
        """The profile's game in play, if any (the newest)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games).where(
                (games.c.profile_id == profile_id) & (games.c.status == "playing")
                & _not_at_a_table())
                .order_by(games.c.id.desc()).limit(1)).first()
        return _game(row) if row is not None else None

    def count_games(self, profile_id: int) -> int:
        """How many games this profile has (games are numbered per profile: "Game 2"),
        counting the tables' games it sat at (:meth:`list_games`)."""
        with self.engine.connect() as conn:
            return int(conn.execute(sa.select(sa.func.count()).select_from(games)
                                    .where(games_of(profile_id))).scalar_one())

    def list_games(self, profile_id: int, limit: int = 50, offset: int = 0) -> list[GameRow]:
        """This profile's games, newest first (``limit`` of them, after the ``offset``
        newest): its own, and every table's game it sat at (docs/TABLES.md: the game
        row is the opener's, each child who joined a seat finds it too). Nobody else's:
        a pupil never sees another pupil's games."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games).where(games_of(profile_id))
                                .order_by(games.c.id.desc()).limit(limit)
                                .offset(max(0, offset))).all()
        return [_game(r) for r in rows]

    def complete_record(self, row: GameRow) -> dict[str, Any]:
        """The game's record with every saved move (the moves table has the last word)."""
        record = copy.deepcopy(row.record)
        by_round: dict[int, list[dict[str, Any]]] = {}
        for round_no, _move_no, entry in self.move_entries(row.id):
            by_round.setdefault(round_no, []).append(entry)
        for number, entry in enumerate(record.get("rounds", []), start=1):
            if number in by_round:
                entry["moves"] = by_round[number]
        return record

    def shareable_record(self, game_id: int) -> dict[str, Any] | None:
        """The game's complete record, read now, if it may reach a browser (see
        :attr:`GameRow.record_shareable`); ``None`` while a round of it can be played."""
        row = self.get_game(game_id)
        if row is None or not row.record_shareable:
            return None
        return self.complete_record(row)

    def move_entries(self, game_id: int) -> list[MoveRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(moves.c.round_no, moves.c.move_no, moves.c.entry)
                                .where(moves.c.game_id == game_id)
                                .order_by(moves.c.round_no, moves.c.move_no)).all()
        return [(r.round_no, r.move_no, json.loads(r.entry)) for r in rows]

    def round_results(self, game_id: int) -> list[RoundResult]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(results).where(results.c.game_id == game_id)
                                .order_by(results.c.round_no)).all()
        return [RoundResult(r.round_no, json.loads(r.points), aware(r.created_at))
                for r in rows]

    def finished_games_mark(self, profile_id: int) -> tuple[int, int, int]:
        """How many finished games :meth:`finished_games` reads from (the profile's own
        and the tables' it sat at), the newest one's id and the sum of their ids, in one
        query: it moves when a game finishes or one is deleted (the sum: one deleted and
        an older one finished between two reads), never with a quick fact or a puzzle,
        so what is computed from finished games only (the "just right" strength) is
        keyed by it and not computed again after every answer (issue 32)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(sa.func.count(), sa.func.max(games.c.id),
                                         sa.func.sum(games.c.id))
                               .where(games_of(profile_id) & (games.c.status == "finished"))
                               ).one()
        return int(row[0] or 0), int(row[1] or 0), int(row[2] or 0)

    def finished_games(self, profile_id: int, limit: int = 200
                       ) -> list[tuple[GameRow, list[RoundResult]]]:
        """Finished games (oldest first) with their round results, in two queries: the
        profile's own and the tables' games it sat at (as :meth:`list_games`), each with
        :attr:`GameRow.viewer_seat` so that the statistics count this child's side."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games, _seat_at_table(profile_id).label("viewer_seat"))
                                .where(games_of(profile_id) & (games.c.status == "finished"))
                                .order_by(games.c.id.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            res = conn.execute(sa.select(results).where(results.c.game_id.in_(ids))
                               .order_by(results.c.game_id, results.c.round_no)).all() \
                if ids else []
        by_game: dict[int, list[RoundResult]] = {}
        for r in res:
            by_game.setdefault(r.game_id, []).append(
                RoundResult(r.round_no, json.loads(r.points), aware(r.created_at)))
        return [(_game(r, r.viewer_seat), by_game.get(r.id, [])) for r in reversed(rows)]
