"""Play a friend on another tablet: open or join a table, the waiting room, the game.

Over :mod:`trainer.tables` (no rules here). What this device keeps in session state
is only its :class:`~trainer.tables.TableSeat` (a cache of the database's table, for
drawing); the tablet keeps the seat's secret (:mod:`ui.seat_keeper`, issue 31) and the
address says the table (``?table=K7MPX``; ``&seat=<secret>`` too until the tablet has
confirmed it keeps the seat, and old links with it still work): a reload, a closed tab,
a sleeping tablet or another app process reads the table again from the database,
where everything shared lives.

Other devices' moves arrive by polling (docs/TABLES.md): a small fragment runs every
:data:`POLL_SECONDS`, reads the table's version and the game's revision (one small
query) and reruns the page only when they changed. The board itself is a fragment
too: this child's taps redraw only the board.
"""

from __future__ import annotations

import html
import logging
from typing import Any

import streamlit as st

from escoba import PRESETS, RulesError
from trainer.board_view import BoardRefusal, read_action
from trainer.cards import pick_label
from trainer.evidence import TurnContext
from trainer.gameplay import bot_levels
from trainer.i18n import t
from trainer.tables import (
    SeatPresence,
    TableRefusal,
    Tables,
    TableSeat,
    TableTicket,
    normalise_table_code,
)
from trainer.text import md_escape
from trainer.words import seat_name, sweep_word_key
from ui.i18n import current_language, labels

from .board import deck_of, hint_and_choosers, hint_step, put_table_cards_back, with_refusals
from .board_component import say_refusal, show_board_component
from .endgame import show_review_of, show_won_cards
from .errors import friendly_fragment, safe_callback, show_error_flash
from .layout import show_flash
from .newgame import (
    ESCOBA_PRESETS,
    build_rules,
    show_game_choice,
    show_more_rules,
    show_scopa_options,
)
from .practice import today
from .profiles import show_pin_form
from .score import show_round_score
from .seat_keeper import (
    forget_seat,
    held_seats,
    keep_seats,
    kept_on_tablet,
    remember_seat,
    tablet_has_read,
)
from .session import flash, set_profile, settings, storage
from .speaker import board_speech

__all__ = ["table_page", "POLL_SECONDS", "device_token", "continue_at_table",
           "CLASS_TABLES_SECONDS"]

log = logging.getLogger("escoba.app")

#: How often a device asks the database whether the table moved on (docs/TABLES.md).
POLL_SECONDS = 0.5
#: Session-state keys: this device's seat, and what the poller last saw of presence.
KEY_SEAT = "table_seat"
KEY_PRESENCE = "table_presence"
KEY_BOARD = "table_board"
#: A device whose seat went to the computer, watching the game (read-only).
KEY_WATCH = "table_watch"
#: A third device at a full table: the code, for the lobby's "full" box (issue 31).
KEY_FULL = "tb_full"
#: The lobby shows "Open a table" first (the full box's button).
KEY_OPEN_FIRST = "tb_open_first"
#: The child whose seat a link on this tablet is, when another child is signed in and
#: tapped "I'm …": their PIN is asked here (issue 25).
KEY_SEAT_OWNER = "table_seat_owner"
#: How often the class's open tables are read again while the lobby shows them.
CLASS_TABLES_SECONDS = 3
#: Set by a tap on the class's list: the page (not only the list) is drawn again.
KEY_LIST_JOINED = "tb_list_joined"
#: Target scores a table offers: 1 is "first to score wins", a game of one or two rounds.
TARGETS = [1, 15, 21, 31]
TABLE_URL_KEYS = ("table", "seat")


def _tables() -> Tables:
    return Tables(storage())


# -- this device's seat ----------------------------------------------------------------

def _set_seat(seat: TableSeat | None) -> None:
    """Remember the seat in session state and on the tablet, the table in the URL (a
    reload, a closed tab or another app process finds the seat again)."""
    if seat is None:
        st.session_state.pop(KEY_SEAT, None)
        for key in TABLE_URL_KEYS:
            st.query_params.pop(key, None)
        return
    st.session_state[KEY_SEAT] = seat
    if seat.player_id is not None:
        remember_seat(seat.player_id, seat.code, seat.token)
    _link(seat.code, seat.token, seat.player_id)


def _link(code: str, token: str, profile_id: int | None) -> None:
    """The address of this device's seat: ``?table=CODE``, and the secret only until the
    tablet has said it keeps the seat (the secret does not linger in the address bar, nor
    in a proxy's logs through the referrer; a tablet that keeps nothing keeps it there)."""
    params = st.query_params
    if params.get("table") != code:
        params["table"] = code
    keeps = profile_id is not None and kept_on_tablet(profile_id, code, token)
    if keeps and "seat" in params:
        params.pop("seat", None)
    elif not keeps and params.get("seat") != token:
        params["seat"] = token


def _link_names(seat: TableSeat) -> bool:
    """Whether the address is this seat's: its table, and its secret or none."""
    params = st.query_params
    return params.get("table") == seat.code and params.get("seat") in (None, seat.token)


