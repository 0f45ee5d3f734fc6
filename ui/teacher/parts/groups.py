"""Groups within the class (issue 29): name them (tables, support groups), rename or delete
one, and choose each pupil's group with a tap (a pupil is in one at most)."""

from __future__ import annotations

import streamlit as st

from trainer.classroom import GROUP_NAME_MAX
from trainer.names import sort_names
from trainer.storage import ClassSnapshot, GroupRow
from trainer.text import md_escape

from ...classroom import class_action, class_flash, ct, ct_text
from ...i18n import current_language
from ..part import Part
from ..snapshot import OpenClass
from ..state import teacher_room
from ..widgets import ask_first, pupil_label

__all__ = ["PART"]

KEY_NEW = "tc_gr_new"
#: The group whose "Delete" was tapped once: it asks before it deletes.
KEY_DELETE_ASK = "tc_gr_delete_ask"
#: A pupil's choice of group: 0 is "no group" (a group's id is never 0).
NO_GROUP = 0


@class_action
def _on_create(class_id: int) -> None:
    group = teacher_room().create_group(class_id, str(st.session_state.get(KEY_NEW) or ""))
    st.session_state[KEY_NEW] = ""  # made: the box is empty for the next one
    class_flash("success", "groups.created", name=group.name)


@class_action
def _on_rename(class_id: int, group_id: int, key: str) -> None:
    group = teacher_room().rename_group(class_id, group_id, str(st.session_state.get(key) or ""))
    class_flash("success", "groups.renamed", name=group.name)


@class_action
def _on_delete(class_id: int, group_id: int) -> None:
    st.session_state.pop(KEY_DELETE_ASK, None)
    teacher_room().delete_group(class_id, group_id)
    class_flash("success", "groups.deleted")


@class_action
def _on_pupil_group(class_id: int, profile_id: int, key: str) -> None:
    chosen = st.session_state.get(key)
    # Drawn again from what is stored, whether the change was made or refused.
    st.session_state.pop(key, None)
    teacher_room().set_pupil_group(class_id, profile_id, int(chosen or NO_GROUP) or None)


def _group_box(snap: ClassSnapshot, group: GroupRow) -> None:
    info = snap.info
    members = [m for m in snap.members if m.group_id == group.id]
    tasks = sum(1 for a in snap.assignments if a.group_id == group.id)
    with st.container(border=True, key=f"tc_gr_box_{group.id}"):
        st.markdown(f"**👥 {md_escape(group.name)}** · "
                    + ct("groups.size", count=len(members)))
        if info.archived:
            return
        key = f"tc_gr_name_{group.id}"
        st.session_state.setdefault(key, group.name)
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.text_input(ct("groups.name"), key=key, max_chars=GROUP_NAME_MAX)
            st.button(ct("groups.rename"), key=f"tc_gr_rename_{group.id}", icon="✏️",
                      on_click=_on_rename, args=(info.id, group.id, key))
        ask_first(KEY_DELETE_ASK, group.id, key=f"tc_gr_delete_{group.id}",
                  label=ct("groups.delete"), icon="🗑️",
                  sure=ct("groups.delete_sure", name=group.name, count=tasks),
                  yes=ct("groups.delete_yes"), on_yes=_on_delete, args=(info.id, group.id))


def _pupils_groups(snap: ClassSnapshot, groups: list[GroupRow]) -> None:
    """A row of buttons per pupil, one per group and "No group": one tap moves them."""
    names = {g.id: g.name for g in groups}
    options = [NO_GROUP, *names]
    none = ct_text("groups.no_group")  # now: AppTest formats the options after the run
    st.markdown(f"**{ct('groups.pupils')}**")
    for member in snap.members:
        key = f"tc_gr_pupil_{member.profile_id}"
        st.segmented_control(
            pupil_label(member.avatar, member.nickname, member.real_name), options, key=key,
            default=member.group_id or NO_GROUP, required=True,
            disabled=snap.info.archived, on_change=_on_pupil_group,
            args=(snap.info.id, member.profile_id, key),
            format_func=lambda gid: none if gid == NO_GROUP
            else md_escape(names[gid]))  # an option's label is Markdown


def show(view: OpenClass) -> None:
    snap, info = view.snap, view.info
    if not info.archived:
        with st.form("tc_gr_form", border=True):
            st.text_input(ct("groups.new"), key=KEY_NEW, max_chars=GROUP_NAME_MAX,
                          placeholder=ct_text("groups.new_hint"))
            st.form_submit_button(ct("groups.add"), type="primary", icon="👥",
                                  on_click=_on_create, args=(info.id,))
    groups = sort_names(snap.groups, current_language(), key=lambda g: g.name)
    if not groups:
        st.info(ct("groups.none"), icon="👥")
        return
    for group in groups:
        _group_box(snap, group)
    if snap.members:
        _pupils_groups(snap, groups)


PART = Part(key="groups", label="part.groups", render=show)
