"""My games: every game of this profile, to continue one or download its record."""

from __future__ import annotations

import json

import streamlit as st

from trainer.gameplay import GameSession
from trainer.i18n import format_day, t
from trainer.tables import Tables
from trainer.text import md_escape
from ui.errors import safe_callback
from ui.i18n import current_language
from ui.layout import require_profile, show_flash
from ui.practice import child_timezone, today
from ui.seat_keeper import keep_seats, tablet_has_read
from ui.session import flash, set_game, storage
from ui.table_view import continue_at_table, device_token

profile = require_profile()
st.title(t("games_title"))
show_flash()


GAMES_PER_PAGE = 50
PAGE_KEY = "games_page"


@safe_callback
def _turn_page(page: int) -> None:
    st.session_state[PAGE_KEY] = max(0, page)


@safe_callback
def _continue(game_id: int) -> None:
    row = storage().get_game(game_id)
    if row is None or row.status != "playing":
        # Left for a new game in another tab after this list was drawn.
        flash("warning", "game_closed_none")
        return
    if storage().table_of_game(game_id) is not None:
        # A table's game is played seat by seat on each child's own device: resumed
        # here it would be pass and play, with every hand on this one.
        flash("warning", "table_game_elsewhere", code=row.options.get("table", ""))
        return
    set_game(GameSession.resume(row, storage()))
    st.session_state["new_game_open"] = False


def _record_json(game_id: int) -> str:
    # Read when the button is pressed, and only if no round can be played any more.
    return json.dumps(storage().shareable_record(game_id) or {}, ensure_ascii=False, indent=1)


# Newest first; numbered per profile, oldest = 1 (a child's second game is "Game 2").
count = storage().count_games(profile.id)
# GAMES_PER_PAGE at a time (a year of play is hundreds): "Older games" and "Newer games".
pages = max(1, -(-count // GAMES_PER_PAGE))
page = min(max(0, int(st.session_state.get(PAGE_KEY, 0) or 0)), pages - 1)
first = page * GAMES_PER_PAGE
rows = storage().list_games(profile.id, GAMES_PER_PAGE, first)  # with the tables' games
# At a table's game: which seat was this child's ("you"), and whether it is still theirs.
my_seats = storage().seats_in_games(
    profile.id, [r.id for r in rows if r.options.get("table")])
if not rows:
    st.info(t("no_games"))
    st.page_link("app_pages/play.py", label=t("go_play"), icon="🃏")
continue_code: str | None = None


def _page_turner(where: str) -> None:
    """Which games these are ("Games 132–83 of 182", as the list numbers them) and the
    buttons to the newer and older ones: above the list and again under it, so that a
    tap at the bottom shows the change where the child tapped."""
    st.caption(t("games_page", start=count - first, end=count - first - len(rows) + 1,
                 count=count))
    newer, older = st.columns(2)
    newer.button(t("games_newer"), key=f"games_newer_{where}", icon="⬅️", on_click=_turn_page,
                 args=(page - 1,), disabled=page == 0, use_container_width=True)
    older.button(t("games_older"), key=f"games_older_{where}", icon="➡️", on_click=_turn_page,
                 args=(page + 1,), disabled=page == pages - 1, use_container_width=True)


if pages > 1:
    _page_turner("top")
zone, lang, day = child_timezone(), current_language(), today()
for position, row in enumerate(rows, start=first):
    # A table's computer players store no name: worded here, in this child's language.
    names = [n or t("bot_name", n=i + 1) for i, n in enumerate(row.record.get("names") or [])]
    mine = my_seats.get(row.id, [])
    for seat_row in mine:
        if seat_row.seat < len(names):
            names[seat_row.seat] = t("game_player_you", name=names[seat_row.seat])
    # The child's day and time, as My progress writes a day ("5 Dec 11:57"), not UTC.
    local = row.updated_at.astimezone(zone)
    when = f"{format_day(local.date(), lang, today=day)} {local:%H:%M}"
    with st.container(border=True, key=f"game_box_{row.id}"):
        preset = t("preset_" + row.rules.get("preset", "classic"))
        st.markdown(t("game_line", number=count - position, when=when,
                      status=t("status_" + row.status), players=md_escape(", ".join(names)),
                      preset=preset))
        cols = st.columns(2)
        with cols[0]:
            if row.status == "playing" and row.options.get("table"):
                code = row.options["table"]
                if mine and all(s.left_at is not None for s in mine):
                    st.caption(t("table_game_handed", code=code))
                elif Tables(storage()).holds_seat(profile.id, code,
                                                   device_token(code, profile.id)):
                    # This device holds the child's seat: its board, its hand only.
                    if st.button(t("table_game_continue", code=code), key=f"table_{row.id}",
                                 use_container_width=True):
                        continue_code = code
                elif not tablet_has_read(profile.id):  # the tablet answers in a moment
                    st.caption("⏳ " + t("table_seat_looking"))
                else:  # the seat is the secret of the tablet that joined (docs/TABLES.md)
                    st.caption(t("table_seat_not_here", code=code))
            elif row.status == "playing":
                st.button(t("continue_game"), key=f"continue_{row.id}", on_click=_continue,
                          args=(row.id,), use_container_width=True)
        with cols[1]:
            # A record holds every deal (the hidden hands too): never for a game
            # still in play, unless every hand is face up anyway (mesa abierta).
            if row.record_shareable:
                st.download_button(t("download_record"),
                                   lambda game_id=row.id: _record_json(game_id),
                                   # Named as the list numbers it ("Game 2"), by game.
                                   file_name=f"{row.rules.get('variant', 'escoba')}-game-"
                                             f"{count - position}-{row.updated_at:%Y-%m-%d}"
                                             ".json",
                                   mime="application/json", key=f"download_{row.id}",
                                   use_container_width=True)
            else:
                st.caption(t("download_after_game"))

if pages > 1:
    _page_turner("bottom")

# The seats this tablet keeps for this child (issue 31: "Continue" after a closed tab).
keep_seats(profile.id)
if continue_code is not None:
    continue_at_table(profile, continue_code)  # the table's page, or why not
    show_flash()
