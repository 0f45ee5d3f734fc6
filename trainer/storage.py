"""Saved progress: profiles, games, moves and round results, through SQLAlchemy.

The :class:`Storage` class is plain SQLAlchemy Core over an ``Engine`` so it
can be tested without Streamlit, against SQLite and PostgreSQL alike. The app
gets its engine from ``st.connection("escoba", type="sql")`` (see
:func:`ui.session.storage`), which reads ``.streamlit/secrets.toml``.

Schema changes are numbered migrations in :data:`MIGRATIONS`, applied in
order on start inside one transaction each; the number reached is kept in the
``schema_version`` table. To add a table (issue 6's puzzle ``attempts``),
append a migration: never edit one that has shipped.

Every write that belongs together (a move, the record it extends, the round
result it completes) happens in one transaction, so a crash or a refresh
never leaves half a move behind.
"""

from __future__ import annotations

import copy
import json
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

__all__ = [
    "Storage",
    "Profile",
    "GameRow",
    "DailyResult",
    "ProgressVersion",
    "StorageError",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "metadata",
    "sqlite_url",
    "configure_sqlite",
    "clean_name",
]

log = logging.getLogger(__name__)


class StorageError(ValueError):
    """A write the storage refuses (e.g. a nickname already taken); message key in ``key``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


metadata = sa.MetaData()

schema_version = sa.Table(
    "schema_version", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)

profiles = sa.Table(
    "profiles", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # A nickname and an avatar, nothing else: no e-mail, no real name.
    sa.Column("nickname", sa.String(40), nullable=False, unique=True),
    sa.Column("avatar", sa.String(16), nullable=False),
    sa.Column("settings", sa.Text, nullable=False, default="{}"),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

games = sa.Table(
    "games", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("status", sa.String(12), nullable=False),  # playing | finished | abandoned
    sa.Column("rules", sa.Text, nullable=False),  # Rules.to_dict(only_changes=True)
    sa.Column("seats", sa.Text, nullable=False),  # [{"kind": "human"|"bot", ...}]
    sa.Column("options", sa.Text, nullable=False, default="{}"),  # display options
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("record", sa.Text, nullable=False),  # the escoba-record/1 so far
    sa.Column("winner", sa.Integer, nullable=True),  # winning side
    sa.Column("review", sa.Text, nullable=True),  # post-game review (JSON), when finished
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

moves = sa.Table(
    "moves", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("round_no", sa.Integer, nullable=False),  # 1-based
    sa.Column("move_no", sa.Integer, nullable=False),  # 1-based within the round
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(12), nullable=False),  # play | miscount | renuncio
    sa.Column("entry", sa.Text, nullable=False),  # the record's move entry (JSON)
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("game_id", "round_no", "move_no", name="uq_moves_position"),
)

results = sa.Table(
    "results", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("round_no", sa.Integer, nullable=False),
    sa.Column("points", sa.Text, nullable=False),  # per side {category: points}
    sa.Column("totals", sa.Text, nullable=False),  # game totals per side after the round
    sa.Column("escobas", sa.Text, nullable=False),  # escobas per side in the round
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("game_id", "round_no", name="uq_results_round"),
)


# -- migration 2 (issue 6): every practice attempt, and each day's daily result -------------

attempts = sa.Table(
    "attempts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("day", sa.String(10), nullable=False),  # the child's local date, YYYY-MM-DD
    sa.Column("mode", sa.String(16), nullable=False),  # practice|for-me|daily|daily-replay|quick
    sa.Column("puzzle_id", sa.String(160), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("level", sa.Integer, nullable=False),
    sa.Column("capture_sum", sa.Integer, nullable=False),
    sa.Column("facts", sa.Text, nullable=False),  # the puzzle's facts (expected solutions)
    sa.Column("answers", sa.Text, nullable=False),  # [[fact, correct, seconds|null], ...]
    sa.Column("answer", sa.Text, nullable=False),  # what the child gave (JSON)
    sa.Column("correct", sa.Boolean, nullable=False),  # solved: nothing missed, nothing wrong
    sa.Column("found", sa.Integer, nullable=False),
    sa.Column("missed", sa.Integer, nullable=False),
    sa.Column("wrong", sa.Integer, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),  # time taken
    sa.Column("hints", sa.Integer, nullable=False),
    sa.Column("stars", sa.Integer, nullable=False),
    sa.Column("fact", sa.String(16), nullable=True),  # quick facts: the one fact asked
    sa.Column("fact_seconds", sa.Float, nullable=True),  # ... and its response time
    sa.Column("daily_date", sa.String(10), nullable=True),  # a daily puzzle's date
)

daily_results = sa.Table(
    "daily_results", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("day", sa.String(10), nullable=False),  # the daily's date
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("stars", sa.Text, nullable=False),  # five slots: 1-3, or null (not answered)
    sa.Column("total", sa.Integer, nullable=False),
    sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("profile_id", "day", name="uq_daily_profile_day"),
)


def _migration_1(conn: Connection) -> None:
    """Profiles, games, moves and round results."""
    for table in (profiles, games, moves, results):
        table.create(conn, checkfirst=True)


def _migration_2(conn: Connection) -> None:
    """Puzzle and quick-fact attempts; daily results (issue 6)."""
    for table in (attempts, daily_results):
        table.create(conn, checkfirst=True)


#: (version, description, apply). Append only; never edit one that has shipped.
MIGRATIONS: list[tuple[int, str, Callable[[Connection], None]]] = [
    (1, "profiles, games, moves, results", _migration_1),
    (2, "puzzle attempts, daily results", _migration_2),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime | None) -> datetime | None:
    # SQLite hands back naive datetimes; everything is stored in UTC.
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


# Markdown and HTML specials: a nickname is shown in markdown in places, and
# "![](http://...)" there would make the browser fetch an outside image.
_NAME_DROP = str.maketrans("", "", "[]()<>!*_`#|~\\{}")


#: The longest nickname the app takes (it fits the sidebar and the profile buttons).
NAME_MAX = 16


def name_problem(text: str) -> tuple[str, dict[str, Any]] | None:
    """Why a typed nickname cannot be taken *as typed* (catalog key, parameters), or None.

    Nicknames are never changed behind the child's back: markup characters and
    over-long names are refused with a message instead.
    """
    name = " ".join(str(text).split())
    if not name:
        return "profile_empty", {}
    if name != name.translate(_NAME_DROP):
        return "nickname_chars", {}
    if len(name) > NAME_MAX:
        return "nickname_long", {"max": NAME_MAX}
    return None


def clean_name(text: str, limit: int = 40) -> str:
    """A nickname as it may be stored and shown: no markup, single spaces, short."""
    return " ".join(str(text).translate(_NAME_DROP).split())[:limit]


def sqlite_url(path: str) -> str:
    """The SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{path}"