def current_seat(profile: Any) -> TableSeat | TableRefusal | None:
    """This device's seat for the child signed in (``profile``): from session state,
    else from the URL's link (a bad link: a clear message and the lobby, nothing else
    changes). Another child's seat is the refusal ``table_seat_other_child``, for the
    page to say whose it is (below its title) and offer their PIN or watching."""
    seat: TableSeat | None = st.session_state.get(KEY_SEAT)
    if seat is not None and seat.player_id != profile.id:
        st.session_state.pop(KEY_SEAT, None)  # another child's: never played for this one
        seat = None
    params = st.query_params
    code, token = params.get("table"), params.get("seat")
    if seat is not None and (code is None or _link_names(seat)):
        _link(seat.code, seat.token, seat.player_id)  # back from another page; or kept now
        return seat
    if code is None and token is None:
        return None
    if token is None:  # ?table=CODE: the seat this tablet keeps for this child, if any
        return _seat_on_tablet(code, profile)
    found = _tables().seat_from_link(code, token, profile.id)
    if isinstance(found, TableRefusal):
        if found.key == "table_seat_other_child":
            return found  # the link stays: its child may come back to it
        if _watch_instead(found, code, token, profile) is not None:  # the link stays
            _say_refusal(found)
            return None
        _flash_refusal(found)  # said below the page's title, above the lobby
        _set_seat(None)
        return None
    _set_seat(found)
    return found


#: Said while the tablet has not yet said which seats it keeps (a moment after a load).
LOOKING = TableRefusal("table_seat_looking")
#: What is said to a child who sat at the table: the seat the tablet keeps may say more
#: (its board, the game's end, the game to watch), so its answer is awaited first.
_MY_TABLE = {"table_seat_not_here", "table_game_handed", "table_link_finished"}


def _seat_on_tablet(code: str, profile: Any) -> TableSeat | TableRefusal | None:
    """The address names a table and no secret (a reload, a closed tab opened again, My
    games' Continue, another app process): the seat the tablet keeps for this child, or
    the truth about that table on this tablet (issue 31)."""
    held = held_seats(profile.id)
    found = _tables().seat_here(code, profile.id, held)
    if isinstance(found, TableSeat):
        _set_seat(found)
        return found
    if found.key in _MY_TABLE and not tablet_has_read(profile.id):
        return LOOKING  # the tablet answers in a moment: its seat, or "not on this tablet"
    token = held.get(normalise_table_code(code) or "")
    if found.key == "table_seat_handed" and token is not None \
            and _watch_instead(found, code, token, profile) is not None:
        _say_refusal(found)
        return None
    if found.key == "table_join_waiting":  # they may join: the code is typed for them
        st.session_state["tb_code"] = str((found.params or {}).get("code", ""))
    if found.key == "table_full_started":
        st.session_state[KEY_FULL] = (found.params or {}).get("code")
    else:
        _flash_refusal(found)  # said below the page's title, above the lobby
    if found.key in ("table_closed", "table_bad_link") and code in held:
        forget_seat(profile.id, code)  # a secret of a table that is gone
    _set_seat(None)
    return None


def _another_childs_seat(refusal: TableRefusal, profile: Any) -> None:
    """The link on this tablet is another child's seat (the tablet's child changed): say
    whose it is, and offer what may be done: that child comes back (their PIN, when they
    have one), this child watches (no hand shown), or goes to the tables."""
    params = refusal.params or {}
    owner = storage().get_profile(int(params["profile_id"])) \
        if params.get("profile_id") is not None else None
    name = f"{owner.avatar} {owner.nickname}" if owner is not None else str(params.get("name"))
    with st.container(border=True, key="tb_other_child"):
        st.warning(t("table_seat_whose", name=md_escape(name),
                     me=md_escape(f"{profile.avatar} {profile.nickname}")), icon="🔒")
        if owner is not None and st.session_state.get(KEY_SEAT_OWNER) == owner.id:
            show_pin_form(owner)
        with st.container(horizontal=True):
            if owner is not None:
                st.button(t("table_seat_i_am", name=md_escape(name)), key="tb_i_am",
                          on_click=_on_i_am, args=(owner.id,), type="primary")
            st.button(t("table_seat_watch"), key="tb_watch_other", on_click=_on_watch_other,
                      args=(profile,), icon="👀")
            st.button(t("table_leave"), key="tb_other_leave", on_click=_on_leave)


@safe_callback
def _on_i_am(owner_id: int) -> None:
    """"I'm Bob": Bob's PIN first when he has one (as on "Who's playing?", with its
    limits); a profile without a PIN is chosen at once, and the link is his seat again."""
    owner = storage().get_profile(owner_id)
    if owner is None:
        return
    if owner.protected:
        st.session_state[KEY_SEAT_OWNER] = owner.id
        return
    set_profile(owner)


@safe_callback
def _on_watch_other(profile: Any) -> None:
    """Watch the game of the link's seat, read-only: no hand drawn, nothing played."""
    watcher = _tables().watch(st.query_params.get("table"), st.query_params.get("seat"),
                              profile.id)
    if watcher is not None:
        st.session_state.pop(KEY_SEAT, None)
        st.session_state[KEY_WATCH] = watcher


