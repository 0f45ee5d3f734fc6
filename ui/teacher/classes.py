"""The teacher's classes (the page once signed in, before a class is opened): the list, a
new class, and an invitation for a colleague."""

from __future__ import annotations

import streamlit as st

from puzzles import CAPTURE_SUMS
from trainer.classroom import INVITE_DAYS, Classroom, format_code, format_invite
from trainer.classroom_views import FLUENCY_LIMITS
from trainer.i18n import format_day, t
from trainer.storage import ClassInfo
from trainer.text import md_escape

from ..classroom import class_action, class_flash, class_labels, ct, ct_text
from ..i18n import current_language
from ..practice import child_timezone
from .state import KEY_INVITE, KEY_PART, on_open, open_class, teacher_room

__all__ = ["show_classes"]


@class_action
def _on_create_class() -> None:
    name = st.session_state.get("tc_class_name", "") or ""
    info = teacher_room().create_class(
        name, fluency_seconds=int(st.session_state.get("tc_class_fluency") or 6),
        capture_sum=int(st.session_state.get("tc_class_sum") or 15))
    open_class(info.id)
    st.session_state[KEY_PART] = "pupils"  # a new class's first step
    class_flash("success", "classes.created", name=info.name, code=format_code(info.code))


def _class_row(info: ClassInfo) -> None:
    with st.container(border=True, horizontal=True, vertical_alignment="center"):
        st.markdown(f"**{md_escape(info.name)}** · "
                    f"{ct('card.code', code=format_code(info.code))}")
        st.button(ct("classes.open"), key=f"tc_open_{info.id}", on_click=on_open,
                  args=(info.id,), type="primary")


def show_classes(room: Classroom) -> None:
    """The classes, the archived ones folded away, and the forms for more."""
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


# -- colleagues (issue 27) -------------------------------------------------------------------

@class_action
def _on_invite() -> None:
    st.session_state[KEY_INVITE] = teacher_room().invite_teacher()


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

