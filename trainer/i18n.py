"""One translation catalog for every visible string: ``t(key, **params)``.

The language is passed explicitly, or fixed for the running thread by
:func:`use_language` (the app does it once per run, see :mod:`ui.i18n`), else
English. Domain words of the game (escoba, oros, Sota, ¡renuncio!) stay
Spanish in every language; :data:`trainer.catalog.GLOSSARY` explains them.
"""

from __future__ import annotations

import logging
import string
import threading
from typing import Any

from .catalog import CATALOGS, GLOSSARY

__all__ = ["t", "plural_form", "LANGUAGES", "DEFAULT", "language_from_locale", "use_language",
           "run_language", "GLOSSARY", "placeholders"]

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
# thread, and ui.i18n.start_run sets it once per run): t() is called dozens of
# times per rerun, so reading session state each time would be slower.
_RUN = threading.local()


def use_language(lang: str | None) -> None:
    """Make ``lang`` this thread's language for :func:`t` (``None`` forgets it)."""
    _RUN.lang = lang if lang in LANGUAGES else None if lang is None else DEFAULT


def run_language() -> str | None:
    """The language fixed for this thread by :func:`use_language`, if any."""
    return getattr(_RUN, "lang", None)


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
    lang = lang or run_language() or DEFAULT
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
