"""The app as its server runs it: ``streamlit run serve.py`` (``make run``, ``escoba serve``).

``app.py`` is the app; this serves it with :class:`ui.page_base.SayBase` in front, so a
page opened at its own address (``/play?p=3``: a refresh, a bookmark) asks the app's
root at once instead of guessing (issue 32: about 0.1 s of first paint, and no 404 in
the page's console), and the page's style (``ui.page_style``) holds from its first
frame. ``streamlit run`` finds ``app`` below and serves it; the options and
``.streamlit/config.toml`` are read as for ``streamlit run app.py``.
"""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import streamlit as st
from starlette.middleware import Middleware

from ui.page_base import SayBase, page_names
from ui.page_style import PAGE_STYLE

HERE = Path(__file__).resolve().parent


@asynccontextmanager
async def _browser_opened(_app: Any) -> AsyncIterator[None]:
    """The app opened in the computer's browser when the server is not headless (`make
    run` on a family's computer), as ``streamlit run app.py`` does by itself and an
    ``st.App`` does not: at the address the settings name (``browser.serverAddress``)."""
    from streamlit import cli_util, config
    from streamlit.web.server import server_util

    if not config.get_option("server.headless"):
        address = server_util.get_url(config.get_option("browser.serverAddress"))
        asyncio.get_running_loop().call_soon(cli_util.open_browser, address)
    yield
    # Ctrl+C ends with the command line's own "Aborted!" under it (uvicorn hands the
    # signal on once it has shut down): a family should read first that nothing is lost.
    print("\n  Escoba has stopped. Everything played is saved.",
          flush=True)


app = st.App(HERE / "app.py", lifespan=_browser_opened,
             middleware=[Middleware(SayBase, pages=page_names(HERE / "app_pages"),
                                    style=PAGE_STYLE)])
