"""Play: start a game (computer players and/or children on this device) and play it."""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t
from trainer.lessons import suggest_lessons
from ui.layout import require_profile, show_flash
from ui.newgame import game_title_key, show_new_game_form
from ui.play_view import game_view
from ui.session import current_game, storage

profile = require_profile()
game = current_game()
form_open = game is None or bool(st.session_state.get("new_game_open"))
# The heading names the game on the screen: the one chosen on the form, or the one in play.
variant = (st.session_state.get("ng_game") or "escoba") if form_open else game.rules.variant
st.title(t(game_title_key(variant)))

if form_open:
    show_flash()
    if variant == "scopa":
        # Scopa's rules in a sentence (the lessons teach Escoba's).
        st.info(t("rule_scopa_sum_help"), icon="🇮🇹")
    elif suggest_lessons(storage().lesson_results(profile.id)):
        # Suggested until the escoba stage is done; never in the way of a game.
        st.info(t("lessons_suggest"), icon="🎓")
        st.page_link("app_pages/lessons.py", label=t("nav_lessons"), icon="🎓")
    if game is not None and not game.is_over:
        st.button(t("back_to_game"), key="back_to_game",
                  on_click=st.session_state.update, kwargs={"new_game_open": False})
    show_new_game_form(profile)
else:
    game_view()
