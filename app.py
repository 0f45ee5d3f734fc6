"""Escoba arithmetic trainer: the Streamlit router (pages live in app_pages/).

Run with ``make run`` (``streamlit run app.py``). Everything the pages show
comes from the ``ui`` package; the rules live in the ``escoba`` engine, which
knows nothing of Streamlit.
"""

from __future__ import annotations

import logging

import streamlit as st

from ui.errors import friendly_errors, show_error_flash
from ui.i18n import start_run
from ui.layout import pages, sidebar
from ui.pupil_guard import guard_run, note_page, show_ended, watch
from ui.session import current_profile
from ui.together_notice import show_together_notice

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

st.set_page_config(page_title="Escoba", page_icon="🧹", layout="wide")

#: (module, catalog key of its title, icon). The first is the default page.
PAGES = [
    ("app_pages/profiles.py", "nav_profiles", "🙂"),
    ("app_pages/my_class.py", "nav_my_class", "🏫"),
    ("app_pages/lessons.py", "nav_lessons", "🎓"),
    ("app_pages/play.py", "nav_play", "🃏"),
    ("app_pages/tables.py", "nav_tables", "🤝"),
    ("app_pages/puzzles.py", "nav_puzzles", "🧩"),
    ("app_pages/daily.py", "nav_daily", "📅"),
    ("app_pages/quick_facts.py", "nav_quick_facts", "⚡"),
    ("app_pages/progress.py", "nav_progress", "📈"),
    ("app_pages/games.py", "nav_games", "📚"),
    ("app_pages/replay.py", "nav_replay", "⏯️"),
    ("app_pages/settings.py", "nav_settings", "⚙️"),
    ("app_pages/help.py", "nav_help", "❓"),
    ("app_pages/teacher.py", "nav_teacher", "🧑‍🏫"),
]

with friendly_errors():
    # A shared tablet forgets the last child (issue 27): a pupil idle for the class's
    # minutes, or whose class ended, is signed out before their profile is read.
    guard_run()
    # The profile in the URL (?p=) carries its language: load it before the
    # navigation's labels are built, or a refreshed page shows the browser's
    # language in the sidebar until the first tap.
    current_profile()
lang = start_run()
# Every page in the menu, always: past twelve pages Streamlit folds the last ones away
# behind "View more", and "How to play" would be one of them.
page = st.navigation(pages(tuple(PAGES), lang), expanded=True)
with friendly_errors():
    sidebar()
    watch()
    show_error_flash()
    show_ended(link=page.url_path != "my_class")  # on My class: its pictures follow
    note_page(page.url_path or "profiles")  # the teacher's live view (issue 29)
    # A pupil elsewhere hears that the class plays together (issue 29): a notice on top.
    show_together_notice(page.url_path or "profiles")
    page.run()
