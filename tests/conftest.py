"""Shared fixtures: a fresh SQLite file per test, a real PostgreSQL server, the app.

PostgreSQL: ``ESCOBA_TEST_POSTGRES_URL`` (set by ``.ci/run``) names a server;
otherwise, when the PostgreSQL 15 binaries are installed, a throwaway cluster
is started here on loopback for the test session. Without either, the
PostgreSQL tests skip, unless ``ESCOBA_REQUIRE_POSTGRES=1`` (CI) makes that a
failure.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings as hypothesis_settings

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis checks behaviour, not speed: no per-example deadline (a shared 2-core CI
# machine made a 200 ms deadline fail a correct test). Speed lives in bench/.
hypothesis_settings.register_profile("escoba", deadline=None)
hypothesis_settings.load_profile("escoba")
PG_BIN = Path("/usr/lib/postgresql/15/bin")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def streamlit_server(script: Path, env: dict[str, str], log: Path,
                     timeout: float = 60) -> Iterator[str]:
    """``streamlit run script`` headless on a free loopback port; yields its URL once it
    answers its health check, stops it afterwards. Its output goes to ``log``."""
    from deploy.replicas import start_streamlit, stop, wait_healthy

    port = free_port()
    proc = start_streamlit(port, env, log, script=script)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, log, timeout)
        yield url
    finally:
        stop(proc, wait=10)


#: The scrypt cost of PINs and passwords hashed in the tests' own process: the parameters
#: are stored with each hash, so checking works the same, and a class of 30 is made in
#: milliseconds, not seconds. A server a test starts hashes at the real cost
#: (trainer.storage.hashing); a test marked ``real_secret_cost`` does too.
CHEAP_SECRET_COST = {"n": 2**8, "r": 8, "p": 1}


@pytest.fixture(autouse=True)
def cheap_secrets(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test's PINs (a pupil's, a home child's) and teachers' passwords at
    :data:`CHEAP_SECRET_COST`, but a test marked ``real_secret_cost``."""
    if request.node.get_closest_marker("real_secret_cost"):
        return
    import trainer.storage.classroom as storage_classroom
    import trainer.storage.profiles as storage_profiles

    monkeypatch.setattr(storage_classroom, "PIN_COST", CHEAP_SECRET_COST)
    monkeypatch.setattr(storage_classroom, "PASSWORD_COST", CHEAP_SECRET_COST)
    monkeypatch.setattr(storage_profiles, "PIN_COST", CHEAP_SECRET_COST)


@pytest.fixture
def db_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh SQLite file for the app (``ESCOBA_DB_PATH``), and no stray URL."""
    path = tmp_path / "escoba.db"
    monkeypatch.setenv("ESCOBA_DB_PATH", str(path))
    monkeypatch.delenv("ESCOBA_DATABASE_URL", raising=False)
    return path


@pytest.fixture
def fresh_app(db_path: Path) -> Iterator[Path]:
    """For AppTest: a fresh database (``db_path``) and no storage or data cached from
    another test. App test modules use it for every test:
    ``pytestmark = pytest.mark.usefixtures("fresh_app")``.
    """
    import logging

    import streamlit as st

    # Clearing caches from the test thread makes Streamlit log a harmless warning.
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").setLevel(
        logging.ERROR)
    st.cache_resource.clear()
    st.cache_data.clear()
    yield db_path
    st.cache_resource.clear()


def _start_cluster() -> tuple[str, callable]:
    """initdb + pg_ctl as the postgres user (root may not run a server); trust on loopback."""
    base = Path(tempfile.mkdtemp(prefix="escoba-pg-"))
    data = base / "data"
    port = free_port()
    as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_postgres:
        shutil.chown(base, "postgres")
    subprocess.run([*as_postgres, str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust",
                    "-U", "postgres", "--no-sync"], check=True, capture_output=True)
    subprocess.run([*as_postgres, str(PG_BIN / "pg_ctl"), "-D", str(data), "-w", "-l",
                    str(base / "log"), "-o",
                    f"-p {port} -c listen_addresses=127.0.0.1 -k {base} -c fsync=off",
                    "start"], check=True, capture_output=True)

    def stop() -> None:
        subprocess.run([*as_postgres, str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "fast",
                        "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)

    return f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", stop


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database."""
    url = os.environ.get("ESCOBA_TEST_POSTGRES_URL")
    if url:
        yield url
        return
    if not (PG_BIN / "initdb").exists():
        if os.environ.get("ESCOBA_REQUIRE_POSTGRES") == "1":
            pytest.fail("PostgreSQL is required (ESCOBA_REQUIRE_POSTGRES=1) but not installed")
        pytest.skip("no PostgreSQL binaries and no ESCOBA_TEST_POSTGRES_URL")
    url, stop = _start_cluster()
    try:
        yield url
    finally:
        stop()


@contextlib.contextmanager
def _fresh_database(postgres_server: str) -> Iterator[str]:
    """A brand-new empty database on the server (its URL), dropped afterwards."""
    import sqlalchemy as sa

    name = "escoba_test_" + uuid.uuid4().hex[:10]
    admin = sa.create_engine(postgres_server, isolation_level="AUTOCOMMIT")
    deadline = time.monotonic() + 10
    while True:
        try:
            with admin.connect() as conn:
                conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            break
        except sa.exc.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    url = sa.engine.make_url(postgres_server).set(database=name)
    try:
        yield url.render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A brand-new empty database on the server, dropped after the test."""
    with _fresh_database(postgres_server) as url:
        yield url


@pytest.fixture
def second_postgres_url(postgres_server: str) -> Iterator[str]:
    """Another brand-new empty database on the same server (a restore's target)."""
    with _fresh_database(postgres_server) as url:
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Any]]:
    """A factory of Storages on ONE database (a SQLite file, or a fresh PostgreSQL
    database), each with its own engine: another device's app process, another replica,
    or the app after a restart. Nothing is shared between them but the database."""
    import sqlalchemy as sa

    from trainer.storage import Storage, configure_sqlite

    engines: list[sa.Engine] = []
    url = (f"sqlite:///{tmp_path / 'shared.db'}" if request.param == "sqlite"
           else request.getfixturevalue("postgres_url"))

    def make() -> Storage:
        engine = sa.create_engine(url)
        configure_sqlite(engine)
        engines.append(engine)
        return Storage(engine)

    yield make
    for engine in engines:
        engine.dispose()


#: The live view's tests' clock starts here (a Friday morning lesson).
T0 = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Put the app's clock at ``T0 + minutes``. The clock runs on from the first read of
    each value (trainer.clock): a value an earlier test read would start late, so each is
    read afresh."""

    def at(minutes: float = 0) -> datetime:
        from trainer import clock as app_clock

        app_clock._offset.cache_clear()
        when = T0 + timedelta(minutes=minutes)
        monkeypatch.setenv("ESCOBA_NOW", when.isoformat())
        return when

    at(0)
    return at
