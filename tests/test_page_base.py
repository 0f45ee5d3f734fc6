"""The app's pages told where its root is, by the app's own server (ui/page_base.py).

Streamlit's page opened at an app page's address (/play?p=3) asks /play/_stcore/health
first (a 404) and the root 100 ms later. ``serve.py`` puts :class:`SayBase` in front of
the app: one line in every HTML page says the root. Here: the line's answer for each kind
of address (run by node, as a browser runs it), every page of app.py named, and the
middleware on a small ASGI app (the page rewritten, everything else untouched). The
browser's side: tests/test_browser.py (a direct link) and tests/test_deploy.py (behind
nginx).
"""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from ui.page_base import SayBase, base_script, page_names

ROOT = Path(__file__).resolve().parent.parent
PAGE = "<!DOCTYPE html><html><head><title>x</title></head><body>" + "x" * 3000 + "</body></html>"
SCRIPT = "import{a}from'./b.js';" + "a();" * 1000


def _base_said(script: str, path: str) -> str | None:
    """What the line sets as Streamlit's base address on a page at ``path`` of
    https://school.example (run by node, as the browser runs it), or None."""
    program = ("var window = {}; var location = {origin: 'https://school.example', pathname: "
               + json.dumps(path) + "};\n" + script + "\nconsole.log(JSON.stringify("
               "window.__streamlit ? window.__streamlit.BACKEND_BASE_URL : null));")
    done = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_every_page_of_the_app_is_named() -> None:
    pages = set(re.findall(r'"app_pages/(\w+)\.py"', (ROOT / "app.py").read_text()))
    assert pages and set(page_names(ROOT / "app_pages")) == pages


@pytest.mark.skipif(shutil.which("node") is None, reason="no node")
def test_the_line_says_the_root_of_an_app_pages_address_and_nothing_else() -> None:
    """Behind another proxy's prefix too; an address that does not end in a page's name
    (the root, the prefix alone, a name that is no page) is left to Streamlit's guess."""
    script = base_script(page_names(ROOT / "app_pages"))
    assert _base_said(script, "/play") == "https://school.example/"
    assert _base_said(script, "/quick_facts") == "https://school.example/"
    assert _base_said(script, "/escoba/play") == "https://school.example/escoba/"
    assert _base_said(script, "/") is None
    assert _base_said(script, "/escoba") is None
    assert _base_said(script, "/escoba/nothing") is None


def _app() -> Starlette:
    return Starlette(routes=[
        Route("/play", lambda request: HTMLResponse(PAGE, headers={"ETag": '"v1"'})),
        Route("/gone", lambda request: HTMLResponse(PAGE, status_code=404)),
        Route("/static/app.js", lambda request: Response(SCRIPT, media_type="text/javascript")),
        Route("/_stcore/health", lambda request: Response("ok", media_type="text/plain")),
    ], middleware=[Middleware(SayBase, pages=["play", "puzzles"]),
                   Middleware(GZipMiddleware, minimum_size=500)])