def _watch_instead(refusal: TableRefusal, code: Any, token: Any, profile: Any
                   ) -> TableSeat | None:
    """When ``refusal`` says the computer took this device's seat: the game to watch
    (read-only), now this session's instead of a seat; otherwise None."""
    watcher = (_tables().watch(code, token, profile.id)
               if refusal.key == "table_seat_handed" else None)
    if watcher is not None:
        st.session_state.pop(KEY_SEAT, None)
        st.session_state[KEY_WATCH] = watcher
    return watcher


#: A link that no longer plays but is no mistake either: said as news, not in red.
_NEWS = {"table_link_finished": "🏁", "table_seat_handed": "🤖", "table_game_handed": "🤖",
         "table_join_waiting": "🪑", "table_finished": "🏁"}
#: What is true on this tablet, no mistake of the child's: said as a warning.
_ELSEWHERE = {"table_link_not_yours", "table_seat_not_here"}


def _say_refusal(refusal: TableRefusal) -> None:
    """Why this device's link shows no seat: news (the game is over, the computer took
    over the seat) as information, a broken link as an error."""
    params = {k: md_escape(str(v)) for k, v in (refusal.params or {}).items()}
    if refusal.key == "table_join_waiting":  # the button's own words, in this language
        params["join"] = t("table_join_button")
    text = t(refusal.key, **params)
    if refusal.key in _NEWS:
        st.info(text, icon=_NEWS[refusal.key])
    elif refusal.key in _ELSEWHERE:  # a friend's link, a seat on another tablet
        st.warning(text, icon="🔒")
    else:
        st.error(text, icon="🔗")


def _flash_refusal(refusal: TableRefusal) -> None:
    """A refusal said on the next run, as :func:`_say_refusal` says it now: news as
    information, "on another tablet" as a warning, a mistake as an error."""
    kind = ("info" if refusal.key in _NEWS else
            "warning" if refusal.key in _ELSEWHERE else "error")
    params = dict(refusal.params or {})
    if refusal.key == "table_join_waiting":  # the button's own words, in this language
        params["join"] = t("table_join_button")
    flash(kind, refusal.key, **params)


def _ticket_seat(ticket: TableTicket, profile: Any) -> None:
    found = _tables().seat_from_link(ticket.code, ticket.token, profile.id)
    if isinstance(found, TableSeat):
        _set_seat(found)
    elif found.key == "table_seat_handed":  # back by the code to a seat the computer took
        if _watch_instead(found, ticket.code, ticket.token, profile) is not None:
            _link(ticket.code, ticket.token, profile.id)  # the watch view says so
        else:
            _flash_refusal(found)


def device_token(code: str, profile_id: int) -> str | None:
    """The secret of ``profile_id``'s seat at table ``code``, if this tablet (or this
    session) keeps one: never another profile's (:mod:`ui.seat_keeper`)."""
    return held_seats(profile_id).get(code)


def continue_at_table(profile: Any, code: str) -> None:
    """My games' "continue at the table": the table's page at this device's own seat
    (its hand only), if the seat is this profile's; otherwise nothing changes."""
    found = _tables().device_seat(profile.id, code, device_token(code, profile.id))
    if found is None:
        flash("warning", "table_seat_not_here", code=code)
        return
    st.session_state.pop(KEY_WATCH, None)
    st.session_state[KEY_SEAT] = found
    query = {"table": found.code}
    if not kept_on_tablet(profile.id, found.code, found.token):
        query["seat"] = found.token  # not kept on the tablet: the address keeps it
    st.switch_page("app_pages/tables.py", query_params=query)


# -- the lobby: open or join -------------------------------------------------------------

@safe_callback
def _on_join(profile: Any, code: str | None = None) -> None:
    typed = code if code is not None else st.session_state.get("tb_code", "")
    # The seats this tablet keeps for this child: the code brings them back to theirs.
    ticket = _tables().join(typed, profile, held=held_seats(profile.id))
    st.session_state.pop(KEY_FULL, None)
    if isinstance(ticket, TableRefusal):
        if ticket.key == "table_full_started":
            st.session_state[KEY_FULL] = (ticket.params or {}).get("code")
            return
        _flash_refusal(ticket)
        return
    st.session_state["tb_code"] = ""
    _ticket_seat(ticket, profile)


