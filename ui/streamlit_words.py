"""Streamlit's own words in the child's language (issue 33).

Streamlit 1.67 writes its widgets' texts in English and has no setting for another
language (its config has no locale; the texts are literals in its frontend bundle):
"Upload" and "200MB per file" on Replay's file chooser, "Choose options" and "Select
all" in a multiselect, "Press Enter to apply" under a text field, "Download as CSV" on
a table's toolbar, and accessible names a screen reader says ("Help for Nickname",
"Show password", "Copy to clipboard", "Collapse sidebar"). Where our code can name a
thing itself it does (labels, placeholders); the rest is swapped in the browser.

One invisible component (``st.components.v2``: it runs in the page itself, not in a
frame) watches the page with a MutationObserver and replaces exactly these English
strings, in text and in ``aria-label``/``title``/``placeholder``, with the catalog's
words for the page's language (the ``stw.*`` block of the messages catalog). The
English side is the English catalog, which says each string as Streamlit writes it
(``tests/test_streamlit_words.py`` checks they are still in Streamlit's bundle). Dates
in the date picker's accessible names are written by the browser's ``Intl`` for the
language. Nothing is fetched; an English page gets no rules at all.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import streamlit as st

from trainer.i18n import t

from .assets import asset_text

__all__ = ["WORD_KEYS", "PLURAL_KEYS", "date_format", "streamlit_words",
           "translate_streamlit_words"]

#: Catalog keys of Streamlit's fixed strings; ``{name}`` parts match any text.
WORD_KEYS = (
    "stw.upload", "stw.file_upload", "stw.add_files", "stw.per_file", "stw.drop_file",
    "stw.drop_files", "stw.choose_options", "stw.choose_option", "stw.no_options",
    "stw.select_all", "stw.no_results", "stw.press_enter", "stw.press_enter_form",
    "stw.press_ctrl_enter", "stw.press_cmd_enter", "stw.skip", "stw.help_for",
    "stw.show_password", "stw.hide_password", "stw.copy", "stw.open", "stw.close",
    "stw.dismiss", "stw.clear_all", "stw.selected", "stw.remove", "stw.clear_entry",
    "stw.increment", "stw.decrement", "stw.choose_date", "stw.choose_date_in",
    "stw.clear_date", "stw.previous_month", "stw.next_month", "stw.month", "stw.year",
    "stw.day_of", "stw.month_of", "stw.year_of", "stw.today", "stw.yyyy", "stw.mm",
    "stw.dd", "stw.date_keys", "stw.download_csv", "stw.search", "stw.fullscreen",
    "stw.close_fullscreen", "stw.columns", "stw.collapse_sidebar", "stw.expand_sidebar",
    "stw.sidebar", "stw.app_pages", "stw.main_menu", "stw.heading_link", "stw.running",
    "stw.stop", "stw.connecting",
)
#: Keys with a count ("3 options available."): one rule for 1, one for any other number.
PLURAL_KEYS = ("stw.options_available",)

_FIELD = re.compile(r"\{(\w+)\}")
# A count no language here says with its "one" form, so t() returns the "other" form.
_ANY_COUNT = 97

_JS = asset_text("streamlit_words.js")
_WORDS = st.components.v2.component(
    "escoba_streamlit_words", html="", js=_JS, isolate_styles=False)


def _rule(english: str, translated: str) -> list[str]:
    """[JS regular expression, replacement]: each ``{field}`` of the English matches any
    text, put back where the translation has the same field."""
    order = _FIELD.findall(english)
    pieces = _FIELD.split(english)  # text, field, text, field, ..., text
    source = "".join(re.escape(p) if i % 2 == 0 else "(.+?)" for i, p in enumerate(pieces))
    target = _FIELD.sub(lambda m: f"${order.index(m.group(1)) + 1}",
                        translated.replace("$", "$$"))
    return [f"^{source}$", target]


@functools.cache  # the catalogs are read once per process: 2-9 ms a run saved (es)
def streamlit_words(lang: str) -> dict[str, Any]:
    """What the browser needs for ``lang``: exact strings, rules with fields, and the
    language (for ``Intl`` dates). Empty for English, Streamlit's own language. Shared:
    never changed by a caller."""
    if lang == "en":
        return {"lang": lang, "exact": {}, "rules": []}
    exact: dict[str, str] = {}
    rules: list[list[str]] = []
    for key in WORD_KEYS:
        english, translated = t(key, "en"), t(key, lang)
        if _FIELD.search(english):
            rules.append(_rule(english, translated))
        else:
            exact[english] = translated
    for key in PLURAL_KEYS:
        exact[t(key, "en", count=1)] = t(key, lang, count=1)
        english, translated = t(key, "en", count=_ANY_COUNT), t(key, lang, count=_ANY_COUNT)
        number = str(_ANY_COUNT)
        rules.append(_rule(english.replace(number, "{count}"),
                           translated.replace(number, "{count}")))
    return {"lang": lang, "exact": exact, "rules": rules}


#: ``st.date_input``'s field order and separator as each language writes a date
#: (Streamlit offers year-month-day, day-month-year and month-day-year).
_DATE_FORMATS = {"de": "DD.MM.YYYY", "es": "DD/MM/YYYY", "it": "DD/MM/YYYY"}


def date_format(lang: str) -> str:
    """The ``format=`` of a date field for ``lang`` ("03.12.2026" in German)."""
    return _DATE_FORMATS.get(lang, "YYYY-MM-DD")


def translate_streamlit_words(lang: str) -> None:
    """Mount the word swapper once on this page (in the sidebar: it draws nothing)."""
    with st.sidebar:
        _WORDS(key="escoba_streamlit_words", data=streamlit_words(lang),
               width="content", height="content")
