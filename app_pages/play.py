"""Play: start a game (computer players and/or children on this device) and play it."""

from __future__ import annotations

import streamlit as st

from ui.board import show_board
from ui.endgame import show_game_tools, show_round_end
from ui.i18n import t
from ui.layout import require_profile, show_flash
from ui.newgame import show_new_game_form
from ui.session import current_game

profile = require_profile()
st.title(t("play_title"))
show_flash()

game = current_game()
if game is None or st.session_state.get("new_game_open"):
    show_new_game_form(profile)
else:
    rules = game.rules
    st.caption(t("rules_summary", preset=t("preset_" + rules.preset_name), target=rules.target,
                 sum=rules.capture_sum,
                 mode=t("open_hand") if rules.open_hand else t("closed_hand")))
    show_game_tools(game)
    show_board(game)
    if game.round_over:
        show_round_end(game)
