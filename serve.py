"""The app as its server runs it: ``streamlit run serve.py`` (``make run``, ``escoba serve``).

``app.py`` is the app; this serves it with :class:`ui.page_base.SayBase` in front, so a
page opened at its own address (``/play?p=3``: a refresh, a bookmark) asks the app's
root at once instead of guessing (issue 32: about 0.1 s of first paint, and no 404 in
the page's console). ``streamlit run`` finds ``app`` below and serves it; the options and
``.streamlit/config.toml`` are read as for ``streamlit run app.py``.
"""

from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware

from ui.page_base import SayBase, page_names

HERE = Path(__file__).resolve().parent

app = st.App(HERE / "app.py",
             middleware=[Middleware(SayBase, pages=page_names(HERE / "app_pages"))])
