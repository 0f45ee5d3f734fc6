"""A school server's commands (registered by :mod:`commands`; issue 31, docs/DEPLOY.md):

- ``escoba serve``: run the app (``streamlit run`` of the installed ``serve.py``) on one
  port, as a systemd unit or a container does;
- ``escoba migrate``: bring the database to this release's schema, once, before the
  replicas are restarted;
- ``escoba backup PATH`` / ``escoba restore PATH``: :mod:`trainer.backup`.

The database is the app's, read in the app's order (:func:`trainer.teacher_cli.database_url`:
``--db``, ``ESCOBA_DATABASE_URL``, ``.streamlit/secrets.toml``, ``data/escoba.db``).
Refusals are one line (``error: ...``, exit code 2).
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import sysconfig
from collections.abc import Callable, Mapping
from pathlib import Path

import sqlalchemy as sa

from escoba.cli import CliError

from .backup import BackupError, backup, prune, restore, summary
from .storage import SCHEMA_VERSION
from .teacher_cli import database_url, open_storage, with_sqlite_folder

__all__ = ["register", "app_script", "serve_command", "serve_environment"]

#: What every replica runs with (docs/DEPLOY.md): no file watcher on a server (it would
#: rerun pages when a release is unpacked beside them, and it costs CPU).
SERVE_OPTIONS = ("--server.headless", "true", "--server.fileWatcherType", "none",
                 "--browser.gatherUsageStats", "false")

#: The environment every replica starts with, where the server's own does not say
#: otherwise. glibc's malloc gives threads that allocate at the same time arenas of their
#: own (up to 8 a core), and Streamlit runs each rerun in a new thread: memory freed in
#: one arena is not reused from another, and a replica's RSS crept up over a class hour.
#: Two arenas kept it about 20 MB lower, within 1.3x of its 5 minutes at the hour where
#: glibc's default was not (docs/BENCHMARKS.md, "A replica's memory over a class hour,
#: with two malloc arenas"); other C libraries ignore the variable.
SERVE_ENVIRONMENT = {"MALLOC_ARENA_MAX": "2"}


def serve_environment(env: Mapping[str, str]) -> dict[str, str]:
    """``env`` with :data:`SERVE_ENVIRONMENT`'s settings where it has none of its own."""
    return {**SERVE_ENVIRONMENT, **env}


def app_script() -> Path:
    """The app's server script ``serve.py``: the checkout's (beside this package), else
    the installed release's (``<venv>/share/escoba/serve.py``, with ``app.py``, its pages
    and .streamlit/config.toml beside it: pyproject.toml's data-files)."""
    checkout = Path(__file__).resolve().parent.parent / "serve.py"
    if checkout.is_file():
        return checkout
    installed = Path(sysconfig.get_path("data")) / "share" / "escoba" / "serve.py"
    if installed.is_file():
        return installed
    raise CliError(f"the app is not installed here (no {installed}): install the wheel "
                   "with its [app] extra into this venv")


def serve_command(script: Path, address: str, port: int,
                  extra: list[str] | None = None) -> list[str]:
    """The ``streamlit run`` command line ``escoba serve`` replaces itself with."""
    return [sys.executable, "-m", "streamlit", "run", str(script), *SERVE_OPTIONS,
            "--server.address", address, "--server.port", str(port), *(extra or [])]


def _cmd_serve(args: argparse.Namespace) -> int:
    script = app_script()
    extra = list(args.streamlit_options)
    if extra[:1] == ["--"]:  # argparse keeps the separator; to streamlit it would end options
        extra = extra[1:]
    command = serve_command(script, args.address, args.port, extra)
    sys.stdout.flush()
    # Replaced by Streamlit itself: systemd and a container's runtime signal the server,
    # and its exit code is the unit's.
    os.execve(sys.executable, command, serve_environment(os.environ))
    return 0  # not reached


def _url(args: argparse.Namespace) -> str:
    url = database_url(args.db)
    # migrate and restore may make the database; backup and db-status only read one.
    return with_sqlite_folder(url) if args.command in ("migrate", "restore") else url


def _reached(handler: Callable[[argparse.Namespace], int]
             ) -> Callable[[argparse.Namespace], int]:
    """A database that cannot be reached (down, a wrong password) is one line, not a
    traceback: the driver's first line says which."""
    @functools.wraps(handler)
    def run(args: argparse.Namespace) -> int:
        try:
            return handler(args)
        except sa.exc.OperationalError as err:
            first = str(err.orig or err).strip().splitlines()[0]
            raise CliError(f"cannot open the database: {first}") from None
    return run


def _shown(url: str) -> str:
    return sa.engine.make_url(url).render_as_string(hide_password=True)


