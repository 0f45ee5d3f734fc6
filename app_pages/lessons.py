"""Lessons: the guided path in for a child who has never played (issue 12)."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t
from ui.first_run import skip_link
from ui.layout import require_profile, show_flash
from ui.lesson_link import keep_in_address, lesson_title, open_from_link
from ui.lesson_view import show_lessons

profile = require_profile()
open_from_link(profile)  # ?lesson=escoba/2
st.title(lesson_title(t("lessons_title")))
# A child just created: "Skip: I know the game" for a parent, under the title, where it
# stands in every run (below the lesson, its place moved with the level's elements, and
# for a moment the page showed it twice).
skip_link(profile)
show_flash()
show_lessons(profile)
keep_in_address()  # a refresh comes back to the level on screen
