"""The assignments: a new one (a lesson, puzzles, chosen facts or each pupil's weakest)
and each one's progress, pupil by pupil."""

from __future__ import annotations

import time
from typing import Any

import pandas as pd
import streamlit as st

from lessons import load_stages
from puzzles import CAPTURE_SUMS, KINDS, LEVELS
from trainer.classroom import describe, fact_question
from trainer.classroom_views import (
    ASSIGNMENT_KINDS,
    MAX_FACTS,
    MAX_PUZZLES,
    AssignmentProgress,
    ClassroomError,
    facts_in_question_order,
)
from trainer.i18n import format_day, t
from trainer.names import sort_names
from trainer.storage import AssignmentRow, ClassSnapshot
from trainer.text import md_escape

from ...busy import answered, busy_buttons
from ...classroom import class_action, class_flash, class_labels, ct, ct_text
from ...errors import safe_callback
from ...i18n import current_language
from ...practice import child_timezone, today
from ...streamlit_words import date_format
from ..part import Part
from ..snapshot import OpenClass
from ..state import teacher_room
from ..widgets import pupil_label

__all__ = ["PART"]

_PUZZLE_KINDS = tuple(k for k in KINDS if k != "quick-facts")
#: Who a new assignment is for (issue 29): "class", "group", "pupil"; the group; the pupil.
KEY_FOR, KEY_FOR_GROUP, KEY_FOR_PUPIL = "tc_gr_for", "tc_gr_for_group", "tc_gr_for_pupil"
#: The form's fields emptied once it has assigned (the kind and its settings stay).
_CLEARED = {"tc_as_facts": [], "tc_as_due": None, KEY_FOR_GROUP: None, KEY_FOR_PUPIL: None}
#: What the last tap of Assign did (kind, key, params), said under the button (issue 29:
#: said at the top of the page, out of sight of the button, a refusal went unseen).
KEY_SAID = "tc_as_said"
#: The Assign button: "Working…" at once when tapped, a second quick tap ignored (issue
#: 35: it landed on the form just cleared and was refused "Choose the group first").
KEY_CREATE = "tc_as_create"


def _say(kind: str, key: str, **params: Any) -> None:
    st.session_state[KEY_SAID] = (kind, key, params)


#: A tap of Assign on the form just emptied, this soon after one that assigned, is the
#: same tap twice, not a new assignment: the "Working…" marker catches most second taps,
#: but one that comes between the server's answer and the marker's redraw lands on the
#: emptied form, and was refused "Choose the group first" under the "Assigned" it
#: replaced (a persona saw it). Nobody refills the form in that time.
SAME_TAP_SECONDS = 2.0
KEY_ASSIGNED_AT = "tc_as_assigned_at"


@answered
@safe_callback
def _on_assign(class_id: int, kind: str, capture_sum: int) -> None:
    state = st.session_state
    assigned = state.get(KEY_ASSIGNED_AT)
    if (assigned is not None and time.monotonic() - assigned[0] < SAME_TAP_SECONDS
            and all(state.get(key) in (empty, None) for key, empty in _CLEARED.items())):
        state[KEY_SAID] = assigned[1]  # the same tap twice, on the form just emptied
        return
    try:
        _assign(class_id, kind, capture_sum)
    except ClassroomError as err:
        _say("error", err.key, **err.params)


def _assign(class_id: int, kind: str, capture_sum: int) -> None:
    state = st.session_state
    if kind == "lesson":
        spec: dict[str, Any] = {"stage": state.get("tc_as_stage")}
    elif kind == "puzzles":
        spec = {"kind": state.get("tc_as_kind"), "level": state.get("tc_as_level"),
                "count": state.get("tc_as_count"), "capture_sum": capture_sum}
    elif kind == "facts":
        spec = {"facts": list(state.get("tc_as_facts") or []), "capture_sum": capture_sum}
        if len(spec["facts"]) > MAX_FACTS:  # pills have no limit of their own
            raise ClassroomError("assign.too_many_facts")
    else:
        spec = {"count": state.get("tc_as_weakest"), "capture_sum": capture_sum}
    due = state.get("tc_as_due")
    # For the whole class, a group or one pupil (issue 29): only the chosen one's box counts.
    target = state.get(KEY_FOR) or "class"
    group = state.get(KEY_FOR_GROUP) if target == "group" else None
    pupil = state.get(KEY_FOR_PUPIL) if target == "pupil" else None
    if target != "class" and group is None and pupil is None:
        raise ClassroomError(f"assign.choose_{target}")
    row = teacher_room().create_assignment(class_id, kind, spec, due=due, group_id=group,
                                           profile_id=pupil)
    _say("success", "assign.created", what=describe(row, current_language()))
    state[KEY_ASSIGNED_AT] = (time.monotonic(), state[KEY_SAID])
    # A clean form (issue 29: it kept its facts, and a second tap assigned them twice).
    for key, empty in _CLEARED.items():
        state[key] = empty


@class_action
def _on_unassign(class_id: int, assignment_id: int) -> None:
    teacher_room().delete_assignment(class_id, assignment_id)
    class_flash("success", "assign.deleted")


