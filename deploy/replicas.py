"""N ``streamlit run serve.py`` replicas on one PostgreSQL, behind nginx (docs/DEPLOY.md).

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
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
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


#: Where nginx writes this site's logs on a server (Debian's folder for them).
LOG_DIR = "/var/log/nginx"


def _port(listen: str | int) -> str:
    return str(listen).rsplit(":", 1)[-1]


def _tls_parts(listen: str | int, tls: tuple[str, str] | None, redirect: str | int | None,
               log_dir: str) -> dict[str, str]:
    """The HTTPS parts of the template: the certificate, and a plain-HTTP server that
    only sends every request to the same path on HTTPS (301)."""
    if tls is None:
        if redirect is not None:
            raise ValueError("a redirect to HTTPS needs a certificate (tls)")
        return {"TLS": "", "REDIRECT": "", "COOKIE_SECURE": "", "LISTEN": str(listen)}
    cert, key = tls
    port = _port(listen)
    target = "https://$host" + ("" if port == "443" else f":{port}") + "$request_uri"
    block = ""
    if redirect is not None:
        block = "\n".join([
            "# Plain HTTP: only a redirect to the same address on HTTPS.",
            "server {", f"    listen {redirect};", "    server_name _;",
            f"    access_log {log_dir}/escoba.access.log escoba_paths;",
            f"    error_log {log_dir}/escoba.error.log crit;",
            f"    return 301 {target};", "}", "", ""])
    return {"TLS": "\n".join([f"    ssl_certificate {cert};",
                               f"    ssl_certificate_key {key};",
                               "    ssl_protocols TLSv1.2 TLSv1.3;"]),
            "REDIRECT": block, "COOKIE_SECURE": "; Secure", "LISTEN": f"{listen} ssl"}


def render_nginx(addresses: Sequence[str], listen: str | int = 80,
                 template: Path = TEMPLATE, *, tls: tuple[str, str] | None = None,
                 redirect: str | int | None = None, log_dir: str = LOG_DIR) -> str:
    """The http-level nginx snippet for replicas at ``addresses`` ("host:port", named r1,
    r2... in this order), listening on ``listen`` ("80", "127.0.0.1:8080"); with ``tls``
    (certificate, key) on HTTPS, and ``redirect`` ("80") a plain-HTTP listener that
    answers 301 to the HTTPS address. Logs go to ``log_dir``."""
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
        "LOG_DIR": log_dir,
        **_tls_parts(listen, tls, redirect, log_dir),
    }
    text = template.read_text()
    for key, value in fills.items():
        text = text.replace("{{" + key + "}}", value)
    if re.search(r"\{\{[A-Z_]+\}\}", text):
        raise ValueError(f"{template}: a placeholder was not filled")
    return text


def _opener(url: str) -> ssl.SSLContext | None:
    """A try-out's HTTPS has a throwaway self-signed certificate: not checked here."""
    if not url.startswith("https:"):
        return None
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


def self_signed_certificate(folder: Path, name: str = "127.0.0.1") -> tuple[Path, Path]:
    """A throwaway certificate and key for ``name`` (openssl; a try-out, the test): the
    same command docs/DEPLOY.md gives for a first try on a server."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "escoba.crt", folder / "escoba.key"
    subject_alt = f"IP:{name}" if re.fullmatch(r"[0-9.]+", name) else f"DNS:{name}"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days",
                    "30", "-subj", f"/CN={name}", "-addext", f"subjectAltName={subject_alt}",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    key.chmod(0o600)
    return cert, key


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
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2,
                                        context=_opener(url)) as r:
                if r.read() == b"ok":
                    return
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not start; see {log}")
        time.sleep(0.25)


def start_streamlit(port: int, env: Mapping[str, str], log: Path,
                    options: Sequence[str] = (), command: Sequence[str] | None = None,
                    script: Path = ROOT / "serve.py") -> subprocess.Popen:
    """``streamlit run serve.py`` (or ``script``) headless on ``127.0.0.1:port``, output
    to ``log`` (``command``: another launcher than ``python -m streamlit``)."""
    launcher = list(command or [sys.executable, "-m", "streamlit"])
    with open(log, "w") as out:
        return subprocess.Popen(
            [*launcher, "run", str(script), "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(port), *options],
            cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT)


def start_served(serve: Sequence[str], port: int, env: Mapping[str, str], log: Path,
                 cwd: Path) -> subprocess.Popen:
    """An installed release's replica as its systemd unit starts it: ``serve`` (e.g.
    ``[/opt/escoba/current/bin/escoba, serve]``) on ``port``, in ``cwd``."""
    with open(log, "w") as out:
        return subprocess.Popen([*serve, "--port", str(port)], cwd=cwd, env=dict(env),
                                stdout=out, stderr=subprocess.STDOUT)


def how_it_ended(returncode: int | None) -> str:
    """A dead process's end in words: "exit code 1", "killed by SIGKILL"."""
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            return f"killed by {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit code {returncode}"


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


