"""The teacher's area ("For teachers", issue 13) drawn over the classroom core.

Without a :class:`~trainer.classroom.TeacherSession` in this browser session the page
shows the sign-in and nothing else: whatever a pupil's profile, URL or query, no class,
name or number of the teacher area is drawn. A session locked by inactivity asks the
password again. Signed in, the teacher sees their classes, and a class one part at a
time (like My progress): dashboard, fact grid, pupils, assignments, print, export,
settings.

Every action is a callback through :func:`ui.classroom.class_action` (a refusal of the
core is said on the next run); passwords are read from their widget once and dropped.
The class's data is read once per change: the snapshot and what is computed from it are
kept in this session under the class's version (:meth:`Classroom.version`) and its row,
so a rerun costs one small query.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import date
from typing import Any

import pandas as pd
import streamlit as st

from lessons import load_stages
from puzzles import CAPTURE_SUMS, KINDS, LEVELS
from trainer.classroom import (
    INVITE_DAYS,
    MAX_PUPILS,
    PASSWORD_MAX,
    PASSWORD_MIN,
    PUPIL_IDLE_CHOICES,
    AddedPupils,
    Classroom,
    ClassroomError,
    PinAttempts,
    PupilLogin,
    TeacherAuth,
    describe,
    fact_label,
    format_code,
    format_invite,
    say,
)
from trainer.classroom_print import (
    attempts_csv,
    attempts_xlsx,
    class_list_pdf,
    class_worksheet_pdf,
    dashboard_csv,
    dashboard_xlsx,
    login_cards_pdf,
    pupil_worksheets_pdf,
)
from trainer.classroom_views import (
    ASSIGNMENT_KINDS,
    FLUENCY_LIMITS,
    MAX_FACTS,
    MAX_PUZZLES,
    AssignmentProgress,
    FactGrid,
    FactTotal,
    PupilRow,
    askable_facts,
    fact_totals,
)
from trainer.export import file_name, kind_text
from trainer.i18n import format_day, format_number, join_text, t
from trainer.names import sort_names
from trainer.storage import ClassInfo, ClassSnapshot, Member
from trainer.text import md_escape

from . import progress
from .classroom import (
    TEACHER,
    class_action,
    class_flash,
    class_labels,
    ct,
    ct_text,
    end_teacher_session,
    show_class_flash,
    teacher_session,
)
from .downloads import csv_style_choice, download, table_buttons
from .errors import friendly_fragment
from .i18n import current_language
from .practice import child_timezone, today
from .session import device_key, storage
from .streamlit_words import date_format

__all__ = ["show_teacher_page", "PARTS", "CELL_MARKS", "grid_html", "legend_html",
           "dashboard_html", "totals_html"]

KEY_CLASS = "tc_class"
KEY_PART = "tc_part"
KEY_SNAP = "tc_snap"
KEY_ADDED = "tc_added"  # (class id, AddedPupils): the PINs just made, until "done"
KEY_NEW_PINS = "tc_new_pins"  # (class id, [PupilLogin]): a class's new PINs, until "done"
KEY_PUPIL_PIN = "tc_pupil_pin"  # (class id, PupilLogin): one pupil's new PIN
#: (class id, profile id) whose "New PIN" was tapped once: it asks before voiding the card.
KEY_PIN_ASK = "tc_pin_ask"
KEY_ARCHIVE_ASK = "tc_archive_ask"  # class id whose "Archive" was tapped once
KEY_PUPIL_CHOSEN = "tc_pupil_chosen"  # the profile id chosen on the Pupils part

PARTS = ("dashboard", "grid", "pupils", "assignments", "print", "export", "settings")
#: Each cell of the fact grid says its state with a mark as well as a colour.
CELL_MARKS = {"fast": "✓", "slow": "…", "wrong": "✗", "missed": "✗?", "unseen": "·"}
_CELL_COLOURS = {"fast": ("#c8e6c9", "#1b5e20"), "slow": ("#fff1b8", "#6d5200"),
                 "wrong": ("#ffcdd2", "#8e0000"), "missed": ("#ffe9ec", "#8e0000"),
                 "unseen": ("#eceff1", "#546e7a")}
_PUZZLE_KINDS = tuple(k for k in KINDS if k != "quick-facts")


# -- small helpers ------------------------------------------------------------------------

def _room() -> Classroom:
    """The signed-in teacher's classroom (``auth.session_locked`` without a session)."""
    session = teacher_session()
    if session is None:
        raise ClassroomError("auth.session_locked")
    return Classroom(storage(), session, lang=current_language())


def _pupil_label(avatar: str, nickname: str, real_name: str | None = None) -> str:
    """A pupil as plain text (tables, select boxes): picture, nickname, real name."""
    label = f"{avatar} {nickname}"
    return t("name_and_note", name=label, note=real_name) if real_name else label


def _percent(value: float | None) -> str:
    return "" if value is None else f"{round(100 * value)} %"