def _target(snap: ClassSnapshot) -> str:
    """Who the new assignment is for: the whole class, a group, one pupil (issue 29)."""
    targets = ("class", "group", "pupil") if snap.groups else ("class", "pupil")
    if st.session_state.get(KEY_FOR) not in targets:
        st.session_state[KEY_FOR] = "class"
    return st.segmented_control(ct("assign.for"), targets, key=KEY_FOR, required=True,
                                format_func=class_labels("assign.for_")) or "class"


def _target_choice(snap: ClassSnapshot, target: str) -> None:
    """The group or the pupil (inside the form: read when it is sent)."""
    if target == "group":
        names = {g.id: g.name for g in sort_names(snap.groups, current_language(),
                                                  key=lambda g: g.name)}
        st.selectbox(ct("assign.group"), list(names), key=KEY_FOR_GROUP, index=None,
                     format_func=lambda gid: f"👥 {names.get(gid, '')}",
                     placeholder=ct_text("assign.pick_group"))
    elif target == "pupil":
        pupils = {m.profile_id: pupil_label(m.avatar, m.nickname, m.real_name)
                  for m in snap.members}
        st.selectbox(ct("assign.pupil"), list(pupils), key=KEY_FOR_PUPIL, index=None,
                     format_func=lambda pid: pupils.get(pid, ""),
                     placeholder=ct_text("dash.choose"))


def _new_assignment(snap: ClassSnapshot) -> None:
    info = snap.info
    st.markdown(f"**{ct('assign.new')}**")
    target = _target(snap)
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
            # Pills, not a multiselect (issue 29): at the foot of a tablet's window its list
            # closed as it opened, the page scrolling the field above the on-screen
            # keyboard; every fact in sight is one tap, and no keyboard comes up.
            # One fact per question: "7 + 8" would be asked as "7 + ? = 15" again.
            st.pills(ct("assign.facts", max=MAX_FACTS), facts_in_question_order(capture_sum),
                     selection_mode="multi", key="tc_as_facts",
                     format_func=lambda fact: fact_question(fact, capture_sum))
        else:
            st.number_input(ct("assign.weakest"), 1, MAX_FACTS, 5, key="tc_as_weakest")
        _target_choice(snap, target)
        st.date_input(ct("assign.due"), value=None, key="tc_as_due", min_value=today(),
                      format=date_format(lang))
        st.form_submit_button(ct("assign.create"), type="primary", on_click=_on_assign,
                              args=(info.id, kind, capture_sum), width="stretch",
                              key=KEY_CREATE)
        _said()
    busy_buttons([KEY_CREATE], key="tc_as_busy")


def _said() -> None:
    """What the last tap of Assign did, under the button, where the teacher looks."""
    said = st.session_state.pop(KEY_SAID, None)
    if said is None:
        return
    kind, key, params = said
    show = st.success if kind == "success" else st.error
    show(ct(key, **params), icon="✅" if kind == "success" else "⚠️")


def _for_whom(snap: ClassSnapshot, a: AssignmentRow, names: dict[int, str]) -> str:
    """Who an assignment is for, said on its card (the whole class's says nothing)."""
    if a.group_id is not None:
        group = next((g.name for g in snap.groups if g.id == a.group_id), "")
        return ct("assign.to_group", name=group)
    if a.profile_id is not None:
        return ct("assign.to_pupil", name=names.get(a.profile_id, ""))
    return ""


def _assignment_card(snap: ClassSnapshot, item: AssignmentProgress,
                     names: dict[int, str]) -> None:
    info = snap.info
    lang = current_language()
    a = item.assignment
    with st.container(border=True, key=f"tc_assignment_{a.id}"):
        st.markdown(f"**{md_escape(describe(a, lang))}**")
        if whom := _for_whom(snap, a, names):
            st.markdown(whom)
        due = (ct("task.due", date=format_day(a.due, lang, today=today())) if a.due
               else ct("assign.no_due"))
        done = ct("assign.completion", done=item.completed, count=len(item.pupils))
        right = ct("assign.completion_right", count=item.completed_right)
        # When it was set: two assignments alike ("3 puzzles: captures, level 1") were told
        # apart only by their due day, or not at all without one.
        made = a.created_at.astimezone(child_timezone()).date()
        set_on = ct("assign.set_on", date=format_day(made, lang, today=today()))
        st.caption(f"{set_on} · {due} · {done} · {right}")
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


def show(view: OpenClass) -> None:
    snap, info = view.snap, view.info
    if not info.archived:
        _new_assignment(snap)
    items: list[AssignmentProgress] = view.kept(
        ("assignments", view.day), lambda: view.room.assignments(snap, view.day))
    st.markdown(f"**{ct('assign.list')}**")
    if not items:
        st.info(ct("assign.none"), icon="📋")
        return
    names = {m.profile_id: pupil_label(m.avatar, m.nickname) for m in snap.members}
    for item in items:
        _assignment_card(snap, item, names)


PART = Part(key="assignments", label="part.assignments", render=show)
