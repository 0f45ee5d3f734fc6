"""The board alone: a baseline page for the first paint of Play (issue 32).

``bench/board_browser_bench.py`` serves this file beside the app and the bare page, on
the same database: it draws the board component of the game in play of ``?p=``, with
the very data the app's Play page gives it, and nothing else (no menu, no sidebar, no
title, no hint, no buttons). Its first paint, against the bare page's title, is what the
board component itself costs; against Play's, what the page around the board costs.
Not a page of the app: nothing here is reachable from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ui.board import board_data, deck_of
from ui.board_component import show_board_component
from ui.session import current_game, current_profile
from ui.speaker import board_speech

st.set_page_config(page_title="Board alone", layout="wide")
if current_profile() is None:
    st.stop()
game = current_game()
if game is not None:
    data = board_speech(board_data(game), deck=deck_of(game.rules))
    show_board_component(data, key="board_alone", on_action=lambda raw: None)
