"""Export: every attempt and the dashboard as CSV or Excel files."""

from __future__ import annotations

import streamlit as st

from trainer.classroom_print import attempts_csv, attempts_xlsx, dashboard_csv, dashboard_xlsx

from ...classroom import ct, ct_text
from ...downloads import csv_style_choice, table_buttons
from ...i18n import current_language
from ...practice import child_timezone
from ..part import Part
from ..snapshot import OpenClass

__all__ = ["PART"]


def show(view: OpenClass) -> None:
    room, info = view.room, view.info
    lang = current_language()
    rows = view.rows()
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
                  (ct_text("file.dashboard"), info.code, view.day.isoformat()),
                  ("tc_dashboard_csv", "tc_dashboard_xlsx"))


PART = Part(key="export", label="part.export", render=show)
