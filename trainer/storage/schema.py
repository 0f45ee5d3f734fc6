"""The tables as they are now, and the database they live in (connection, migrations).

These definitions are what the data access modules query; they must equal what
:mod:`trainer.storage.migrations` builds (a test compares every table's columns
after migrating an empty database). Changing a table means a new migration there
and the new shape here.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..clock import now as clock_now
from .aggregates import AggregateTables
from .assignment_progress import TaskTables
from .migrations import MIGRATIONS

__all__ = ["Database", "StorageError", "metadata", "schema_version", "profiles", "games",
           "moves", "results", "attempts", "daily_results", "lesson_results", "lesson_goes",
           "teachers",
           "classes", "class_teachers", "class_members", "assignments", "game_tables",
           "table_seats", "secret_tries", "puzzle_progress", "teacher_invites", "fact_progress",
           "fact_days", "attempt_totals", "attempt_days", "quick_fact_times", "puzzle_streaks",
           "quick_fact_seconds",
           "assignment_progress", "TASK_TABLES", "class_groups", "group_members",
           "live_rounds", "live_answers", "class_presence", "class_games", "class_votes",
           "pupil_activity",
           "AGGREGATES",
           "sqlite_url",
           "configure_sqlite",
           "now", "aware"]

log = logging.getLogger(__name__)


class StorageError(ValueError):
    """A write the storage refuses (e.g. a nickname already taken); message key in ``key``."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


metadata = sa.MetaData()

#: Minutes without a tap before a pupil left signed in on a shared tablet is signed out,
#: unless the teacher chose otherwise (issue 27): the column's default, the record's and
#: the teacher page's.
PUPIL_IDLE_MINUTES = 5

schema_version = sa.Table(
    "schema_version", metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("applied_at", sa.DateTime(timezone=True), nullable=False),
)

profiles = sa.Table(
    "profiles", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    # A nickname and an avatar, nothing else: no e-mail, no real name. Unique within its
    # scope only (name_scope, name_key below; migration 13).
    sa.Column("nickname", sa.String(40), nullable=False),
    sa.Column("avatar", sa.String(16), nullable=False),
    sa.Column("settings", sa.Text, nullable=False, default="{}"),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # A parent's optional PIN, as a salted scrypt hash (see profiles.hash_pin).
    sa.Column("pin_hash", sa.String(200), nullable=True),
    # The folded nickname (trainer.names.name_key: NFKC, case, the UTS #39 skeleton),
    # unique within its scope: the one nickname rule, kept by the database itself
    # (migrations 9 and 13), so two tabs or replicas cannot both take "Ana" and "ANA",
    # nor "Lola" and "LoIa", in one class or among the app's own profiles.
    sa.Column("name_key", sa.String(160), nullable=False, server_default=sa.text("''")),
    # Where the nickname is unique (issue 27): "class:<id>" for a class's pupil, "" for
    # the profiles of "Who's playing?". Two classes may each have a "Lucía".
    sa.Column("name_scope", sa.String(24), nullable=False, server_default=sa.text("''")),
    # Counts the writes My progress and the practice pages draw from (issue 32, migration
    # 15): bumped in the transaction of each (trainer.storage.versions), read by id.
    sa.Column("data_version", sa.Integer, nullable=False, default=0, server_default="0"),
)
sa.Index("uq_profiles_scope_name", profiles.c.name_scope, profiles.c.name_key, unique=True)

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
    sa.Column("record", sa.Text, nullable=False),  # the escoba-record/1 at the last deal
    # The winning side: the record would say so only after replaying every move, and
    # My progress counts wins over many games at once.
    sa.Column("winner", sa.Integer, nullable=True),
    sa.Column("review", sa.Text, nullable=True),  # post-game review (JSON), when finished
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    # How many times the game was saved: a save names the revision it extends, so a
    # tab showing an older position cannot write over a newer one (optimistic
    # concurrency). Not the number of moves: dealing a round is a save too.
    sa.Column("revision", sa.Integer, nullable=False, default=0, server_default=sa.text("0")),
)

