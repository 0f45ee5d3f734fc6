"""The class's settings: its name, fluency limit, sum and voice; a new class code;
archiving (asked first) or restoring; the shared tablets; co-teachers; and deleting the
class with all it holds."""

from __future__ import annotations

import streamlit as st

from puzzles import CAPTURE_SUMS
from trainer.classroom import PUPIL_IDLE_CHOICES, Classroom, ClassroomError, format_code, say
from trainer.classroom_views import FLUENCY_LIMITS
from trainer.i18n import t
from trainer.storage import ClassInfo
from trainer.text import md_escape

from ...classroom import class_action, class_flash, class_labels, ct, ct_text
from ...i18n import current_language
from ...session import storage
from ..part import Part
from ..snapshot import OpenClass
from ..state import KEY_ARCHIVE_ASK, open_class, teacher_room
from ..widgets import ask_first

__all__ = ["PART"]


@class_action
def _on_save_settings(class_id: int) -> None:
    state = st.session_state
    teacher_room().update_class(class_id, name=state.get("tc_set_name") or "",
                         fluency_seconds=int(state.get("tc_set_fluency") or 6),
                         capture_sum=int(state.get("tc_set_sum") or 15),
                         voice=bool(state.get("tc_set_voice")))
    class_flash("success", "settings.saved")


@class_action
def _on_new_code(class_id: int) -> None:
    info = teacher_room().regenerate_code(class_id)
    class_flash("success", "settings.code_done", code=format_code(info.code))


@class_action
def _on_archive(class_id: int, archive: bool) -> None:
    room = teacher_room()
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
    teacher_room().delete_class(class_id, typed)
    open_class(None)
    class_flash("success", "settings.deleted", name=info.name if info is not None else "")


@class_action
def _on_co_teacher(class_id: int) -> None:
    name = st.session_state.get("tc_co_name", "") or ""
    info = teacher_room().add_co_teacher(class_id, name)
    st.session_state["tc_co_name"] = ""
    added = storage().teacher_named(name)
    if added is not None and added.id in info.co_teachers:
        class_flash("success", "settings.co_added", name=added.name)


@class_action
def _on_co_remove(class_id: int, teacher_id: int, name: str) -> None:
    teacher_room().remove_co_teacher(class_id, teacher_id)
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


def show(view: OpenClass) -> None:
    room, info = view.room, view.info
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
            ask_first(KEY_ARCHIVE_ASK, info.id, key="tc_archive", label=ct("settings.archive"),
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
    teacher_room().set_tablet_idle(class_id, int(minutes or 0))
    class_flash("success", "settings.saved")


@class_action
def _on_sign_out_tablets(class_id: int) -> None:
    teacher_room().sign_out_tablets(class_id)
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


PART = Part(key="settings", label="part.settings", render=show)
