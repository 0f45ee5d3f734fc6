"""Widgets and callbacks that more than one part of a class draws."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trainer.classroom import PupilLogin
from trainer.classroom_print import login_cards_pdf
from trainer.export import file_name
from trainer.i18n import t
from trainer.names import sort_names
from trainer.storage import ClassInfo

from ..classroom import class_action, ct, ct_text
from ..downloads import download
from ..i18n import current_language

__all__ = ["pupil_label", "pdf_name", "cards_button", "on_forget", "ask_first"]


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