#: Each pupil's last game, found by the index (migration 22), not over their year of games.
sa.Index("ix_games_profile_updated", games.c.profile_id, games.c.updated_at)

moves = sa.Table(
    "moves", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("round_no", sa.Integer, nullable=False),  # 1-based
    sa.Column("move_no", sa.Integer, nullable=False),  # 1-based within the round
    sa.Column("entry", sa.Text, nullable=False),  # the record's move entry (JSON)
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("game_id", "round_no", "move_no", name="uq_moves_position"),
)

# A finished round's points per side and category. The record could give them by
# replaying the game; they are kept so that My progress reads many games' rounds
# in one query. Written in the transaction that saves the round's last move.
results = sa.Table(
    "results", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("round_no", sa.Integer, nullable=False),
    sa.Column("points", sa.Text, nullable=False),  # per side {category: points}
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("game_id", "round_no", name="uq_results_round"),
)

attempts = sa.Table(
    "attempts", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # The child's local date, YYYY-MM-DD: created_at alone does not give it, as the
    # browser's time zone is not kept.
    sa.Column("day", sa.String(10), nullable=False),
    sa.Column("mode", sa.String(16), nullable=False),  # practice|for-me|daily|daily-replay|quick
    sa.Column("puzzle_id", sa.String(160), nullable=False),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("level", sa.Integer, nullable=False),
    sa.Column("capture_sum", sa.Integer, nullable=False),
    sa.Column("facts", sa.Text, nullable=False),  # the puzzle's facts (expected solutions)
    sa.Column("answers", sa.Text, nullable=False),  # [[fact, correct, seconds|null], ...]
    sa.Column("answer", sa.Text, nullable=False),  # what the child gave (JSON)
    # The verdict as it was given: re-grading the answer would need the puzzle
    # regenerated and today's grader, which may judge differently than the child was told.
    sa.Column("correct", sa.Boolean, nullable=False),  # solved: nothing missed, nothing wrong
    sa.Column("found", sa.Integer, nullable=False),
    sa.Column("missed", sa.Integer, nullable=False),
    sa.Column("wrong", sa.Integer, nullable=False),
    sa.Column("seconds", sa.Float, nullable=False),  # time taken
    sa.Column("hints", sa.Integer, nullable=False),
    sa.Column("stars", sa.Integer, nullable=False),
    # Quick facts: the one fact asked. It is among ``facts`` (last, as the generators
    # write them today), but which one was asked must not hang on that order.
    sa.Column("fact", sa.String(16), nullable=True),
    # A daily puzzle's date, which is not ``day`` when yesterday's daily is finished today.
    sa.Column("daily_date", sa.String(10), nullable=True),
)

daily_results = sa.Table(
    "daily_results", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("day", sa.String(10), nullable=False),  # the daily's date
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("stars", sa.Text, nullable=False),  # five slots: 1-3, or null (not answered)
    # When the fifth slot was filled; None while the daily is incomplete.
    sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("profile_id", "day", name="uq_daily_profile_day"),
)

# A profile's best at each lesson level (lessons/*.toml): written the moment the level
# is done, in one transaction; replaying never lowers it. Levels are named by their
# keys, not their numbers, so a stage can gain a level without moving the stars.
lesson_results = sa.Table(
    "lesson_results", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("stage", sa.String(40), nullable=False),  # the stage's key
    sa.Column("level", sa.String(40), nullable=False),  # the level's key in its stage
    sa.Column("stars", sa.Integer, nullable=False),  # best stars, 1-3
    sa.Column("plays", sa.Integer, nullable=False),  # fewest plays (tries) in a finished go
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),  # first done
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),  # last done
    sa.UniqueConstraint("profile_id", "stage", "level", name="uq_lesson_results_level"),
)

