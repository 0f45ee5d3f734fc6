"""The app's pages told where its root is, by the app's own server (issue 32).

Streamlit's page, opened at one of the app's page addresses (``/play?p=3``: a refresh,
a bookmark, a link), cannot tell a page's name from a path the app is served under: it
first asks ``/play/_stcore/health``, which is not there (a 404 in the console), and the
root 100 ms later. A page whose HTML sets ``window.__streamlit.BACKEND_BASE_URL`` before
Streamlit's script runs asks the right address first (docs/BENCHMARKS.md, "First paint
of Play, part by part"). ``serve.py`` puts :class:`SayBase` in front of the app, so a
family's computer (``make run``) and a school's replicas behind nginx (``escoba serve``)
both say it. No Streamlit here: this is the web server's side.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


def page_names(folder: Path) -> list[str]:
    """The last part of each app page's address (``play``): its module's name in
    ``folder`` (``app_pages``), as ``st.Page`` makes it."""
    return sorted(path.stem for path in folder.glob("*.py") if path.stem != "__init__")


def base_script(names: Sequence[str]) -> str:
    """The line a page gets: ``window.__streamlit.BACKEND_BASE_URL``, the page's address
    without an app page's name (one of ``names``), before Streamlit's script runs. An
    address that does not end in a page's name (the root, a proxy's prefix) is left to
    Streamlit's own guess."""
    return ("(function(){var pages=" + json.dumps(sorted(names)) + ";"
            "var parts=location.pathname.split(\"/\");"
            "if(parts.length<2||pages.indexOf(parts[parts.length-1])<0)return;"
            "parts.pop();"
            "window.__streamlit=Object.assign({},window.__streamlit,"
            "{BACKEND_BASE_URL:location.origin+parts.join(\"/\")+\"/\"});})();")


class SayBase:
    """ASGI middleware: ``<script>`` :func:`base_script` ``</script>`` (and the page's
    style, if given) right after ``<head>`` in every HTML page.

    Only a browser's page request (a GET accepting ``text/html``) is touched: it is asked
    of Streamlit uncompressed (the page is 8 KB), so the line can be written in; only a
    whole page (200) is rewritten, without the file's validators (ETag, Last-Modified),
    which no longer describe it. Scripts, styles, media, health checks, other answers
    (304, 206, 404) and the WebSocket pass as they came.
    """

    def __init__(self, app: Any, pages: Sequence[str], style: str = "") -> None:
        self.app = app
        # ``style``: the app's own ``<style>`` blocks (ui.page_style), in force from the
        # page's first frame instead of when the sidebar's element is drawn.
        self.line = f"<script>{base_script(pages)}</script>{style}".encode()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not _a_page_request(scope):
            await self.app(scope, receive, send)
            return
        scope = dict(scope, headers=[(k, v) for k, v in scope["headers"]
                                     if k.lower() != b"accept-encoding"])
        start: dict[str, Any] = {}
        body: list[bytes] = []

        async def written(message: Any) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] != "http.response.body" or not start:
                await send(message)
                return
            headers = {k.lower(): v for k, v in start.get("headers", [])}
            if (start.get("status") != 200
                    or not headers.get(b"content-type", b"").startswith(b"text/html")):
                await send(dict(start))
                start.clear()
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            page = b"".join(body).replace(b"<head>", b"<head>" + self.line, 1)
            # The file's validators and length no longer describe this body.
            kept = [(k, v) for k, v in start["headers"] if k.lower() not in _REDESCRIBED]
            await send({**start, "headers": [*kept, (b"content-length", str(len(page)).encode())]})
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, written)


_REDESCRIBED = frozenset({b"content-length", b"etag", b"last-modified", b"accept-ranges"})


def _a_page_request(scope: Any) -> bool:
    if scope["type"] != "http" or scope.get("method") != "GET":
        return False
    return b"text/html" in dict(scope.get("headers", [])).get(b"accept", b"")