@safe_callback
def _on_open(profile: Any) -> None:
    state = st.session_state
    for key in (KEY_FULL, KEY_OPEN_FIRST):  # the lobby's full box has done its work
        state.pop(key, None)
    players = int(state.get("tb_players") or 2)
    form = {"ng_preset": state.get("tb_preset", "relaxed"), "ng_opponents": players - 1,
            "ng_teams": bool(state.get("tb_teams")) and players == 4,
            "ng_target": int(state.get("tb_target") or 15),
            "ng_open": bool(state.get("tb_open"))}
    preset = PRESETS[form["ng_preset"]]
    # The "more rules" of the new-game form, under its own keys (the preset's values
    # until the child changes them).
    more = {"capture_rule": preset.capture_rule, "initial": preset.initial_fifteen,
            "last_escoba": preset.last_play_escoba, "primera": False, "hand7": False,
            "jokers": False, "sum": 15, "miscount": "retry"}
    form.update({f"ng_{name}": state.get(f"tb_{name}", default)
                 for name, default in more.items()})
    # The game and Scopa's options, under the table form's own keys.
    form.update({f"ng_{name}": state.get(f"tb_{name}", default) for name, default in
                 {"game": "escoba", "scopa_preset": "scopa", "scopa_target": 11,
                  "napola": False, "asso": False}.items()})
    try:
        rules = build_rules(form)
    except RulesError as exc:
        flash("warning", "rules_error", detail=str(exc))
        return
    bots = {i: state.get(f"tb_level_{i}") or bot_levels()[0] for i in range(1, players)
            if state.get(f"tb_kind_{i}", "human") == "bot"}
    class_id = storage().class_of(profile.id)
    ticket = _tables().open_table(profile, rules, bots=bots, hints=bool(state.get("tb_hints")),
                                  class_id=class_id, deck=str(settings().get("deck")))
    _ticket_seat(ticket, profile)


def _open_form(profile: Any) -> None:
    state = st.session_state
    for key, value in {"tb_players": 2, "tb_preset": "relaxed", "tb_target": 15,
                       "tb_hints": True, "tb_open": False, "tb_teams": False}.items():
        state.setdefault(key, value)
    with st.container(border=True, key="tb_open_box"):
        st.subheader(t("table_open_title"))
        scopa = show_game_choice("tb")
        st.segmented_control(t("table_seats"), [2, 3, 4], key="tb_players", required=True)
        players = int(state.get("tb_players") or 2)
        # Scopone is always played in teams: the switch is for plain Scopa and Escoba.
        if players == 4 and not (scopa and state.get("tb_scopa_preset", "scopa") != "scopa"):
            st.toggle(t("teams"), key="tb_teams", help=t("teams_help"))
        cols = st.columns(players - 1)
        for i in range(1, players):
            with cols[i - 1]:
                st.markdown(f"**{t('seat_n', n=i + 1)}**")
                st.segmented_control(t("who_plays"), ["human", "bot"], key=f"tb_kind_{i}",
                                     default="human", required=True,
                                     format_func=labels("table_kind_"))
                if state.get(f"tb_kind_{i}") == "bot":
                    st.selectbox(t("table_computer_level"), bot_levels(), key=f"tb_level_{i}",
                                 format_func=labels("level_"))
        if scopa:
            show_scopa_options("tb", players)
        else:
            st.selectbox(t("preset"), ESCOBA_PRESETS, key="tb_preset",
                         format_func=labels("preset_"), on_change=_on_table_preset)
            lang = current_language()
            st.segmented_control(t("target"), TARGETS, key="tb_target", required=True,
                                 format_func=lambda v: t("table_target_quick", lang) if v == 1
                                 else str(v))
        st.toggle(t("table_hints"), key="tb_hints")
        st.toggle(t("open_hand_scopa" if scopa else "open_hand"), key="tb_open",
                  help=t("open_hand_help"))
        if not scopa:  # Escoba's options: sums, jokers, miscounts...
            _more_rules()
        st.button(t("table_open_button"), key="tb_open_button", type="primary",
                  on_click=_on_open, args=(profile,), use_container_width=True)


@safe_callback
def _on_table_preset() -> None:
    preset = PRESETS[st.session_state["tb_preset"]]
    st.session_state.update(tb_capture_rule=preset.capture_rule,
                            tb_initial=preset.initial_fifteen,
                            tb_last_escoba=preset.last_play_escoba)


def _more_rules() -> None:
    """Every other option of the rules (the new-game form's "more rules")."""
    preset = PRESETS[st.session_state.get("tb_preset", "relaxed")]
    for key, value in {"tb_capture_rule": preset.capture_rule, "tb_initial":
                       preset.initial_fifteen, "tb_last_escoba": preset.last_play_escoba,
                       "tb_sum": 15, "tb_miscount": "retry", "tb_primera": False,
                       "tb_hand7": False, "tb_jokers": False}.items():
        st.session_state.setdefault(key, value)
    show_more_rules("tb")


def _full_box() -> None:
    """A third device typed the code of a table whose seats are all taken and whose game
    has begun: it says so, and offers to open a new table (watching is for a seat's own
    old link only: a code alone is no window into a game; docs/TABLES.md)."""
    code = st.session_state.get(KEY_FULL)
    if not code:
        return
    with st.container(border=True, key="tb_full_box"):
        st.warning(t("table_full_started", code=md_escape(str(code))), icon="🪑")
        st.button(t("table_full_open_new"), key="tb_full_open", type="primary",
                  on_click=_on_full_open_new, icon="➕", use_container_width=True)


@safe_callback
def _on_full_open_new() -> None:
    st.session_state.pop(KEY_FULL, None)
    st.session_state[KEY_OPEN_FIRST] = True
    st.session_state["tb_code"] = ""