# A profile's go at a lesson level it has not finished yet: every try the runner judges,
# right or wrong, counted in one transaction; the row goes when the level is finished
# (its best is in lesson_results then). Across restarts and days, until that moment:
# what makes a pupil "stuck on a lesson level" for the teacher (docs/CLASSROOM.md).
lesson_goes = sa.Table(
    "lesson_goes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("stage", sa.String(40), nullable=False),  # the stage's key
    sa.Column("level", sa.String(40), nullable=False),  # the level's key in its stage
    sa.Column("tries", sa.Integer, nullable=False),  # tries judged since the go began
    sa.Column("wrong", sa.Integer, nullable=False),  # of them wrong
    sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),  # the first try
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),  # the latest try
    sa.UniqueConstraint("profile_id", "stage", "level", name="uq_lesson_goes_level"),
)

# -- the classroom (issue 13, docs/CLASSROOM.md) -------------------------------------------

teachers = sa.Table(
    "teachers", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(40), nullable=False),  # as typed (cleaned), shown
    # The folded name (trainer.names.name_key): "Ms Díaz" and "ms diaz" are one account.
    sa.Column("name_key", sa.String(160), nullable=False, unique=True),
    # scrypt$n$r$p$salt$hash (storage.hashing): never read outside the storage package.
    sa.Column("password_hash", sa.String(200), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # Unused since issue 27 (wrong passwords are counted in secret_tries per account,
    # device and pair: trainer.limits); kept, as dropping them would rebuild the table.
    sa.Column("failed_attempts", sa.Integer, nullable=False, default=0),
    sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
)

classes = sa.Table(
    "classes", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teachers.id", ondelete="CASCADE"),
              nullable=False, index=True),  # the owner: only they delete the class
    sa.Column("name", sa.String(40), nullable=False),
    # What pupils type on a shared tablet ("KDM-472", stored without the dash); regenerable.
    sa.Column("code", sa.String(12), nullable=False, unique=True),
    # The fluency time limit of the fact grid (3, 6 or 12 s) and the class's capture sum.
    sa.Column("fluency_seconds", sa.Integer, nullable=False, default=6),
    sa.Column("capture_sum", sa.Integer, nullable=False, default=15),
    sa.Column("archived_at", sa.DateTime(timezone=True), nullable=True),  # read-only when set
    # Pupils hear goals read aloud and the sounds (issue 23): the teacher's choice, quiet
    # by default (migration 12).
    sa.Column("voice", sa.Boolean, nullable=False, default=False, server_default=sa.false()),
    # Shared tablets forget (issue 27, migration 13): minutes without a tap before a pupil
    # is signed out, and when the teacher last signed out every tablet of the class.
    sa.Column("idle_minutes", sa.Integer, nullable=False, default=PUPIL_IDLE_MINUTES,
              server_default=str(PUPIL_IDLE_MINUTES)),
    sa.Column("signed_out_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # Counts the writes the teacher's views draw from: the class's own and each of its
    # pupils' (issue 32, migration 15; trainer.storage.versions).
    sa.Column("data_version", sa.Integer, nullable=False, default=0, server_default="0"),
)

# Co-teachers: they see and run the class as its owner does, but cannot delete it.
class_teachers = sa.Table(
    "class_teachers", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False),
    sa.Column("teacher_id", sa.Integer, sa.ForeignKey("teachers.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("class_id", "teacher_id", name="uq_class_teachers"),
)

# A pupil: a profile managed by a class. The pupil's PIN is the profile's own pin_hash
# (so every way to a profile, ?p= included, asks for it); the teacher sets it.
class_members = sa.Table(
    "class_members", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False, unique=True),  # a profile is in one class at most
    sa.Column("real_name", sa.String(80), nullable=True),  # the class's teachers only
    # Unused since issue 27 (wrong PINs are counted in secret_tries per pupil, device and
    # pair: trainer.limits); kept, as dropping them would rebuild the table.
    sa.Column("failed_attempts", sa.Integer, nullable=False, default=0),
    sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # The PIN printed on the login card, for the class's teachers only (a forgotten PIN
    # looked up, one card reprinted); the sign-in checks profiles.pin_hash (migration 13).
    sa.Column("card_pin", sa.String(8), nullable=True),
)

