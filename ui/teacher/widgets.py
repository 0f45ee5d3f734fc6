"""Widgets and callbacks that more than one part of a class draws."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import streamlit as st

from trainer.classroom import PupilLogin
from trainer.classroom_print import login_cards_pdf
from trainer.export import file_name
from trainer.i18n import t
from trainer.names import sort_names
from trainer.storage import ClassInfo, GroupRow
from trainer.text import md_escape

from ..classroom import class_action, ct, ct_text
from ..downloads import download
from ..i18n import current_language
from .snapshot import OpenClass

__all__ = ["big_line", "pupil_label", "pdf_name", "cards_button", "on_forget", "ask_first",
           "group_filter", "pupils_shown", "chosen_group", "EVERYONE"]


def big_line(text: str, style: str, testid: str = "") -> None:
    """A line of text on the big screen (the projector's parts), in ``style`` (a part's
    type size), marked for tests by ``testid``."""
    mark = f" data-testid='{testid}'" if testid else ""
    st.html(f"<div style='{style}'{mark}>{html.escape(text)}</div>")


def pupil_label(avatar: str, nickname: str, real_name: str | None = None) -> str:
    """A pupil as plain text (tables, select boxes): picture, nickname, real name."""
    label = f"{avatar} {nickname}"
    return t("name_and_note", name=label, note=real_name) if real_name else label


def pdf_name(key: str, *parts: str) -> str:
    """A download's name in the teacher's language ("tarjetas-de-acceso-K7QX.pdf")."""
    return file_name(ct_text(key), *parts, ext="pdf")


def cards_button(info: ClassInfo, logins: tuple[PupilLogin, ...] | list[PupilLogin],
                 key: str) -> None:
    """The pupils' login cards to print, as a PDF to download."""
    lang = current_language()
    # Cut out and handed round in the class list's order, whatever order they were made in.
    pupils = tuple(sort_names(logins, lang, key=lambda p: p.nickname))
    download(ct("pupils.cards_download"), lambda: login_cards_pdf(info, pupils, lang),
             pdf_name("file.login_cards", info.code), "application/pdf", key, icon="🪪")


@class_action
def on_forget(key: str) -> None:
    """A button's callback: forget what the session kept under ``key``."""
    st.session_state.pop(key, None)


@class_action
def _on_ask(key: str, value: Any) -> None:
    """The first tap of a button that asks before it acts: what it would act on."""
    st.session_state[key] = value


def ask_first(ask_key: str, value: Any, *, key: str, label: str, icon: str, sure: str,
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
            st.button(ct("confirm.cancel"), key=f"{key}_no", on_click=on_forget,
                      args=(ask_key,))


#: The group filter's "everyone" (a group's id is never 0).
EVERYONE = 0


def chosen_group(view: OpenClass, key: str) -> GroupRow | None:
    """The group a filter drawn under ``key`` shows (None: everyone)."""
    chosen = st.session_state.get(key)
    return next((g for g in view.snap.groups if g.id == chosen), None)


def pupils_shown(view: OpenClass, key: str, label: str | None = None) -> OpenClass | None:
    """The class as the dashboard and the grid show it (and the Print part prints it):
    its pupils, filtered by the group chosen (:func:`group_filter`); None, with a word
    why, when there is no pupil to show (a class with none yet, or an empty group)."""
    if not view.snap.members:
        st.info(ct("dash.none"), icon="🌱")
        return None
    view = group_filter(view, key, label)
    if not view.snap.members:
        st.info(ct("groups.empty"), icon="👥")
        return None
    return view


def group_filter(view: OpenClass, key: str, label: str | None = None) -> OpenClass:
    """The filter by group of the dashboard and the grid (issue 29), drawn when the class
    has groups: the class as the chosen group's pupils, or as it is (``label``: the
    control's, "Show" by default)."""
    if not view.snap.groups:
        return view
    names = {g.id: g.name for g in view.snap.groups}
    options = [EVERYONE, *(g.id for g in sort_names(view.snap.groups, current_language(),
                                                    key=lambda g: g.name))]
    if st.session_state.get(key) not in options:  # a group deleted meanwhile
        st.session_state[key] = EVERYONE
    everyone = ct_text("groups.everyone")  # now: AppTest formats the options after the run
    chosen = st.segmented_control(
        label or ct("groups.filter"), options, key=key, required=True,
        format_func=lambda gid: everyone if gid == EVERYONE
        else f"👥 {md_escape(names[gid])}")  # an option's label is Markdown
    return view.of_group(chosen or None)