def _lobby(profile: Any) -> None:
    _full_box()
    if st.session_state.get(KEY_OPEN_FIRST):  # "Open a new table": the form on top
        _open_form(profile)
    with st.container(border=True, key="tb_join_box"):
        st.subheader(t("table_join_title"))
        # A description, not a sample code a child might take for a real one.
        st.text_input(t("table_code_label"), key="tb_code", max_chars=12,
                      placeholder=t("table_code_placeholder"))
        st.button(t("table_join_button"), key="tb_join_button", type="primary",
                  on_click=_on_join, args=(profile,), use_container_width=True)
    class_id = storage().class_of(profile.id)
    if class_id is not None:
        _class_tables(profile, class_id)
    if not st.session_state.get(KEY_OPEN_FIRST):
        _open_form(profile)


@friendly_fragment(run_every=CLASS_TABLES_SECONDS)
def _class_tables(profile: Any, class_id: int) -> None:
    """The class's open tables, read again by itself every few seconds while the lobby
    shows them (one query; the timer stops when the child leaves the lobby): a table a
    classmate opens appears without a tap."""
    if st.session_state.pop(KEY_LIST_JOINED, False):
        st.rerun(scope="app")  # joined from this list: the page shows the seat, or why not
    open_tables = _tables().open_tables(class_id)
    st.subheader(t("table_class_open"))
    if not open_tables:
        st.caption(t("table_class_none"))
    for table, seats in open_tables:
        names = ", ".join(f"{s.avatar} {s.name or t('bot_name', n=s.seat + 1)}" for s in seats)
        with st.container(border=True, horizontal=True, key=f"tb_class_{table.id}"):
            st.markdown(md_escape(f"{table.code} · {names}"))
            st.button(t("table_join_button"), key=f"tb_join_{table.id}",
                      on_click=_on_join_listed, args=(profile, table.code))


@safe_callback
def _on_join_listed(profile: Any, code: str) -> None:
    """A tap on a table of the class's list (a fragment: the whole page follows)."""
    st.session_state[KEY_LIST_JOINED] = True
    _on_join(profile, code)


# -- the waiting room ------------------------------------------------------------------

def _code_box(code: str) -> None:
    spaced = " ".join(code)
    st.html(f"<div data-testid='table-code' style='font-size:3.2rem;font-weight:800;"
            f"letter-spacing:0.3rem;text-align:center;padding:0.3rem;border:3px dashed "
            f"rgba(128,128,128,0.5);border-radius:14px'>{html.escape(spaced)}</div>")


def _seat_line(p: SeatPresence) -> str:
    if p.kind == "empty":
        return f"{p.seat + 1}. ⏳ " + t("table_seat_free")
    who = f"{p.avatar} {p.name}"
    if p.kind == "bot":
        who = t("name_and_note", name=who, note=t("level_" + p.level))
    if p.is_me:
        who += " · " + t("table_you")
    if p.away:
        who += " · " + t("table_away")
    return f"{p.seat + 1}. {who}"


@safe_callback
def _on_start_now(seat: TableSeat) -> None:
    refused = seat.start_with_computers(st.session_state.get("tb_fill_level") or "gentle")
    if refused is not None:
        flash("warning", refused.key)


@safe_callback
def _on_close_ask() -> None:
    st.session_state["tb_confirm_close"] = True


@safe_callback
def _on_close_keep() -> None:
    st.session_state.pop("tb_confirm_close", None)


@safe_callback
def _on_close(seat: TableSeat) -> None:
    st.session_state.pop("tb_confirm_close", None)
    refused = seat.close()
    if refused is not None:  # a friend filled the last seat a moment earlier
        flash("warning", refused.key)
        return
    _forget(seat)
    _set_seat(None)
    flash("success", "table_closed_done", code=seat.code)


@safe_callback
def _on_leave_waiting(seat: TableSeat) -> None:
    refused = seat.leave()
    if refused is not None:
        flash("warning", refused.key)
        return
    _forget(seat)
    _set_seat(None)
    flash("success", "table_left_done", code=seat.code)


def _forget(seat: TableSeat | None) -> None:
    """The tablet forgets a seat its child is done with (never another child's)."""
    if seat is not None and seat.me is not None and seat.player_id is not None \
            and seat.me.profile_id == seat.player_id:
        forget_seat(seat.player_id, seat.code)


@safe_callback
def _on_leave() -> None:
    _forget(st.session_state.get(KEY_SEAT))
    _forget(st.session_state.get(KEY_WATCH))
    st.session_state.pop(KEY_WATCH, None)
    st.session_state.pop(KEY_OPEN_FIRST, None)
    _set_seat(None)