assignments = sa.Table(
    "assignments", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("kind", sa.String(16), nullable=False),  # lesson | puzzles | facts | weakest
    sa.Column("spec", sa.Text, nullable=False),  # its parameters (JSON), per kind
    sa.Column("due", sa.String(10), nullable=True),  # YYYY-MM-DD, the pupils' local date
    # Attempts count toward the assignment from this moment on (docs/CLASSROOM.md).
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    # Its pupils (issue 29, migration 18): the class's (both None), one group's, or one
    # pupil's. It goes with its group or its pupil, deleted first by their deletions
    # (docs/CLASSROOM.md; no ON DELETE: see the migration).
    sa.Column("group_id", sa.Integer, sa.ForeignKey("class_groups.id"), nullable=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id"), nullable=True),
)

# Groups within a class (issue 29): tables, support groups, named by its teachers.
class_groups = sa.Table(
    "class_groups", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("name", sa.String(40), nullable=False),  # as typed (cleaned), shown
    # The folded name (trainer.names.name_key): "Table 1" and "table 1" are one group.
    sa.Column("name_key", sa.String(160), nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("class_id", "name_key", name="uq_class_groups_name"),
)

# A pupil's group: at most one (the unique profile), of the pupil's own class (checked
# by the storage's writes).
group_members = sa.Table(
    "group_members", metadata,
    sa.Column("group_id", sa.Integer, sa.ForeignKey("class_groups.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              primary_key=True),
)

# A table between devices (issue 16, docs/TABLES.md): the code friends type, the game
# it plays once every seat is taken, and the settings agreed when it was opened.
game_tables = sa.Table(
    "game_tables", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code", sa.String(8), nullable=False, unique=True),  # "K7MPX": read aloud
    sa.Column("opener_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              nullable=False, index=True),
    # The opener's class: classmates see the table among their class's open tables.
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="SET NULL"),
              nullable=True, index=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id", ondelete="CASCADE"),
              nullable=True, unique=True),  # None while waiting for friends
    sa.Column("status", sa.String(12), nullable=False),  # waiting | playing | closed
    # {"rules": ..., "plan": [{"kind", "level"}], "hints": bool, "timeout": seconds}
    sa.Column("settings", sa.Text, nullable=False),
    # Bumped by whatever changes who sits where (a join, a start, a seat handed to the
    # computer): with the game's revision, what every device polls (one small read).
    sa.Column("version", sa.Integer, nullable=False, default=0),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

# Who sat at a seat from which move on: one row per occupant. The row without
# ``left_at`` is the seat's occupant now; together they say who played every move.
table_seats = sa.Table(
    "table_seats", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.Integer, sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),  # human | bot
    # Indexed (migration 8): a child's tables' games are found by it (My games, Progress).
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="SET NULL"),
              nullable=True, index=True),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("avatar", sa.String(16), nullable=False),
    sa.Column("level", sa.String(16), nullable=False),  # a computer's level, else ""
    # SHA-256 of the secret in the device's URL that makes it this seat (docs/TABLES.md).
    sa.Column("token_hash", sa.String(64), nullable=True, unique=True),
    # The first move this occupant played (round, move within the round; 1, 1 from the
    # start): the record's moves from here on, until the next occupant's, are theirs.
    sa.Column("from_round", sa.Integer, nullable=False),
    sa.Column("from_move", sa.Integer, nullable=False),
    sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True),  # the device's touch
    sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),  # handed over
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

#: Wrong secrets in a row per (scope, subject): a profile's PIN, a device, the server
#: (trainer.limits). Shared by every app process, kept over a restart.
secret_tries = sa.Table(
    "secret_tries", metadata,
    sa.Column("scope", sa.String(32), primary_key=True),  # what is guessed, from where
    sa.Column("subject", sa.String(80), primary_key=True),  # a profile id, a device's hash
    sa.Column("failures", sa.Integer, nullable=False),
    sa.Column("locked_until", sa.DateTime(timezone=True), nullable=True),
    sa.Column("last_failure", sa.DateTime(timezone=True), nullable=False),
)

