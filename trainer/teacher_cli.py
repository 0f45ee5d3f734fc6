"""The ``teacher`` command (registered by :mod:`commands`): a school's IT person sets up
the teacher accounts of a server from its command line (issue 27, docs/CLASSROOM.md).

- ``escoba teacher create NAME``: an account (the server's first, typically: after it,
  teachers invite colleagues from the app). The passphrase is asked twice at a
  terminal, or read from the first line of standard input (``--password-stdin``, or
  whenever standard input is not a terminal): never an argument, which ``ps`` and the
  shell's history would show.
- ``escoba teacher invite``: a single-use invitation code for a new account, valid
  :data:`~trainer.classroom.INVITE_DAYS` days.

The database is the app's: ``--db`` (a SQLAlchemy URL or a SQLite file), else
``ESCOBA_DATABASE_URL``, else ``.streamlit/secrets.toml``'s ``[connections.escoba]``
(``url``, or Streamlit's parts: ``dialect``, ``host``...), else the SQLite file
``ESCOBA_DB_PATH`` (or that section's ``path``), default ``data/escoba.db``: the order
the app reads (:func:`trainer.storage.app_database`).
Refusals are one line (``error: ...``, exit code 2), in English.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
import tomllib
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from escoba.cli import CliError

from .classroom import ClassroomError, TeacherAuth, format_invite, say
from .storage import Storage, app_database, configure_sqlite, sqlite_url

__all__ = ["register", "database_url"]

SECRETS = Path(".streamlit") / "secrets.toml"


def database_url(given: str | None = None) -> str:
    """The app's database as a SQLAlchemy URL: ``--db``, else what the app reads
    (:func:`trainer.storage.app_database`, the same order)."""
    if given:
        return given if "://" in given else sqlite_url(given)
    section: dict[str, Any] = {}
    if SECRETS.is_file():
        with SECRETS.open("rb") as handle:
            section = tomllib.load(handle).get("connections", {}).get("escoba", {})
    url, _ = app_database(os.environ.get("ESCOBA_DATABASE_URL"),
                          os.environ.get("ESCOBA_DB_PATH"), section)
    return url


def with_sqlite_folder(url: str) -> str:
    """``url``, with the folder of its SQLite file made (a first run writes data/escoba.db)."""
    if url.startswith("sqlite:///"):
        Path(url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
    return url


def open_storage(url: str, migrate: bool = True) -> Storage:
    """The app's storage on ``url`` as the app opens it (SQLite's settings too)."""
    engine = sa.create_engine(with_sqlite_folder(url))
    configure_sqlite(engine)
    return Storage(engine, migrate=migrate)


def _storage(args: argparse.Namespace) -> Storage:
    return open_storage(database_url(args.db))


def _passphrase(args: argparse.Namespace) -> str:
    if args.password_stdin or not sys.stdin.isatty():
        return sys.stdin.readline().rstrip("\r\n")
    first = getpass.getpass("Passphrase (at least 10 characters): ")
    if getpass.getpass("The same again: ") != first:
        raise CliError("the two passphrases differ")
    return first


def _refused(err: ClassroomError) -> CliError:
    return CliError(say(err.key, err.params, "en"))


def _cmd_create(args: argparse.Namespace) -> int:
    store = _storage(args)
    auth = TeacherAuth(store)
    password = _passphrase(args)
    first = auth.first_account_open()
    try:
        # The command line is the server's own (its user holds the database): it may add
        # an account at any time, the first one included.
        session = auth.create_account(args.name, password, command_line=True)
    except ClassroomError as err:
        raise _refused(err) from None
    print(f"Teacher account {session.teacher.name!r} made"
          + (" (the server's first: others are invited from the app)." if first else "."))
    return 0


def _cmd_invite(args: argparse.Namespace) -> int:
    auth = TeacherAuth(_storage(args))
    code, expires = auth.invite()
    print(f"Invitation code: {format_invite(code)} (single use, until "
          f"{expires:%Y-%m-%d %H:%M} UTC)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``teacher create`` and ``teacher invite``."""
    p = sub.add_parser("teacher", help="teacher accounts of this server (the first one, "
                                       "invitation codes)",
                       description="Set up teacher accounts: the first one of a server, "
                                   "and invitation codes for colleagues.")
    actions = p.add_subparsers(dest="teacher_action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="make a teacher account",
                                description="Make a teacher account. The passphrase is "
                                            "asked at the terminal, or read from stdin.")
    create.add_argument("name", help="the name the teacher signs in with")
    create.add_argument("--password-stdin", action="store_true",
                        help="read the passphrase from the first line of stdin")
    invite = actions.add_parser("invite", help="print a single-use invitation code",
                                description="Print an invitation code for one new "
                                            "teacher account (single use, expiring).")
    for action in (create, invite):
        action.add_argument("--db", metavar="URL_OR_PATH",
                            help="the database (default: the app's, see docs/CLASSROOM.md)")
    create.set_defaults(handler=_cmd_create)
    invite.set_defaults(handler=_cmd_invite)