def configure_sqlite(engine: Engine, busy_timeout_ms: int = 5000) -> None:
    """WAL journal, a busy timeout and foreign keys on every new SQLite connection.

    WAL lets the app read while another session writes; the busy timeout makes
    a second writer wait instead of failing with "database is locked".
    """
    if engine.dialect.name != "sqlite":
        return

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        # With WAL, NORMAL is durable against an app crash or restart (only a
        # power cut can lose the last commits) and saves an fsync per move.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


@dataclass(frozen=True)
class Profile:
    id: int
    nickname: str
    avatar: str
    settings: dict[str, Any]
    created_at: datetime


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


@dataclass(frozen=True)
class DailyResult:
    """One child's daily on one date: stars per puzzle (``None``: not answered yet).

    Each slot is written once, by the first answer to that puzzle; once all five
    are answered the result is complete and never changes (playing the day
    again is recorded as attempts only).
    """

    day: str
    number: int
    stars: tuple[int | None, ...]
    total: int
    completed_at: datetime | None

    @property
    def completed(self) -> bool:
        return self.completed_at is not None


ATTEMPT_FIELDS = ("day", "mode", "puzzle_id", "kind", "level", "capture_sum", "facts",
                  "answers", "answer", "correct", "found", "missed", "wrong", "seconds",
                  "hints", "stars", "fact", "fact_seconds", "daily_date")
