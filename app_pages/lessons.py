"""Lessons: the guided path in for a child who has never played (issue 12)."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t
from ui.layout import require_profile, show_flash
from ui.lesson_view import show_lessons

profile = require_profile()
st.title(t("lessons_title"))
show_flash()
show_lessons(profile)
