"""Play: start a game (computer players and/or children on this device) and play it."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t
from trainer.lessons import suggest_lessons
from ui.layout import require_profile, show_flash
from ui.newgame import show_new_game_form
from ui.play_view import game_view
from ui.session import current_game, storage

profile = require_profile()
st.title(t("play_title"))

game = current_game()
if game is None or st.session_state.get("new_game_open"):
    show_flash()
    if suggest_lessons(storage().lesson_results(profile.id)):
        # Suggested until the escoba stage is done; never in the way of a game.
        st.info(t("lessons_suggest"), icon="🎓")
        st.page_link("app_pages/lessons.py", label=t("nav_lessons"), icon="🎓")
    if game is not None and not game.is_over:
        st.button(t("back_to_game"), key="back_to_game",
                  on_click=st.session_state.update, kwargs={"new_game_open": False})
    show_new_game_form(profile)
else:
    game_view()