#: A code an existing teacher gives a colleague to make an account (issue 27): single
#: use, expiring; stored as its SHA-256 (migration 13).
teacher_invites = sa.Table(
    "teacher_invites", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("code_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_by", sa.Integer, sa.ForeignKey("teachers.id", ondelete="CASCADE"),
              nullable=True),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("used_by", sa.Integer, sa.ForeignKey("teachers.id", ondelete="SET NULL"),
              nullable=True),
)

#: The puzzle a page shows and the sets found so far, saved as they are found
#: (trainer.practice_sessions.PuzzleSession.progress): a restart resumes it.
puzzle_progress = sa.Table(
    "puzzle_progress", metadata,
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("slot", sa.String(16), primary_key=True),  # the page's slot: pz, dy0..dy4
    sa.Column("puzzle_id", sa.String(80), nullable=False),
    sa.Column("data", sa.Text, nullable=False),  # JSON: the puzzle, sets, hints, choices
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)


# -- aggregates of the attempts, kept in each attempt's transaction (issue 32;
# trainer.storage.aggregates says what each is for) -------------------------------------

def _pupil() -> sa.Column[int]:
    return sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
                     primary_key=True)


fact_progress = sa.Table(
    "fact_progress", metadata, _pupil(),
    sa.Column("fact", sa.String(16), primary_key=True),  # canonical (mastery.normalise)
    sa.Column("tries", sa.Integer, nullable=False),
    sa.Column("right", sa.Integer, nullable=False),
    sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    # JSON: the last tries with a time or wrong, oldest first: [[at, attempt id, place,
    # right, seconds|null], ...]
    sa.Column("recent", sa.Text, nullable=False),
    # The fact's Leitner box after every try so far (puzzles.mastery.leitner_step), and
    # the last try folded into it as JSON [at, attempt id, place]; both null where a try
    # came in out of time order (a bulk import): then read from the attempts (migration 23).
    sa.Column("box", sa.Integer, nullable=True),
    sa.Column("box_key", sa.Text, nullable=True),
)

fact_days = sa.Table(
    "fact_days", metadata, _pupil(),
    sa.Column("day", sa.String(10), primary_key=True),  # the pupil's local date
    sa.Column("fact", sa.String(16), primary_key=True),
    sa.Column("tries", sa.Integer, nullable=False),
    sa.Column("wrong", sa.Integer, nullable=False),
)

attempt_totals = sa.Table(
    "attempt_totals", metadata, _pupil(),
    sa.Column("puzzles", sa.Integer, nullable=False),  # neither quick facts nor game turns
    sa.Column("quick_facts", sa.Integer, nullable=False),
    sa.Column("game_turns", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),  # puzzles and quick facts solved
    sa.Column("last_attempt_id", sa.Integer, nullable=False),
    sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
)

attempt_days = sa.Table(
    "attempt_days", metadata, _pupil(),
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("practice", sa.Integer, nullable=False),  # puzzles and quick facts
    sa.Column("solved", sa.Integer, nullable=False),
)

quick_fact_times = sa.Table(
    "quick_fact_times", metadata, _pupil(),
    sa.Column("centiseconds", sa.Integer, primary_key=True),
    sa.Column("answers", sa.Integer, nullable=False),  # right quick facts in that time
)

#: The right quick facts per whole second (migration 22): where the median is.
quick_fact_seconds = sa.Table(
    "quick_fact_seconds", metadata, _pupil(),
    sa.Column("seconds", sa.Integer, primary_key=True),  # centiseconds // 100
    sa.Column("answers", sa.Integer, nullable=False),
)

puzzle_streaks = sa.Table(
    "puzzle_streaks", metadata, _pupil(),
    sa.Column("kind", sa.String(16), primary_key=True),
    sa.Column("level", sa.Integer, primary_key=True),
    sa.Column("capture_sum", sa.Integer, primary_key=True),
    sa.Column("last_id", sa.Integer, nullable=False),  # the latest attempt's id
    sa.Column("recent", sa.Text, nullable=False),  # JSON: [[attempt id, solved], ...]
)

