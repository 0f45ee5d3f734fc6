"""Backups, restores and upgrades of a school's database (issue 31, docs/DEPLOY.md).

``escoba backup`` while the app writes gives a consistent copy; ``escoba restore`` puts
every row back into a new database and refuses one that holds data unless ``--force``;
``escoba migrate`` brings a database of the previous release to this one's schema with
every row kept. On SQLite (fast, no server) and on PostgreSQL (``pg_dump -Fc`` and
``pg_restore``).
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from commands import main
from tests.test_storage_migrations import _fill
from trainer.backup import BackupError, backup, pg_tool, restore, summary
from trainer.storage import SCHEMA_VERSION, Storage, configure_sqlite


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def rows_of(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table, sorted (what "every row kept" compares)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            tables = sa.MetaData()
            tables.reflect(conn)
            return {name: sorted((dict(r._mapping) for r in conn.execute(sa.select(t))),
                                 key=repr)
                    for name, t in tables.tables.items() if name != "schema_version"}
    finally:
        engine.dispose()


def kept(before: dict[str, list[dict[str, Any]]],
         after: dict[str, list[dict[str, Any]]]) -> None:
    """Every row of ``before`` is in ``after``, in the columns both have (a migration may
    add columns, or drop one whose value another keeps: tests/test_storage_migrations.py)."""
    for table, rows in before.items():
        assert table in after, f"table {table} is gone"
        columns = set(rows[0]) & set(after[table][0]) if rows and after[table] else set()
        def project(items: list[dict[str, Any]], columns: set[str] = columns) -> list[str]:
            return sorted(repr(sorted((k, v) for k, v in r.items() if k in columns))
                          for r in items)
        assert len(after[table]) == len(rows), f"{table}: {len(rows)} -> {len(after[table])}"
        assert project(after[table]) == project(rows), table


def _played(url: str, moves: int = 3) -> Storage:
    """A migrated database with a profile and a game of ``moves`` saved moves."""
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    store = Storage(engine)
    ana = store.create_profile("Ana", "🦊")
    game = store.create_game(ana.id, rules={}, seats=[], seed=1, record={"rounds": []})
    for n in range(moves):
        store.save_progress(game, None, revision=n,
                            new_moves=[(1, n + 1, {"seat": 0, "card": "7o", "take": []})])
    return store


# -- SQLite: fast, no server ------------------------------------------------------------

def test_a_sqlite_backup_while_the_app_writes_restores_every_row(tmp_path: Path,
                                                                 capsys) -> None:
    live = tmp_path / "escoba.db"
    store = _played(f"sqlite:///{live}")
    game = 1  # Ana's game
    stop = threading.Event()
    written: list[int] = []

    def play_on() -> None:  # the app saving moves all along the backup
        revision = store.get_game(game).revision
        while not stop.is_set():
            n = len(written) + 4
            store.save_progress(game, None, revision=revision,
                                new_moves=[(1, n, {"seat": 0, "card": "3c", "take": []})])
            revision += 1
            written.append(n)

    writer = threading.Thread(target=play_on)
    writer.start()
    try:
        while len(written) < 20:
            stop.wait(0.01)
        code, out, err = run(capsys, "backup", "--db", str(live), str(tmp_path / "b.db"))
    finally:
        stop.set()
        writer.join()
    store.engine.dispose()
    assert (code, err) == (0, "") and "written to" in out and "1 profiles" in out
    # The copy is one instant of the database: whole moves, in order, none half written.
    assert (tmp_path / "b.db").stat().st_mode & 0o777 == 0o600  # children's data
    copy = sqlite3.connect(tmp_path / "b.db")
    assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    numbers = [n for (n,) in copy.execute("SELECT move_no FROM moves ORDER BY move_no")]
    revision = copy.execute("SELECT revision FROM games").fetchone()[0]
    copy.close()
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 23
    assert revision == len(numbers)

    code, out, err = run(capsys, "restore", "--db", str(tmp_path / "new.db"),
                         str(tmp_path / "b.db"))
    assert (code, err) == (0, "") and f"schema {SCHEMA_VERSION}" in out
    assert rows_of(f"sqlite:///{tmp_path / 'new.db'}") == rows_of(
        f"sqlite:///{tmp_path / 'b.db'}")
    restored = Storage(sa.create_engine(f"sqlite:///{tmp_path / 'new.db'}"))
    assert [n for _, n, _ in restored.move_entries(game)] == numbers
    restored.engine.dispose()


def test_restore_refuses_a_database_that_holds_data_unless_forced(tmp_path: Path,
                                                                  capsys) -> None:
    _played(f"sqlite:///{tmp_path / 'a.db'}", moves=2).engine.dispose()
    _played(f"sqlite:///{tmp_path / 'b.db'}", moves=5).engine.dispose()
    assert backup(f"sqlite:///{tmp_path / 'a.db'}", tmp_path / "a.backup").rows["moves"] == 2
    code, out, err = run(capsys, "restore", "--db", str(tmp_path / "b.db"),
                         str(tmp_path / "a.backup"))
    assert code == 2 and out == ""
    assert err.startswith("error: the database sqlite:///") and "not empty" in err
    assert "--force" in err and len(err.strip().splitlines()) == 1
    assert summary(f"sqlite:///{tmp_path / 'b.db'}").rows["moves"] == 5  # untouched
    code, out, _ = run(capsys, "restore", "--force", "--db", str(tmp_path / "b.db"),
                       str(tmp_path / "a.backup"))
    assert code == 0 and "2 moves" in out
    assert rows_of(f"sqlite:///{tmp_path / 'b.db'}") == rows_of(
        f"sqlite:///{tmp_path / 'a.db'}")


@pytest.mark.parametrize("argv, says", [
    (["restore", "--db", "{tmp}/x.db", "{tmp}/missing.db"], "no backup file at"),
    (["restore", "--db", "{tmp}/x.db", "{tmp}/junk"], "is not a SQLite backup"),
    (["restore", "--db", "{tmp}/x.db", "{tmp}/other.db"], "is not a backup of this app"),
    (["backup", "--db", "{tmp}/none.db", "{tmp}/b.db"], "no database at"),
    (["backup", "--keep", "3", "--db", "{tmp}/a.db", "{tmp}/b.db"], "--keep needs PATH"),
    (["backup", "--keep", "0", "--db", "{tmp}/a.db", "{tmp}"], "--keep must be 1 or more"),
    (["backup", "--db", "{tmp}/a.db", "{tmp}/no/such/b.db"], "no folder"),
    (["backup", "--db", "postgresql+psycopg://u:secret@127.0.0.1:1/x", "{tmp}/b.dump"],
     "cannot open the database"),
])
def test_mistakes_are_one_line_and_exit_2(tmp_path: Path, capsys, argv: list[str],
                                          says: str) -> None:
    _played(f"sqlite:///{tmp_path / 'a.db'}", moves=1).engine.dispose()
    (tmp_path / "junk").write_bytes(b"not a database at all" * 10)
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE t (x)").connection.close()
    code, out, err = run(capsys, *[a.format(tmp=tmp_path) for a in argv])
    assert code == 2 and says in err and len(err.strip().splitlines()) == 1, err
    assert "secret" not in err  # a URL's password is never printed


def test_nightly_backups_in_a_folder_keep_the_newest_only(tmp_path: Path, capsys) -> None:
    """What deploy/systemd/escoba-backup.service runs: `escoba backup --keep 14 FOLDER`."""
    from datetime import UTC, datetime, timedelta

    _played(f"sqlite:///{tmp_path / 'a.db'}", moves=1).engine.dispose()
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a backup: never deleted")
    start = datetime(2020, 12, 1, 2, 30, tzinfo=UTC)  # before today
    for day in range(5):
        made = backup(f"sqlite:///{tmp_path / 'a.db'}", folder, start + timedelta(days=day))
        assert made.path == folder / f"escoba-2020-12-0{day + 1}T023000Z.db"
    code, out, _ = run(capsys, "backup", "--keep", "3", "--db", str(tmp_path / "a.db"),
                       str(folder))
    assert code == 0 and "older backups deleted (the newest 3 kept)" in out
    names = sorted(p.name for p in folder.iterdir())
    assert names[:2] == ["escoba-2020-12-04T023000Z.db", "escoba-2020-12-05T023000Z.db"]
    assert len(names) == 4 and names[-1] == "notes.txt"  # today's, the 2 newest, the note


def test_a_previous_release_database_is_migrated_keeping_every_row(tmp_path: Path,
                                                                   capsys) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sa.create_engine(url)
    configure_sqlite(engine)
    _fill(engine, SCHEMA_VERSION - 1)  # the previous release's schema, with its rows
    engine.dispose()
    before = rows_of(url)
    code, out, _ = run(capsys, "migrate", "--db", str(tmp_path / "old.db"))
    assert code == 0 and f"schema {SCHEMA_VERSION - 1} -> {SCHEMA_VERSION}" in out
    kept(before, rows_of(url))
    code, out, _ = run(capsys, "migrate", "--db", str(tmp_path / "old.db"))
    assert code == 0 and "nothing to do" in out


def test_serve_runs_streamlit_on_the_installed_app_with_a_servers_options(monkeypatch) -> None:
    """`escoba serve` replaces itself with streamlit (systemd signals the server itself);
    options after `--` reach streamlit without the separator; glibc's malloc is held to
    two arenas unless the server's environment says otherwise."""
    import os

    ran: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setattr(os, "execve", lambda exe, argv, env: ran.append((argv, env)))
    monkeypatch.delenv("MALLOC_ARENA_MAX", raising=False)
    monkeypatch.setenv("ESCOBA_DATABASE_URL", "sqlite:///kept.db")
    assert main(["serve", "--port", "8502", "--", "--server.maxUploadSize", "20"]) == 0
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert main(["serve", "--port", "8503"]) == 0
    (argv, env), (_, admins) = ran
    assert env["MALLOC_ARENA_MAX"] == "2" and admins["MALLOC_ARENA_MAX"] == "4"
    assert env["ESCOBA_DATABASE_URL"] == "sqlite:///kept.db" and env["PATH"] == os.environ["PATH"]
    assert argv[1:4] == ["-m", "streamlit", "run"] and argv[4].endswith("serve.py")
    assert argv[argv.index("--server.port") + 1] == "8502"
    assert argv[argv.index("--server.address") + 1] == "127.0.0.1"
    assert argv[argv.index("--server.fileWatcherType") + 1] == "none"
    assert argv[-2:] == ["--server.maxUploadSize", "20"]
    assert "--" not in argv


