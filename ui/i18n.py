"""One translation catalog for every visible string: ``t(key, **params)``.

The language comes from, in order: the choice made in the app (session
state, saved in the profile), then the browser (``st.context.locale``), then
English. Domain words of the game (escoba, oros, Sota, ¡renuncio!) stay
Spanish in every language; :data:`ui.catalog.GLOSSARY` explains them.
"""

from __future__ import annotations

import logging
import string
import threading
from collections.abc import Callable
from typing import Any

from .catalog import CATALOGS, GLOSSARY

__all__ = ["t", "plural_form", "LANGUAGES", "current_language", "set_language",
           "language_from_locale",
           "GLOSSARY", "placeholders", "labels", "start_run"]

log = logging.getLogger(__name__)

#: Language code -> its own name, as shown in the language picker.
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español"}
DEFAULT = "en"
_STATE_KEY = "lang"


def language_from_locale(locale: str | None) -> str:
    """``"es-AR"`` -> ``"es"``; anything we do not speak -> English."""
    if not locale:
        return DEFAULT
    code = locale.replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else DEFAULT


# The language of the script run in this thread (each Streamlit run has its own
# thread): t() is called dozens of times per rerun, session state is slower.
_RUN = threading.local()


def start_run() -> str:
    """Fix the language for the rest of this run (called once by app.py)."""
    _RUN.lang = None
    _RUN.lang = current_language()
    return _RUN.lang


def current_language() -> str:
    """The language of this session (see the module docstring for the order)."""
    cached = getattr(_RUN, "lang", None)
    if cached is not None:
        return cached
    try:
        import streamlit as st

        chosen = st.session_state.get(_STATE_KEY)
        if chosen in LANGUAGES:
            return chosen
        lang = language_from_locale(st.context.locale)
        st.session_state[_STATE_KEY] = lang
        return lang
    except Exception:  # outside a Streamlit run (CLI, tests of components)
        return DEFAULT


def set_language(lang: str) -> None:
    import streamlit as st

    if lang in LANGUAGES:
        st.session_state[_STATE_KEY] = lang
        if getattr(_RUN, "lang", None) is not None:
            _RUN.lang = lang


def labels(prefix: str) -> Callable[[Any], str]:
    """A ``format_func`` for widgets: ``value -> t(prefix + value)``, language fixed now.

    Fixing the language when the widget is drawn keeps labels and options in
    step (AppTest calls format functions again after the run).
    """
    lang = current_language()
    return lambda value: t(f"{prefix}{value}", lang)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a catalog string."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def plural_form(count: Any) -> str:
    """The catalog suffix for ``count``: ``zero``, ``one`` or ``other``.

    English and Spanish share these forms (CLDR "one" and "other"; "zero" gets
    its own wording, e.g. "no way to capture" rather than "0 ways").
    """
    try:
        n = abs(int(count))
    except (TypeError, ValueError):
        return "other"
    return "zero" if n == 0 else "one" if n == 1 else "other"


def t(key: str, lang: str | None = None, /, **params: Any) -> str:
    """The text of ``key`` in the current (or given) language, with ``params`` filled in.

    A key with plural forms (``key.zero``, ``key.one``, ``key.other`` in the
    catalog) is chosen by the ``count`` parameter (or ``n`` when there is no
    ``count``). Every string with a number of things in it has these forms. A key
    missing from a catalog falls back to English and is logged (the catalog tests
    make sure this never ships); a missing English key shows the key itself rather than failing in
    front of a child.
    """
    lang = lang or current_language()
    if key not in CATALOGS[DEFAULT] and f"{key}.other" in CATALOGS[DEFAULT]:
        form = plural_form(params.get("count", params.get("n")))
        key = f"{key}.{form}" if f"{key}.{form}" in CATALOGS[DEFAULT] else f"{key}.other"
    text = CATALOGS.get(lang, {}).get(key)
    if text is None:
        log.warning("missing translation %s:%s", lang, key)
        text = CATALOGS[DEFAULT].get(key, key)
    if not params:
        return text
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError):
        log.warning("bad parameters for %s:%s: %s", lang, key, sorted(params))
        return text
