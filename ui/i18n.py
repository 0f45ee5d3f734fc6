"""The session's language inside a Streamlit run, over :mod:`trainer.i18n`.

The language comes from, in order: the choice made in the app (session
state, saved in the profile), then the browser (``st.context.locale``), then
English. :func:`start_run` fixes it for the run's thread, so that
:func:`trainer.i18n.t` needs no Streamlit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from trainer.i18n import (
    DEFAULT,
    LANGUAGES,
    language_from_locale,
    run_language,
    t,
    use_card_names,
    use_language,
)

__all__ = ["start_run", "current_language", "set_language", "labels"]

_STATE_KEY = "lang"
_SETTINGS_KEY = "settings"  # ui.session._SETTINGS


def start_run() -> str:
    """Fix the language for the rest of this run (called once by app.py and by fragments),
    and how it names the Spanish cards (the child's "Spanish card names" setting)."""
    use_language(None)
    lang = current_language()
    use_language(lang)
    try:  # ui.session's settings (it imports this module: read under its key)
        chosen = st.session_state.get(_SETTINGS_KEY) or {}
        use_card_names(bool(chosen.get("spanish_names", False)))
    except Exception:  # outside a Streamlit run
        use_card_names(False)
    return lang


def current_language() -> str:
    """The language of this session (see the module docstring for the order)."""
    fixed = run_language()
    if fixed is not None:
        return fixed
    try:
        chosen = st.session_state.get(_STATE_KEY)
        if chosen in LANGUAGES:
            return chosen
        lang = language_from_locale(st.context.locale)
        st.session_state[_STATE_KEY] = lang
        return lang
    except Exception:  # outside a Streamlit run (bare-mode scripts, helpers in tests)
        return DEFAULT


def set_language(lang: str) -> None:
    """Choose ``lang`` for this session (and the rest of this run)."""
    if lang in LANGUAGES:
        st.session_state[_STATE_KEY] = lang
        if run_language() is not None:
            use_language(lang)


def labels(prefix: str) -> Callable[[Any], str]:
    """A ``format_func`` for widgets: ``value -> t(prefix + value)``, language fixed now.

    Fixing the language when the widget is drawn keeps labels and options in
    step (AppTest calls format functions again after the run).
    """
    lang = current_language()
    return lambda value: t(f"{prefix}{value}", lang)