def test_pg_tools_are_found_or_named_with_the_package_to_install(monkeypatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr("trainer.backup.PG_GLOB", "/nonexistent/*/bin")
    with pytest.raises(BackupError, match="apt-get install postgresql-client"):
        pg_tool("pg_dump", {"PATH": "/nonexistent"})


# -- PostgreSQL: pg_dump -Fc and pg_restore ------------------------------------------------

@pytest.mark.postgres
def test_a_postgres_backup_restores_every_row_into_a_new_database(
        postgres_url: str, second_postgres_url: str, tmp_path: Path, capsys) -> None:
    _played(postgres_url, moves=4).engine.dispose()
    code, out, err = run(capsys, "backup", "--db", postgres_url, str(tmp_path / "x.dump"))
    assert (code, err) == (0, "") and "4 moves" in out
    assert (tmp_path / "x.dump").read_bytes()[:5] == b"PGDMP"
    assert (tmp_path / "x.dump").stat().st_mode & 0o777 == 0o600
    code, out, err = run(capsys, "restore", "--db", second_postgres_url, str(tmp_path / "x.dump"))
    assert (code, err) == (0, "") and "4 moves" in out
    assert rows_of(second_postgres_url) == rows_of(postgres_url)
    # A second restore into it is refused (it holds the school's data now), then forced.
    code, _, err = run(capsys, "restore", "--db", second_postgres_url, str(tmp_path / "x.dump"))
    assert code == 2 and "not empty" in err
    assert restore(tmp_path / "x.dump", second_postgres_url, force=True).rows["moves"] == 4
    assert rows_of(second_postgres_url) == rows_of(postgres_url)
    # The app opens the restored database and goes on: new sequences follow the old rows.
    store = Storage(sa.create_engine(second_postgres_url))
    assert store.create_profile("Leo", "🐼").id == 2
    store.engine.dispose()
    with pytest.raises(BackupError, match="is not a pg_dump -Fc backup"):
        restore(Path(__file__), second_postgres_url, force=True)


@pytest.mark.parametrize("command, says", [
    ("backup", ("online backup API", "pg_dump -Fc", "postgresql-client", "--keep")),
    ("restore", ("pg_restore", "--force", "Stop the app")),
    ("migrate", ("once",)),
    ("serve", ("streamlit run", "headless")),
])
def test_the_help_says_how_each_command_works(capsys, command: str,
                                              says: tuple[str, ...]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in says:
        assert words in text, f"escoba {command} --help lacks {words!r}"
