"""A page served by ``st.App`` with its base address said in the HTML (issue 32).

Streamlit's frontend, opened at a page's own address (``/play``), first asks
``/play/_stcore/health``, which is not there, and tries ``/`` 100 ms later: it does not
know where the app's root is. A page that sets ``window.__streamlit.BACKEND_BASE_URL``
before Streamlit's script runs skips that guess: the school's nginx writes that line
(``deploy.replicas.base_script``, the very line measured here). This file serves
``$SAID_BASE_SCRIPT`` (``parts_page.py`` by default; ``../../app.py`` for the app) with
the line written into its HTML by an ASGI middleware, for ``bench/first_paint_parts.py``
to open beside the same page without it. A measurement, not the app's server.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import streamlit as st
from starlette.middleware import Middleware

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from deploy.replicas import base_script

SCRIPT = f"<script>{base_script()}</script>".encode()


class SayBase:
    """Writes :data:`SCRIPT` at the start of every HTML page (asked uncompressed)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        scope = dict(scope, headers=[(k, v) for k, v in scope["headers"]
                                     if k.lower() != b"accept-encoding"])
        start: dict[str, Any] = {}
        body: list[bytes] = []

        async def rewrite(message: Any) -> None:
            if message["type"] == "http.response.start":
                start.update(message)
                return
            if message["type"] != "http.response.body" or not start:
                await send(message)
                return
            headers = {k.lower(): v for k, v in start.get("headers", [])}
            if not headers.get(b"content-type", b"").startswith(b"text/html"):
                await send(dict(start))
                start.clear()
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            page = b"".join(body).replace(b"<head>", b"<head>" + SCRIPT, 1)
            kept = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            await send({**start, "headers": [*kept, (b"content-length", str(len(page)).encode())]})
            await send({"type": "http.response.body", "body": page})

        await self.app(scope, receive, rewrite)


app = st.App(os.environ.get("SAID_BASE_SCRIPT", "parts_page.py"),
             middleware=[Middleware(SayBase)])
