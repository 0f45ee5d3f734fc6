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

from trainer.classroom import say
from trainer.export import CSV_MIME, CSV_STYLES, XLSX_MIME, csv_style, default_csv_style, file_name

__all__ = ["csv_style_choice", "table_buttons", "download"]


def _ct(key: str, lang: str, **params: object) -> str:
    return say(key, params, lang)


def download(label: str, data: bytes | Callable[[], bytes], name: str, mime: str, key: str,
             icon: str = "⬇️") -> None:
    """One file's button, as wide as its column; the file is made when tapped (``data``
    a callable). ``on_click="ignore"``: a download reruns nothing, so another button's
    file (made when tapped, under this run's id) is still there when it is tapped right
    after (a rerun between two taps dropped the second file)."""
    st.download_button(label, data, file_name=name, mime=mime, key=key, icon=icon,
                       width="stretch", on_click="ignore")


def csv_style_choice(key: str, lang: str) -> str:
    """The CSV style chosen on the page (the language's until another is chosen)."""
    options = list(CSV_STYLES)
    default = default_csv_style(lang)
    chosen = st.radio(_ct("export.style", lang), options, index=options.index(default),
                      key=key, horizontal=True,
                      format_func=lambda s: _ct(f"export.style_{s}", lang,
                                                example=f"12{CSV_STYLES[s][1]}5"),
                      help=_ct("export.style_help", lang))
    return csv_style(chosen, lang)


def table_buttons(labels: tuple[str, str], make_csv: Callable[[], bytes],
                  make_xlsx: Callable[[], bytes], name: tuple[str, ...],
                  keys: tuple[str, str]) -> None:
    """A CSV and an .xlsx of one table, two buttons side by side; each file is made when
    its button is tapped. ``name``: the file's words and parts (the catalog's word
    first), ``keys``: the buttons' widget keys."""
    left, right = st.columns(2)
    with left:
        download(labels[0], make_csv, file_name(*name, ext="csv"), CSV_MIME, keys[0])
    with right:
        download(labels[1], make_xlsx, file_name(*name, ext="xlsx"), XLSX_MIME, keys[1],
                 icon="📊")
