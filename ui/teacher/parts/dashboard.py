"""The dashboard: who needs help first and why, every pupil's figures, and one pupil's
progress as the child sees it."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from trainer.classroom_views import PupilRow
from trainer.i18n import t

from ... import progress
from ...classroom import ct, ct_text
from ...i18n import current_language
from ...practice import today
from ..markup import dashboard_html
from ..part import Part
from ..snapshot import OpenClass
from ..state import KEY_GROUP_FILTER
from ..widgets import pupil_label, pupils_shown

__all__ = ["PART"]


def show(view: OpenClass) -> None:
    shown = pupils_shown(view, KEY_GROUP_FILTER)
    if shown is None:
        return
    view = shown
    rows = view.rows()
    lang = current_language()
    helped = sum(1 for r in rows if r.needs_help)
    st.markdown(f"**{ct('dash.pupils', count=len(rows))} · "
                f"{ct('dash.need_help', count=helped)}**")
    by_id = {r.profile_id: r for r in rows}
    # One pupil's progress is chosen above the cards: under them a teacher of 26 scrolled
    # past every card to reach it (found trying it as a teacher).
    _pupil_progress(view, by_id, lang)
    st.caption(ct("dash.legend"))
    st.html(dashboard_html(rows, lang, today()))


def _pupil_progress(view: OpenClass, by_id: Mapping[int, PupilRow], lang: str) -> None:
    """The chooser of one pupil's My progress, and that pupil's progress when chosen."""
    chosen = st.selectbox(ct("dash.pupil_progress"), list(by_id), index=None,
                          key="tc_dash_pupil", placeholder=ct_text("dash.choose"),
                          format_func=lambda pid: pupil_label(by_id[pid].avatar,
                                                              by_id[pid].nickname,
                                                              by_id[pid].real_name))
    if chosen is None or chosen not in by_id:
        return
    member = view.room.pupil_profile(view.snap, chosen)  # only a pupil of this class
    with st.container(border=True, key="tc_pupil_progress"):
        st.markdown(f"**{ct('dash.progress_of', name=f'{member.avatar} {member.nickname}')}**")
        section = st.segmented_control(t("progress_title"), progress.SECTIONS,
                                       key="tc_pr_view", default="facts", required=True,
                                       format_func=lambda s: t(f"progress_{s}", lang),
                                       label_visibility="collapsed") or "facts"
        progress.show_part(member.profile_id, section, lang, view.day, view.info.capture_sum,
                           prefix="tc_", links=False)


PART = Part(key="dashboard", label="part.dashboard", render=show)
