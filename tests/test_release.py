"""A release as a school's IT person installs it (issue 31, docs/DEPLOY.md's runbook).

The project is built into a wheel (``pip wheel . --no-deps``) and installed into a fresh
venv; everything below runs from that venv, in a folder outside the checkout, exactly
as the runbook's commands do: ``escoba migrate`` once, the first teacher account with
``escoba teacher create``, two replicas started as the systemd unit starts them
(``escoba serve --port N``), nginx in front on HTTPS with a throwaway self-signed
certificate and a plain-HTTP port that redirects to it. Two children play at a table
through ``https://127.0.0.1:PORT`` in Chromium, the teacher signs in; ``escoba backup``
runs while all of it is up; the backup is restored into a new database with ``escoba
restore`` and holds every move of the game. Neither nginx's logs nor the replicas'
hold ``seat=``, the seat's secret, the parent's PIN or the teacher's passphrase. And
the upgrade path: a database built by the previous release's migrations, with rows, is
migrated by the installed ``escoba migrate`` keeping every row.

The venv: by default the wheel is installed with ``--no-deps`` and its dependencies are
those of the venv running the tests (a ``.pth`` line; a full ``pip install WHEEL[app]``
took 83 s here, too long for CI's budget). The wheel's own files are what runs: the
checkout is not on the replicas' path (they run in another folder, from
``<venv>/share/escoba/serve.py``). ``ESCOBA_RELEASE_FULL_INSTALL=1`` installs it with
``deploy/install.sh`` instead (the runbook's step: dependencies from the package index).

Needs Chromium, PostgreSQL, nginx and openssl: a skip without them, a failure in CI
(``ESCOBA_REQUIRE_BROWSER/POSTGRES=1``).
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from deploy.replicas import (
    REPLICA_HEADER,
    free_port,
    pin_context,
    self_signed_certificate,
)
from deploy.replicas import replicas_behind_nginx as start_replicas
from tests.test_backup import kept, rows_of
from tests.test_browser import _new_profile, _require_browser, _wait_idle
from tests.test_browser_tables import play_table, recorded_moves
from tests.test_deploy import _require_nginx, browser, open_table_for_two  # noqa: F401
from tests.test_storage_migrations import _fill
from trainer.storage import SCHEMA_VERSION, Storage, configure_sqlite

pytestmark = [pytest.mark.browser, pytest.mark.postgres, pytest.mark.slow]

ROOT = Path(__file__).resolve().parent.parent
PASSPHRASE = "kettle-harbour-quince-29"
PIN = "97531864"  # a parent's PIN, long enough not to turn up in a log by chance
#: The seat secrets a tablet keeps (ui/seat_keeper.py's localStorage["escoba.seats"]:
#: {profile: {code: {t: secret}}}).
_KEPT_SEATS_JS = """(() => Object.values(JSON.parse(localStorage.getItem('escoba.seats') || '{}'))
    .flatMap((codes) => Object.values(codes).map((seat) => seat.t)))()"""

#: What an installed release must carry to run the app (pyproject.toml's data).
IN_THE_WHEEL = ("escoba-{v}.data/data/share/escoba/app.py",
                "escoba-{v}.data/data/share/escoba/serve.py", "ui/page_base.py",
                "escoba-{v}.data/data/share/escoba/app_pages/tables.py",
                "escoba-{v}.data/data/share/escoba/.streamlit/config.toml",
                "locales/es/LC_MESSAGES/messages.po", "locales/es/cards.toml",
                "lessons/01-values.toml", "ui/board_assets/board.js",
                "trainer/server_cli.py", "trainer/backup.py")


def _require_openssl() -> None:
    if shutil.which("openssl"):
        return
    if "1" in (os.environ.get("ESCOBA_REQUIRE_BROWSER"), os.environ.get("ESCOBA_REQUIRE_POSTGRES")):
        pytest.fail("openssl is required (ESCOBA_REQUIRE_BROWSER/POSTGRES=1) but not installed")
    pytest.skip("no openssl")


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel installed into a fresh venv: the venv's folder."""
    work = tmp_path_factory.mktemp("release")
    dist, venv = work / "dist", work / "venv"
    # Built from a copy: setuptools builds in the source folder and would pack whatever
    # an older build left in build/lib; the checkout stays as it was.
    source = work / "source"
    shutil.copytree(ROOT, source, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "node_modules", "build", "*.egg-info", "__pycache__", "data",
        "test-artifacts", ".pytest_cache", ".hypothesis", ".ruff_cache", "*.so"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q",
                    "--disable-pip-version-check", "-w", str(dist)], check=True,
                   capture_output=True)
    (wheel,) = dist.glob("escoba-*.whl")
    version = wheel.name.split("-")[1]
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [n.format(v=version) for n in IN_THE_WHEEL if n.format(v=version) not in names]
    assert not missing, f"the wheel lacks {missing}"
    base = getattr(sys, "_base_executable", sys.executable)
    if os.environ.get("ESCOBA_RELEASE_FULL_INSTALL") == "1":
        # The runbook's and the Dockerfile's own step, dependencies from the index.
        subprocess.run([str(ROOT / "deploy" / "install.sh"), str(wheel)], check=True,
                       env={**os.environ, "ESCOBA_PREFIX": str(work), "PYTHON": base})
        return work / "current"
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
           "--disable-pip-version-check"]
    subprocess.run([*pip, "--no-deps", str(wheel)], check=True, capture_output=True)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_path('purelib'))"], check=True,
                             capture_output=True, text=True).stdout.strip()
    # The dependencies of the venv running the tests, after the release's own files.
    Path(purelib, "escoba-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    return venv


def _env(database_url: str) -> dict[str, str]:
    """A server's environment: the database from the EnvironmentFile, nothing of the
    checkout (no PYTHONPATH, no fixed clock)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "ESCOBA_NOW", "ESCOBA_DB_PATH", "ESCOBA_DATABASE_URL")}
    env["ESCOBA_DATABASE_URL"] = database_url
    return env


def escoba(venv: Path, *args: str, env: dict[str, str], cwd: Path,
           stdin: str | None = None) -> str:
    """The installed ``escoba`` command, as the runbook runs it; its output."""
    done = subprocess.run([str(venv / "bin" / "escoba"), *args], env=env, cwd=cwd,
                          input=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"escoba {' '.join(args)}: {done.stderr}"
    return done.stdout


def _page(browser: Any, url: str, replica: str) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en-US",
                                  ignore_https_errors=True)  # the throwaway certificate
    pin_context(context, url, replica)
    page = context.new_page()
    page.set_default_timeout(60_000)
    return page


def test_an_installed_release_on_https_is_backed_up_while_it_runs_and_restored(
        release: Path, postgres_url: str, second_postgres_url: str, tmp_path: Path,
        browser: Any) -> None:  # noqa: F811
    _require_browser()
    _require_nginx()
    _require_openssl()
    env = _env(postgres_url)
    home = tmp_path / "var-lib-escoba"  # the units' WorkingDirectory, not the checkout
    home.mkdir()
    # The runbook: migrations once, then the first teacher account.
    assert f"schema 0 -> {SCHEMA_VERSION}" in escoba(release, "migrate", env=env, cwd=home)
    escoba(release, "teacher", "create", "Ms Díaz", "--password-stdin", env=env, cwd=home,
           stdin=PASSPHRASE + "\n")
    cert, key = self_signed_certificate(tmp_path / "tls")
    redirect = free_port()
    with start_replicas(postgres_url, 2, home, env=env, tls=(cert, key),
                        redirect_port=redirect, serve=[str(release / "bin" / "escoba"), "serve"],
                        migrated=True) as cluster:
        # The replicas run the release's serve.py from its venv (escoba serve execs it).
        for replica in cluster.replicas:
            command = Path(f"/proc/{replica.process.pid}/cmdline").read_bytes().split(b"\0")
            assert str(release / "share" / "escoba" / "serve.py").encode() in command
        assert cluster.url.startswith("https://")
        # Plain HTTP answers only a redirect to the same address on HTTPS (a seat's
        # address in it, to check below that the logs keep no query string).
        plain = http.client.HTTPConnection("127.0.0.1", redirect, timeout=10)
        plain.request("GET", "/tables?table=QRS23&seat=Redirected1secret")
        answer = plain.getresponse()
        assert answer.status == 301
        assert answer.getheader("Location") == (f"{cluster.url}/tables?table=QRS23"
                                                "&seat=Redirected1secret")
        plain.close()

        ana, leo = _page(browser, cluster.url, "r1"), _page(browser, cluster.url, "r2")
        response = ana.goto(cluster.url)
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers[REPLICA_HEADER.lower()] == "r1"
        _new_profile(ana, cluster.url, "Ana")
        _new_profile(leo, cluster.url, "Leo")
        open_table_for_two(ana, leo)
        # Each tablet keeps its seat's secret (ui/seat_keeper.py: localStorage, by profile
        # and table); the address carries it only until the tablet has confirmed that.
        secrets = {m.group(1) for page in (ana, leo)
                   if (m := re.search(r"[?&]seat=([^&#]+)", page.url))}
        for page in (ana, leo):
            page.wait_for_function(_KEPT_SEATS_JS + ".length > 0", timeout=30_000)
            secrets |= set(page.evaluate(_KEPT_SEATS_JS))
        assert len(secrets) == 2, secrets
        made: list[dict[str, Any]] = []
        play_table({0: ana, 1: leo}, postgres_url, made, until=6)

        # A parent gives Ana's profile a PIN on Settings: the PIN goes through the app.
        profile = re.search(r"[?&]p=(\d+)", ana.url).group(1)
        ana.goto(f"{cluster.url}/settings?p={profile}")
        ana.locator(".st-key-parent_pin_new input").fill(PIN)
        ana.locator(".st-key-parent_pin_set button").click()
        _wait_idle(ana)
        store = Storage(sa.create_engine(postgres_url), migrate=False)
        assert store.check_pin(int(profile), PIN) and not store.check_pin(int(profile), None)
        store.engine.dispose()

        # The teacher signs in through the proxy: the passphrase goes through the app.
        teacher = _page(browser, cluster.url, "r2")
        teacher.goto(f"{cluster.url}/teacher")
        teacher.locator(".st-key-tc_name input").fill("Ms Díaz")
        teacher.locator(".st-key-tc_password input").fill(PASSPHRASE)
        teacher.get_by_role("button", name="Sign in").click()
        teacher.locator(".st-key-tc_class_name input").wait_for()

        # A backup while both replicas run and the pages poll the table.
        out = escoba(release, "backup", "--keep", "14", str(home), env=env, cwd=home)
        (made_file,) = home.glob("escoba-*.dump")
        assert str(made_file) in out
        for page in (ana, leo, teacher):
            page.context.close()

    # Restored into a new database: every move of the game is there, in order.
    out = escoba(release, "restore", "--db", second_postgres_url, str(made_file), env=env,
                 cwd=home)
    assert f"schema {SCHEMA_VERSION}" in out
    assert recorded_moves(second_postgres_url) == made and len(made) == 6

    # No secret in any log of the run: nginx's (access, error, its own output) and the
    # replicas' (their whole output, as journald would keep it).
    logs = [*sorted((home / "nginx" / "logs").iterdir()),
            *(r.log for r in cluster.replicas)]
    assert any(p.name == "escoba.access.log" and p.stat().st_size for p in logs)
    for log in logs:
        text = log.read_text(errors="replace")
        for secret in ("seat=", "Redirected1secret", PASSPHRASE, PIN, *secrets):
            assert secret not in text, f"{log.name} holds {secret!r}"
    access = (home / "nginx" / "logs" / "escoba.access.log").read_text()
    assert '"GET /tables HTTP/1.1" 301' in access  # the path is logged, not its query


def test_a_previous_release_database_is_migrated_by_the_installed_release(
        release: Path, second_postgres_url: str, tmp_path: Path) -> None:
    """The upgrade path of the runbook: a database made by the previous release's
    migrations (SCHEMA_VERSION - 1), with rows in its columns, then `escoba migrate`."""
    engine = sa.create_engine(second_postgres_url)
    configure_sqlite(engine)
    _fill(engine, SCHEMA_VERSION - 1)
    engine.dispose()
    before = rows_of(second_postgres_url)
    out = escoba(release, "migrate", env=_env(second_postgres_url), cwd=tmp_path)
    assert f"schema {SCHEMA_VERSION - 1} -> {SCHEMA_VERSION}" in out
    kept(before, rows_of(second_postgres_url))