#: Starts one replica: (port, its log file) -> its process.
Launcher = Callable[[int, Path], subprocess.Popen]


@dataclass
class Replica:
    name: str  # "r1": the cookie's value and the X-Escoba-Replica header's
    port: int
    process: subprocess.Popen
    log: Path
    restarts: int = 0
    reported: bool = False  # its death was told already (when not restarted)

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
    launch: Launcher | None = None
    names: dict[str, Replica] = field(init=False)

    def __post_init__(self) -> None:
        self.names = {r.name: r for r in self.replicas}

    def restart(self, name: str) -> Replica:
        """Start replica ``name`` again on its port (after a crash), and wait until it
        answers; its output goes on in the same log."""
        replica = self.names[name]
        if replica.alive:
            raise ValueError(f"replica {name} is running (pid {replica.process.pid})")
        assert self.launch is not None, "these replicas were not started here"
        replica.process = self.launch(replica.port, replica.log)
        replica.restarts += 1
        wait_healthy(replica.url, replica.process, replica.log)
        return replica

    def watch(self, report: Callable[[str], None] = print, restart: bool = True) -> None:
        """One look at the replicas: each one found dead is reported (its pid and how it
        ended) and, with ``restart``, started again. The try-out calls it every second."""
        for replica in self.replicas:
            if replica.alive:
                continue
            pid, ended = replica.process.pid, how_it_ended(replica.process.returncode)
            if not restart:
                if not replica.reported:
                    report(f"replica {replica.name} (pid {pid}) died: {ended}; restart "
                           f"it by hand, or run without --no-restart")
                    replica.reported = True
                continue
            report(f"replica {replica.name} (pid {pid}) died: {ended}; restarting it")
            try:
                self.restart(replica.name)
            except RuntimeError as err:
                report(f"replica {replica.name} did not start again: {err}")
                continue
            report(f"replica {replica.name}: {replica.url} again (pid {replica.process.pid})")

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
        with urllib.request.urlopen(request, timeout=30,
                                    context=_opener(self.url)) as response:
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
                          nginx: str | None = None, *,
                          tls: tuple[Path, Path] | None = None,
                          redirect_port: int | None = None,
                          serve: Sequence[str] | None = None,
                          migrated: bool = False,
                          launcher: Sequence[str] | None = None) -> Iterator[Replicas]:
    """``count`` replicas of the app on ``database_url`` (migrated first), on loopback,
    behind nginx on ``port`` (a free one by default); all stopped afterwards.

    ``tls`` (certificate, key): nginx on HTTPS, and with ``redirect_port`` a plain-HTTP
    port that redirects to it. ``serve``: an installed release's command (``[.../bin/escoba,
    "serve"]``, run in ``work``) instead of this checkout's ``streamlit run serve.py``;
    ``migrated``: the caller migrated the database already (``escoba migrate``);
    ``launcher``: another launcher than ``python -m streamlit`` for this checkout's
    replicas (a benchmark's, e.g. bench/polling_streamlit.py)."""
    work = Path(work or tempfile.mkdtemp(prefix="escoba-replicas-"))
    work.mkdir(parents=True, exist_ok=True)
    binary = nginx or nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed (apt-get install nginx-light)")
    environment = dict(os.environ if env is None else env)
    environment["ESCOBA_DATABASE_URL"] = database_url
    environment.pop("ESCOBA_DB_PATH", None)
    if not migrated:
        migrate(database_url)
    ports = [first_port + n if first_port else free_port() for n in range(count)]
    replicas: list[Replica] = []
    proxy: subprocess.Popen | None = None

    def launch(replica_port: int, log: Path) -> subprocess.Popen:
        if serve is not None:
            return start_served([*serve, *(["--", *options] if options else [])],
                                replica_port, environment, log, work)
        # This checkout's replicas in the environment `escoba serve` gives a school's.
        from trainer.server_cli import serve_environment

        return start_streamlit(replica_port, serve_environment(environment), log, options,
                               launcher)

    try:
        for name, replica_port in zip(replica_names(count), ports, strict=True):
            log = work / f"streamlit-{name}.log"
            replicas.append(Replica(name, replica_port, launch(replica_port, log), log))
        for replica in replicas:
            wait_healthy(replica.url, replica.process, replica.log)
        listen = port or free_port()
        conf = work / "nginx.conf"
        conf.write_text(standalone_nginx(
            render_nginx([f"127.0.0.1:{r.port}" for r in replicas], f"127.0.0.1:{listen}",
                         tls=None if tls is None else (str(tls[0]), str(tls[1])),
                         redirect=None if redirect_port is None
                         else f"127.0.0.1:{redirect_port}",
                         log_dir=str(work / "nginx" / "logs")), work / "nginx"))
        nginx_log = work / "nginx" / "logs" / "stderr.log"
        with open(nginx_log, "w") as out:
            proxy = subprocess.Popen([binary, "-c", str(conf), "-p", str(work / "nginx"),
                                      "-g", "daemon off;"], stdout=out,
                                     stderr=subprocess.STDOUT)
        url = f"{'https' if tls else 'http'}://127.0.0.1:{listen}"
        wait_healthy(url, proxy, nginx_log, timeout=30)
        yield Replicas(url, replicas, proxy, work, database_url, launch)
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
        "`streamlit run serve.py` replicas and nginx in front of them with sticky sessions "
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
    parser.add_argument("--no-restart", action="store_true",
                        help="only report a replica that dies (by default it is reported "
                        "with its pid and exit code or signal, and started again)")
    parser.add_argument("--server-option", action="append", default=[],
                        metavar="OPTION=VALUE", help="a `streamlit run` option for every "
                        "replica, e.g. server.fileWatcherType=none (repeatable)")
    sub = parser.add_subparsers(dest="command")
    render = sub.add_parser("render", help="print the nginx snippet for these replicas")
    render.add_argument("--listen", default="80", help="nginx's listen address (80)")
    render.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"),
                        help="HTTPS with this certificate and key (then --listen 443)")
    render.add_argument("--redirect", metavar="LISTEN",
                        help="with --tls: a plain-HTTP listener (80) that redirects to HTTPS")
    render.add_argument("--log-dir", default=LOG_DIR,
                        help=f"the folder of the site's logs ({LOG_DIR})")
    render.add_argument("addresses", nargs="+", metavar="HOST:PORT",
                        help="the replicas, in order (named r1, r2...)")
    args = parser.parse_args(argv)
    if args.command == "render":
        try:
            print(render_nginx(args.addresses, args.listen,
                               tls=tuple(args.tls) if args.tls else None,
                               redirect=args.redirect, log_dir=args.log_dir), end="")
        except ValueError as err:
            parser.error(str(err))
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
                  "its users move to another one"
                  + ("" if args.no_restart else " (it is started again here)")
                  + ". Ctrl-C stops everything.", flush=True)
            with contextlib.suppress(KeyboardInterrupt):
                while cluster.nginx.poll() is None:
                    cluster.watch(lambda line: print(line, flush=True),
                                  restart=not args.no_restart)
                    time.sleep(1)
                print(f"nginx stopped: {how_it_ended(cluster.nginx.returncode)}", flush=True)
    finally:
        if stop_cluster is not None:
            stop_cluster()


if __name__ == "__main__":
    main()
