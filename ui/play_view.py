"""The game in play, drawn as one fragment.

A tap inside the board (a card, Play, ¡Renuncio!, the computer's turn, next
round) reruns only this fragment, not the whole app (router, sidebar): the
Play page must answer a move quickly (docs/BENCHMARKS.md). Anything that
changes the page around it (a new game) asks for a full rerun.
"""

from __future__ import annotations

import streamlit as st

from trainer.i18n import t

from .board import show_board
from .endgame import open_new_game_form, show_game_tools, show_round_end
from .errors import friendly_fragment, show_error_flash
from .layout import show_flash
from .session import current_game

__all__ = ["game_view"]


@friendly_fragment
def game_view() -> None:
    """Everything of the current game: options, board, score table, review."""
    game = current_game()
    if game is None or st.session_state.get("new_game_open"):
        st.rerun(scope="app")
    # The messages sit in a container that is always there, empty or not: an element
    # appearing or going above the board would move it in the page's tree, and
    # Streamlit would draw a new board (the child's picked cards and its flights lost).
    with st.container(key="play_messages"):
        show_error_flash()
        show_flash()
    # One keyed container: its elements sit closer together (style in ui.page_style),
    # so table, hand, choosers and Play fit a landscape tablet's screen.
    with st.container(key="play_board"):
        waiting = show_board(game)
        if game.round_over:
            show_round_end(game)
        # The hint switch and a new game are used now and then: below the move, and on
        # a page opened anew drawn once the board has (or the text choosers are open).
        if not waiting:
            with st.container(horizontal=True, key="game_tools"):
                show_game_tools(game)
                if not game.round_over:
                    st.button(t("new_game_midway"), key="new_game_midway",
                              on_click=open_new_game_form)