def _memo(memo: dict[Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    if key not in memo:
        memo[key] = make()
    return memo[key]


def _class_data(room: Classroom, class_id: int) -> tuple[ClassSnapshot, dict[Any, Any]]:
    """The class's snapshot and a memo of its views, kept in this session until the class's
    version moves (every write they draw bumps it: its row, pupils' names, pictures, real
    names, PINs, answers; one lookup by key a run instead of the snapshot's three)."""
    version = room.version(class_id)  # the access check comes first
    # The language too: the snapshot's pupils are in its alphabetical order.
    key = (class_id, version, current_language())
    cached = st.session_state.get(KEY_SNAP)
    if cached is None or cached[0] != key:
        cached = (key, room.snapshot(class_id, today(), every_attempt=False), {})
        st.session_state[KEY_SNAP] = cached
    return cached[1], cached[2]


# -- signing in ------------------------------------------------------------------------------

@class_action
def _on_sign_in() -> None:
    name = st.session_state.get("tc_name", "") or ""
    password = st.session_state.pop("tc_password", "") or ""
    st.session_state[TEACHER] = TeacherAuth(storage()).sign_in(name, password, device_key())


@class_action
def _on_create_account() -> None:
    name = st.session_state.get("tc_new_name", "") or ""
    password = st.session_state.pop("tc_new_password", "") or ""
    again = st.session_state.pop("tc_new_password2", "") or ""
    if password != again:
        class_flash("error", "auth.password_mismatch")
        return
    invite = st.session_state.pop("tc_new_invite", "") or ""
    session = TeacherAuth(storage()).create_account(name, password, invite or None,
                                                    device=device_key())
    st.session_state[TEACHER] = session
    class_flash("success", "auth.welcome", name=session.teacher.name)


@class_action
def _on_unlock() -> None:
    password = st.session_state.pop("tc_unlock_password", "") or ""
    session = teacher_session()
    if session is not None:
        session.unlock(TeacherAuth(storage()), password, device_key())


@class_action
def _on_sign_out() -> None:
    end_teacher_session()
    class_flash("success", "auth.signed_out")


def _sign_in() -> None:
    """The only thing the page shows without a teacher's session."""
    st.caption(ct("page.teacher_intro"))
    st.session_state.setdefault("tc_auth_mode", "sign_in")
    mode = st.segmented_control(ct("auth.mode"), ("sign_in", "create"), key="tc_auth_mode",
                                format_func=class_labels("auth.mode_"),
                                required=True, label_visibility="collapsed")
    if mode == "create":
        first = TeacherAuth(storage()).first_account_open()
        if first:
            st.info(ct("auth.first_account"), icon="🏫")
        with st.form("tc_create_form", border=True):
            if not first:  # issue 27: after the first account, by invitation only
                st.text_input(ct("auth.invite"), key="tc_new_invite",
                              help=ct("auth.invite_help"), autocomplete="off")
            st.text_input(ct("auth.name"), key="tc_new_name",
                          help=ct("auth.name_help"), autocomplete="username")
            st.text_input(ct("auth.password"), key="tc_new_password", type="password",
                          max_chars=2 * PASSWORD_MAX,
                          help=ct("auth.password_help", min=PASSWORD_MIN),
                          autocomplete="new-password")
            st.text_input(ct("auth.password_again"), key="tc_new_password2",
                          type="password", max_chars=2 * PASSWORD_MAX,
                          autocomplete="new-password")
            st.form_submit_button(ct("auth.create"), type="primary",
                                  on_click=_on_create_account, width="stretch")
    else:
        with st.form("tc_sign_in_form", border=True):
            st.text_input(ct("auth.name"), key="tc_name",
                          autocomplete="username")
            st.text_input(ct("auth.password"), key="tc_password", type="password",
                          max_chars=2 * PASSWORD_MAX, autocomplete="current-password")
            st.form_submit_button(ct("auth.sign_in"), type="primary", on_click=_on_sign_in,
                                  width="stretch")
    st.caption(ct("auth.pupils_elsewhere"))


def _unlock() -> None:
    session = teacher_session()
    assert session is not None
    st.info(ct("auth.session_locked"), icon="🔒")
    with st.form("tc_unlock_form", border=True):
        st.markdown(ct("auth.signed_in_as", name=session.teacher.name))
        st.text_input(ct("auth.password"), key="tc_unlock_password", type="password",
                      max_chars=2 * PASSWORD_MAX, autocomplete="current-password")
        st.form_submit_button(ct("auth.unlock"), type="primary", on_click=_on_unlock,
                              width="stretch")
    st.button(ct("auth.sign_out"), key="tc_sign_out_locked", on_click=_on_sign_out)


# -- the classes -----------------------------------------------------------------------------

def _open(class_id: int | None) -> None:
    """Open a class (at its dashboard), or go back to the list; what was kept goes."""
    if class_id is None:
        st.session_state.pop(KEY_CLASS, None)
    else:
        st.session_state[KEY_CLASS] = class_id
        st.session_state[KEY_PART] = "dashboard"
    for key in (KEY_ADDED, KEY_NEW_PINS, KEY_PUPIL_PIN, KEY_SNAP, KEY_LOOKED_UP, KEY_PIN_ASK,
                KEY_ARCHIVE_ASK, KEY_PUPIL_CHOSEN):
        st.session_state.pop(key, None)


@class_action
def _on_open(class_id: int | None) -> None:
    _open(class_id)


@class_action
def _on_create_class() -> None:
    name = st.session_state.get("tc_class_name", "") or ""
    info = _room().create_class(name,
                                fluency_seconds=int(st.session_state.get("tc_class_fluency")
                                                    or 6),
                                capture_sum=int(st.session_state.get("tc_class_sum") or 15))
    _open(info.id)
    st.session_state[KEY_PART] = "pupils"  # a new class's first step
    class_flash("success", "classes.created", name=info.name, code=format_code(info.code))


def _class_row(info: ClassInfo) -> None:
    with st.container(border=True, horizontal=True, vertical_alignment="center"):
        st.markdown(f"**{md_escape(info.name)}** · "
                    f"{ct('card.code', code=format_code(info.code))}")
        st.button(ct("classes.open"), key=f"tc_open_{info.id}", on_click=_on_open,
                  args=(info.id,), type="primary")


def _classes(room: Classroom) -> None:
    st.subheader(ct("classes.title"), anchor=False)
    current = room.classes()
    if not current:
        st.info(ct("classes.none"), icon="🏫")
    for info in current:
        _class_row(info)
    archived = room.classes(archived=True)
    if archived:
        with st.expander(ct("classes.archived", count=len(archived)), icon="🗄️"):
            for info in archived:
                _class_row(info)
    with st.form("tc_new_class_form", clear_on_submit=True, border=True):
        st.markdown(f"**{ct('classes.new')}**")
        st.text_input(ct("classes.name"), key="tc_class_name",
                      placeholder=ct_text("classes.name_placeholder"))
        st.segmented_control(ct("classes.fluency"), FLUENCY_LIMITS, key="tc_class_fluency",
                             default=6, required=True, help=ct("classes.fluency_help"),
                             format_func=class_labels("fluency."))
        st.segmented_control(t("capture_sum"), CAPTURE_SUMS, key="tc_class_sum", default=15,
                             required=True)
        st.form_submit_button(ct("classes.create"), type="primary", on_click=_on_create_class,
                              width="stretch")
    _invite_colleague()


# -- colleagues and pupils' locks (issue 27) ----------------------------------------------

KEY_INVITE = "tc_invite"  # (code, expires): the invitation just made, shown once
KEY_LOOKED_UP = "tc_looked_up"  # (class id, PupilLogin): a pupil's PIN looked up


@class_action
def _on_invite() -> None:
    st.session_state[KEY_INVITE] = _room().invite_teacher()


def _invite_colleague() -> None:
    """A single-use, expiring code for a colleague's new account (the only way to one
    after the server's first, docs/CLASSROOM.md)."""
    with st.expander(ct("invite.title"), icon="✉️"):
        st.caption(ct("invite.help", count=INVITE_DAYS))
        made = st.session_state.get(KEY_INVITE)
        if made is not None:
            code, expires = made
            st.success(ct("invite.made", code=format_invite(code),
                          date=format_day(expires.astimezone(child_timezone()).date(),
                                          current_language())), icon="✉️")
        st.button(ct("invite.make"), key="tc_invite_make", on_click=_on_invite, icon="➕")


@class_action
def _on_unlock_pupil(class_id: int, profile_id: int, name: str) -> None:
    _room().unlock_pupil(class_id, profile_id)
    class_flash("success", "pupils.unlocked", name=name)


@class_action
def _on_look_up_pin(class_id: int, profile_id: int) -> None:
    st.session_state[KEY_LOOKED_UP] = (class_id, _room().look_up_pin(class_id, profile_id))


def _wrong_pins_cell(tries: PinAttempts | None) -> str:
    """The pupils table's column: wrong PINs in a row, 🔒 while a device waits."""
    if tries is None:
        return ""
    return f"{tries.wrong}" + (" 🔒" if tries.waiting_until is not None else "")


def _pupil_lock(room: Classroom, info: ClassInfo, member: Member,
                tries: PinAttempts | None) -> None:
    """One pupil's wrong PINs (how many, from how many devices, the last), the unlock that
    keeps the PIN, and the forgotten PIN looked up with the pupil's card to reprint."""
    name = f"{member.avatar} {member.nickname}"
    with st.container(border=True, key="tc_pupil_lock"):
        if tries is not None:
            zone = child_timezone()
            st.markdown(ct("pupils.attempts", count=tries.wrong, devices=tries.devices,
                           time=tries.last.astimezone(zone).strftime("%H:%M")
                           if tries.last is not None else ""))
            if tries.waiting_until is not None:
                st.caption(ct("pupils.attempts_waiting", name=name))
            if not info.archived:
                st.button(ct("pupils.unlock"), key="tc_unlock_pupil", on_click=_on_unlock_pupil,
                          args=(info.id, member.profile_id, name), icon="🔓")
        else:
            st.caption(ct("pupils.attempts_none"))
        st.button(ct("pupils.look_up_pin"), key="tc_look_up_pin", on_click=_on_look_up_pin,
                  args=(info.id, member.profile_id), icon="🔑")
        looked = st.session_state.get(KEY_LOOKED_UP)
        if looked is not None and looked[0] == info.id \
                and looked[1].profile_id == member.profile_id:
            login = looked[1]
            if login.pin is None:
                st.info(ct("pupils.pin_unknown"), icon="🔑")
            else:
                st.success(ct("pupils.pin_is", name=name, pin=login.pin), icon="🔑")
                _cards_button(info, (login,), "tc_card_looked_up")


# -- one class -------------------------------------------------------------------------------

def _class_view(room: Classroom, class_id: int) -> None:
    snap, memo = _class_data(room, class_id)
    info = snap.info
    st.button(ct("classes.back"), key="tc_back", on_click=_on_open, args=(None,), icon="⬅️")
    st.subheader(md_escape(info.name), anchor=False)  # a heading is Markdown too
    st.html("<div style='font-size:1.6rem;font-weight:700;letter-spacing:0.08em' "
            "data-testid='tc-code'>"
            f"{html.escape(ct_text('card.code', code=format_code(info.code)))}</div>")
    if info.archived:
        st.warning(ct("class.archived_note"), icon="🗄️")
    st.session_state.setdefault(KEY_PART, "dashboard")
    part = st.segmented_control(ct("part.label"), PARTS, key=KEY_PART, required=True,
                                format_func=class_labels("part."),
                                label_visibility="collapsed") or "dashboard"
    day = today()
    if part == "dashboard":
        _dashboard(room, snap, memo, day)
    elif part == "grid":
        _grid(room, snap, memo)
    elif part == "pupils":
        _pupils(room, snap)
    elif part == "assignments":
        _assignments(room, snap, memo, day)
    elif part == "print":
        _print(room, snap, memo)
    elif part == "export":
        _export(room, snap, memo, day)
    else:
        _settings(room, snap)


def _rows(room: Classroom, snap: ClassSnapshot, memo: dict[Any, Any],
          day: date) -> list[PupilRow]:
    return _memo(memo, ("dashboard", day), lambda: room.dashboard(snap, day))


def _figures(row: PupilRow, lang: str) -> list[tuple[str, str, str]]:
    """A pupil's figures on the dashboard: (name, label, value), the labels the CSV's."""
    figures = [
        ("last_active", format_day(row.last_active.date(), lang)
         if row.last_active is not None else "–"),
        ("week_accuracy", _percent(row.week_accuracy) or "–"),
        ("accuracy", _percent(row.accuracy) or "–"),
        ("quick_facts", str(row.quick_facts)),
        ("puzzles", str(row.puzzles)),
        ("game_turns", str(row.game_turns)),
        ("median_seconds", "–" if row.median_seconds is None
         else f"{format_number(row.median_seconds, lang)} s"),
        ("fluent_additions", f"{row.fluent_additions} / 55"),
        ("fluent_complements", f"{row.fluent_complements} / {row.complements}"),
        ("lesson_stars", f"⭐ {row.lesson_stars} / {row.lesson_stars_max}"),
        ("assignments_done", f"{row.assignments_done} / {row.assignments}"),
    ]
    return [(name, t(f"csv.{name}", lang, domain="classroom"), value)
            for name, value in figures]


_DASH_STYLE = (
    "<style>"
    ".dash-list { display:grid; gap:0.5rem;"
    " grid-template-columns:repeat(auto-fill, minmax(min(100%, 19rem), 1fr)); }"
    ".dash-card { border:1px solid #cfd8dc; border-radius:0.5rem; padding:0.5rem 0.75rem;"
    " min-width:0; overflow-wrap:anywhere; }"
    ".dash-card.dash-help { border-color:#e0a800; background:#fff8e1; }"
    ".dash-name { font-weight:700; font-size:1.05rem; }"
    ".dash-real { font-weight:400; color:#455a64; }"
    ".dash-why { margin:0.25rem 0 0.25rem 1.1rem; padding:0; color:#5d4037; }"
    ".dash-figs { display:flex; flex-wrap:wrap; gap:0.1rem 0.9rem; margin:0.25rem 0 0;"
    " font-size:0.85rem; color:#37474f; }"
    ".dash-figs dt { display:inline; font-weight:400; }"
    ".dash-figs dd { display:inline; margin:0 0 0 0.3rem; font-weight:700; }"
    ".dash-head { font-weight:700; margin:0.75rem 0 0.25rem; }"
    "</style>")


def dashboard_html(rows: list[PupilRow], lang: str) -> str:
    """The dashboard as cards that wrap to the screen (issue 27: a 15-column table
    scrolled sideways on a tablet and cut the reason off): who needs help first, each
    with every reason in full, then everyone else; each card with the pupil's figures.
    Every name and word escaped."""
    def words(key: str, **params: Any) -> str:
        return html.escape(t(key, lang, domain="classroom", **params))

    def card(row: PupilRow) -> str:
        name = html.escape(f"{row.avatar} {row.nickname}")
        real = (f" <span class='dash-real'>({html.escape(row.real_name)})</span>"
                if row.real_name else "")
        # say(): a reason's kind, lesson stage and facts worded, not their keys
        why = "".join(f"<li data-testid='dash-reason'>{html.escape(say(r.key, r.params, lang))}"
                      "</li>"
                      for r in row.help)
        figures = "".join(f"<div data-fig='{key}'><dt>{html.escape(label)}</dt>"
                          f"<dd>{html.escape(value)}</dd></div>"
                          for key, label, value in _figures(row, lang))
        return (f"<div class='dash-card{' dash-help' if row.help else ''}' "
                f"data-testid='dash-pupil' data-pupil='{row.profile_id}'>"
                f"<div class='dash-name'>{'⚠️ ' if row.help else ''}{name}{real}</div>"
                + (f"<ul class='dash-why'>{why}</ul>" if why else "")
                + f"<dl class='dash-figs'>{figures}</dl></div>")

    helped = [r for r in rows if r.help]
    others = [r for r in rows if not r.help]
    parts = [_DASH_STYLE, "<div data-testid='dashboard'>"]
    if helped:
        parts.append(f"<div class='dash-head'>{words('dash.help_first')}</div>"
                     f"<div class='dash-list'>{''.join(card(r) for r in helped)}</div>")
    if others:
        head = words("dash.the_others") if helped else words("dash.everyone")
        parts.append(f"<div class='dash-head'>{head}</div>"
                     f"<div class='dash-list'>{''.join(card(r) for r in others)}</div>")
    parts.append("</div>")
    return "".join(parts)


def _dashboard(room: Classroom, snap: ClassSnapshot, memo: dict[Any, Any], day: date) -> None:
    rows = _rows(room, snap, memo, day)
    if not rows:
        st.info(ct("dash.none"), icon="🌱")
        return
    lang = current_language()
    helped = sum(1 for r in rows if r.needs_help)
    st.markdown(f"**{ct('dash.pupils', count=len(rows))} · "
                f"{ct('dash.need_help', count=helped)}**")
    st.caption(ct("dash.legend"))
    st.html(dashboard_html(rows, lang))
    by_id = {r.profile_id: r for r in rows}
    chosen = st.selectbox(ct("dash.pupil_progress"), list(by_id), index=None,
                          key="tc_dash_pupil", placeholder=ct_text("dash.choose"),
                          format_func=lambda pid: _pupil_label(by_id[pid].avatar,
                                                               by_id[pid].nickname,
                                                               by_id[pid].real_name))
    if chosen is None or chosen not in by_id:
        return
    member = room.pupil_profile(snap, chosen)  # only a pupil of this class
    with st.container(border=True, key="tc_pupil_progress"):
        st.markdown(f"**{ct('dash.progress_of', name=f'{member.avatar} {member.nickname}')}**")
        section = st.segmented_control(t("progress_title"), progress.SECTIONS,
                                       key="tc_pr_view", default="facts", required=True,
                                       format_func=lambda s: t(f"progress_{s}", lang),
                                       label_visibility="collapsed") or "facts"
        progress.show_part(member.profile_id, section, lang, day, snap.info.capture_sum,
                           prefix="tc_", links=False)


# -- the fact grid --------------------------------------------------------------------------

def _fact_head(fact: str) -> str:
    """A column's short heading: ``3+5``, or ``8+?`` for a complement."""
    return fact_label(fact).split(" = ")[0].replace(" ", "")


def grid_html(grid: FactGrid, facts: tuple[str, ...], lang: str,
              totals: dict[str, FactTotal] | None = None) -> str:
    """The grid as an HTML table (every name and word escaped): a pupil a row, a fact a
    column, each cell coloured and marked (✓ … ✗ ·) and titled with its state and tries;
    the names stay in view while the table scrolls sideways inside its box on a tablet
    (the page itself does not). With ``totals`` a last row gives the class's wrong
    answers of the week per fact ("3/4")."""
    def words(key: str, **params: Any) -> str:
        return t(key, lang, domain="classroom", **params)

    head = "".join(f"<th scope='col' title='{html.escape(fact_label(f))}'>"
                   f"{html.escape(_fact_head(f))}</th>" for f in facts)
    body = []
    for row in grid.rows:
        name = html.escape(f"{row.avatar} {row.nickname}")
        cells = []
        for fact in facts:
            cell = row.cells[fact]
            title = words("grid.cell_title", name=f"{row.avatar} {row.nickname}",
                          fact=fact_label(fact), state=words(f"cell.{cell.state}"),
                          right=cell.right, count=cell.tries)
            cells.append(f"<td class='fg-{cell.state}' title='{html.escape(title)}'>"
                         f"{CELL_MARKS[cell.state]}</td>")
        fluent = row.count("fast", facts)
        body.append(f"<tr><th scope='row' class='fg-name'>{name}</th>{''.join(cells)}"
                    f"<td class='fg-sum'>{fluent}/{len(facts)}</td></tr>")
    if totals is not None:
        cells = []
        for fact in facts:
            total = totals[fact]
            text = words("grid.total", fact=fact_label(fact), wrong=total.wrong,
                         count=total.tries) if total.tries else ""
            cls = "fg-total fg-bad" if total.tries and 2 * total.wrong >= total.tries \
                else "fg-total"
            cells.append(f"<td class='{cls}' title='{html.escape(text)}'>"
                         f"{f'{total.wrong}/{total.tries}' if total.tries else ''}</td>")
        body.append(f"<tr data-testid='fact-grid-totals'>"
                    f"<th scope='row' class='fg-name fg-total-head'>"
                    f"{html.escape(words('grid.class_week'))}</th>{''.join(cells)}<td></td></tr>")
    colours = "".join(f".fg td.fg-{state} {{ background:{bg}; color:{fg}; }}"
                      for state, (bg, fg) in _CELL_COLOURS.items())
    style = (
        "<style>"
        ".fg-wrap { overflow:auto; max-height:70vh; border:1px solid #cfd8dc; }"
        ".fg { border-collapse:collapse; font-size:0.95rem; }"
        ".fg th, .fg td { border:1px solid #cfd8dc; text-align:center; padding:0; }"
        ".fg td { min-width:1.9rem; height:1.9rem; font-weight:700; }"
        ".fg thead th { position:sticky; top:0; background:#eceff1; color:#263238;"
        " font-size:0.72rem; padding:2px; white-space:nowrap; z-index:1; }"
        ".fg th.fg-name { position:sticky; left:0; background:#f5f7f9; color:#263238;"
        " text-align:left; padding:0 6px; white-space:nowrap; z-index:2; }"
        ".fg thead th.fg-name { z-index:3; }"
        ".fg td.fg-sum { background:#f5f7f9; color:#263238; padding:0 6px; font-weight:400; }"
        ".fg td.fg-total { font-size:0.72rem; font-weight:400; padding:0 2px;"
        " white-space:nowrap; background:#f5f7f9; color:#263238; }"
        ".fg td.fg-total.fg-bad { font-weight:700; color:#8e0000; }"
        # The totals row's long heading wraps, so it does not widen the names' column.
        ".fg th.fg-total-head { white-space:normal; max-width:9rem; font-size:0.75rem; }"
        f"{colours}</style>")
    return (f"{style}<div class='fg-wrap'><table class='fg' data-testid='fact-grid'>"
            f"<thead><tr><th scope='col' class='fg-name'>{html.escape(words('grid.pupil'))}"
            f"</th>{head}<th scope='col'>{html.escape(words('grid.fluent'))}</th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table></div>")


#: At most this many facts in the list of the week's most missed (the rest in the grid).
TOTALS_SHOWN = 10


def totals_html(totals: dict[str, FactTotal], lang: str) -> str:
    """The class's most missed facts of the week, in full sentences that wrap ("8 + ? = 15:
    3 of 4 wrong this week"), the most wrong first: what tomorrow's lesson is about."""
    missed = sorted((x for x in totals.values() if x.wrong),
                    key=lambda x: (-x.wrong, -x.wrong / x.tries, x.fact))[:TOTALS_SHOWN]
    if not missed:
        return (f"<p data-testid='fact-totals'>"
                f"{html.escape(t('grid.totals_none', lang, domain='classroom'))}</p>")
    items = "".join(
        "<li>" + html.escape(t("grid.total", lang, domain="classroom",
                               fact=fact_label(x.fact), wrong=x.wrong, count=x.tries))
        + " · " + html.escape(t("grid.total_pupils", lang, domain="classroom",
                                wrong=x.pupils_wrong, count=x.pupils)) + "</li>"
        for x in missed)
    return f"<ul data-testid='fact-totals' style='margin-top:0'>{items}</ul>"


def legend_html(lang: str) -> str:
    items = "".join(
        f"<span style='display:inline-block;margin:2px 10px 2px 0'>"
        f"<span style='display:inline-block;min-width:1.6rem;text-align:center;"
        f"font-weight:700;background:{bg};color:{fg};border:1px solid #cfd8dc'>"
        f"{CELL_MARKS[state]}</span> "
        f"{html.escape(t(f'cell.{state}', lang, domain='classroom'))}</span>"
        for state, (bg, fg) in _CELL_COLOURS.items())
    return f"<div data-testid='fact-grid-legend'>{items}</div>"


def _grid(room: Classroom, snap: ClassSnapshot, memo: dict[Any, Any]) -> None:
    if not snap.members:
        st.info(ct("dash.none"), icon="🌱")
        return
    lang = current_language()
    info = snap.info
    # One above the other: side by side, the second was cut off on a phone (issue 27).
    with st.container():
        limit = st.segmented_control(ct("grid.limit"), FLUENCY_LIMITS, key="tc_grid_limit",
                                     default=info.fluency_seconds, required=True,
                                     format_func=class_labels("fluency."))
        which = st.segmented_control(ct("grid.facts"), ("all", "complements", "additions"),
                                     key="tc_grid_facts", default="all", required=True,
                                     format_func=class_labels("grid.facts_", sum=info.capture_sum))
    limit = int(limit or info.fluency_seconds)
    grid: FactGrid = _memo(memo, ("grid", limit), lambda: room.fact_grid(snap, limit))
    facts = {"complements": grid.complements, "additions": grid.additions}.get(
        which or "all", grid.facts)
    totals: dict[str, FactTotal] = _memo(memo, ("totals", today()),
                                         lambda: fact_totals(grid, snap, today()))
    st.markdown(f"**{ct('grid.totals_title')}**")
    st.html(totals_html({f: totals[f] for f in facts}, lang))
    st.caption(ct("grid.rule", limit=limit))
    st.html(legend_html(lang))
    st.html(grid_html(grid, facts, lang, totals))

    st.markdown(f"**{ct('grid.history')}**")
    names = {m.profile_id: _pupil_label(m.avatar, m.nickname) for m in snap.members}
    cols = st.columns(2)
    pupil = cols[0].selectbox(ct("grid.pupil"), list(names), index=None, key="tc_cell_pupil",
                              format_func=names.get, placeholder=ct_text("dash.choose"))
    fact = cols[1].selectbox(ct("grid.fact"), list(grid.facts), index=None, key="tc_cell_fact",
                             format_func=fact_label, placeholder=ct_text("grid.choose_fact"))
    if pupil is None or fact is None or pupil not in names:
        return
    tries = room.cell_history(snap, pupil, fact)
    cell = grid.row(pupil).cells[fact] if grid.row(pupil) is not None else None
    if cell is not None:
        state = ct_text(f"cell.{cell.state}")
        st.markdown(f"{CELL_MARKS[cell.state]} "
                    + ct("grid.cell_state", name=names[pupil], fact=fact_label(fact),
                         state=state))
    if not tries:
        st.info(ct("grid.history_none", name=names[pupil], fact=fact_label(fact)), icon="🌱")
        return
    zone = child_timezone()
    st.dataframe(pd.DataFrame([{
        ct_text("grid.col_when"): f"{format_day(tr.day, lang)} "
                                   f"{tr.when.astimezone(zone).strftime('%H:%M')}",
        ct_text("grid.col_right"): ("✓ " + ct_text("grid.right")) if tr.correct
        else ("✗ " + ct_text("grid.wrong")),
        ct_text("grid.col_seconds"): "" if tr.seconds is None
        else f"{format_number(tr.seconds, lang)} s",
        ct_text("grid.col_kind"): ct_text(f"kind.{tr.kind}"),
    } for tr in tries]), hide_index=True, width="stretch")


# -- pupils ----------------------------------------------------------------------------------

@class_action
def _on_add_pupils(class_id: int) -> None:
    pasted = st.session_state.get("tc_paste", "") or ""
    added = _room().add_pupils(class_id, pasted)
    st.session_state[KEY_ADDED] = (class_id, added)
    if added.added:
        st.session_state["tc_paste"] = ""


@class_action
def _on_generate(class_id: int) -> None:
    count = int(st.session_state.get("tc_generate_count") or 1)
    added = _room().generate_pupils(class_id, count, current_language())
    st.session_state[KEY_ADDED] = (class_id, added)


@class_action
def _on_forget(key: str) -> None:
    st.session_state.pop(key, None)


@class_action
def _on_ask(key: str, value: Any) -> None:
    """The first tap of a button that asks before it acts: what it would act on."""
    st.session_state[key] = value


def _ask_first(ask_key: str, value: Any, *, key: str, label: str, icon: str, sure: str,
               yes: str, on_yes: Callable[..., None], args: tuple[Any, ...],
               sure_icon: str | None = None, box: str | None = None) -> None:
    """A button that asks before it acts (issue 27: a new PIN, an archive): its first tap
    shows ``sure`` with ``yes`` (which calls ``on_yes(*args)``) and "Cancel"; ``box``, a
    bordered container's key to hold the question."""
    if st.session_state.get(ask_key) != value:
        st.button(label, key=key, on_click=_on_ask, args=(ask_key, value), icon=icon)
        return
    with st.container(border=box is not None, key=box):
        st.warning(sure, icon=sure_icon or icon)
        with st.container(horizontal=True):
            st.button(yes, key=f"{key}_yes", type="primary", on_click=on_yes, args=args,
                      icon=icon)
            st.button(ct("confirm.cancel"), key=f"{key}_no", on_click=_on_forget,
                      args=(ask_key,))



@class_action
def _on_pupil_pin(class_id: int, profile_id: int) -> None:
    if st.session_state.pop(KEY_PIN_ASK, None) != (class_id, profile_id):
        return  # asked about another pupil, or cancelled meanwhile: nothing changes
    login = _room().regenerate_pin(class_id, profile_id)
    st.session_state[KEY_PUPIL_PIN] = (class_id, login)


@class_action
def _on_rename(class_id: int, profile_id: int) -> None:
    typed = st.session_state.get(f"tc_nickname_{profile_id}", "") or ""
    member = _room().rename_pupil(class_id, profile_id, typed)
    st.session_state.pop(KEY_PUPIL_PIN, None)  # a card with the old name is no use
    class_flash("success", "pupils.renamed", name=member.nickname)


@class_action
def _on_picture(class_id: int, profile_id: int) -> None:
    key = st.session_state.get(f"tc_picture_{profile_id}") or ""
    member = _room().set_picture(class_id, profile_id, key)
    class_flash("success", "pupils.picture_saved", name=f"{member.avatar} {member.nickname}")


@class_action
def _on_real_name(class_id: int, profile_id: int) -> None:
    _room().set_real_name(class_id, profile_id,
                          st.session_state.get(f"tc_real_name_{profile_id}") or None)
    class_flash("success", "pupils.real_name_saved")


@class_action
def _on_remove_pupil(class_id: int, profile_id: int, nickname: str) -> None:
    _room().remove_pupil(class_id, profile_id)
    st.session_state.pop("tc_pupil_one", None)
    class_flash("success", "pupils.removed", name=nickname)


def _cards_button(info: ClassInfo, logins: tuple[PupilLogin, ...] | list[PupilLogin],
                  key: str) -> None:
    lang = current_language()
    # Cut out and handed round in the class list's order, whatever order they were made in.
    pupils = tuple(sort_names(logins, lang, key=lambda p: p.nickname))
    download(ct("pupils.cards_download"), lambda: login_cards_pdf(info, pupils, lang),
              _pdf_name("file.login_cards", info.code), "application/pdf", key, icon="🪪")


def _pdf_name(key: str, *parts: str) -> str:
    """A download's name in the teacher's language ("tarjetas-de-acceso-K7QX.pdf")."""
    return file_name(ct_text(key), *parts, ext="pdf")


def _just_added(info: ClassInfo, added: AddedPupils) -> None:
    """What adding did: the pupils with their PINs (the only time they are known), the
    cards to print now, and every refused line as it was pasted, with its reason."""
    if added.added:
        st.success(ct("pupils.added", count=len(added.added)), icon="✅")
        st.dataframe(pd.DataFrame([{
            ct_text("list.picture"): p.avatar, ct_text("list.nickname"): p.nickname,
            ct_text("list.real_name"): p.real_name or "", ct_text("list.pin"): p.pin,
        } for p in sort_names(added.added, current_language(), key=lambda p: p.nickname)]),
            hide_index=True, width="stretch")
        st.warning(ct("pupils.cards_now"), icon="🪪")
        _cards_button(info, added.added, "tc_cards_added")
    if added.refused:
        st.error(ct("pupils.refused", count=len(added.refused)), icon="✋")
        # As text in a table: a pasted line is never read as markup.
        st.dataframe(pd.DataFrame([{
            ct_text("pupils.col_line"): r.line, ct_text("pupils.col_text"): r.text,
            ct_text("pupils.col_reason"): ct_text(r.key, **r.params),
        } for r in added.refused]), hide_index=True, width="stretch")
    st.button(ct("pupils.done"), key="tc_added_done", on_click=_on_forget, args=(KEY_ADDED,))


def _pupils(room: Classroom, snap: ClassSnapshot) -> None:
    info = snap.info
    members = room.pupils(info.id)  # fresh: real names and locks
    wrong_pins = room.pin_attempts(info.id)
    kept = st.session_state.get(KEY_ADDED)
    if kept is not None and kept[0] == info.id:
        _just_added(info, kept[1])
        st.divider()
    st.markdown(f"**{ct('dash.pupils', count=len(members))}**")
    if members:
        st.dataframe(pd.DataFrame([{
            ct_text("list.number"): n, ct_text("list.picture"): m.avatar,
            ct_text("list.nickname"): m.nickname, ct_text("list.real_name"): m.real_name or "",
            ct_text("pupils.col_wrong_pins"): _wrong_pins_cell(wrong_pins.get(m.profile_id)),
        } for n, m in enumerate(members, 1)]), hide_index=True, width="stretch")
    if info.archived:
        return
    room_left = MAX_PUPILS - len(members)
    with st.form("tc_add_form", border=True):
        st.markdown(f"**{ct('pupils.add')}**")
        st.text_area(ct("pupils.paste"), key="tc_paste", height=160,
                     help=ct("pupils.paste_help"), placeholder=ct_text("pupils.placeholder"))
        st.form_submit_button(ct("pupils.add_button"), type="primary", on_click=_on_add_pupils,
                              args=(info.id,), width="stretch")
    if room_left > 0:
        with st.container(border=True, horizontal=True, vertical_alignment="bottom"):
            st.number_input(ct("pupils.generate"), 1, room_left, min(25, room_left),
                            key="tc_generate_count", help=ct("pupils.generate_help"))
            st.button(ct("pupils.generate_button"), key="tc_generate", on_click=_on_generate,
                      args=(info.id,))
    if not members:
        return
    by_id = {m.profile_id: m for m in members}
    st.markdown(f"**{ct('pupils.one')}**")
    # The pupil stays chosen when their name or picture changes: the options' labels are
    # part of the widget's identity, so a renamed pupil made a new, empty select box.
    ids = list(by_id)
    kept = st.session_state.get(KEY_PUPIL_CHOSEN)
    chosen = st.selectbox(ct("pupils.choose"), ids, key="tc_pupil_one",
                          index=ids.index(kept) if kept in by_id else None,
                          placeholder=ct_text("dash.choose"),
                          format_func=lambda pid: _pupil_label(by_id[pid].avatar,
                                                               by_id[pid].nickname,
                                                               by_id[pid].real_name))
    st.session_state[KEY_PUPIL_CHOSEN] = chosen
    if chosen is None or chosen not in by_id:
        return
    member = by_id[chosen]
    _pupil_lock(room, info, member, wrong_pins.get(chosen))
    one = st.session_state.get(KEY_PUPIL_PIN)
    if one is not None and one[0] == info.id and one[1].profile_id == chosen:
        login = one[1]
        st.success(ct("pupils.new_pin_done", name=f"{login.avatar} {login.nickname}",
                      pin=login.pin), icon="🔑")
        _cards_button(info, (login,), "tc_card_one")
    _name_and_picture(room, info, member)
    # Asked first: a new PIN voids the printed card (issue 27).
    _ask_first(KEY_PIN_ASK, (info.id, chosen), key="tc_new_pin", label=ct("pupils.new_pin"),
               icon="🔑", sure=ct("pupils.new_pin_sure", name=f"{member.avatar} {member.nickname}"),
               sure_icon="🪪", yes=ct("pupils.new_pin_yes"), on_yes=_on_pupil_pin,
               args=(info.id, chosen), box="tc_pin_confirm")
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.text_input(ct("pupils.real_name"), key=f"tc_real_name_{chosen}",
                      value=member.real_name or "")
        st.button(ct("pupils.real_name_save"), key="tc_real_name_save",
                  on_click=_on_real_name, args=(info.id, chosen))
    with st.expander(ct("pupils.remove"), icon="🗑️"):
        st.warning(ct("pupils.remove_what", name=member.nickname))
        st.button(ct("pupils.remove_confirm", name=member.nickname), key="tc_remove_pupil",
                  on_click=_on_remove_pupil, args=(info.id, chosen, member.nickname),
                  type="primary")


def _name_and_picture(room: Classroom, info: ClassInfo, member: Any) -> None:
    """Change a pupil's nickname (the nickname rules, one per class) or picture (a free
    one: two children on one picture cannot tell their cards apart)."""
    pid = member.profile_id
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.text_input(ct("pupils.nickname"), key=f"tc_nickname_{pid}", value=member.nickname)
        st.button(ct("pupils.rename"), key="tc_rename", on_click=_on_rename,
                  args=(info.id, pid))
    pictures = room.free_pictures(info.id, pid)
    lang = current_language()
    words = {p.key: f"{p.emoji} {t(f'pic.{p.key}', lang, domain='classroom')}"
             for p in pictures}
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.selectbox(ct("pupils.picture"), list(words), key=f"tc_picture_{pid}",
                     format_func=words.get)
        st.button(ct("pupils.picture_save"), key="tc_picture_save", on_click=_on_picture,
                  args=(info.id, pid))


# -- assignments -----------------------------------------------------------------------------

@class_action
def _on_assign(class_id: int, kind: str, capture_sum: int) -> None:
    state = st.session_state
    if kind == "lesson":
        spec: dict[str, Any] = {"stage": state.get("tc_as_stage")}
    elif kind == "puzzles":
        spec = {"kind": state.get("tc_as_kind"), "level": state.get("tc_as_level"),
                "count": state.get("tc_as_count"), "capture_sum": capture_sum}
    elif kind == "facts":
        spec = {"facts": list(state.get("tc_as_facts") or []), "capture_sum": capture_sum}
    else:
        spec = {"count": state.get("tc_as_weakest"), "capture_sum": capture_sum}
    due = state.get("tc_as_due")
    row = _room().create_assignment(class_id, kind, spec, due=due)
    class_flash("success", "assign.created", what=describe(row, current_language()))


@class_action
def _on_unassign(class_id: int, assignment_id: int) -> None:
    _room().delete_assignment(class_id, assignment_id)
    class_flash("success", "assign.deleted")


def _new_assignment(info: ClassInfo) -> None:
    st.markdown(f"**{ct('assign.new')}**")
    st.session_state.setdefault("tc_as_type", "puzzles")
    kind = st.segmented_control(ct("assign.type"), ASSIGNMENT_KINDS, key="tc_as_type",
                                required=True,
                                format_func=class_labels("task_kind.")) or "puzzles"
    capture_sum = info.capture_sum
    if kind != "lesson":
        st.session_state.setdefault("tc_as_sum", info.capture_sum)
        capture_sum = int(st.segmented_control(t("capture_sum"), CAPTURE_SUMS, key="tc_as_sum",
                                               required=True) or info.capture_sum)
    lang = current_language()
    stages = load_stages()
    with st.form("tc_assign_form", border=True):
        if kind == "lesson":
            titles = {s.key: f"{n}. {t(s.title, lang, domain='lessons')}"
                      for n, s in enumerate(stages, 1)}
            st.selectbox(ct("assign.stage"), list(titles), key="tc_as_stage",
                         format_func=titles.get)
        elif kind == "puzzles":
            cols = st.columns(3)
            cols[0].selectbox(t("pz_mode"), _PUZZLE_KINDS, key="tc_as_kind",
                              format_func=lambda k: t(f"pz_mode_{k}", lang))
            cols[1].selectbox(t("level"), LEVELS, key="tc_as_level")
            cols[2].number_input(ct("assign.count"), 1, MAX_PUZZLES, 10, key="tc_as_count")
        elif kind == "facts":
            st.multiselect(ct("assign.facts", max=MAX_FACTS), askable_facts(capture_sum),
                           key="tc_as_facts", max_selections=MAX_FACTS, format_func=fact_label,
                           placeholder=t("stw.choose_options"))
        else:
            st.number_input(ct("assign.weakest"), 1, MAX_FACTS, 5, key="tc_as_weakest")
        st.date_input(ct("assign.due"), value=None, key="tc_as_due", min_value=today(),
                      format=date_format(lang))
        st.form_submit_button(ct("assign.create"), type="primary", on_click=_on_assign,
                              args=(info.id, kind, capture_sum), width="stretch")


def _assignment_card(info: ClassInfo, item: AssignmentProgress, names: dict[int, str]) -> None:
    lang = current_language()
    a = item.assignment
    with st.container(border=True, key=f"tc_assignment_{a.id}"):
        st.markdown(f"**{md_escape(describe(a, lang))}**")
        due = ct("task.due", date=format_day(a.due, lang)) if a.due else ct("assign.no_due")
        done = ct("assign.completion", done=item.completed, count=len(item.pupils))
        right = ct("assign.completion_right", count=item.completed_right)
        st.caption(f"{due} · {done} · {right}")
        if item.pupils:
            with st.expander(ct("assign.per_pupil")):
                st.dataframe(pd.DataFrame([{
                    ct_text("grid.pupil"): names.get(pid, ""),
                    ct_text("assign.col_status"): ct_text(f"status.{task.status}"),
                    ct_text("assign.col_done"): f"{task.done} / {task.total}",
                    # Done is not right (issue 27): "1 / 4" beside "4 / 4" done.
                    ct_text("assign.col_right"): "" if task.right is None
                    else f"{min(task.right, task.total)} / {task.total}",
                } for pid, task in item.pupils.items()]), hide_index=True,
                    width="stretch")
        if not info.archived:
            st.button(ct("assign.delete"), key=f"tc_unassign_{a.id}", on_click=_on_unassign,
                      args=(info.id, a.id), icon="🗑️")


def _assignments(room: Classroom, snap: ClassSnapshot, memo: dict[Any, Any], day: date) -> None:
    info = snap.info
    if not info.archived:
        _new_assignment(info)
    items: list[AssignmentProgress] = _memo(memo, ("assignments", day),
                                            lambda: room.assignments(snap, day))
    st.markdown(f"**{ct('assign.list')}**")
    if not items:
        st.info(ct("assign.none"), icon="📋")
        return
    names = {m.profile_id: _pupil_label(m.avatar, m.nickname) for m in snap.members}
    for item in items:
        _assignment_card(info, item, names)


# -- print and export ------------------------------------------------------------------------

@class_action
def _on_all_pins(class_id: int) -> None:
    if not st.session_state.get("tc_all_pins_sure"):
        class_flash("warning", "print.cards_confirm_first")
        return
    logins = _room().regenerate_all_pins(class_id)
    st.session_state[KEY_NEW_PINS] = (class_id, list(logins))
    st.session_state["tc_all_pins_sure"] = False


def _print(room: Classroom, snap: ClassSnapshot, memo: dict[Any, Any]) -> None:
    info = snap.info
    lang = current_language()
    with st.container(border=True):
        st.markdown(f"**{ct('print.worksheet')}**")
        cols = st.columns(3)
        kind = cols[0].selectbox(t("pz_mode"), KINDS, key="tc_ws_kind",
                                 format_func=lambda k: t(f"pz_mode_{k}", lang))
        level = cols[1].selectbox(t("level"), LEVELS, key="tc_ws_level")
        count = cols[2].number_input(ct("assign.count"), 1, 60, 20, key="tc_ws_count")
        download(ct("print.worksheet_download"),
                  lambda: class_worksheet_pdf(info, kind, int(level), int(count), lang=lang),
                  _pdf_name("file.worksheet", info.code, kind_text(kind, lang), str(level)),
                  "application/pdf",
                  "tc_ws_pdf", icon="🖨️")
    if not snap.members:
        st.info(ct("dash.none"), icon="🌱")
        return
    grid = _memo(memo, ("grid", info.fluency_seconds), lambda: room.fact_grid(snap))
    with st.container(border=True):
        st.markdown(f"**{ct('print.pupil_sheets')}**")
        st.caption(join_text((ct("print.pupil_sheets_help"), ct("print.keys_at_end"))))
        facts = st.number_input(ct("print.facts_per_sheet"), 1, 20, 8, key="tc_pupil_ws_count")
        download(ct("print.pupil_sheets_download"),
                  lambda: pupil_worksheets_pdf(snap, grid, lang, count=int(facts)),
                  _pdf_name("file.pupil_sheets", info.code), "application/pdf",
                  "tc_pupil_ws_pdf", icon="🖨️")
    members = room.pupils(info.id)
    with st.container(border=True):
        st.markdown(f"**{ct('print.class_list')}**")
        download(ct("print.class_list_download"), lambda: class_list_pdf(info, members, lang),
                  _pdf_name("file.class_list", info.code), "application/pdf", "tc_list_pdf",
                  icon="🖨️")
    with st.container(border=True):
        st.markdown(f"**{ct('print.cards')}**")
        made = st.session_state.get(KEY_NEW_PINS)
        if made is not None and made[0] == info.id:
            st.warning(ct("print.cards_made"), icon="🪪")
            _cards_button(info, made[1], "tc_cards_all")
            st.button(ct("pupils.done"), key="tc_new_pins_done", on_click=_on_forget,
                      args=(KEY_NEW_PINS,))
        elif not info.archived:
            st.caption(ct("print.cards_help"))
            st.checkbox(ct("print.cards_sure"), key="tc_all_pins_sure")
            st.button(ct("print.cards_button"), key="tc_all_pins", on_click=_on_all_pins,
                      args=(info.id,), icon="🔑")


def _export(room: Classroom, snap: ClassSnapshot, memo: dict[Any, Any], day: date) -> None:
    info = snap.info
    lang = current_language()
    rows = _rows(room, snap, memo, day)
    zone = child_timezone()  # this browser's: times as the teacher reads a clock
    st.caption(ct("export.help"))
    style = csv_style_choice("tc_csv_style", lang)
    table_buttons((ct("export.attempts"), ct("export.attempts_xlsx")),
                  # Every attempt, read when the file is made (the page's snapshot
                  # has the assignments' only).
                  lambda: attempts_csv(room.snapshot(info.id), lang, style, zone),
                  lambda: attempts_xlsx(room.snapshot(info.id), lang, zone),
                  (ct_text("file.attempts"), info.code), ("tc_attempts_csv", "tc_attempts_xlsx"))
    table_buttons((ct("export.dashboard"), ct("export.dashboard_xlsx")),
                  lambda: dashboard_csv(rows, lang, style, zone),
                  lambda: dashboard_xlsx(rows, lang, zone),
                  (ct_text("file.dashboard"), info.code, day.isoformat()),
                  ("tc_dashboard_csv", "tc_dashboard_xlsx"))


# -- class settings --------------------------------------------------------------------------

@class_action
def _on_save_settings(class_id: int) -> None:
    state = st.session_state
    _room().update_class(class_id, name=state.get("tc_set_name") or "",
                         fluency_seconds=int(state.get("tc_set_fluency") or 6),
                         capture_sum=int(state.get("tc_set_sum") or 15),
                         voice=bool(state.get("tc_set_voice")))
    class_flash("success", "settings.saved")


@class_action
def _on_new_code(class_id: int) -> None:
    info = _room().regenerate_code(class_id)
    class_flash("success", "settings.code_done", code=format_code(info.code))


@class_action
def _on_archive(class_id: int, archive: bool) -> None:
    room = _room()
    if archive:
        if st.session_state.pop(KEY_ARCHIVE_ASK, None) != class_id:
            return  # not asked first (or cancelled): nothing changes
        room.archive(class_id)
        class_flash("success", "settings.archived")
    else:
        room.restore(class_id)
        class_flash("success", "settings.restored")


@class_action
def _on_delete(class_id: int) -> None:
    typed = st.session_state.get("tc_delete_name", "") or ""
    info = storage().get_class(class_id)
    _room().delete_class(class_id, typed)
    _open(None)
    class_flash("success", "settings.deleted", name=info.name if info is not None else "")


@class_action
def _on_co_teacher(class_id: int) -> None:
    name = st.session_state.get("tc_co_name", "") or ""
    info = _room().add_co_teacher(class_id, name)
    st.session_state["tc_co_name"] = ""
    added = storage().teacher_named(name)
    if added is not None and added.id in info.co_teachers:
        class_flash("success", "settings.co_added", name=added.name)


@class_action
def _on_co_remove(class_id: int, teacher_id: int, name: str) -> None:
    _room().remove_co_teacher(class_id, teacher_id)
    class_flash("success", "settings.co_removed", name=name)


def _co_teachers(room: Classroom, info: ClassInfo) -> None:
    """Co-teachers see and run the class; only its owner adds or removes them."""
    owner = info.teacher_id == room.teacher.id
    with st.container(border=True):
        st.markdown(f"**{ct('settings.co_teachers')}**")
        st.caption(ct("settings.co_help"))
        others = [x for x in (storage().get_teacher(tid) for tid in info.co_teachers)
                  if x is not None]
        if not others:
            st.caption(ct("settings.co_none"))
        for other in others:
            with st.container(horizontal=True, vertical_alignment="center"):
                st.markdown(md_escape(other.name))
                if owner:
                    st.button(ct("settings.co_remove"), key=f"tc_co_remove_{other.id}",
                              on_click=_on_co_remove, args=(info.id, other.id, other.name))
        if owner and not info.archived:
            with st.container(horizontal=True, vertical_alignment="bottom"):
                st.text_input(ct("settings.co_add"), key="tc_co_name")
                st.button(ct("settings.co_add_button"), key="tc_co_add",
                          on_click=_on_co_teacher, args=(info.id,))


def _settings(room: Classroom, snap: ClassSnapshot) -> None:
    info = snap.info
    if not info.archived:
        with st.form("tc_settings_form", border=True):
            st.text_input(ct("classes.name"), key="tc_set_name", value=info.name)
            st.segmented_control(ct("classes.fluency"), FLUENCY_LIMITS, key="tc_set_fluency",
                                 default=info.fluency_seconds, required=True,
                                 format_func=class_labels("fluency."))
            st.segmented_control(t("capture_sum"), CAPTURE_SUMS, key="tc_set_sum",
                                 default=info.capture_sum, required=True)
            st.toggle(ct("settings.voice"), key="tc_set_voice", value=info.voice,
                      help=ct("settings.voice_help"))  # issue 23: quiet by default
            st.form_submit_button(ct("settings.save"), type="primary",
                                  on_click=_on_save_settings, args=(info.id,))
        with st.container(border=True):
            st.markdown(f"**{ct('card.code', code=format_code(info.code))}**")
            st.caption(ct("settings.new_code_help"))
            st.button(ct("settings.new_code"), key="tc_new_code", on_click=_on_new_code,
                      args=(info.id,), icon="🔁")
        with st.container(border=True, key="tc_archive_box"):
            st.caption(ct("settings.archive_help"))
            # Asked first (issue 27): archiving signs the whole class out.
            _ask_first(KEY_ARCHIVE_ASK, info.id, key="tc_archive", label=ct("settings.archive"),
                       icon="🗄️", sure=ct("settings.archive_sure", name=info.name),
                       yes=ct("settings.archive_yes"), on_yes=_on_archive, args=(info.id, True))
        _tablets(info)
    else:
        st.button(ct("settings.restore"), key="tc_restore", on_click=_on_archive,
                  args=(info.id, False), icon="♻️", type="primary")
    _co_teachers(room, info)
    with st.expander(ct("settings.delete"), icon="🗑️"):
        try:
            summary = room.deletion_summary(info.id)
        except ClassroomError as err:  # a co-teacher: only the owner deletes
            st.info(ct(err.key, **err.params))
            return
        st.warning(ct("settings.delete_what", name=info.name,
                      pupils=ct_text("settings.n_pupils", count=summary.pupils),
                      games=ct_text("settings.n_games", count=summary.games),
                      attempts=ct_text("settings.n_attempts", count=summary.attempts),
                      dailies=ct_text("settings.n_dailies", count=summary.dailies),
                      lessons=ct_text("settings.n_lessons_started", count=summary.lessons,
                                      started=summary.lesson_goes) if summary.lesson_goes
                      else ct_text("settings.n_lessons", count=summary.lessons),
                      assignments=ct_text("settings.n_assignments",
                                          count=summary.assignments)), icon="⚠️")
        st.text_input(ct("settings.delete_type", name=info.name), key="tc_delete_name")
        st.button(ct("settings.delete_button"), key="tc_delete", on_click=_on_delete,
                  args=(info.id,), type="primary")


# -- shared tablets (issue 27) ---------------------------------------------------------------

@class_action
def _on_tablet_idle(class_id: int) -> None:
    minutes = st.session_state.get(f"tc_idle_minutes_{class_id}")
    _room().set_tablet_idle(class_id, int(minutes or 0))
    class_flash("success", "settings.saved")


@class_action
def _on_sign_out_tablets(class_id: int) -> None:
    _room().sign_out_tablets(class_id)
    class_flash("success", "tablets.signed_out")


def _tablets(info: ClassInfo) -> None:
    """How long a pupil left signed in stays so, and every tablet signed out at once."""
    lang = current_language()  # fixed now: AppTest formats the options after the run
    with st.container(border=True, key="tc_tablets"):
        st.markdown(f"**{ct('tablets.title')}**")
        # One key per class: another class's choice is never shown as this one's.
        st.segmented_control(ct("tablets.idle"), PUPIL_IDLE_CHOICES,
                             key=f"tc_idle_minutes_{info.id}", default=info.idle_minutes,
                             required=True, help=ct("tablets.idle_help"),
                             format_func=lambda v: say("tablets.minutes", {"count": v}, lang),
                             on_change=_on_tablet_idle, args=(info.id,))
        st.caption(ct("tablets.sign_out_all_help"))
        st.button(ct("tablets.sign_out_all"), key="tc_sign_out_tablets",
                  on_click=_on_sign_out_tablets, args=(info.id,), icon="🚪")


#: How often an untouched teacher's page checks its lock (the lock is 15 minutes: it
#: comes on screen 20 s late at most).
LOCK_WATCH_SECONDS = 20


@friendly_fragment(run_every=LOCK_WATCH_SECONDS)
def _lock_watch() -> None:
    """The area locks on screen, without a tap (issue 27: the pupils' table stayed in
    view for 16 minutes, its lock waiting for the next tap): when the session locked or
    ended, or the class on screen is gone, the whole page is drawn again."""
    session = teacher_session()
    if session is None or session.locked:
        st.rerun()
    class_id = st.session_state.get(KEY_CLASS)
    if class_id is not None and storage().get_class(int(class_id)) is None:
        # Deleted meanwhile (another tab, the owner): back to the list, which says so.
        # Closed here, not by the next run: this runs inside it too, and would loop.
        _open(None)
        class_flash("error", "class.not_yours")
        st.rerun()


# -- the page --------------------------------------------------------------------------------

def show_teacher_page() -> None:
    """The whole "For teachers" page (see the module doc)."""
    st.title(ct("page.teacher_title"))
    show_class_flash()
    session = teacher_session()
    if session is None:
        _sign_in()
        return
    if session.locked:
        _unlock()
        return
    with st.sidebar:  # shows nothing; the sidebar is drawn whatever the page below does
        _lock_watch()
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(ct("auth.signed_in_as", name=session.teacher.name))
        st.button(ct("auth.sign_out"), key="tc_sign_out", on_click=_on_sign_out, icon="🚪")
    room = Classroom(storage(), session, lang=current_language())
    class_id = st.session_state.get(KEY_CLASS)
    try:
        if class_id is None:
            _classes(room)
        else:
            _class_view(room, int(class_id))
    except ClassroomError as err:
        if err.key == "auth.session_locked":
            st.rerun()  # the lock came while drawing: ask the password
        if err.key in ("class.not_yours", "pupil.not_in_class"):
            st.session_state.pop(KEY_CLASS, None)  # deleted meanwhile, or another's
        st.error(ct(err.key, **err.params))
        st.button(ct("classes.back"), key="tc_back_error", on_click=_on_open, args=(None,))
