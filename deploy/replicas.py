"""N ``streamlit run app.py`` replicas on one PostgreSQL, behind nginx (docs/DEPLOY.md).

The pieces a school's server, the try-out script, the test and the capacity benchmark
share:

- :func:`render_nginx` fills ``deploy/nginx.conf.template`` for a list of replicas (the
  snippet for ``/etc/nginx/conf.d/``), :func:`standalone_nginx` wraps it into a whole
  ``nginx.conf`` that runs from a folder of its own (pid, logs, temp files), no root
  needed and nothing of the system's nginx touched;
- :func:`replicas_behind_nginx` starts it all on loopback (the database migrated once,
  then the replicas, then nginx) and yields a :class:`Replicas`: the proxy's URL, each
  replica, :meth:`Replicas.kill` (SIGKILL, as a crash), :func:`pin_context` (a browser
  context sent to one replica, as the proxy's own cookie does).

    deploy/run-replicas.sh --replicas 2 --port 8080      # a try-out; Ctrl-C stops it
    deploy/run-replicas.sh render --listen 80 127.0.0.1:8501 127.0.0.1:8502

Standard library only at import (the database and the browser are imported when used).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"
#: The cookie the proxy pins a browser with; its value names a replica ("r1", "r2"...).
COOKIE = "escoba_replica"
#: The response header naming the replica that answered (for people and tests).
REPLICA_HEADER = "X-Escoba-Replica"
#: A replica that refused a connection is not tried again for this long (seconds).
FAIL_TIMEOUT = 10


def replica_names(count: int) -> list[str]:
    return [f"r{n}" for n in range(1, count + 1)]


def render_nginx(addresses: Sequence[str], listen: str | int = 80,
                 template: Path = TEMPLATE) -> str:
    """The http-level nginx snippet for replicas at ``addresses`` ("host:port", named r1,
    r2... in this order), listening on ``listen`` ("80", "127.0.0.1:8080")."""
    if not addresses:
        raise ValueError("at least one replica")
    names = replica_names(len(addresses))
    pinned = []
    for name, address in zip(names, addresses, strict=True):
        others = [f"    server {a} backup;" for a in addresses if a != address]
        pinned.append("\n".join([
            f"upstream escoba_{name} {{",
            f"    zone escoba_{name} 64k;",
            f"    server {address} max_fails=1 fail_timeout={FAIL_TIMEOUT}s;",
            *others, "}"]))
    escaped = [a.replace(".", r"\.") for a in addresses]
    fills = {
        "ROUTES": "\n".join(f"    {n} escoba_{n};" for n in names),
        "ANSWERED": "\n".join(f'    "~(^|, ){e}$" {n};' for n, e in zip(names, escaped,
                                                                          strict=True)),
        "ANY_SERVERS": "\n".join(f"    server {a} max_fails=1 fail_timeout={FAIL_TIMEOUT}s;"
                                 for a in addresses),
        "PINNED_GROUPS": "\n\n".join(pinned),
        "LISTEN": str(listen),
    }
    text = template.read_text()
    for key, value in fills.items():
        text = text.replace("{{" + key + "}}", value)
    if re.search(r"\{\{[A-Z_]+\}\}", text):
        raise ValueError(f"{template}: a placeholder was not filled")
    return text


def standalone_nginx(snippet: str, prefix: Path) -> str:
    """A whole ``nginx.conf`` around ``snippet`` that keeps everything in ``prefix``:
    its pid file, error and access logs, temp folders (run with ``-p prefix``)."""
    for sub in ("logs", "temp"):
        (prefix / sub).mkdir(parents=True, exist_ok=True)
    temp = prefix / "temp"
    # As root, nginx's workers would become "nobody", who cannot enter a private temp
    # folder: a try-out's workers stay the user who started it.
    user = "user root;\n" if os.geteuid() == 0 else ""
    return (f"{user}worker_processes 1;\npid {prefix}/nginx.pid;\n"
            f"error_log {prefix}/logs/error.log warn;\n"
            "events { worker_connections 1024; }\n"
            "http {\n"
            f"    access_log {prefix}/logs/access.log;\n"
            f"    client_body_temp_path {temp}/body;\n    proxy_temp_path {temp}/proxy;\n"
            f"    fastcgi_temp_path {temp}/fastcgi;\n    uwsgi_temp_path {temp}/uwsgi;\n"
            f"    scgi_temp_path {temp}/scgi;\n"
            + snippet + "}\n")


def nginx_binary() -> str | None:
    """Debian's nginx (``nginx-light`` or ``nginx``), if installed."""
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, proc: subprocess.Popen, log: Path, timeout: float = 120) -> None:
    """Until ``url``'s Streamlit health check answers "ok" (through nginx too)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                if r.read() == b"ok":
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not start; see {log}")
        time.sleep(0.25)


def start_streamlit(port: int, env: Mapping[str, str], log: Path,
                    options: Sequence[str] = (), command: Sequence[str] | None = None,
                    script: Path = ROOT / "app.py") -> subprocess.Popen:
    """``streamlit run app.py`` (or ``script``) headless on ``127.0.0.1:port``, output
    to ``log`` (``command``: another launcher than ``python -m streamlit``)."""
    launcher = list(command or [sys.executable, "-m", "streamlit"])
    with open(log, "w") as out:
        return subprocess.Popen(
            [*launcher, "run", str(script), "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(port), *options],
            cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT)


def stop(proc: subprocess.Popen, wait: float = 15) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def migrate(database_url: str) -> None:
    """Bring the database to the app's schema once, before any replica starts (replicas
    starting together on an empty database would otherwise all try to migrate it)."""
    import sqlalchemy as sa

    from trainer.storage import Storage, configure_sqlite

    engine = sa.create_engine(database_url)
    configure_sqlite(engine)
    try:
        Storage(engine)
    finally:
        engine.dispose()


@dataclass
class Replica:
    name: str  # "r1": the cookie's value and the X-Escoba-Replica header's
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


@dataclass
class Replicas:
    """What :func:`replicas_behind_nginx` started: the proxy's URL and the replicas."""

    url: str
    replicas: list[Replica]
    nginx: subprocess.Popen | None
    work: Path
    database_url: str
    names: dict[str, Replica] = field(init=False)

    def __post_init__(self) -> None:
        self.names = {r.name: r for r in self.replicas}

    def kill(self, name: str) -> None:
        """SIGKILL replica ``name`` (a crash: no goodbye to its browsers), and wait."""
        replica = self.names[name]
        replica.process.send_signal(signal.SIGKILL)
        replica.process.wait(timeout=30)

    def answered_by(self, path: str = "/_stcore/health", cookie: str | None = None) -> str:
        """The replica that answers ``path`` through the proxy (with ``cookie`` pinned)."""
        request = urllib.request.Request(self.url + path)
        if cookie is not None:
            request.add_header("Cookie", f"{COOKIE}={cookie}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.headers.get(REPLICA_HEADER, "")


def pin_context(context: Any, proxy_url: str, replica: str) -> None:
    """Send a Playwright browser context to ``replica`` through the proxy: the cookie the
    proxy itself would have set after that replica's first answer."""
    context.add_cookies([{"name": COOKIE, "value": replica, "url": proxy_url}])


def pinned_replica(context: Any, proxy_url: str) -> str | None:
    """The replica a browser context is pinned to now (the proxy re-pins on failover)."""
    return next((c["value"] for c in context.cookies(proxy_url) if c["name"] == COOKIE),
                None)


@contextlib.contextmanager
def replicas_behind_nginx(database_url: str, count: int = 2, work: Path | None = None,
                          env: Mapping[str, str] | None = None,
                          options: Sequence[str] = (), port: int | None = None,
                          first_port: int | None = None,
                          nginx: str | None = None) -> Iterator[Replicas]:
    """``count`` replicas of the app on ``database_url`` (migrated first), on loopback,
    behind nginx on ``port`` (a free one by default); all stopped afterwards."""
    work = Path(work or tempfile.mkdtemp(prefix="escoba-replicas-"))
    work.mkdir(parents=True, exist_ok=True)
    binary = nginx or nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
    environment = dict(os.environ if env is None else env)
    environment["ESCOBA_DATABASE_URL"] = database_url
    environment.pop("ESCOBA_DB_PATH", None)
    migrate(database_url)
    ports = [first_port + n if first_port else free_port() for n in range(count)]
    replicas: list[Replica] = []
    proxy: subprocess.Popen | None = None
    try:
        for name, replica_port in zip(replica_names(count), ports, strict=True):
            log = work / f"streamlit-{name}.log"
            replicas.append(Replica(name, replica_port,
                                    start_streamlit(replica_port, environment, log, options),
                                    log))
        for replica in replicas:
            wait_healthy(replica.url, replica.process, replica.log)
        listen = port or free_port()
        conf = work / "nginx.conf"
        conf.write_text(standalone_nginx(
            render_nginx([f"127.0.0.1:{r.port}" for r in replicas],
                         f"127.0.0.1:{listen}"), work / "nginx"))
        nginx_log = work / "nginx" / "logs" / "stderr.log"
        with open(nginx_log, "w") as out:
            proxy = subprocess.Popen([binary, "-c", str(conf), "-p", str(work / "nginx"),
                                      "-g", "daemon off;"], stdout=out,
                                     stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{listen}"
        wait_healthy(url, proxy, nginx_log, timeout=30)
        yield Replicas(url, replicas, proxy, work, database_url)
    finally:
        if proxy is not None:
            stop(proxy)
        for replica in replicas:
            stop(replica.process)


def _throwaway_postgres() -> tuple[str, Any]:
    """A PostgreSQL 15 cluster on loopback for a try-out (tests/conftest.py's)."""
    from tests.conftest import PG_BIN, _start_cluster

    if not (PG_BIN / "initdb").exists():
        raise SystemExit("no database: pass --database-url (or set ESCOBA_DATABASE_URL), "
                         "or install postgresql-15 for a throwaway one")
    return _start_cluster()


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="deploy/run-replicas.sh",
        description="A try-out of a school's server on this machine: PostgreSQL, N "
        "`streamlit run app.py` replicas and nginx in front of them with sticky sessions "
        "and failover (docs/DEPLOY.md). Ctrl-C stops everything it started. "
        "`render` prints the nginx snippet for /etc/nginx/conf.d/ instead.")
    parser.add_argument("--replicas", type=int, default=2, help="how many replicas (2)")
    parser.add_argument("--port", type=int, default=8080, help="nginx's port (8080)")
    parser.add_argument("--first-port", type=int, default=8501,
                        help="the first replica's port; the others follow (8501)")
    parser.add_argument("--database-url", default=os.environ.get("ESCOBA_DATABASE_URL"),
                        help="postgresql+psycopg://user:password@host/db; default "
                        "$ESCOBA_DATABASE_URL, else a throwaway PostgreSQL cluster")
    parser.add_argument("--work", type=Path, default=None,
                        help="folder for the logs and nginx.conf (a new temp folder)")
    parser.add_argument("--server-option", action="append", default=[],
                        metavar="OPTION=VALUE", help="a `streamlit run` option for every "
                        "replica, e.g. server.fileWatcherType=none (repeatable)")
    sub = parser.add_subparsers(dest="command")
    render = sub.add_parser("render", help="print the nginx snippet for these replicas")
    render.add_argument("--listen", default="80", help="nginx's listen address (80)")
    render.add_argument("addresses", nargs="+", metavar="HOST:PORT",
                        help="the replicas, in order (named r1, r2...)")
    args = parser.parse_args(argv)
    if args.command == "render":
        print(render_nginx(args.addresses, args.listen), end="")
        return
    stop_cluster = None
    url = args.database_url
    if not url:
        url, stop_cluster = _throwaway_postgres()
        print(f"PostgreSQL (throwaway): {url}", flush=True)
    options = [part for option in args.server_option
               for part in (f"--{option.split('=', 1)[0]}", option.split("=", 1)[1])]
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        with replicas_behind_nginx(url, args.replicas, args.work, options=options,
                                   port=args.port, first_port=args.first_port) as cluster:
            for replica in cluster.replicas:
                print(f"replica {replica.name}: {replica.url} (pid {replica.process.pid}, "
                      f"log {replica.log})", flush=True)
            print(f"nginx: {cluster.url}  (config {cluster.work / 'nginx.conf'})\n"
                  f"Open {cluster.url} in a browser; `kill -9 <pid>` of a replica to see "
                  "its users move to another one. Ctrl-C stops everything.", flush=True)
            with contextlib.suppress(KeyboardInterrupt):
                while cluster.nginx.poll() is None:
                    time.sleep(1)
    finally:
        if stop_cluster is not None:
            stop_cluster()


if __name__ == "__main__":
    main()
