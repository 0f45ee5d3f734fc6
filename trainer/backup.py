"""Backups of the app's database, and putting one back (issue 31, docs/DEPLOY.md).

- SQLite (the default, ``data/escoba.db``): :func:`backup` copies the file with SQLite's
  online backup API (``sqlite3.Connection.backup``): a consistent copy of one instant
  even while the app writes (a plain ``cp`` of a WAL database can tear a game in two).
  :func:`restore` copies a backup back the same way.
- PostgreSQL: ``pg_dump -Fc`` (one consistent snapshot, the app may keep writing) and
  ``pg_restore``. The password never goes on a command line (``ps`` shows those): the
  URL's parts are handed to them as ``PGHOST``/``PGUSER``/``PGPASSWORD``... variables.

A restore refuses a database that already holds tables unless ``force`` is given: an
IT person who swaps two arguments must not lose the school's data.

Plain Python, no Streamlit; the ``escoba backup``/``restore``/``migrate`` commands are
:mod:`trainer.server_cli`'s.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa

__all__ = ["BackupError", "Summary", "backup", "restore", "summary", "pg_tool", "backup_name",
           "prune"]

#: Where Debian's PostgreSQL packages put their binaries (newest version first).
PG_GLOB = "/usr/lib/postgresql/*/bin"

#: The tables whose rows a summary counts: what a person checks after a restore.
COUNTED = ("profiles", "games", "moves", "attempts", "teachers", "classes", "game_tables")


class BackupError(ValueError):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass(frozen=True)
class Summary:
    """What a database holds, in a few numbers (printed after a backup or a restore)."""

    schema: int  # the migration it has reached (0: no app tables)
    rows: Mapping[str, int]  # rows of the :data:`COUNTED` tables it has
    path: Path | None = None  # the backup file it describes, if any

    def __str__(self) -> str:
        counts = ", ".join(f"{n} {table}" for table, n in self.rows.items())
        return f"schema {self.schema}" + (f"; {counts}" if counts else "")


def _sqlite_path(url: sa.URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("a SQLite database in memory has nothing to back up")
    return Path(url.database)


def summary(database_url: str) -> Summary:
    """The schema version and the row counts of a database (no migration is run)."""
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            names = set(sa.inspect(conn).get_table_names())
            schema = 0
            if "schema_version" in names:
                schema = int(conn.execute(sa.text(
                    "SELECT max(version) FROM schema_version")).scalar() or 0)
            rows = {t: int(conn.execute(sa.text(f"SELECT count(*) FROM {t}")).scalar() or 0)
                    for t in COUNTED if t in names}
        return Summary(schema, rows)
    finally:
        engine.dispose()


def _tables(database_url: str) -> list[str]:
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as conn:
            return sa.inspect(conn).get_table_names()
    finally:
        engine.dispose()


# -- SQLite ---------------------------------------------------------------------------------

def _sqlite_copy(source: Path, target: Path) -> None:
    """``source`` into ``target`` through the online backup API: pages copied under
    SQLite's own locking, so a writer at the same moment leaves a consistent copy (the
    copy restarts by itself when the source changes mid-way)."""
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()


def _check_sqlite_file(path: Path) -> None:
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
    except sqlite3.DatabaseError as err:
        raise BackupError(f"{path} is not a SQLite backup ({err})") from None
    if "schema_version" not in names:
        raise BackupError(f"{path} is not a backup of this app (no schema_version table)")


def _sqlite_backup(url: sa.URL, path: Path) -> None:
    source = _sqlite_path(url)
    if not source.is_file():
        raise BackupError(f"no database at {source} (nothing to back up)")
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        _sqlite_copy(source, partial)
        partial.chmod(0o600)  # children's data: the backup's owner only
        os.replace(partial, path)  # a backup file is whole or absent, never half written
    finally:
        partial.unlink(missing_ok=True)


def _sqlite_restore(path: Path, url: sa.URL) -> None:
    _check_sqlite_file(path)
    target = _sqlite_path(url)
    target.parent.mkdir(parents=True, exist_ok=True)
    # Into the live file through the backup API (not a file copy): its -wal and -shm stay
    # consistent with it, and the target's pages are replaced in one transaction.
    _sqlite_copy(path, target)


# -- PostgreSQL -----------------------------------------------------------------------------

def pg_tool(name: str, env: Mapping[str, str] | None = None) -> str:
    """The path of ``pg_dump`` or ``pg_restore``: ``$ESCOBA_PG_BIN/name``, else the PATH's
    (Debian's /usr/bin wrapper picks the cluster's version), else the newest of
    /usr/lib/postgresql/*/bin."""
    env = os.environ if env is None else env
    folder = env.get("ESCOBA_PG_BIN")
    candidates = [str(Path(folder) / name)] if folder else []
    if (found := shutil.which(name)) is not None:
        candidates.append(found)
    candidates += sorted(glob.glob(f"{PG_GLOB}/{name}"),
                         key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit()
                         else 0, reverse=True)
    for candidate in candidates:
        if os.access(candidate, os.X_OK):
            return candidate
    raise BackupError(f"{name} not found: install PostgreSQL's client programs "
                      "(Debian: sudo apt-get install postgresql-client), or set "
                      "ESCOBA_PG_BIN to the folder that holds them")


def _pg_env(url: sa.URL) -> dict[str, str]:
    """libpq's variables for ``url``: the password stays off the command line."""
    env = dict(os.environ)
    for var, value in (("PGHOST", url.host), ("PGPORT", url.port), ("PGUSER", url.username),
                       ("PGPASSWORD", url.password), ("PGDATABASE", url.database)):
        if value is not None:
            env[var] = str(value)
    return env


def _run(command: list[str], env: Mapping[str, str], what: str) -> None:
    done = subprocess.run(command, env=dict(env), capture_output=True, text=True)
    if done.returncode != 0:
        lines = [ln for ln in done.stderr.strip().splitlines() if ln.strip()]
        reason = lines[0] if lines else f"exit code {done.returncode}"
        raise BackupError(f"{what} failed: {reason}")


def _pg_backup(url: sa.URL, path: Path) -> None:
    partial = path.with_name(path.name + ".partial")
    try:
        # -Fc: PostgreSQL's compressed custom format, what pg_restore reads; one snapshot.
        _run([pg_tool("pg_dump"), "-Fc", "--no-owner", "-f", str(partial)], _pg_env(url),
             "pg_dump")
        partial.chmod(0o600)  # children's data: the backup's owner only
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


def _pg_restore(path: Path, url: sa.URL, force: bool) -> None:
    with path.open("rb") as handle:
        if handle.read(5) != b"PGDMP":
            raise BackupError(f"{path} is not a pg_dump -Fc backup (the file PostgreSQL "
                              "backups are made as by `escoba backup`)")
    # --no-owner: the tables belong to whoever restores (the app's role), whatever role
    # owned them on the server the backup came from. One transaction: all or nothing.
    command = [pg_tool("pg_restore"), "--no-owner", "--exit-on-error", "--single-transaction",
               "-d", url.database or ""]
    if force:
        command[1:1] = ["--clean", "--if-exists"]
    _run([*command, str(path)], _pg_env(url), "pg_restore")


# -- the two commands -----------------------------------------------------------------------

#: The files :func:`backup` names in a folder, and the only ones :func:`prune` deletes.
NAMED = re.compile(r"escoba-\d{4}-\d\d-\d\dT\d{6}Z\.(db|dump)")


def backup_name(backend: str, when: datetime) -> str:
    """A backup's file name in a folder: ``escoba-2026-12-01T023000Z.dump`` (``.db`` for
    SQLite); in UTC, so that their names sort as their times do."""
    return f"escoba-{when:%Y-%m-%dT%H%M%S}Z.{'db' if backend == 'sqlite' else 'dump'}"


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest backups :func:`backup` named in ``folder`` (no
    other file is touched); the ones deleted."""
    if keep < 1:
        raise BackupError("--keep must be 1 or more (the backup just made is kept)")
    named = sorted((p for p in Path(folder).iterdir() if NAMED.fullmatch(p.name)),
                   key=lambda p: p.name, reverse=True)
    gone = named[keep:]
    for path in gone:
        path.unlink()
    return gone


def backup(database_url: str, path: Path, when: datetime | None = None) -> Summary:
    """Write a backup of the database at ``database_url`` to ``path`` (a SQLite file, or
    a ``pg_dump -Fc`` archive); consistent while the app runs. ``path`` may be a folder:
    the file is named there by :func:`backup_name` (at ``when``, default now, UTC).
    What it holds."""
    url = sa.engine.make_url(database_url)
    path = Path(path)
    backend = url.get_backend_name()
    if path.is_dir():
        from .clock import now  # the app's one clock (docs/ARCHITECTURE.md)

        path = path / backup_name(backend, when or now())
    if not path.parent.is_dir():
        raise BackupError(f"no folder {path.parent} (make it first)")
    if backend == "sqlite":
        _sqlite_backup(url, path)
        copy = summary(f"sqlite:///{path}")
        return Summary(copy.schema, copy.rows, path)
    if backend == "postgresql":
        made = summary(database_url)
        _pg_backup(url, path)
        return Summary(made.schema, made.rows, path)
    raise BackupError(f"cannot back up a {backend} database (SQLite or PostgreSQL only)")


def restore(path: Path, database_url: str, *, force: bool = False) -> Summary:
    """Put the backup at ``path`` into the database at ``database_url``: refused when that
    database already holds tables, unless ``force`` (its tables are replaced then). Stop
    the app's replicas first. What the database holds afterwards."""
    url = sa.engine.make_url(database_url)
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"no backup file at {path}")
    backend = url.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupError(f"cannot restore into a {backend} database (SQLite or PostgreSQL)")
    exists = backend == "postgresql" or _sqlite_path(url).is_file()
    if exists and not force and (tables := _tables(database_url)):
        raise BackupError(f"the database {url.render_as_string(hide_password=True)} is not "
                          f"empty ({len(tables)} tables): restore into a new, empty database, "
                          "or add --force to replace what it holds")
    if backend == "sqlite":
        _sqlite_restore(path, url)
    else:
        _pg_restore(path, url, force)
    return summary(database_url)
