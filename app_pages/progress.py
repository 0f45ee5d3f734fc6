"""Progress: what the child has mastered and what still needs practice (for a parent too)."""

from __future__ import annotations

import streamlit as st

from puzzles import CAPTURE_SUMS
from trainer import charts
from trainer.i18n import t
from trainer.speech import speakable
from ui import progress
from ui.downloads import csv_style_choice, table_buttons
from ui.i18n import current_language
from ui.layout import require_profile
from ui.practice import (
    attempts,
    child_timezone,
    data_version,
    keep,
    kept,
    mastery,
    progress_contents,
    today,
)
from ui.session import deck_of
from ui.speaker import speaker_button

profile = require_profile()
st.title(t("progress_title"))

version = data_version(profile.id)
counts = progress_contents(version)
if not counts.attempts and not counts.finished_games and not counts.lessons:
    # A new child: one friendly sentence and where to start, not a page of empty charts.
    st.info(t("ch_empty_new"), icon="🌱")
    speaker_button(speakable(t("ch_empty_new"), deck=deck_of()), key="ch_empty_speaker")
    st.page_link("app_pages/lessons.py", label=t("nav_lessons"), icon="🎓")
    st.page_link("app_pages/puzzles.py", label=t("nav_puzzles"), icon="🧩")
    st.page_link("app_pages/daily.py", label=t("nav_daily"), icon="📅")
    st.page_link("app_pages/quick_facts.py", label=t("nav_quick_facts"), icon="⚡")
    st.stop()
# Built once per profile, language, day and data version (see ui/progress.py).
lang = current_language()
# A parent's three questions first, one sentence each (issue 33).
progress.show_summary(profile.id, int(kept("pr_sum", 15)))

section = st.segmented_control(t("progress_title"), progress.SECTIONS, key="pr_view",
                               format_func=lambda s: t(f"progress_{s}"),
                               default=kept("pr_view", "facts"), required=True,
                               label_visibility="collapsed",
                               on_change=keep, args=("pr_view",)) or "facts"

capture_sum = int(kept("pr_sum", 15))
if section == "facts":
    capture_sum = int(st.segmented_control(t("capture_sum"), list(CAPTURE_SUMS), key="pr_sum",
                                           default=capture_sum, required=True,
                                           on_change=keep, args=("pr_sum",)) or 15)
mastery(profile.id, capture_sum)  # this session's mastery, as "for me" reads it

progress.show_part(profile.id, section, lang, today(), capture_sum)

if counts.attempts:
    # The child's answers for a parent's spreadsheet: a CSV in the chosen style, an .xlsx.
    zone = child_timezone()
    style = csv_style_choice("ch_csv_style", lang)
    table_buttons((t("ch_download"), t("ch_download_xlsx")),
                  lambda: charts.attempts_csv(attempts(profile.id), lang, zone, style),
                  lambda: charts.attempts_xlsx(attempts(profile.id), lang, zone),
                  (t("file.progress", domain="classroom"), profile.nickname), ("ch_csv", "ch_xlsx"))