def _waiting_room(seat: TableSeat) -> None:
    st.markdown(t("table_code_say"))
    _code_box(seat.code)
    presence = seat.presence()
    rules = seat.rules
    if rules.teams:  # who plays with whom (partners sit opposite)
        for side in range(rules.sides):
            lines = [md_escape(_seat_line(presence[s])) for s in rules.seats_of(side)]
            st.markdown(f"**{t('table_team_n', n=side + 1)}**  \n" + "  \n".join(lines))
    else:  # one line a seat, numbered as the game names the players (no bullet too)
        st.markdown("  \n".join(md_escape(_seat_line(p)) for p in presence))
    st.caption(t("table_waiting"))
    if seat.seat == 0:
        with st.container(horizontal=True, key="tb_start_box"):
            st.selectbox(t("table_computer_level"), bot_levels(), key="tb_fill_level",
                         format_func=labels("level_"))
            st.button(t("table_start_now"), key="tb_start_now", on_click=_on_start_now,
                      args=(seat,))
        if st.session_state.get("tb_confirm_close"):
            with st.container(border=True, key="tb_close_confirm"):
                st.markdown(t("table_close_confirm"))
                with st.container(horizontal=True):
                    st.button(t("table_close_yes"), key="tb_close_yes", on_click=_on_close,
                              args=(seat,), type="primary")
                    st.button(t("table_close_no"), key="tb_close_no", on_click=_on_close_keep)
        else:
            st.button(t("table_close"), key="tb_close", on_click=_on_close_ask,
                      type="secondary", icon="🚪")
    else:
        st.button(t("table_leave_waiting"), key="tb_leave_waiting", on_click=_on_leave_waiting,
                  args=(seat,), type="secondary", icon="🚪")


# -- the game ----------------------------------------------------------------------------

def _flash_outcome(key: str, params: dict[str, Any], variant: str = "escoba") -> None:
    if key in ("table_moved_first",):
        flash("warning", key)
    elif key == "penalty":
        flash("error", "penalty", **params)
    elif key == "escoba":
        flash("success", sweep_word_key("you_escoba", variant))
    elif key not in ("played", "next_round", "renuncio_ok"):
        flash("error", key, **params)


def _play(seat: TableSeat, card: Any, take: list, seconds: float | None = None) -> None:
    """The child's move; the turn is evidence for their facts (helped when the table
    draws hints on the cards: they are always on screen there)."""
    turn = TurnContext(day=today().isoformat(), seconds=seconds, helped=seat.hints)
    outcome = seat.play(card, take, seat.revision, turn)
    if outcome.move_refused:  # said beside Play until the next tap (issue 31)
        say_refusal(outcome.key, **outcome.params)
        put_table_cards_back("tb_take")
    else:
        _flash_outcome(outcome.key, outcome.params,
                       seat.game.rules.variant if seat.game is not None else "escoba")
    if outcome.play is not None:
        st.session_state.pop("tb_hand", None)
        st.session_state.pop("tb_take", None)


def _on_board_action(seat: TableSeat, raw: Any) -> None:
    """What the board sent, read for the position it was drawn at: a tap on an older
    position is ignored (the board is redrawn), a forged one refused with a sentence."""
    if seat.game is None:
        return
    action = read_action(raw, seat.position(), kinds=("play", "renuncio"))
    if isinstance(action, BoardRefusal):
        if not action.stale:
            flash("error", action.key)
        return
    if action.kind == "renuncio":
        outcome = seat.claim_renuncio(seat.revision, action.take)
        flash("success" if outcome.ok else "warning", outcome.key, **outcome.params)
        return
    assert action.card is not None
    _play(seat, action.card, list(action.take), action.seconds)


@safe_callback
def _on_fallback_play(seat: TableSeat) -> None:
    from escoba import Card

    hand = st.session_state.get("tb_hand")
    if not hand:
        flash("warning", "pick_a_card_first")
        return
    _play(seat, Card.parse(hand), [Card.parse(k) for k in st.session_state.get("tb_take") or []])


@safe_callback
def _on_next_round(seat: TableSeat) -> None:
    outcome = seat.next_round(seat.revision)
    if not outcome.ok and outcome.key == "table_moved_first":
        return  # a friend dealt it a moment earlier: the page shows the new round
    _flash_outcome(outcome.key, outcome.params)


@safe_callback
def _on_hand_over(seat: TableSeat, number: int) -> None:
    refused = seat.hand_to_computer(number, st.session_state.get(f"tb_hand_level_{number}")
                                    or bot_levels()[0])
    if refused is not None:
        flash("warning", refused.key)


def _fallback(seat: TableSeat) -> None:
    """Text choosers and Play for a browser where the board cannot load (and AppTest)."""
    obs = seat.game.observation(seat.seat)
    deck = deck_of(seat.game.rules)
    values = bool(settings().get("show_values", True))
    lang = current_language()
    hand = [str(c) for c in obs.hand]
    if st.session_state.get("tb_hand") not in hand:
        st.session_state.pop("tb_hand", None)
    table = [str(c) for c in obs.table]
    st.session_state["tb_take"] = [k for k in st.session_state.get("tb_take") or []
                                   if k in table]
    st.pills(t("pick_hand_label"), hand, selection_mode="single", key="tb_hand",
             format_func=lambda k: pick_label(k, deck, values, lang))
    if table:
        st.pills(t("pick_table_label"), table, selection_mode="multi", key="tb_take",
                 format_func=lambda k: pick_label(k, deck, values, lang))
    st.button(t("board_play"), key="tb_play", type="primary", on_click=_on_fallback_play,
              args=(seat,), use_container_width=True)


