"""The runbook's files say what docs/DEPLOY.md says (issue 31), and they are valid.

Fast, no server: the doc shows every unit and the environment file as they are in
``deploy/``; the compose file's nginx configuration is the template's rendering; the
HTTPS rendering redirects and keeps secrets out of the logs; systemd accepts the units;
``docker compose config`` accepts compose.yaml where the compose plugin exists; the
try-out reports a replica's death; deploy/install.sh refuses what it cannot install.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from deploy.replicas import (
    Replica,
    Replicas,
    how_it_ended,
    render_nginx,
)

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "DEPLOY.md"
#: Every file the runbook installs from deploy/: shown whole in the doc.
SHOWN = ("deploy/escoba.env.example", "deploy/systemd/escoba@.service",
         "deploy/systemd/escoba-backup.service", "deploy/systemd/escoba-backup.timer")
COMPOSE_REPLICAS = ("172.28.0.11:8501", "172.28.0.12:8501")


def _shown_in_doc() -> dict[str, str]:
    """The doc's ``<!-- file: PATH -->`` blocks: path -> the fenced text after it."""
    text = DOC.read_text()
    return {m.group(1): m.group(2) for m in re.finditer(
        r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```\n", text, re.S)}


def test_the_runbook_shows_the_deploy_files_as_they_are() -> None:
    shown = _shown_in_doc()
    assert set(shown) == set(SHOWN)
    for path in SHOWN:
        assert shown[path] == (ROOT / path).read_text(), f"docs/DEPLOY.md and {path} differ"
    # Every command the runbook runs from deploy/ exists there.
    for name in re.findall(r"/opt/escoba/src/(deploy/[\w@./-]+)", DOC.read_text()):
        assert (ROOT / name).exists(), name


def test_the_units_keep_the_password_out_and_restart() -> None:
    unit = (ROOT / "deploy/systemd/escoba@.service").read_text()
    assert "EnvironmentFile=/etc/escoba/escoba.env" in unit and "PASSWORD" not in unit
    assert "Restart=always" in unit and "ExecStart=/opt/escoba/current/bin/escoba serve" in unit
    backup = (ROOT / "deploy/systemd/escoba-backup.service").read_text()
    assert "escoba backup --keep 14 /var/backups/escoba" in backup
    assert "escoba-backup.service" in (ROOT / "deploy/systemd/escoba-backup.timer").read_text()


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
def test_systemd_accepts_the_units(tmp_path: Path) -> None:
    for unit in sorted((ROOT / "deploy" / "systemd").iterdir()):
        done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                              text=True)
        # The release is not installed here: that one complaint only.
        complaints = [line for line in (done.stdout + done.stderr).splitlines()
                      if line.strip() and "is not executable" not in line]
        assert complaints == [], f"{unit.name}: {complaints}"


def test_the_https_site_redirects_and_logs_no_query_string() -> None:
    text = render_nginx(["127.0.0.1:8501", "127.0.0.1:8502"], 443,
                        tls=("/etc/escoba/tls/escoba.crt", "/etc/escoba/tls/escoba.key"),
                        redirect=80)
    assert "listen 443 ssl;" in text and "ssl_certificate /etc/escoba/tls/escoba.crt;" in text
    assert "listen 80;" in text and "return 301 https://$host$request_uri;" in text
    assert "add_header Referrer-Policy no-referrer always;" in text
    assert "; Secure" in text  # the replica's cookie travels on HTTPS only
    formats = re.findall(r"log_format[^;]*;", text, re.S)
    assert formats and all("$request " not in f and "$request_uri" not in f
                           and "$http_referer" not in f and "$args" not in f for f in formats)
    assert "$uri" in formats[0]
    for log in re.findall(r"^\s*(access_log|error_log) (.*);$", text, re.M):
        assert log[0] == "access_log" and log[1].endswith("escoba_paths") or log[1].endswith(
            "crit"), log
    other_port = render_nginx(["127.0.0.1:8501"], "127.0.0.1:8443", tls=("c", "k"),
                              redirect="127.0.0.1:8080")
    assert "return 301 https://$host:8443$request_uri;" in other_port
    with pytest.raises(ValueError, match="needs a certificate"):
        render_nginx(["127.0.0.1:8501"], 80, redirect=8080)


def test_the_compose_nginx_file_is_the_templates_rendering() -> None:
    rendered = render_nginx(list(COMPOSE_REPLICAS), 443,
                            tls=("/etc/nginx/tls/escoba.crt", "/etc/nginx/tls/escoba.key"),
                            redirect=80)
    assert (ROOT / "deploy/compose/nginx.conf").read_text() == rendered, (
        "render it again: python -m deploy.replicas render --listen 443 --tls "
        "/etc/nginx/tls/escoba.crt /etc/nginx/tls/escoba.key --redirect 80 "
        + " ".join(COMPOSE_REPLICAS) + " > deploy/compose/nginx.conf")
    compose = (ROOT / "compose.yaml").read_text()
    for address in COMPOSE_REPLICAS:
        assert f"ipv4_address: {address.split(':')[0]}" in compose
    assert "deploy/install.sh" in (ROOT / "Dockerfile").read_text()


def _compose_checker() -> list[str] | None:
    """A command that checks compose.yaml against the Compose file schema: the `docker
    compose` plugin, else Debian's `docker-compose` (1.29, which CI installs: no container
    runtime is needed to check a file)."""
    if shutil.which("docker") and subprocess.run(
            ["docker", "compose", "version"], capture_output=True).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    return None


@pytest.mark.skipif(_compose_checker() is None and not os.environ.get("ESCOBA_REQUIRE_BROWSER"),
                    reason="neither `docker compose` nor `docker-compose` here to check "
                           "compose.yaml (CI installs Debian's docker-compose)")
def test_docker_compose_accepts_the_compose_file(tmp_path: Path) -> None:
    checker = _compose_checker()
    assert checker, "CI installs Debian's docker-compose to check compose.yaml (.ci/run)"
    # The env file it names (escoba.env, never committed) beside a copy of it, and the
    # folders it builds from and mounts.
    shutil.copy(ROOT / "deploy/compose/escoba.env.example", tmp_path / "escoba.env")
    shutil.copy(ROOT / "compose.yaml", tmp_path / "compose.yaml")
    done = subprocess.run([*checker, "config", "--quiet"], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # A misspelt key is refused (the check can fail).
    (tmp_path / "compose.yaml").write_text((ROOT / "compose.yaml").read_text().replace(
        "    networks: [escoba]\n", "    netwerks: [escoba]\n", 1))
    broken = subprocess.run([*checker, "config", "--quiet"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert "netwerks" in broken.stderr + broken.stdout, broken.stderr
    assert broken.returncode != 0


def test_the_try_out_says_when_a_replica_dies(tmp_path: Path) -> None:
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    replica = Replica("r1", 1, process, tmp_path / "r1.log")
    cluster = Replicas("http://127.0.0.1:1", [replica], None, tmp_path, "sqlite://")
    said: list[str] = []
    cluster.watch(said.append, restart=False)
    assert said == []  # alive: nothing to say
    process.send_signal(signal.SIGKILL)
    process.wait()
    for _ in range(2):
        cluster.watch(said.append, restart=False)
    assert said == [f"replica r1 (pid {process.pid}) died: killed by SIGKILL; restart it by "
                    "hand, or run without --no-restart"]  # once
    assert how_it_ended(3) == "exit code 3" and how_it_ended(None) == "still running"


@pytest.mark.parametrize("argument, env, says", [
    ("{tmp}/escoba.tar.gz", {}, "is not a wheel"),
    ("{tmp}", {}, "neither a wheel nor a folder with pyproject.toml"),
    ("{tmp}/escoba-0.2.0-py3-none-any.whl", {"PYTHON": "false"}, "apt-get install python3-venv"),
])
def test_install_sh_refuses_what_it_cannot_install(tmp_path: Path, argument: str,
                                                   env: dict[str, str], says: str) -> None:
    (tmp_path / "escoba.tar.gz").write_bytes(b"")
    (tmp_path / "escoba-0.2.0-py3-none-any.whl").write_bytes(b"")
    done = subprocess.run(["sh", str(ROOT / "deploy" / "install.sh"),
                           argument.format(tmp=tmp_path)],
                          env={"PATH": "/usr/bin:/bin", "ESCOBA_PREFIX": str(tmp_path / "opt"),
                               **env}, capture_output=True, text=True)
    assert done.returncode == 2 and says in done.stderr, done.stderr
    assert not (tmp_path / "opt" / "current").exists()


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("runuser") is None,
                    reason="escoba-admin switches users: root and runuser only")
def test_escoba_admin_runs_a_command_as_the_service_does(tmp_path: Path) -> None:
    """deploy/escoba-admin: the release's escoba, in the service's folder, with the
    environment file's variables (a fake release that prints what it got)."""
    release = tmp_path / "release"
    (release / "bin").mkdir(parents=True)
    fake = release / "bin" / "escoba"
    fake.write_text('#!/bin/sh\necho "args=$*"; echo "pwd=$(pwd)"; '
                    'echo "db=$ESCOBA_DATABASE_URL"\n')
    fake.chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    env_file = tmp_path / "escoba.env"
    env_file.write_text("# a comment\nESCOBA_DATABASE_URL=postgresql+psycopg://escoba:pw@h/e\n")
    done = subprocess.run(
        ["sh", str(ROOT / "deploy" / "escoba-admin"), "--release", str(release), "teacher",
         "create", "Ms Díaz"], capture_output=True, text=True,
        env={"PATH": os.environ["PATH"], "ESCOBA_USER": "root", "ESCOBA_HOME": str(home),
             "ESCOBA_ENV_FILE": str(env_file)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["args=teacher create Ms Díaz", f"pwd={home}",
                                        "db=postgresql+psycopg://escoba:pw@h/e"]
    missing = subprocess.run(["sh", str(ROOT / "deploy" / "escoba-admin"), "--release",
                              str(tmp_path / "none"), "migrate"], capture_output=True,
                             text=True)
    assert missing.returncode == 2 and "no release at" in missing.stderr
