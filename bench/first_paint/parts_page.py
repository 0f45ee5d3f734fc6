"""The board of Play with the app's parts around it switched on one by one (issue 32).

A baseline page for ``bench/first_paint_parts.py`` and, with no part asked, the board
alone of ``bench/board_browser_bench.py``; never a page of the app: the board
component of the game in play of ``?p=`` (the very data Play gives it), and, as the
query string asks, ``nav=hidden`` or ``nav=sidebar`` (``st.navigation`` with 14 pages
as the app's menu has, the board's the one opened, at ``/play``), ``side=1`` (the app's
sidebar: its style, who plays, the voice listener, Streamlit's words, the menu closer),
``icon=1`` (the app's page icon) and ``title=1`` (a heading above the board).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from ui.board import board_data, deck_of
from ui.board_component import show_board_component
from ui.layout import sidebar
from ui.session import current_game, current_profile
from ui.speaker import board_speech

asked = st.query_params
st.set_page_config(page_title="Parts", page_icon="🧹" if asked.get("icon") == "1" else None,
                   layout="wide")


def board_page() -> None:
    if asked.get("title") == "1":
        st.title("Escoba")
    game = current_game()
    if game is not None:
        data = board_speech(board_data(game), deck=deck_of(game.rules))
        show_board_component(data, key="board_parts", on_action=lambda raw: None)


def other_page(number: int) -> Callable[[], None]:
    def draw() -> None:
        st.write(number)
    draw.__name__ = f"other_{number}"
    return draw


if current_profile() is None:
    st.stop()
navigation = asked.get("nav")
if navigation:
    pages = [st.Page(board_page, title="Play", url_path="play", default=True, icon="🃏")]
    pages += [st.Page(other_page(n), title=f"Page number {n}", url_path=f"p{n}", icon="🙂")
              for n in range(13)]
    page = st.navigation(pages, position="hidden" if navigation == "hidden" else "sidebar",
                         expanded=True)
    if asked.get("side") == "1":
        sidebar()
    page.run()
else:
    if asked.get("side") == "1":
        sidebar()
    board_page()