#: Each pupil's progress on each assignment its attempts count toward (a lesson's comes
#: from its results), kept in every attempt's transaction (issue 32;
#: trainer.storage.assignment_progress says what each column holds).
assignment_progress = sa.Table(
    "assignment_progress", metadata,
    sa.Column("assignment_id", sa.Integer,
              sa.ForeignKey("assignments.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              primary_key=True, index=True),
    sa.Column("facts", sa.Text, nullable=False),  # JSON: the pupil's facts (facts, weakest)
    sa.Column("tried", sa.Integer, nullable=False),  # attempts that counted
    sa.Column("solved", sa.Integer, nullable=False),  # puzzles solved
    sa.Column("stars", sa.Integer, nullable=False),  # puzzles' stars
    # JSON: puzzles [[attempt id, day], ...] (the first `count`); facts {fact: [first id,
    # its day, latest id, its attempt right]}
    sa.Column("marks", sa.Text, nullable=False),
)

# The class plays together (issue 29, migration 19): a live round on the projector, the
# same puzzle on every tablet (``spec``: its id), open, then revealed, then closed.
live_rounds = sa.Table(
    "live_rounds", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("kind", sa.String(16), nullable=False),  # "fifteens" (the first kind)
    sa.Column("spec", sa.Text, nullable=False),  # JSON: {"puzzle": id}
    sa.Column("state", sa.String(10), nullable=False),  # open | revealed | closed
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("revealed_at", sa.DateTime(timezone=True), nullable=True),
)

#: One answer per pupil per round (its attempt is in ``attempts`` as evidence too).
live_answers = sa.Table(
    "live_answers", metadata,
    sa.Column("round_id", sa.Integer, sa.ForeignKey("live_rounds.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              primary_key=True, index=True),
    sa.Column("answer", sa.Text, nullable=False),  # JSON: the sets as tapped, ["3o 5c 7e"]
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("found", sa.Integer, nullable=False),
    sa.Column("wrong", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

#: When each pupil was last seen on My class: the projector's pictures of who is in.
class_presence = sa.Table(
    "class_presence", metadata,
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
)

# The class against the computer (issue 29, migration 20): the game on the projector and
# the pupils' votes, one per pupil per turn of the class.
class_games = sa.Table(
    "class_games", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("level", sa.String(16), nullable=False),  # the computer's level
    sa.Column("target", sa.Integer, nullable=False),  # points to win (1: first to lead)
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("record", sa.Text, nullable=False),  # JSON: escoba-record/1 of the game
    sa.Column("state", sa.String(12), nullable=False),  # voting|round_over|over|ended|closed
    sa.Column("turn", sa.Integer, nullable=False),  # the class's turn the votes are for
    sa.Column("last", sa.Text, nullable=True),  # JSON: what the last close of a vote did
    sa.Column("revision", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
)

#: One vote per pupil per turn of the class (changed until the turn closes).
class_votes = sa.Table(
    "class_votes", metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("class_games.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("turn", sa.Integer, primary_key=True),
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              primary_key=True, index=True),
    sa.Column("move", sa.String(64), nullable=False),  # the board's name: "7o|3c.5e"
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
)

#: The teacher's live view (issue 29, migration 21): where each pupil of a class is now,
#: kept current by their page runs (throttled: trainer.live_view) and by their answers
#: (in the answer's transaction: .activity). One row per pupil; ``page`` NULL: signed out.
pupil_activity = sa.Table(
    "pupil_activity", metadata,
    sa.Column("profile_id", sa.Integer, sa.ForeignKey("profiles.id", ondelete="CASCADE"),
              primary_key=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"),
              nullable=False, index=True),
    sa.Column("device", sa.String(16), nullable=True),  # the tablet's anonymous label
    sa.Column("page", sa.String(32), nullable=True),  # "puzzles", "my_class", ...
    # The assignment being done on My class (no key: a deleted one reads as none).
    sa.Column("assignment_id", sa.Integer, nullable=True),
    sa.Column("page_since", sa.DateTime(timezone=True), nullable=True),  # on this page since
    sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("answer_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("right_at", sa.DateTime(timezone=True), nullable=True),
    sa.Column("wrong_streak", sa.Integer, nullable=False),  # wrong answers since a right one
    sa.Column("recent", sa.Text, nullable=False),  # JSON [[10-s bucket, answers, right], ...]
    sa.Column("answer_what", sa.String(48), nullable=True),  # "mode:kind:level" of the last
)


#: The aggregates every attempt adds to, in the attempt's transaction.
AGGREGATES = AggregateTables(fact_progress, fact_days, attempt_totals, attempt_days,
                             quick_fact_times, puzzle_streaks, quick_fact_seconds)
#: What an assignment's progress reads and writes.
TASK_TABLES = TaskTables(assignment_progress, assignments, attempts, classes, class_members,
                         fact_progress, attempt_totals)


def now() -> datetime:
    """The instant a row is written at: the app's one clock (trainer.clock, ESCOBA_NOW)."""
    return clock_now()


def aware(value: datetime | None) -> datetime | None:
    """A datetime read back in UTC (SQLite hands back naive ones; all are stored in UTC)."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def sqlite_url(path: str) -> str:
    """The SQLAlchemy URL of a SQLite file."""
    return f"sqlite:///{path}"


#: The app's SQLite file when nothing names another database.
DEFAULT_DB_PATH = "data/escoba.db"


def secrets_url(section: Mapping[str, Any]) -> str | None:
    """The database a ``[connections.escoba]`` section of ``.streamlit/secrets.toml`` names
    (``url``, or Streamlit's parts: ``dialect``, ``driver``, ``username``, ``password``,
    ``host``, ``port``, ``database``, ``query``), else None."""
    if "url" in section:
        return str(section["url"])
    if "dialect" not in section:
        return None
    driver = str(section["dialect"]) + (f"+{section['driver']}" if section.get("driver") else "")
    return sa.engine.URL.create(
        driver, username=section.get("username"), password=section.get("password"),
        host=section.get("host"), port=section.get("port"), database=section.get("database"),
        query=dict(section.get("query", {}))).render_as_string(hide_password=False)


def app_database(env_url: str | None, env_path: str | None,
                 section: Mapping[str, Any]) -> tuple[str, bool]:
    """The app's database as a URL, and whether secrets.toml named it: ``ESCOBA_DATABASE_URL``;
    the secrets' section; else the SQLite file ``ESCOBA_DB_PATH`` or the section's ``path``,
    default :data:`DEFAULT_DB_PATH`. The app and the ``escoba teacher`` command read it
    alike (one order, one place)."""
    if env_url:
        return env_url, False
    if (named := secrets_url(section)) is not None:
        return named, True
    return sqlite_url(env_path or section.get("path") or DEFAULT_DB_PATH), False


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
        # The busy timeout first: turning a new file to WAL takes the write lock, and a
        # replica starting beside another got "database is locked" from this pragma
        # when it ran under pysqlite's 5 s default (tests/test_storage_migrations.py's race).
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        _wal_journal(cursor, busy_timeout_ms / 1000)
        cursor.execute("PRAGMA foreign_keys=ON")
        # With WAL, NORMAL is durable against an app crash or restart (only a
        # power cut can lose the last commits) and saves an fsync per move.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()


def _wal_journal(cursor: Any, patience_s: float) -> None:
    """Put the file in WAL mode, waiting up to ``patience_s`` for the lock it takes.

    SQLite answers "database is locked" at once, without its busy handler, in the moments
    its WAL documentation lists (another connection switching a new file to WAL, running
    recovery, or cleaning up as the last one closes). Replicas starting together on one
    file met it about once in 20 starts (CI, tests/test_storage_migrations.py's race), so
    the switch is retried here until the busy timeout. A file already in WAL needs no
    switch: the mode is read first, which takes no lock once the file is in WAL."""
    deadline = time.monotonic() + patience_s
    pause = 0.005
    while True:
        try:
            mode = cursor.execute("PRAGMA journal_mode").fetchone()[0]
            if str(mode).lower() != "wal":
                cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)


#: PostgreSQL advisory lock key of migrations ("escb"); held to the end of a transaction.
_MIGRATION_LOCK = 0x65736362


@contextmanager
def _migration_transaction(engine: Engine) -> Iterator[Connection]:
    """One migration's transaction, real on both databases and holding the one lock that
    lets a single process migrate at a time; everything in it is undone on an error.

    PostgreSQL: DDL is transactional; the advisory lock makes a second process wait
    until the first has committed (checking for a table and creating it are not atomic).

    SQLite: pysqlite's own transaction handling opens a transaction only before data
    changes (INSERT/UPDATE/DELETE), so an ``ALTER TABLE`` ran outside any transaction
    and stayed done when the migration failed after it (issue 25). The connection is
    put in pysqlite's autocommit mode (SQLAlchemy's ``AUTOCOMMIT`` isolation level,
    reset when the connection goes back to the pool) and the transaction is opened by
    hand with ``BEGIN IMMEDIATE`` (SQLAlchemy's "pysqlite BEGIN" recipe): it takes the
    database's write lock at once, so the re-read of the version inside it is under
    that lock, and every statement, DDL included, commits or rolls back together.

    SQLite's foreign keys are off during a migration (its documented procedure for a table
    rebuilt, migration 13: a ``DROP TABLE`` with them on would cascade into every child
    table; the pragma is a no-op inside a transaction, so it is set before ``BEGIN``),
    checked by ``PRAGMA foreign_key_check`` before the commit, and back as they were
    after it."""
    with engine.connect() as conn:
        if conn.dialect.name != "sqlite":
            with conn.begin():
                if conn.dialect.name == "postgresql":
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"),
                                 {"key": _MIGRATION_LOCK})
                yield conn
            return
        conn.execution_options(isolation_level="AUTOCOMMIT")
        enforced = conn.exec_driver_sql("PRAGMA foreign_keys").scalar()
        conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
        try:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
            try:
                yield conn
                broken = conn.exec_driver_sql("PRAGMA foreign_key_check").first()
                if broken is not None:
                    raise sa.exc.IntegrityError("PRAGMA foreign_key_check", None,
                                                ValueError(f"foreign key broken: {broken}"))
            except BaseException:
                conn.exec_driver_sql("ROLLBACK")
                raise
            conn.exec_driver_sql("COMMIT")
        finally:
            conn.exec_driver_sql(f"PRAGMA foreign_keys={'ON' if enforced else 'OFF'}")


class Database:
    """One SQLAlchemy engine (SQLite or PostgreSQL), migrated on start."""

    def __init__(self, engine: Engine, *, migrate: bool = True) -> None:
        self.engine = engine
        if migrate:
            self.migrate()

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

    def migrate(self, upto: int | None = None) -> int:
        """Apply the migrations the database lacks (up to ``upto``), one transaction each:
        a migration that fails leaves the database at the version before it, as it was.

        Several app processes on one PostgreSQL database (replicas, docs/DEPLOY.md) may
        start at once: each transaction first takes the same advisory lock, so one
        process migrates and the others wait, then find the work done."""
        with _migration_transaction(self.engine) as conn:
            schema_version.create(conn, checkfirst=True)
        current = self.schema_version()
        for migration in MIGRATIONS:
            if migration.version <= current or (upto is not None and migration.version > upto):
                continue
            with _migration_transaction(self.engine) as conn:
                # Re-read under the lock: another process may have won the race.
                done = conn.execute(sa.select(sa.func.max(schema_version.c.version))).scalar()
                if (done or 0) >= migration.version:
                    # Done by another process up to ``done``: skip those without taking
                    # the write lock again for each (replicas starting together on one
                    # SQLite file waited their turn once per migration, and one could
                    # wait out its busy timeout while the others took turns).
                    current = done or 0
                    continue
                migration.apply(conn)
                conn.execute(schema_version.insert().values(version=migration.version,
                                                            applied_at=now()))
            log.info("schema migrated to %s (%s)", migration.version, migration.description)
        return self.schema_version()
