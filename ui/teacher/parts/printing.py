"""Print: worksheets for the class and for each pupil, the reports to send home, the
class list, and new login cards for the whole class; in a class with groups, the pupils'
sheets, reports, list and cards of one group (issue 29: a table's cards to hand round).
The cards print with the PINs the pupils have (issue 29), or with new ones, asked first."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from puzzles import KINDS, LEVELS
from trainer.classroom_print import (
    class_list_pdf,
    class_worksheet_pdf,
    login_cards_pdf,
    pupil_worksheets_pdf,
)
from trainer.export import kind_text
from trainer.i18n import LANGUAGES, format_list, join_text, t
from trainer.pupil_report import REPORT_DAYS, class_report_pdf, pupil_reports
from trainer.text import md_escape

from ...classroom import class_action, class_flash, ct
from ...downloads import download
from ...i18n import current_language
from ..part import Part
from ..snapshot import OpenClass
from ..state import KEY_NEW_PINS, teacher_room
from ..widgets import cards_button, chosen_group, on_forget, pdf_name, pupils_shown

__all__ = ["PART"]


#: The group the Print part prints for (0: everyone), its own: the dashboard's stays.
KEY_PRINT_GROUP = "tc_print_group"


@class_action
def _on_all_pins(class_id: int, group_id: int | None = None) -> None:
    if not st.session_state.get("tc_all_pins_sure"):
        class_flash("warning", "print.cards_confirm_first")
        return
    logins = teacher_room().regenerate_all_pins(class_id, group_id)
    st.session_state[KEY_NEW_PINS] = (class_id, list(logins))
    st.session_state["tc_all_pins_sure"] = False


def show(view: OpenClass) -> None:
    room, snap, info = view.room, view.snap, view.info
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
                 pdf_name("file.worksheet", info.code, kind_text(kind, lang), str(level)),
                 "application/pdf",
                 "tc_ws_pdf", icon="🖨️")
    shown = pupils_shown(view, KEY_PRINT_GROUP, ct("print.for_group"))
    if shown is None:
        return
    group = chosen_group(view, KEY_PRINT_GROUP)  # None: everyone
    ids = {m.profile_id for m in shown.snap.members}
    grid = view.fact_grid()  # the class's: a pupil's sheet is the same in a group's PDF
    parts = (info.code, group.name) if group is not None else (info.code,)
    with st.container(border=True):
        st.markdown(f"**{ct('print.pupil_sheets')}**")
        st.caption(join_text((ct("print.pupil_sheets_help"), ct("print.keys_at_end"))))
        facts = st.number_input(ct("print.facts_per_sheet"), 1, 20, 8, key="tc_pupil_ws_count")
        download(ct("print.pupil_sheets_download"),
                 lambda: pupil_worksheets_pdf(snap, grid, lang, count=int(facts),
                                              only=sorted(ids)),
                 pdf_name("file.pupil_sheets", *parts), "application/pdf",
                 "tc_pupil_ws_pdf", icon="🖨️")
    _report_home(shown, lang, parts, group.id if group is not None else 0)
    members = [m for m in room.pupils(info.id) if m.profile_id in ids]
    with st.container(border=True):
        st.markdown(f"**{ct('print.class_list')}**")
        download(ct("print.class_list_download"),
                 lambda: class_list_pdf(info, members, lang,
                                        group.name if group is not None else None),
                 pdf_name("file.class_list", *parts), "application/pdf", "tc_list_pdf",
                 icon="🖨️")
    _login_cards(view, group.id if group is not None else None,
                 group.name if group is not None else None, parts)


def _login_cards(view: OpenClass, group_id: int | None, group_name: str | None,
                 parts: tuple[str, ...]) -> None:
    """The class's or the group's login cards: first as they are, every PIN unchanged
    (issue 29: a group's cards could be printed only by making its PINs new), then new
    PINs, asked first. A pupil with no PIN kept gets a line to write it on."""
    info = view.info
    with st.container(border=True):
        st.markdown("**" + (ct("print.cards_group", group=group_name) if group_name is not None
                            else ct("print.cards")) + "**")
        made = st.session_state.get(KEY_NEW_PINS)
        if made is not None and made[0] == info.id:
            st.warning(ct("print.cards_made"), icon="🪪")
            cards_button(info, made[1], "tc_cards_all")
            st.button(ct("pupils.done"), key="tc_new_pins_done", on_click=on_forget,
                      args=(KEY_NEW_PINS,))
            return
        logins = view.room.login_cards(info.id, group_id)
        lang = current_language()
        st.caption(ct("print.cards_kept_help"))
        if blank := [p.nickname for p in logins if not p.pin]:
            st.info(ct("print.cards_no_pin", names=md_escape(format_list(blank, lang))), icon="✍️")
        download(ct("print.cards_kept_download"), lambda: login_cards_pdf(info, logins, lang),
                 pdf_name("file.login_cards", *parts), "application/pdf", "tc_cards_kept",
                 icon="🪪")
        if info.archived:
            return
        st.caption(ct("print.cards_new_help_group" if group_id is not None
                      else "print.cards_new_help"))
        st.checkbox(ct("print.cards_sure"), key="tc_all_pins_sure")
        st.button(ct("print.cards_button_group" if group_id is not None
                     else "print.cards_button"), key="tc_all_pins",
                  on_click=_on_all_pins, args=(info.id, group_id), icon="🔑")


def _report_home(view: OpenClass, lang: str, parts: tuple[str, ...], group_id: int) -> None:
    """The reports to send home: a language per pupil (the one the child chose in the app,
    else the page's; the teacher changes any in the table), then one PDF for the class
    (or for the group chosen: ``view`` is then that group's; ``parts``, the file name's).
    The table is the group's own (its edits are by row: another group's rows are other
    pupils)."""
    room, info = view.room, view.info
    chosen = room.pupil_languages(info.id)
    members = view.snap.members
    table = pd.DataFrame({
        ct("print.report_pupil"): [m.nickname for m in members],
        ct("print.report_language"): [LANGUAGES.get(chosen.get(m.profile_id, lang), LANGUAGES[lang])
                                      for m in members]})
    with st.container(border=True):
        st.markdown(f"**{ct('print.report')}**")
        st.caption(ct("print.report_help"))
        edited = st.data_editor(
            table, key=f"tc_report_langs_{info.id}_{group_id}", hide_index=True, width="stretch",
            disabled=[ct("print.report_pupil")],
            column_config={ct("print.report_language"): st.column_config.SelectboxColumn(
                options=list(LANGUAGES.values()), required=True)})
        codes = {name: code for code, name in LANGUAGES.items()}
        languages = {m.profile_id: codes.get(label, lang) for m, label in
                     zip(members, edited[ct("print.report_language")], strict=True)}

        def make() -> bytes:
            snap = room.snapshot(info.id, view.day, every_attempt=False, days=REPORT_DAYS)
            grid = room.fact_grid(snap)
            reports = pupil_reports(snap, grid, room.dashboard(snap, view.day), view.day,
                                    only=[m.profile_id for m in members])
            return class_report_pdf(reports, info.name, languages, lang)

        download(ct("print.report_download"), make, pdf_name("file.report", *parts),
                 "application/pdf", "tc_report_pdf", icon="🖨️")


PART = Part(key="print", label="part.print", render=show)