_JSON_FIELDS = ("facts", "answers", "answer")


def _attempt_values(profile_id: int, attempt: dict[str, Any], now: datetime) -> dict[str, Any]:
    unknown = set(attempt) - set(ATTEMPT_FIELDS)
    if unknown:
        raise ValueError(f"unknown attempt fields: {sorted(unknown)}")
    values = {k: attempt.get(k) for k in ATTEMPT_FIELDS}
    for k in _JSON_FIELDS:
        values[k] = json.dumps(values[k] if values[k] is not None else [], ensure_ascii=False)
    values.update(profile_id=profile_id, created_at=now, correct=bool(values["correct"]))
    for k in ("found", "missed", "wrong", "hints", "stars"):
        values[k] = int(values[k] or 0)
    values["seconds"] = float(values["seconds"] or 0.0)
    return values


def _attempt(row: Any) -> dict[str, Any]:
    out = {k: getattr(row, k) for k in ATTEMPT_FIELDS}
    for k in _JSON_FIELDS:
        out[k] = json.loads(out[k])
    out["id"] = row.id
    out["created_at"] = _aware(row.created_at)
    out["correct"] = bool(out["correct"])
    return out


def _daily(row: Any) -> DailyResult:
    return DailyResult(row.day, row.number, tuple(json.loads(row.stars)), row.total,
                       _aware(row.completed_at))


def _profile(row: Any) -> Profile:
    return Profile(row.id, row.nickname, row.avatar, json.loads(row.settings or "{}"),
                   _aware(row.created_at))  # type: ignore[arg-type]


def _game(row: Any) -> GameRow:
    return GameRow(
        id=row.id, profile_id=row.profile_id, status=row.status,
        rules=json.loads(row.rules), seats=json.loads(row.seats),
        options=json.loads(row.options or "{}"), seed=row.seed,
        record=json.loads(row.record), winner=row.winner,
        review=json.loads(row.review) if row.review else None,
        created_at=_aware(row.created_at), updated_at=_aware(row.updated_at),  # type: ignore[arg-type]
    )


class ProgressVersion(NamedTuple):
    """A profile's data in a few numbers: they change whenever an attempt (daily answers
    included), a finished game or its review is written, so a cache keyed by them is never
    stale. The profile's creation time tells apart a new profile that reuses the id of a
    deleted one."""

    created_at: datetime | None
    attempts: int
    last_attempt: int | None
    finished_games: int
    last_game: datetime | None
    reviews: int
    review_chars: int | None