@_reached
def _cmd_migrate(args: argparse.Namespace) -> int:
    url = _url(args)
    store = open_storage(url, migrate=False)
    try:
        before = store.schema_version()
        if before > SCHEMA_VERSION:
            raise CliError(f"the database is at schema {before}, newer than this release "
                           f"({SCHEMA_VERSION}): install the newer release")
        after = store.migrate()
    finally:
        store.engine.dispose()
    print(f"{_shown(url)}: schema {before} -> {after}" if after != before
          else f"{_shown(url)}: schema {after}, nothing to do")
    return 0


@_reached
def _cmd_backup(args: argparse.Namespace) -> int:
    url = _url(args)
    if args.keep is not None and not args.path.is_dir():
        raise CliError("--keep needs PATH to be a folder (the backups named there are "
                       "counted)")
    try:
        made = backup(url, args.path)
        gone = prune(args.path, args.keep) if args.keep is not None else []
    except BackupError as err:
        raise CliError(str(err)) from None
    print(f"backup of {_shown(url)} written to {made.path} ({made})")
    if gone:
        print(f"{len(gone)} older backups deleted (the newest {args.keep} kept)")
    return 0


@_reached
def _cmd_restore(args: argparse.Namespace) -> int:
    url = _url(args)
    try:
        now = restore(args.path, url, force=args.force)
    except BackupError as err:
        raise CliError(str(err)) from None
    print(f"{args.path} restored into {_shown(url)} ({now})")
    if now.schema < SCHEMA_VERSION:
        print(f"It is older than this release (schema {SCHEMA_VERSION}): `escoba migrate` "
              "brings it up to date (the app also does on start).")
    return 0


@_reached
def _cmd_status(args: argparse.Namespace) -> int:
    url = _url(args)
    print(f"{_shown(url)}: {summary(url)} (this release: schema {SCHEMA_VERSION})")
    return 0


_DB_HELP = ("the database: a SQLAlchemy URL or a SQLite file (default: the app's, "
            "ESCOBA_DATABASE_URL, else .streamlit/secrets.toml, else data/escoba.db)")


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``serve``, ``migrate``, ``backup``, ``restore`` and ``db-status``."""
    serve = sub.add_parser(
        "serve", help="run the app (one replica) on a port",
        description="Run the Streamlit app of this installation on one port: "
                    "`streamlit run <venv>/share/escoba/serve.py` with a server's options "
                    "(headless, no file watcher). Options after `--` go to streamlit.")
    serve.add_argument("--port", type=int, default=8501, help="the port (8501)")
    serve.add_argument("--address", default="127.0.0.1",
                       help="the address to listen on (127.0.0.1: only nginx on this "
                            "machine reaches it; 0.0.0.0 in a container)")
    serve.add_argument("streamlit_options", nargs=argparse.REMAINDER,
                       help="more `streamlit run` options, after --")
    serve.set_defaults(handler=_cmd_serve, command="serve")

    migrate = sub.add_parser(
        "migrate", help="bring the database to this release's schema",
        description="Apply the migrations the database lacks (each in one transaction); "
                    "run it once, from the new release, before restarting the replicas.")
    migrate.set_defaults(handler=_cmd_migrate, command="migrate")

    made = sub.add_parser(
        "backup", help="write a backup of the database to a file",
        description="Write a backup of the app's database to PATH while the app runs. "
                    "SQLite: a copy through SQLite's online backup API (consistent even "
                    "mid-game). PostgreSQL: `pg_dump -Fc` (PostgreSQL's client programs "
                    "must be installed: apt-get install postgresql-client; ESCOBA_PG_BIN "
                    "names their folder). The password is never put on a command line.")
    made.add_argument("path", type=Path, metavar="PATH",
                      help="the backup file to write, or a folder: the file is named there "
                           "escoba-<UTC date and time>.dump (.db for SQLite)")
    made.add_argument("--keep", type=int, metavar="N",
                      help="with a folder: delete all but the N newest backups named there "
                           "(e.g. 14: two weeks of nightly backups)")
    made.set_defaults(handler=_cmd_backup, command="backup")

    back = sub.add_parser(
        "restore", help="put a backup back into a database",
        description="Put the backup at PATH into the database. Stop the app (every "
                    "replica) first. SQLite: copied back through SQLite's backup API. "
                    "PostgreSQL: `pg_restore` in one transaction. A database that already "
                    "holds tables is refused unless --force (its tables are replaced).")
    back.add_argument("path", type=Path, metavar="PATH", help="the backup file")
    back.add_argument("--force", action="store_true",
                      help="replace what the database holds now")
    back.set_defaults(handler=_cmd_restore, command="restore")

    status = sub.add_parser(
        "db-status", help="the database's schema version and row counts",
        description="Print the database's schema version and how many profiles, games, "
                    "moves... it holds (a check after a restore).")
    status.set_defaults(handler=_cmd_status, command="db-status")
    for parser in (migrate, made, back, status):
        parser.add_argument("--db", metavar="URL_OR_PATH", help=_DB_HELP)
