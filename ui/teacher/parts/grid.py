"""The fact grid: a pupil a row, a fact a column, the week's most missed facts, and one
cell's history."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from trainer.classroom import fact_label
from trainer.classroom_views import FLUENCY_LIMITS, FactTotal, fact_totals
from trainer.i18n import format_day, format_number

from ...classroom import class_labels, ct, ct_text
from ...i18n import current_language
from ...practice import child_timezone, today
from ..markup import CELL_MARKS, grid_html, legend_html, totals_html
from ..part import Part
from ..snapshot import OpenClass
from ..state import KEY_GROUP_FILTER
from ..widgets import pupil_label, pupils_shown

__all__ = ["PART"]

#: More facts than fit beside the names on a tablet (the complements alone fit).
SCROLL_HINT_FACTS = 12


def show(view: OpenClass) -> None:
    shown = pupils_shown(view, KEY_GROUP_FILTER)
    if shown is None:
        return
    view = shown
    snap, info = view.snap, view.info
    lang = current_language()
    # One above the other: side by side, the second was cut off on a phone (issue 27).
    with st.container():
        limit = st.segmented_control(ct("grid.limit"), FLUENCY_LIMITS, key="tc_grid_limit",
                                     default=info.fluency_seconds, required=True,
                                     format_func=class_labels("fluency."))
        which = st.segmented_control(ct("grid.facts"), ("all", "complements", "additions"),
                                     key="tc_grid_facts", default="all", required=True,
                                     format_func=class_labels("grid.facts_", sum=info.capture_sum))
    limit = int(limit or info.fluency_seconds)
    grid = view.fact_grid(limit)
    facts = {"complements": grid.complements, "additions": grid.additions}.get(
        which or "all", grid.facts)
    totals: dict[str, FactTotal] = view.kept(("totals", view.day),
                                             lambda: fact_totals(grid, snap, view.day))
    st.markdown(f"**{ct('grid.totals_title')}**")
    st.html(totals_html({f: totals[f] for f in facts}, lang))
    st.caption(ct("grid.rule", limit=limit))
    st.html(legend_html(lang))
    if len(facts) > SCROLL_HINT_FACTS:  # wider than a tablet: say the grid scrolls
        st.caption("↔️ " + ct("grid.scroll_hint"))
    st.html(grid_html(grid, facts, lang, totals))

    st.markdown(f"**{ct('grid.history')}**")
    names = {m.profile_id: pupil_label(m.avatar, m.nickname) for m in snap.members}
    cols = st.columns(2)
    pupil = cols[0].selectbox(ct("grid.pupil"), list(names), index=None, key="tc_cell_pupil",
                              format_func=names.get, placeholder=ct_text("dash.choose"))
    fact = cols[1].selectbox(ct("grid.fact"), list(grid.facts), index=None, key="tc_cell_fact",
                             format_func=fact_label, placeholder=ct_text("grid.choose_fact"))
    if pupil is None or fact is None or pupil not in names:
        return
    tries = view.room.cell_history(snap, pupil, fact)
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
        ct_text("grid.col_when"): f"{format_day(tr.day, lang, today=today())} "
                                   f"{tr.when.astimezone(zone).strftime('%H:%M')}",
        ct_text("grid.col_right"): ("✓ " + ct_text("grid.right")) if tr.correct
        else ("✗ " + ct_text("grid.wrong")),
        ct_text("grid.col_seconds"): "" if tr.seconds is None
        else f"{format_number(tr.seconds, lang)} s",
        # A quick fact says which question it was ("3 + 4 + ? = 15" under 7 + ? = 15).
        ct_text("grid.col_kind"): ct_text(f"kind.{tr.kind}")
        + (f": {tr.question}" if tr.question else ""),
    } for tr in tries]), hide_index=True, width="stretch")


PART = Part(key="grid", label="part.grid", render=show)