class Storage:
    """Profiles and games over one SQLAlchemy engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine, *, migrate: bool = True) -> None:
        self.engine = engine
        if migrate:
            self.migrate()

    # -- schema ---------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """One transaction: committed at the end of the block, rolled back on error."""
        with self.engine.begin() as conn:
            yield conn

    def schema_version(self) -> int:
        """The migration number the database has reached (0 when empty)."""
        with self.engine.connect() as conn:
            if not sa.inspect(conn).has_table("schema_version"):
                return 0
            value = conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar()
            return int(value or 0)

    def migrate(self) -> int:
        """Apply the migrations the database lacks, each in its own transaction."""
        with self.transaction() as conn:
            schema_version.create(conn, checkfirst=True)
        current = self.schema_version()
        for version, description, apply in MIGRATIONS:
            if version <= current:
                continue
            with self.transaction() as conn:
                # Re-read inside the transaction: another process may have won the race.
                done = conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar()
                if (done or 0) >= version:
                    continue
                apply(conn)
                conn.execute(schema_version.insert().values(version=version,
                                                            applied_at=_now()))
            log.info("schema migrated to %s (%s)", version, description)
        return self.schema_version()

    # -- profiles ---------------------------------------------------------------
    def create_profile(self, nickname: str, avatar: str,
                       settings: dict[str, Any] | None = None) -> Profile:
        """A new profile; :class:`StorageError` ``profile_empty``/``profile_taken``."""
        nickname = clean_name(nickname)
        if not nickname:
            raise StorageError("profile_empty")
        with self.transaction() as conn:
            taken = conn.execute(sa.select(profiles.c.id).where(
                sa.func.lower(profiles.c.nickname) == nickname.lower())).first()
            if taken is not None:
                raise StorageError("profile_taken", nickname=nickname)
            new_id = conn.execute(profiles.insert().values(
                nickname=nickname, avatar=avatar[:16], settings=json.dumps(settings or {}),
                created_at=_now())).inserted_primary_key[0]
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

    def update_settings(self, profile_id: int, settings: dict[str, Any]) -> None:
        with self.transaction() as conn:
            conn.execute(profiles.update().where(profiles.c.id == profile_id)
                         .values(settings=json.dumps(settings)))

    def delete_profile(self, profile_id: int) -> None:
        """Remove a profile and everything stored for it."""
        with self.transaction() as conn:
            game_ids = sa.select(games.c.id).where(games.c.profile_id == profile_id)
            conn.execute(attempts.delete().where(attempts.c.profile_id == profile_id))
            conn.execute(daily_results.delete().where(daily_results.c.profile_id == profile_id))
            conn.execute(moves.delete().where(moves.c.game_id.in_(game_ids)))
            conn.execute(results.delete().where(results.c.game_id.in_(game_ids)))
            conn.execute(games.delete().where(games.c.profile_id == profile_id))
            conn.execute(profiles.delete().where(profiles.c.id == profile_id))

    # -- games --------------------------------------------------------------------
    def create_game(self, profile_id: int, *, rules: dict[str, Any],
                    seats: Sequence[dict[str, Any]], seed: int, record: dict[str, Any],
                    options: dict[str, Any] | None = None) -> int:
        """A new game in play for ``profile_id``; earlier games in play are abandoned."""
        now = _now()
        with self.transaction() as conn:
            conn.execute(games.update().where(
                (games.c.profile_id == profile_id) & (games.c.status == "playing"))
                .values(status="abandoned", updated_at=now))
            new_id = conn.execute(games.insert().values(
                profile_id=profile_id, status="playing", rules=json.dumps(rules),
                seats=json.dumps(list(seats)), options=json.dumps(options or {}),
                seed=seed, record=json.dumps(record), created_at=now,
                updated_at=now)).inserted_primary_key[0]
        return int(new_id)

    def save_progress(self, game_id: int, record: dict[str, Any] | None, *,
                      new_moves: Sequence[tuple[int, int, dict[str, Any]]] = (),
                      new_results: Sequence[dict[str, Any]] = (),
                      winner: int | None = None, finished: bool = False) -> None:
        """Moves, the record they extend and any round results, in one transaction.

        ``new_moves`` are ``(round_no, move_no, entry)`` with the record's move
        entry; ``new_results`` are ``{"round_no", "points", "totals", "escobas"}``.
        ``record`` (the game's record so far) may be ``None`` when only moves
        were added: the moves table is the authority for moves (see
        :meth:`complete_record`), so the record is rewritten only when a round
        is dealt or the game ends, not on every move.
        """
        now = _now()
        with self.transaction() as conn:
            if new_moves:
                conn.execute(moves.insert(), [
                    {"game_id": game_id, "round_no": round_no, "move_no": move_no,
                     "seat": int(entry["seat"]),
                     "kind": ("renuncio" if "renuncio" in entry
                              else "miscount" if "miscount" in entry else "play"),
                     "entry": json.dumps(entry), "created_at": now}
                    for round_no, move_no, entry in new_moves])
            for result in new_results:
                conn.execute(results.insert().values(
                    game_id=game_id, round_no=result["round_no"],
                    points=json.dumps(result["points"]), totals=json.dumps(result["totals"]),
                    escobas=json.dumps(result["escobas"]), created_at=now))
            values: dict[str, Any] = {}
            if record is not None:
                values.update(record=json.dumps(record), updated_at=now)
            if finished:
                values.update(status="finished", winner=winner, updated_at=now)
            if values:
                conn.execute(games.update().where(games.c.id == game_id).values(**values))

    def save_review(self, game_id: int, review: Any) -> None:
        with self.transaction() as conn:
            conn.execute(games.update().where(games.c.id == game_id)
                         .values(review=json.dumps(review)))

    def abandon_game(self, game_id: int) -> None:
        with self.transaction() as conn:
            conn.execute(games.update().where(games.c.id == game_id)
                         .values(status="abandoned", updated_at=_now()))

    def get_game(self, game_id: int) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games).where(games.c.id == game_id)).first()
        return _game(row) if row is not None else None

    def active_game(self, profile_id: int) -> GameRow | None:
        """The profile's game in play, if any (the newest)."""
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(games).where(
                (games.c.profile_id == profile_id) & (games.c.status == "playing"))
                .order_by(games.c.id.desc()).limit(1)).first()
        return _game(row) if row is not None else None

    def list_games(self, profile_id: int, limit: int = 50) -> list[GameRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games).where(games.c.profile_id == profile_id)
                                .order_by(games.c.id.desc()).limit(limit)).all()
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

    def move_entries(self, game_id: int) -> list[tuple[int, int, dict[str, Any]]]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(moves.c.round_no, moves.c.move_no, moves.c.entry)
                                .where(moves.c.game_id == game_id)
                                .order_by(moves.c.round_no, moves.c.move_no)).all()
        return [(r.round_no, r.move_no, json.loads(r.entry)) for r in rows]

    def round_results(self, game_id: int) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(results).where(results.c.game_id == game_id)
                                .order_by(results.c.round_no)).all()
        return [{"round_no": r.round_no, "points": json.loads(r.points),
                 "totals": json.loads(r.totals), "escobas": json.loads(r.escobas)}
                for r in rows]

    # -- practice (issue 6) ----------------------------------------------------------
    def record_attempt(self, profile_id: int, attempt: dict[str, Any]) -> int:
        """One puzzle or quick-fact attempt (keys: :data:`ATTEMPT_FIELDS`), in a transaction."""
        with self.transaction() as conn:
            return int(conn.execute(attempts.insert().values(
                **_attempt_values(profile_id, attempt, _now()))).inserted_primary_key[0])

    def record_daily_answer(self, profile_id: int, day: str, number: int, index: int,
                            attempt: dict[str, Any], slots: int = 5) -> DailyResult:
        """A daily puzzle's attempt and, if that puzzle had no answer yet, its stars.

        One transaction: the attempt and the day's result are written together.
        The first answer to each puzzle fills its slot; when all ``slots`` are
        filled the result is complete, and nothing changes it afterwards (the
        update only touches a row that is not complete, and only an empty slot).
        """
        try:
            return self._record_daily_answer(profile_id, day, number, index, attempt, slots)
        except sa.exc.IntegrityError:
            # Two tabs created the day's row at the same moment: the row exists now.
            return self._record_daily_answer(profile_id, day, number, index, attempt, slots)

    def _record_daily_answer(self, profile_id: int, day: str, number: int, index: int,
                             attempt: dict[str, Any], slots: int) -> DailyResult:
        now = _now()
        with self.transaction() as conn:
            conn.execute(attempts.insert().values(**_attempt_values(profile_id, {
                **attempt, "daily_date": day}, now)))
            # Lock the day's row where the database can (PostgreSQL); SQLite
            # serialises writers anyway.
            query = sa.select(daily_results).where(
                (daily_results.c.profile_id == profile_id) & (daily_results.c.day == day))
            row = conn.execute(query.with_for_update()).first()
            if row is None:
                conn.execute(daily_results.insert().values(
                    profile_id=profile_id, day=day, number=number,
                    stars=json.dumps([None] * slots), total=0, created_at=now))
                row = conn.execute(query).first()
            stars = json.loads(row.stars)
            if row.completed_at is None and stars[index] is None:
                stars[index] = int(attempt.get("stars") or 0)
                done = all(s is not None for s in stars)
                conn.execute(daily_results.update().where(
                    (daily_results.c.id == row.id) & daily_results.c.completed_at.is_(None))
                    .values(stars=json.dumps(stars), total=sum(s or 0 for s in stars),
                            completed_at=now if done else None))
                row = conn.execute(query).first()
        return _daily(row)

    def daily_result(self, profile_id: int, day: str) -> DailyResult | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(daily_results).where(
                (daily_results.c.profile_id == profile_id) & (daily_results.c.day == day))
            ).first()
        return _daily(row) if row is not None else None

    def daily_results(self, profile_id: int) -> list[DailyResult]:
        """Every daily of the profile, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(daily_results)
                                .where(daily_results.c.profile_id == profile_id)
                                .order_by(daily_results.c.day)).all()
        return [_daily(r) for r in rows]

    def attempts(self, profile_id: int, *, limit: int | None = None) -> list[dict[str, Any]]:
        """The profile's attempts, oldest first (the newest ``limit`` if given)."""
        query = sa.select(attempts).where(attempts.c.profile_id == profile_id)
        if limit is not None:
            query = query.order_by(attempts.c.id.desc()).limit(limit)
        else:
            query = query.order_by(attempts.c.id)
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        out = [_attempt(r) for r in rows]
        return out[::-1] if limit is not None else out

    def progress_version(self, profile_id: int) -> ProgressVersion:
        """What My progress is drawn from, in one cheap query (see :class:`ProgressVersion`)."""
        mine = attempts.c.profile_id == profile_id
        finished = (games.c.profile_id == profile_id) & (games.c.status == "finished")
        parts = [
            sa.select(profiles.c.created_at).where(profiles.c.id == profile_id),
            sa.select(sa.func.count()).select_from(attempts).where(mine),
            sa.select(sa.func.max(attempts.c.id)).where(mine),
            sa.select(sa.func.count()).select_from(games).where(finished),
            sa.select(sa.func.max(games.c.updated_at)).where(finished),
            sa.select(sa.func.count(games.c.review)).where(finished),
            sa.select(sa.func.sum(sa.func.length(games.c.review))).where(finished)]
        query = sa.select(*(part.scalar_subquery() for part in parts))
        with self.engine.connect() as conn:
            return ProgressVersion(*conn.execute(query).one())

    def finished_games(self, profile_id: int, limit: int = 200
                       ) -> list[tuple[GameRow, list[dict[str, Any]]]]:
        """Finished games (oldest first) with their round results, in two queries."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(games).where(
                (games.c.profile_id == profile_id) & (games.c.status == "finished"))
                .order_by(games.c.id.desc()).limit(limit)).all()
            ids = [r.id for r in rows]
            res = conn.execute(sa.select(results).where(results.c.game_id.in_(ids))
                               .order_by(results.c.game_id, results.c.round_no)).all() \
                if ids else []
        by_game: dict[int, list[dict[str, Any]]] = {}
        for r in res:
            by_game.setdefault(r.game_id, []).append(
                {"round_no": r.round_no, "points": json.loads(r.points),
                 "totals": json.loads(r.totals), "escobas": json.loads(r.escobas),
                 "created_at": _aware(r.created_at)})
        return [(_game(r), by_game.get(r.id, [])) for r in reversed(rows)]
