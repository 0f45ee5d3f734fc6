"""The database's history: numbered migrations, each with its own fixed table definitions.

A migration is applied once, in its own transaction, and never edited after it has
shipped: its tables are written out here as they were *then* (their own
``MetaData``), not taken from :mod:`trainer.storage.schema` (the shape *now*).
Adding a column later is a new migration; an old database upgrades through
every migration it lacks. ``tests/test_storage_migrations.py`` builds a database
stopped after each migration, fills it, and upgrades it to the latest.

Column changes use plain ``ALTER TABLE ... ADD/DROP COLUMN``, which PostgreSQL
and SQLite (3.35 and later) both accept, on columns outside any index or
constraint.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from .aggregates import AggregateTables, Tally, fold_box, write_tally
from .assignment_progress import Task, TaskTables, recount_facts, start_progress

__all__ = ["Migration", "MIGRATIONS", "SCHEMA_VERSION"]


@dataclass(frozen=True)
class Migration:
    version: int
    description: str
    apply: Callable[[Connection], None]


def _migration_1(conn: Connection) -> None:
    """Profiles, games, moves and round results."""
    v1 = sa.MetaData()
    sa.Table(
        "profiles", v1,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("nickname", sa.String(40), nullable=False, unique=True),
        sa.Column("avatar", sa.String(16), nullable=False),
        sa.Column("settings", sa.Text, nullable=False, default="{}"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    sa.Table(
        "games", v1,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("options", sa.Text, nullable=False, default="{}"),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("winner", sa.Integer, nullable=True),
        sa.Column("review", sa.Text, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    sa.Table(
        "moves", v1,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("round_no", sa.Integer, nullable=False),
        sa.Column("move_no", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("entry", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "round_no", "move_no", name="uq_moves_position"),
    )
    sa.Table(
        "results", v1,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("round_no", sa.Integer, nullable=False),
        sa.Column("points", sa.Text, nullable=False),
        sa.Column("totals", sa.Text, nullable=False),
        sa.Column("escobas", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "round_no", name="uq_results_round"),
    )
    v1.create_all(conn, checkfirst=True)


def _migration_2(conn: Connection) -> None:
    """Puzzle and quick-fact attempts; daily results (issue 6)."""
    v2 = sa.MetaData()
    # Only for the foreign keys' sake: the table exists already (migration 1).
    sa.Table("profiles", v2, sa.Column("id", sa.Integer, primary_key=True))
    attempts = sa.Table(
        "attempts", v2,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("puzzle_id", sa.String(160), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("capture_sum", sa.Integer, nullable=False),
        sa.Column("facts", sa.Text, nullable=False),
        sa.Column("answers", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("found", sa.Integer, nullable=False),
        sa.Column("missed", sa.Integer, nullable=False),
        sa.Column("wrong", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("fact", sa.String(16), nullable=True),
        sa.Column("fact_seconds", sa.Float, nullable=True),
        sa.Column("daily_date", sa.String(10), nullable=True),
    )
    daily_results = sa.Table(
        "daily_results", v2,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("stars", sa.Text, nullable=False),
        sa.Column("total", sa.Integer, nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("profile_id", "day", name="uq_daily_profile_day"),
    )
    for table in (attempts, daily_results):
        table.create(conn, checkfirst=True)


#: Columns migration 3 drops: each is computed from what is kept (issue 9).
DERIVABLE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("moves", "seat"),  # the move's entry names its seat
    ("moves", "kind"),  # ... and whether it is a play, a miscount or a renuncio
    ("results", "totals"),  # running sum of the rounds' points: the engine's Game.totals
    ("results", "escobas"),  # the points' "escobas" category counts one point per escoba
    ("daily_results", "total"),  # the sum of the day's stars
    ("attempts", "fact_seconds"),  # a quick fact's time is the attempt's time
)


def _migration_3(conn: Connection) -> None:
    """Derivable columns go (their data is kept in what remains); a profile may have a
    PIN; a game counts its saves, so a stale tab's move is refused (issue 10)."""
    for table, column in DERIVABLE_COLUMNS:
        conn.exec_driver_sql(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.exec_driver_sql("ALTER TABLE profiles ADD COLUMN pin_hash VARCHAR(200)")
    conn.exec_driver_sql("ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0")


def _migration_4(conn: Connection) -> None:
    """Lesson results: each profile's best stars and plays per lesson level (issue 12)."""
    v4 = sa.MetaData()
    # Only for the foreign key's sake: the table exists already (migration 1).
    sa.Table("profiles", v4, sa.Column("id", sa.Integer, primary_key=True))
    lesson_results = sa.Table(
        "lesson_results", v4,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("stage", sa.String(40), nullable=False),
        sa.Column("level", sa.String(40), nullable=False),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("profile_id", "stage", "level", name="uq_lesson_results_level"),
    )
    lesson_results.create(conn, checkfirst=True)


def _migration_5(conn: Connection) -> None:
    """The classroom: teachers, classes (and their co-teachers), class members and
    assignments (issue 13). A profile still holds only a nickname, a picture, settings
    and its PIN; what makes it a pupil is a row of ``class_members``."""
    v5 = sa.MetaData()
    # Only for the foreign keys' sake: the table exists already (migration 1).
    sa.Table("profiles", v5, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table(
        "teachers", v5,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("failed_attempts", sa.Integer, nullable=False, default=0),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    )
    sa.Table(
        "classes", v5,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teachers.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("code", sa.String(12), nullable=False, unique=True),
        sa.Column("fluency_seconds", sa.Integer, nullable=False, default=6),
        sa.Column("capture_sum", sa.Integer, nullable=False, default=15),
        sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    sa.Table(
        "class_teachers", v5,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teachers.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("class_id", "teacher_id", name="uq_class_teachers"),
    )
    sa.Table(
        "class_members", v5,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  nullable=False, unique=True),
        sa.Column("real_name", sa.String(80), nullable=True),
        sa.Column("failed_attempts", sa.Integer, nullable=False, default=0),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    sa.Table(
        "assignments", v5,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("due", sa.String(10), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    v5.create_all(conn, checkfirst=True)


def _migration_6(conn: Connection) -> None:
    """Tables between devices (issue 16): a table (its code, its game, its settings) and
    who sat at each seat when (a child's profile and device, or a computer level)."""
    v6 = sa.MetaData()
    # Only for the foreign keys' sake: these tables exist already (migrations 1 and 5).
    sa.Table("profiles", v6, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table("games", v6, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table("classes", v6, sa.Column("id", sa.Integer, primary_key=True))
    game_tables = sa.Table(
        "game_tables", v6,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code", sa.String(8), nullable=False, unique=True),
        sa.Column("opener_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="SET NULL"),
                  nullable=True, index=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
                  nullable=True, unique=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, default=0),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    table_seats = sa.Table(
        "table_seats", v6,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="SET NULL"),
                  nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("avatar", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("from_round", sa.Integer, nullable=False),
        sa.Column("from_move", sa.Integer, nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    for table in (game_tables, table_seats):
        table.create(conn, checkfirst=True)


def _migration_7(conn: Connection) -> None:
    """Unfinished lesson goes: the tries at a level not finished yet, so that a teacher
    sees a pupil stuck on a lesson level (a finished level keeps only its best)."""
    v7 = sa.MetaData()
    # Only for the foreign key's sake: the table exists already (migration 1).
    sa.Table("profiles", v7, sa.Column("id", sa.Integer, primary_key=True))
    lesson_goes = sa.Table(
        "lesson_goes", v7,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("stage", sa.String(40), nullable=False),
        sa.Column("level", sa.String(40), nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("wrong", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("profile_id", "stage", "level", name="uq_lesson_goes_level"),
    )
    lesson_goes.create(conn, checkfirst=True)


def _migration_8(conn: Connection) -> None:
    """An index on ``table_seats.profile_id``: My games and the Progress page find a
    child's tables' games by it, on every listing (without it, a scan of every seat)."""
    v8 = sa.MetaData()
    # Only the indexed column: the table exists already (migration 6).
    table_seats = sa.Table("table_seats", v8, sa.Column("profile_id", sa.Integer))
    sa.Index("ix_table_seats_profile_id", table_seats.c.profile_id).create(conn,
                                                                           checkfirst=True)


def _migration_9(conn: Connection) -> None:
    """One nickname rule in the database (issue 25): each profile's folded key
    (``trainer.names.name_key``: NFKC, case folded, the UTS #39 skeleton), unique, so
    that two tabs or replicas cannot both take "Ana" and "ANA". Teachers' keys are
    folded again by the same rule (they are looked up by it at sign-in).

    Keys are computed by today's ``name_key`` (a later change of it is a new migration
    that re-keys). Names taken before, that the new rule finds alike ("Lola" and
    "LoIa" on one device), all stay as they are: the first (lowest id) gets the key,
    each later one its key and ``#id``, which no typed name folds to (``#`` is refused)."""
    from ..names import name_key  # the rule as it is: what the app compares with from now on

    conn.exec_driver_sql(
        "ALTER TABLE profiles ADD COLUMN name_key VARCHAR(160) NOT NULL DEFAULT ''")
    for table in ("profiles", "teachers"):
        column = "nickname" if table == "profiles" else "name"
        rows = conn.exec_driver_sql(f"SELECT id, {column} FROM {table} ORDER BY id").all()
        # First a key nobody has (teachers' keys are unique already: no clash on the way).
        conn.exec_driver_sql(f"UPDATE {table} SET name_key = '#' || CAST(id AS VARCHAR(20))")
        taken: set[str] = set()
        for row_id, name in rows:
            key = name_key(name)
            if key in taken:
                key = f"{key}#{row_id}"
            taken.add(key)
            conn.execute(sa.text(f"UPDATE {table} SET name_key = :key WHERE id = :id"),
                         {"key": key, "id": row_id})
    conn.exec_driver_sql("CREATE UNIQUE INDEX uq_profiles_name_key ON profiles (name_key)")


def _migration_10(conn: Connection) -> None:
    """Wrong secrets counted in the database (issue 25): a parent's PIN per profile and
    per device, unknown class codes per device and per server, so every app process
    (replicas behind a proxy, a restart) shares one count and one wait."""
    v10 = sa.MetaData()
    secret_tries = sa.Table(
        "secret_tries", v10,
        sa.Column("scope", sa.String(32), primary_key=True),
        sa.Column("subject", sa.String(80), primary_key=True),
        sa.Column("failures", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_failure", sa.DateTime(timezone=True), nullable=False),
    )
    secret_tries.create(conn, checkfirst=True)


def _migration_11(conn: Connection) -> None:
    """Unfinished puzzles (issue 25): the puzzle on a page and the sets found so far,
    saved as they are found, so that a restart (or another replica) resumes it."""
    v11 = sa.MetaData()
    # Only for the foreign key's sake: the table exists already (migration 1).
    sa.Table("profiles", v11, sa.Column("id", sa.Integer, primary_key=True))
    puzzle_progress = sa.Table(
        "puzzle_progress", v11,
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("slot", sa.String(16), primary_key=True),
        sa.Column("puzzle_id", sa.String(80), nullable=False),
        sa.Column("data", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    puzzle_progress.create(conn, checkfirst=True)


def _migration_12(conn: Connection) -> None:
    """A class's voice: whether its pupils hear goals read aloud and the app's sounds
    (issue 23); quiet unless the teacher turns it on."""
    # The default as each dialect writes false (what schema.py's sa.false() renders).
    false = "0" if conn.dialect.name == "sqlite" else "FALSE"
    conn.exec_driver_sql(f"ALTER TABLE classes ADD COLUMN voice BOOLEAN NOT NULL DEFAULT {false}")


def _migration_13(conn: Connection) -> None:
    """A whole school on one server (issue 27): identity.

    - A nickname is unique within its scope, not across the server: ``profiles.name_scope``
      is ``class:<id>`` for a class's pupil and ``""`` for the profiles made on the app's
      own "Who's playing?"; the unique index is on (scope, key), and the old ``UNIQUE``
      on the nickname itself goes (PostgreSQL drops the constraint; SQLite cannot drop
      one, so the table is rebuilt, ids and rows kept, with foreign keys off for the
      migration as SQLite's own procedure asks: see ``schema._migration_transaction``).
    - ``class_members.card_pin``: the PIN printed on the pupil's login card, for the
      class's teachers to look up (the sign-in still checks the hash); none for pupils
      made before (a new PIN gives one).
    - ``teacher_invites``: single-use, expiring codes an existing teacher makes for a new
      account (stored as SHA-256 digests: a code read from the database is no use)."""
    v13 = sa.MetaData()
    sa.Table("teachers", v13, sa.Column("id", sa.Integer, primary_key=True))
    if conn.dialect.name == "sqlite":
        rebuilt = sa.Table(
            "profiles_v13", v13,
            sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
            sa.Column("nickname", sa.String(40), nullable=False),
            sa.Column("avatar", sa.String(16), nullable=False),
            sa.Column("settings", sa.Text, nullable=False),
            sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("pin_hash", sa.String(200), nullable=True),
            sa.Column("name_key", sa.String(160), nullable=False, server_default=sa.text("''")),
            sa.Column("name_scope", sa.String(24), nullable=False,
                      server_default=sa.text("''")),
        )
        rebuilt.create(conn)
        conn.exec_driver_sql(
            "INSERT INTO profiles_v13 (id, nickname, avatar, settings, created_at, pin_hash, "
            "name_key, name_scope) SELECT id, nickname, avatar, settings, created_at, "
            "pin_hash, name_key, '' FROM profiles")
        conn.exec_driver_sql("DROP TABLE profiles")
        conn.exec_driver_sql("ALTER TABLE profiles_v13 RENAME TO profiles")
    else:
        for unique in sa.inspect(conn).get_unique_constraints("profiles"):
            if unique["column_names"] == ["nickname"]:
                conn.exec_driver_sql(f'ALTER TABLE profiles DROP CONSTRAINT "{unique["name"]}"')
        conn.exec_driver_sql("DROP INDEX uq_profiles_name_key")
        conn.exec_driver_sql(
            "ALTER TABLE profiles ADD COLUMN name_scope VARCHAR(24) NOT NULL DEFAULT ''")
    conn.exec_driver_sql(
        "UPDATE profiles SET name_scope = 'class:' || CAST((SELECT class_id FROM class_members "
        "WHERE class_members.profile_id = profiles.id) AS VARCHAR(20)) "
        "WHERE id IN (SELECT profile_id FROM class_members)")
    conn.exec_driver_sql(
        "CREATE UNIQUE INDEX uq_profiles_scope_name ON profiles (name_scope, name_key)")
    conn.exec_driver_sql("ALTER TABLE class_members ADD COLUMN card_pin VARCHAR(8)")
    sa.Table(
        "teacher_invites", v13,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("code_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("teachers.id", ondelete="CASCADE"),
                  nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("used_by", sa.Integer, sa.ForeignKey("teachers.id", ondelete="SET NULL"),
                  nullable=True),
    ).create(conn)


def _migration_14(conn: Connection) -> None:
    """Shared tablets forget (issue 27): a class's idle minutes before a pupil left signed
    in is signed out (the teacher's setting, 5 by default), and the moment the teacher
    signed out every tablet of the class (a pupil signed in before it is signed out)."""
    conn.exec_driver_sql("ALTER TABLE classes ADD COLUMN idle_minutes INTEGER NOT NULL DEFAULT 5")
    stamp = sa.DateTime(timezone=True).compile(dialect=conn.dialect)  # as the dialect says it
    conn.exec_driver_sql(f"ALTER TABLE classes ADD COLUMN signed_out_at {stamp}")


def _migration_15(conn: Connection) -> None:
    """Version counters instead of fingerprints (issue 32): ``profiles.data_version`` and
    ``classes.data_version``, bumped in the transaction of every write a view keyed by them
    draws (``trainer.storage.versions``). They start at 0: a cache key also holds the
    row's ``created_at``, and no cache outlives the app process that upgrades."""
    for table in ("profiles", "classes"):
        conn.exec_driver_sql(
            f"ALTER TABLE {table} ADD COLUMN data_version INTEGER NOT NULL DEFAULT 0")


def _migration_16(conn: Connection) -> None:
    """Aggregates of the attempts kept at write time (issue 32; what each table holds:
    ``trainer.storage.aggregates``), computed here for the attempts written before, so
    an upgraded school's dashboard shows what it showed."""
    v16 = sa.MetaData()
    sa.Table("profiles", v16, sa.Column("id", sa.Integer, primary_key=True))

    def pupil() -> sa.Column[int]:
        return sa.Column("profile_id", sa.Integer,
                         sa.ForeignKey("profiles.id", ondelete="CASCADE"), primary_key=True)

    tables = AggregateTables(
        sa.Table("fact_progress", v16, pupil(),
                 sa.Column("fact", sa.String(16), primary_key=True),
                 sa.Column("tries", sa.Integer, nullable=False),
                 sa.Column("right", sa.Integer, nullable=False),
                 sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
                 sa.Column("recent", sa.Text, nullable=False)),
        sa.Table("fact_days", v16, pupil(),
                 sa.Column("day", sa.String(10), primary_key=True),
                 sa.Column("fact", sa.String(16), primary_key=True),
                 sa.Column("tries", sa.Integer, nullable=False),
                 sa.Column("wrong", sa.Integer, nullable=False)),
        sa.Table("attempt_totals", v16, pupil(),
                 sa.Column("puzzles", sa.Integer, nullable=False),
                 sa.Column("quick_facts", sa.Integer, nullable=False),
                 sa.Column("game_turns", sa.Integer, nullable=False),
                 sa.Column("solved", sa.Integer, nullable=False),
                 sa.Column("last_attempt_id", sa.Integer, nullable=False),
                 sa.Column("last_at", sa.DateTime(timezone=True), nullable=False)),
        sa.Table("attempt_days", v16, pupil(),
                 sa.Column("day", sa.String(10), primary_key=True),
                 sa.Column("practice", sa.Integer, nullable=False),
                 sa.Column("solved", sa.Integer, nullable=False)),
        sa.Table("quick_fact_times", v16, pupil(),
                 sa.Column("centiseconds", sa.Integer, primary_key=True),
                 sa.Column("answers", sa.Integer, nullable=False)),
        sa.Table("puzzle_streaks", v16, pupil(),
                 sa.Column("kind", sa.String(16), primary_key=True),
                 sa.Column("level", sa.Integer, primary_key=True),
                 sa.Column("capture_sum", sa.Integer, primary_key=True),
                 sa.Column("last_id", sa.Integer, nullable=False),
                 sa.Column("recent", sa.Text, nullable=False)))
    for table in tables:
        if table is not None:
            table.create(conn)
    tally = Tally()
    rows = conn.execute(sa.text(
        "SELECT id, profile_id, created_at, day, kind, level, capture_sum, correct, seconds, "
        "answers FROM attempts ORDER BY id").columns(created_at=sa.DateTime(timezone=True)))
    for row in rows.mappings():
        when = row["created_at"]
        tally.add({**row, "created_at": when if when.tzinfo is not None
                   else when.replace(tzinfo=UTC)}, json.loads(row["answers"]))
    write_tally(conn, tally, tables)


def _progress_reads(meta: sa.MetaData) -> tuple[sa.Table, sa.Table, sa.Table, sa.Table]:
    """The classes, class members, assignments and attempts as the assignments' progress
    reads them (``assignment_progress``), in ``meta``: their columns have not changed
    since migration 17, which first read them, and migration 25 reads them again."""
    classes = sa.Table("classes", meta, sa.Column("id", sa.Integer, primary_key=True))
    class_members = sa.Table("class_members", meta, sa.Column("class_id", sa.Integer),
                             sa.Column("profile_id", sa.Integer))
    assignments = sa.Table(
        "assignments", meta, sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer), sa.Column("kind", sa.String(16)),
        sa.Column("spec", sa.Text), sa.Column("created_at", sa.DateTime(timezone=True)))
    attempts = sa.Table(
        "attempts", meta, sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("profile_id", sa.Integer), sa.Column("created_at", sa.DateTime(timezone=True)),
        sa.Column("day", sa.String(10)), sa.Column("kind", sa.String(16)),
        sa.Column("level", sa.Integer), sa.Column("capture_sum", sa.Integer),
        sa.Column("correct", sa.Boolean), sa.Column("stars", sa.Integer),
        sa.Column("seconds", sa.Float), sa.Column("facts", sa.Text),
        sa.Column("answers", sa.Text))
    return classes, class_members, assignments, attempts


def _migration_17(conn: Connection) -> None:
    """Each pupil's progress on each assignment, kept at write time (issue 32; what each
    column holds: ``trainer.storage.assignment_progress``), computed here from the
    attempts written before, so an upgraded school's assignments show what they showed."""
    v17 = sa.MetaData()
    sa.Table("profiles", v17, sa.Column("id", sa.Integer, primary_key=True))
    classes, class_members, assignments, attempts = _progress_reads(v17)
    progress = sa.Table(
        "assignment_progress", v17,
        sa.Column("assignment_id", sa.Integer,
                  sa.ForeignKey("assignments.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True, index=True),
        sa.Column("facts", sa.Text, nullable=False),
        sa.Column("tried", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("stars", sa.Integer, nullable=False),
        sa.Column("marks", sa.Text, nullable=False))
    progress.create(conn)
    tables = TaskTables(progress, assignments, attempts, classes, class_members)
    members: dict[int, list[int]] = {}
    for class_id, profile_id in conn.execute(sa.select(class_members).order_by(
            class_members.c.profile_id)):
        members.setdefault(class_id, []).append(profile_id)
    tasks: dict[int, list[Task]] = {}
    for row in conn.execute(sa.select(assignments).order_by(assignments.c.id)):
        when = row.created_at if row.created_at.tzinfo is not None \
            else row.created_at.replace(tzinfo=UTC)
        tasks.setdefault(row.class_id, []).append(
            Task(row.id, row.kind, json.loads(row.spec), when))
    for class_id, mine in tasks.items():
        start_progress(conn, tables, mine, members.get(class_id, []))


def _migration_18(conn: Connection) -> None:
    """Groups within a class (issue 29): ``class_groups``, a pupil's group in
    ``group_members`` (one at most), and an assignment's pupils: the class's (as every
    assignment before), a group's (``assignments.group_id``) or one pupil's
    (``assignments.profile_id``); it goes with its group or its pupil."""
    v18 = sa.MetaData()
    sa.Table("profiles", v18, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table("classes", v18, sa.Column("id", sa.Integer, primary_key=True))
    groups = sa.Table(
        "class_groups", v18,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("class_id", "name_key", name="uq_class_groups_name"))
    members = sa.Table(
        "group_members", v18,
        sa.Column("group_id", sa.Integer,
                  sa.ForeignKey("class_groups.id", ondelete="CASCADE"), nullable=False,
                  index=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True))
    groups.create(conn)
    members.create(conn)
    # Nullable references (SQLite adds a REFERENCES column only with a NULL default),
    # without ON DELETE: SQLite's reflection reads no option of a column's own
    # REFERENCES, and the writes delete an assignment before its group or pupil anyway.
    conn.exec_driver_sql("ALTER TABLE assignments ADD COLUMN group_id INTEGER "
                         "REFERENCES class_groups (id)")
    conn.exec_driver_sql("ALTER TABLE assignments ADD COLUMN profile_id INTEGER "
                         "REFERENCES profiles (id)")


def _migration_19(conn: Connection) -> None:
    """The class plays together (issue 29): a class's live rounds (the puzzle every tablet
    shows, named by its id, and where the round is: open, revealed, closed), one answer
    per pupil per round, and when each pupil was last seen on My class (the projector's
    pictures of who is signed in)."""
    v19 = sa.MetaData()
    sa.Table("profiles", v19, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table("classes", v19, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table(
        "live_rounds", v19,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
    ).create(conn)
    sa.Table(
        "live_answers", v19,
        sa.Column("round_id", sa.Integer, sa.ForeignKey("live_rounds.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True, index=True),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("found", sa.Integer, nullable=False),
        sa.Column("wrong", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    ).create(conn)
    sa.Table(
        "class_presence", v19,
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    ).create(conn)


def _class_game_tables(meta: sa.MetaData) -> tuple[sa.Table, sa.Table]:
    """The class-vs-computer tables of migration 20 on ``meta`` (also the schema's)."""
    games_ = sa.Table(
        "class_games", meta,
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("level", sa.String(16), nullable=False),
        sa.Column("target", sa.Integer, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("state", sa.String(12), nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("last", sa.Text, nullable=True),
        sa.Column("revision", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    votes = sa.Table(
        "class_votes", meta,
        sa.Column("game_id", sa.Integer, sa.ForeignKey("class_games.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True, index=True),
        sa.Column("move", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    return games_, votes


def _migration_20(conn: Connection) -> None:
    """The class against the computer (issue 29): a class's game on the projector (its
    ``escoba-record/1``, the computer's level, the target, where it is: voting, a round
    over, over, closed; the class's turn number) and the pupils' votes, one per pupil per
    turn (a move's board name)."""
    v20 = sa.MetaData()
    sa.Table("profiles", v20, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table("classes", v20, sa.Column("id", sa.Integer, primary_key=True))
    for table in _class_game_tables(v20):
        table.create(conn)


def _migration_21(conn: Connection) -> None:
    """The teacher's live view (issue 29): one row per pupil kept current as they go --
    the tablet (an anonymous label), the page and the assignment in hand, when they were
    last seen and last answered, their wrong answers in a row, and their answers of the
    last minutes in ten-second buckets -- so the view of a class is one query."""
    v21 = sa.MetaData()
    sa.Table("profiles", v21, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table("classes", v21, sa.Column("id", sa.Integer, primary_key=True))
    sa.Table(
        "pupil_activity", v21,
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
                  nullable=False, index=True),
        sa.Column("device", sa.String(16), nullable=True),
        sa.Column("page", sa.String(32), nullable=True),
        sa.Column("assignment_id", sa.Integer, nullable=True),
        sa.Column("page_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answer_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("right_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("wrong_streak", sa.Integer, nullable=False),
        sa.Column("recent", sa.Text, nullable=False),
        sa.Column("answer_what", sa.String(48), nullable=True),
    ).create(conn)


def _migration_22(conn: Connection) -> None:
    """The right quick facts per whole second (issue 32): the teacher's dashboard finds
    the median's second there and reads only its hundredths (computed here from
    ``quick_fact_times``); and an index on each pupil's games by time, so that the last
    game is found by the index, not among a school year of games."""
    v22 = sa.MetaData()
    sa.Table("profiles", v22, sa.Column("id", sa.Integer, primary_key=True))
    seconds = sa.Table(
        "quick_fact_seconds", v22,
        sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("seconds", sa.Integer, primary_key=True),
        sa.Column("answers", sa.Integer, nullable=False))
    seconds.create(conn)
    times = sa.Table("quick_fact_times", v22, sa.Column("profile_id", sa.Integer),
                     sa.Column("centiseconds", sa.Integer), sa.Column("answers", sa.Integer))
    whole = (times.c.centiseconds // 100).label("seconds")
    conn.execute(seconds.insert().from_select(
        ["profile_id", "seconds", "answers"],
        sa.select(times.c.profile_id, whole, sa.func.sum(times.c.answers))
        .group_by(times.c.profile_id, whole)))
    conn.exec_driver_sql(
        "CREATE INDEX ix_games_profile_updated ON games (profile_id, updated_at)")


def _every_attempt_tallied(conn: Connection) -> Tally:
    """Every attempt written so far added to a :class:`Tally`, in id order (what
    migrations 23 and 24 compute their columns from)."""
    tally = Tally()
    rows = conn.execute(sa.text(
        "SELECT id, profile_id, created_at, day, kind, level, capture_sum, correct, seconds, "
        "facts, answers FROM attempts ORDER BY id").columns(
            created_at=sa.DateTime(timezone=True)))
    for row in rows.mappings():
        when = row["created_at"]
        tally.add({**row, "created_at": when if when.tzinfo is not None
                   else when.replace(tzinfo=UTC)}, json.loads(row["answers"]))
    return tally


def _migration_23(conn: Connection) -> None:
    """Each pupil's Leitner box per fact, kept at write time (issue 32): a *weakest*
    assignment chooses by it instead of weighing a year of answers when it is made.
    Computed here from the attempts written before (``aggregates.fold_box``)."""
    conn.exec_driver_sql("ALTER TABLE fact_progress ADD COLUMN box INTEGER")
    conn.exec_driver_sql("ALTER TABLE fact_progress ADD COLUMN box_key TEXT")
    tally = _every_attempt_tallied(conn)
    v23 = sa.MetaData()
    facts = sa.Table("fact_progress", v23, sa.Column("profile_id", sa.Integer),
                     sa.Column("fact", sa.String(16)), sa.Column("box", sa.Integer),
                     sa.Column("box_key", sa.Text))
    update = facts.update().where((facts.c.profile_id == sa.bindparam("pid"))
                                  & (facts.c.fact == sa.bindparam("key_fact"))) \
        .values(box=sa.bindparam("new_box"), box_key=sa.bindparam("new_key"))
    values = []
    for (pid, fact), kept in tally.facts.items():
        box, key = fold_box(kept[4])
        values.append({"pid": pid, "key_fact": fact, "new_box": box,
                       "new_key": json.dumps(key) if key is not None else None})
    if values:
        conn.execute(update, values)


def _migration_24(conn: Connection) -> None:
    """A fact's kept tries: its last three of any kind as well as its last three with a
    time or wrong (``aggregates.kept_fact_tries``): the fact grid's "mostly wrong" now
    reads the former, so a fact answered right in puzzles since is not "mostly wrong"
    for its old wrong answers. Counted again here from the attempts written before."""
    tally = _every_attempt_tallied(conn)
    v24 = sa.MetaData()
    facts = sa.Table("fact_progress", v24, sa.Column("profile_id", sa.Integer),
                     sa.Column("fact", sa.String(16)), sa.Column("recent", sa.Text))
    update = facts.update().where((facts.c.profile_id == sa.bindparam("pid"))
                                  & (facts.c.fact == sa.bindparam("key_fact"))) \
        .values(recent=sa.bindparam("new_recent"))
    values = [{"pid": pid, "key_fact": fact, "new_recent": json.dumps(kept[3])}
              for (pid, fact), kept in tally.facts.items()]
    if values:
        conn.execute(update, values)


def _migration_25(conn: Connection) -> None:
    """A quick fact counts on an assignment for the fact whose question it is, not for
    every fact it exercises ("3 + 4 + ? = 15" counted for "7 + ? = 15" too: one wrong
    answer was two); the *facts* and *weakest* assignments' progress is counted again
    from the attempts, each pupil keeping the facts they had."""
    v25 = sa.MetaData()
    classes, class_members, assignments, attempts = _progress_reads(v25)
    progress = sa.Table(
        "assignment_progress", v25, sa.Column("assignment_id", sa.Integer),
        sa.Column("profile_id", sa.Integer), sa.Column("facts", sa.Text),
        sa.Column("tried", sa.Integer), sa.Column("solved", sa.Integer),
        sa.Column("stars", sa.Integer), sa.Column("marks", sa.Text))
    recount_facts(conn, TaskTables(progress, assignments, attempts, classes, class_members))


#: Append only; never edit one that has shipped.
MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "profiles, games, moves, results", _migration_1),
    Migration(2, "puzzle attempts, daily results", _migration_2),
    Migration(3, "derivable columns dropped; profile PIN; game revision", _migration_3),
    Migration(4, "lesson results", _migration_4),
    Migration(5, "classroom: teachers, classes, members, assignments", _migration_5),
    Migration(6, "tables between devices: tables and their seats", _migration_6),
    Migration(7, "unfinished lesson goes", _migration_7),
    Migration(8, "an index on table_seats.profile_id", _migration_8),
    Migration(9, "profiles.name_key: one folded nickname per look", _migration_9),
    Migration(10, "wrong secrets counted per target, device and server", _migration_10),
    Migration(11, "unfinished puzzles", _migration_11),
    Migration(12, "a class's voice (read aloud, sounds)", _migration_12),
    Migration(13, "names within a class, login-card PINs, teacher invitations",
              _migration_13),
    Migration(14, "shared tablets: a class's idle minutes and sign-out time", _migration_14),
    Migration(15, "data versions of profiles and classes", _migration_15),
    Migration(16, "aggregates of the attempts for the teacher's views", _migration_16),
    Migration(17, "each pupil's progress on each assignment", _migration_17),
    Migration(18, "groups within a class; an assignment's group or pupil", _migration_18),
    Migration(19, "live rounds, their answers, pupils seen on My class", _migration_19),
    Migration(20, "a class's games against the computer and their votes", _migration_20),
    Migration(21, "each pupil's activity for the teacher's live view", _migration_21),
    Migration(22, "quick facts' times per second; games by pupil and time", _migration_22),
    Migration(23, "each pupil's Leitner box per fact", _migration_23),
    Migration(24, "a fact's last tries of any kind kept too", _migration_24),
    Migration(25, "an answer counts for the assignment fact whose question it is",
              _migration_25),
)
SCHEMA_VERSION = MIGRATIONS[-1].version
