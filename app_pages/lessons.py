"""Lessons: the guided path in for a child who has never played (issue 12)."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t
from ui.first_run import skip_link
from ui.layout import require_profile, show_flash
from ui.lesson_link import lesson_title, open_from_link
from ui.lesson_view import show_lessons

profile = require_profile()
open_from_link(profile)  # ?lesson=escoba/2
st.title(lesson_title(t("lessons_title")))
show_flash()
show_lessons(profile)
skip_link(profile)  # a child just created: "Skip: I know the game" for a parent