def _presence_row(seat: TableSeat) -> None:
    for p in seat.presence():
        if not p.away:
            continue
        st.warning(t("table_left", name=md_escape(f"{p.avatar} {p.name}")), icon="👋")
        if p.can_hand_over:
            with st.container(horizontal=True, key=f"tb_hand_box_{p.seat}"):
                st.selectbox(t("table_computer_level"), bot_levels(), key=f"tb_hand_level_{p.seat}",
                             format_func=labels("level_"))
                st.button(t("table_hand_over", name=md_escape(p.name)),
                          key=f"tb_hand_over_{p.seat}",
                          on_click=_on_hand_over, args=(seat, p.seat))
        else:
            st.caption(t("table_hand_over_later"))


@friendly_fragment
def _game_fragment() -> None:
    """The board and what goes with it: a tap reruns only this."""
    seat: TableSeat | None = st.session_state.get(KEY_SEAT)
    if seat is None or seat.game is None:
        st.rerun(scope="app")
        return
    with st.container(key="tb_messages"):
        show_error_flash()
        show_flash()
    game = seat.game
    _presence_row(seat)
    # What this child needs first sits on top, above the board (on a phone the board
    # fills the screen): whose turn it is during the game, who won at the end.
    if game.is_over:
        _game_result(seat)
    elif not game.round_over:
        if seat.my_turn:
            st.success(t("table_your_turn"), icon="👉")
        else:
            _their_turn(seat)
    data = seat.board(deck=deck_of(game.rules),
                      show_value=bool(settings().get("show_values", True)),
                      hint_step=hint_step(game), odds_style=str(settings().get("odds", "words")))
    # Each line and the score can be heard, the moves sound (issue 23); a refused try
    # clears the board's picks.
    board_speech(with_refusals(data), deck=deck_of(game.rules))
    show_board_component(data, key=KEY_BOARD, on_action=lambda raw: _on_board_action(seat, raw))
    if game.round_over:
        _last_round_score(game)
        if not game.is_over:
            why = game.why_more_rounds()
            if why is not None:  # a tie at the target, or nobody scored in a quick game
                score = "–".join(str(points) for points in game.game.totals)
                st.info(t("table_more_rounds_" + why, score=score), icon="🔁")
            st.button(t("next_round"), key="tb_next_round", type="primary",
                      on_click=_on_next_round, args=(seat,), use_container_width=True)
        else:
            _game_end(seat)
        return
    if seat.my_turn:
        # The Play page's hint panel, for this device's seat only (from its observation),
        # when the table agreed on hints at opening; the text choosers where no board drew.
        hint_and_choosers(game, game.observation(seat.seat), deck_of(game.rules),
                          hints=seat.hints, choosers=lambda: _fallback(seat))


def _side_names(game: Any) -> list[str]:
    return [game.side_name(s) for s in range(game.rules.sides)]


def _last_round_score(game: Any) -> None:
    """The score table of the round just played (the player's and the watcher's view)."""
    rounds = game.game.rounds
    show_round_score(rounds[-1].score(), _side_names(game), len(rounds), game.rules)
    show_won_cards(game, _side_names(game), key="tb_end")


def _their_turn(seat: TableSeat) -> None:
    """Whose turn it is when not this child's: playing, or away (then what happens next,
    never "is playing" under "left the table")."""
    game = seat.game
    who = game.seats[game.to_move]
    name = md_escape(f"{who.avatar} {seat_name(who, game.to_move)}")
    waiting = seat.waiting_on()
    if waiting is not None and waiting.can_hand_over:
        st.warning(t("table_their_turn_gone", name=name), icon="⏳")
    elif waiting is not None and waiting.away:
        st.warning(t("table_their_turn_away", name=name, seconds=seat.timeout), icon="⏳")
    else:
        st.info(t("table_their_turn", name=name), icon="⏳")


def _game_result(seat: TableSeat) -> None:
    """Who won and the final totals: the first thing on the screen once the game is over."""
    game = seat.game
    names = _side_names(game)
    winner = game.game.winner
    if winner is None:
        st.info(t("game_stopped"))
    elif game.rules.side_of(seat.seat) == winner:
        st.success(t("you_won"), icon="🏆")
    else:
        st.success(t("winner_is", name=md_escape(names[winner])), icon="🏆")
    totals = " · ".join(f"{names[s]}: {game.game.totals[s]}" for s in range(game.rules.sides))
    st.markdown(f"**{t('final_totals')}** {md_escape(totals)}")


def _game_end(seat: TableSeat) -> None:
    """Below the board and the last score table: who played whose moves, the reviews."""
    game = seat.game
    # Who played which moves, when a seat changed hands.
    for row in seat.hand_overs():
        st.caption(t("table_handed_note", name=md_escape(row.name), round=row.from_round,
                     move=row.from_move, level=t("level_" + row.level)))
    # The coach's review of this device's child only, addressed to them: a friend's
    # mistakes are theirs (the others see the result and the totals above). Pass-and-play
    # on one tablet still shows every child's (ui/endgame.py).
    me = game.seats[seat.seat]
    st.markdown("### " + md_escape(t("table_review_title", name=f"{me.avatar} {me.name}")))
    show_review_of(game, seat.seat, owner=False)
    st.button(t("table_leave"), key="tb_leave", on_click=_on_leave, use_container_width=True)


