"""Escoba arithmetic trainer: the Streamlit router (pages live in app_pages/).

Run with ``make run`` (``streamlit run app.py``). Everything the pages show
comes from the ``ui`` package; the rules live in the ``escoba`` engine, which
knows nothing of Streamlit.
"""

from __future__ import annotations

import logging

import streamlit as st

from ui.i18n import t
from ui.layout import friendly_errors, inject_style, sidebar

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

st.set_page_config(page_title="Escoba", page_icon="🧹", layout="wide")

PAGES = [
    st.Page("app_pages/profiles.py", title=t("nav_profiles"), icon="🙂", default=True),
    st.Page("app_pages/play.py", title=t("nav_play"), icon="🃏"),
    st.Page("app_pages/games.py", title=t("nav_games"), icon="📚"),
    st.Page("app_pages/replay.py", title=t("nav_replay"), icon="⏯️"),
    st.Page("app_pages/settings.py", title=t("nav_settings"), icon="⚙️"),
    st.Page("app_pages/help.py", title=t("nav_help"), icon="❓"),
]

page = st.navigation(PAGES)
with friendly_errors():
    inject_style()
    sidebar()
    page.run()
