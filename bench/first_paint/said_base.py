"""The parts page served as ``serve.py`` serves the app: its base address said (issue 32).

Streamlit's frontend, opened at a page's own address (``/play``), first asks
``/play/_stcore/health``, which is not there, and tries ``/`` 100 ms later. The app's
server (``serve.py``) writes the line that says the root into every page
(:class:`ui.page_base.SayBase`); this serves ``$SAID_BASE_SCRIPT`` (``parts_page.py``
by default) the same way, for ``bench/first_paint_parts.py`` to open beside the same
page without it. A measurement, not the app's server.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from ui.page_base import SayBase, page_names  # noqa: E402

app = st.App(os.environ.get("SAID_BASE_SCRIPT", "parts_page.py"),
             middleware=[Middleware(SayBase, pages=page_names(ROOT / "app_pages"))])