@friendly_fragment(run_every=POLL_SECONDS)
def _poller() -> None:
    """Every half second: has the table moved on (one small read)? Then the whole page
    is drawn again. Every few seconds also: this device is here, and who is away."""
    seat: TableSeat | None = st.session_state.get(KEY_SEAT)
    if seat is None or seat.table is None:
        return
    seat.touch()
    if seat.changed():
        st.rerun()
    if seat.game is not None and not seat.game.is_over:
        signature = _presence_signature(seat)
        if signature != st.session_state.get(KEY_PRESENCE):
            st.session_state[KEY_PRESENCE] = signature
            st.rerun()


def _presence_signature(seat: TableSeat) -> tuple:
    """Who is away or may be handed to the computer: re-read every few seconds."""
    cached = st.session_state.get("table_presence_read")
    at = seat.tables.clock()
    if cached is None or (at - cached[0]).total_seconds() >= 5:
        seat.reread_seats()
        cached = (at, tuple((p.seat, p.away, p.can_hand_over) for p in seat.presence(at)))
        st.session_state["table_presence_read"] = cached
    return cached[1]


def _page_title(seat: TableSeat | None) -> None:
    """The page's title, big in the lobby and the waiting room; during a game only a
    small line with the table's code (on a phone the big title took a third of the
    screen above the board)."""
    if seat is None or seat.waiting or seat.table is None or seat.table.status == "closed":
        st.title(t("tables_title"))
    else:
        st.caption(f"🤝 {t('tables_title')} · {t('table_playing_at', code=seat.code)}")


@friendly_fragment(run_every=POLL_SECONDS)
def _watch_poller() -> None:
    """The watching device's poll: the page again when the game moved on."""
    watcher: TableSeat | None = st.session_state.get(KEY_WATCH)
    if watcher is not None and watcher.table is not None and watcher.changed():
        st.rerun()


def _watch_view(watcher: TableSeat) -> None:
    """The game as the device whose seat went to the computer sees it: the board with
    no hand and nothing to tap, the scores and the result, and the way back."""
    if watcher.pulse is None or watcher.changed():
        watcher.refresh()
    _watch_poller()
    game = watcher.game
    if game is not None:
        if game.is_over:
            _game_result(watcher)
        handed = watcher.me is not None and watcher.me.left_at is not None
        st.caption(t("table_watching" if handed else "table_watching_other"))
        data = watcher.board(deck=deck_of(game.rules),
                             show_value=bool(settings().get("show_values", True)))
        board_speech(data, deck=deck_of(game.rules))
        show_board_component(data, key=KEY_BOARD, on_action=lambda raw: None)
        if game.round_over:
            _last_round_score(game)
    st.button(t("table_leave"), key="tb_leave_watch", on_click=_on_leave,
              use_container_width=True)


def table_page(profile: Any) -> None:
    """The page: the lobby, the waiting room or the game of this device's seat (or, for
    a seat handed to the computer, the game to watch). Then the tablet's seat keeper,
    told what to keep or forget in this run."""
    _table_page(profile)
    keep_seats(profile.id)


def _looking() -> None:
    """The tablet has not yet said which seats it keeps (a moment after a load): no false
    "not on this tablet" meanwhile, and a way out if it never answers."""
    _page_title(None)
    st.caption("⏳ " + t("table_seat_looking"))
    st.button(t("table_leave"), key="tb_leave_looking", on_click=_on_leave)


def _table_page(profile: Any) -> None:
    seat = current_seat(profile)
    if seat is LOOKING:
        _looking()
        return
    others: TableRefusal | None = None
    if isinstance(seat, TableRefusal):
        others, seat = seat, None
    watcher: TableSeat | None = st.session_state.get(KEY_WATCH)
    if seat is None and watcher is not None and _link_names(watcher) \
            and watcher.player_id == profile.id:
        _watch_view(watcher)
        return
    st.session_state.pop(KEY_WATCH, None)
    if seat is None:
        _page_title(None)
        show_flash()
        if others is not None:
            _another_childs_seat(others, profile)
        _lobby(profile)
        return
    if seat.pulse is None or seat.changed():
        problem = seat.refresh()
        if problem is not None:
            watcher = _watch_instead(problem, seat.code, seat.token, profile)
            if watcher is not None:
                _say_refusal(problem)
                _watch_view(watcher)
                return
            if problem.key == "table_bad_link":  # its table is gone: nothing to keep
                forget_seat(profile.id, seat.code)
            _set_seat(None)
            _page_title(None)
            _say_refusal(problem)
            _lobby(profile)
            return
    seat.touch()
    # A whole run is rare (a change, a reload): who is here is read afresh each time.
    st.session_state.pop("table_presence_read", None)
    st.session_state[KEY_PRESENCE] = _presence_signature(seat)
    _poller()
    _page_title(seat)
    if seat.table is not None and seat.table.status == "closed":
        st.info(t("table_closed"))
        st.button(t("table_leave"), key="tb_leave_closed", on_click=_on_leave)
        return
    if seat.waiting:
        show_flash()
        _waiting_room(seat)
        return
    _game_fragment()