def _ask(path: str, accept: str, encoding: str = "gzip", method: str = "GET",
         app: Any = None) -> tuple[int, dict[str, str], bytes]:
    """One HTTP request to ``app`` (:func:`_app`) as an ASGI server makes it: status,
    headers, body."""
    sent: list[dict] = []
    scope = {"type": "http", "method": method, "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "scheme": "http", "http_version": "1.1",
             "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 5000),
             "headers": [(b"host", b"127.0.0.1"), (b"accept", accept.encode()),
                         (b"accept-encoding", encoding.encode())]}

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    asyncio.run((app or _app())(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def test_a_browsers_page_gets_the_line_right_after_its_head() -> None:
    line = f"<script>{base_script(['play', 'puzzles'])}</script>"
    status, headers, body = _ask("/play", "text/html,application/xhtml+xml,*/*;q=0.8")
    assert status == 200
    assert body.decode() == PAGE.replace("<head>", "<head>" + line, 1)
    assert int(headers["content-length"]) == len(body)
    assert "content-encoding" not in headers  # asked uncompressed, to write the line in
    assert "etag" not in headers  # the file's tag does not describe this body


def test_everything_else_passes_untouched() -> None:
    """A script keeps its compression; a fetch of the page (no text/html), a HEAD, a
    text reply and a page that is not a whole 200 are not rewritten; a WebSocket's scope
    reaches the app as it came."""
    status, headers, body = _ask("/static/app.js", "*/*")
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body).decode() == SCRIPT
    assert _ask("/play", "*/*", "identity")[2].decode() == PAGE
    assert _ask("/play", "text/html", "identity", "HEAD")[1]["content-length"] == str(len(PAGE))
    assert _ask("/_stcore/health", "text/html")[2] == b"ok"
    assert _ask("/gone", "text/html", "identity")[:3:2] == (404, PAGE.encode())

    seen: list[dict] = []

    async def app(scope, receive, send) -> None:
        seen.append(scope)

    scope = {"type": "websocket", "path": "/_stcore/stream",
             "headers": [(b"accept", b"text/html"), (b"accept-encoding", b"gzip")]}
    asyncio.run(SayBase(app, pages=["play"])(scope, None, None))
    assert seen == [scope]


def test_make_run_opens_the_app_in_the_browser_and_asks_for_no_email(tmp_path: Path) -> None:
    """``streamlit run serve.py`` on a computer with a screen (not headless, as ``make
    run``): the browser is opened at the app's address (an ``st.App`` does not do it by
    itself), the terminal asks for no e-mail address (Streamlit's first-run prompt, off
    in .streamlit/config.toml), and Ctrl+C ends it saying nothing is lost. Headless, as a
    server: no browser, and stopping it says the same."""
    from deploy.replicas import stop, wait_healthy
    from tests.conftest import free_port

    opened = tmp_path / "opened"
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "xdg-open").write_text(f'#!/bin/sh\necho "$@" >> {opened}\n')
    (bin_dir / "xdg-open").chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", HOME=str(tmp_path),
               ESCOBA_DB_PATH=str(tmp_path / "escoba.db"))
    env.pop("ESCOBA_DATABASE_URL", None)
    for headless in ("false", "true"):
        port = free_port()
        log = tmp_path / f"headless-{headless}.log"
        with open(log, "w") as out:
            proc = subprocess.Popen(
                [sys.executable, "-m", "streamlit", "run", str(ROOT / "serve.py"),
                 "--server.headless", headless, "--server.port", str(port)],
                cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT)
        try:
            wait_healthy(f"http://127.0.0.1:{port}", proc, log, 60)
            if headless == "false":
                deadline = time.monotonic() + 10
                while not opened.exists() and time.monotonic() < deadline:
                    time.sleep(0.1)
                assert opened.read_text().split() == [f"http://localhost:{port}"]
                proc.send_signal(signal.SIGINT)  # Ctrl+C in the family's terminal
                proc.wait(timeout=20)
        finally:
            stop(proc)
        printed = log.read_text()
        assert "mail" not in printed.lower()
        # Stopped (Ctrl+C, or the service's SIGTERM): said plainly, before the command
        # line's own "Aborted!", that nothing is lost.
        assert "Escoba has stopped. Everything played is saved." in printed
    assert len(opened.read_text().split()) == 1  # the headless server opened nothing


def test_the_pages_style_follows_the_line_in_the_head() -> None:
    """serve.py gives the middleware the app's style (ui.page_style): written into each
    page's head after the line, so it holds from the page's first frame."""
    from ui.page_style import PAGE_STYLE

    styled = Starlette(routes=[Route("/play", lambda request: HTMLResponse(PAGE))],
                       middleware=[Middleware(SayBase, pages=["play"], style=PAGE_STYLE)])
    body = _ask("/play", "text/html", "identity", app=styled)[2].decode()
    head = f"<head><script>{base_script(['play'])}</script>{PAGE_STYLE}"
    assert body.startswith(PAGE.split("<head>")[0] + head)
    assert "board-late" in PAGE_STYLE and PAGE_STYLE.count("<style>") == 2
    assert "style=PAGE_STYLE" in (ROOT / "serve.py").read_text()
