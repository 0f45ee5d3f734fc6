"""A table offered as a CSV and as an Excel workbook, side by side, with the choice of
CSV style (issue 27): the teacher's Export part and the parent's My progress draw the
same two buttons over :mod:`trainer.export`.

The CSV style defaults to the language's (``;`` and a decimal comma in German and
Spanish, ``,`` and a point in English and Chinese); the other one is a tap away. A
choice that is not one of the styles (a stale session, a forged value) is the
language's: nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from trainer.export import CSV_MIME, CSV_STYLES, XLSX_MIME, csv_style, default_csv_style, file_name
from trainer.i18n import t

__all__ = ["csv_style_choice", "table_buttons"]


def _ct(key: str, lang: str, **params: object) -> str:
    return t(key, lang, domain="classroom", **params)


def csv_style_choice(key: str, lang: str) -> str:
    """The CSV style chosen on the page (the language's until another is chosen)."""
    options = list(CSV_STYLES)
    default = default_csv_style(lang)
    examples = {"semicolon": "12,5", "comma": "12.5"}
    chosen = st.radio(_ct("export.style", lang), options, index=options.index(default),
                      key=key, horizontal=True,
                      format_func=lambda s: _ct(f"export.style_{s}", lang, example=examples[s]),
                      help=_ct("export.style_help", lang))
    return csv_style(chosen, lang)


def table_buttons(labels: tuple[str, str], make_csv: Callable[[], bytes],
                  make_xlsx: Callable[[], bytes], name: tuple[str, ...],
                  keys: tuple[str, str]) -> None:
    """A CSV and an .xlsx of one table, two buttons side by side; each file is made when
    its button is tapped. ``name``: the file's words and parts (the catalog's word
    first), ``keys``: the buttons' widget keys."""
    left, right = st.columns(2)
    # on_click="ignore": a download reruns nothing, so the other button's file (made when
    # tapped, under this run's id) is still there when it is tapped right after
    with left:
        st.download_button(labels[0], make_csv, file_name=file_name(*name, ext="csv"),
                           mime=CSV_MIME, key=keys[0], icon="⬇️", width="stretch",
                           on_click="ignore")
    with right:
        st.download_button(labels[1], make_xlsx, file_name=file_name(*name, ext="xlsx"),
                           mime=XLSX_MIME, key=keys[1], icon="📊", width="stretch",
                           on_click="ignore")
