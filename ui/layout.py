"""Page furniture shared by every page: styles, the sidebar, flashes, the profile guard."""

from __future__ import annotations

import copy
import functools
import html
import logging

import streamlit as st

from trainer.i18n import LANGUAGES, t
from trainer.storage.trouble import UNAVAILABLE
from trainer.text import md_escape
from ui.i18n import current_language

from .errors import safe_callback, show_storage_unavailable
from .menu_closer import close_menu_after_pick
from .page_style import PAGE_STYLE
from .session import current_profile, pop_flash, save_language
from .streamlit_words import translate_streamlit_words
from .ticker import keep_the_app_on_the_page, wake_after_a_restart
from .voice_component import listen_for_first_tap

__all__ = ["sidebar", "show_flash", "require_profile",
           "pages", "language_picker"]

log = logging.getLogger("escoba.app")

@functools.lru_cache(maxsize=8)
def _built_pages(spec: tuple[tuple[str, str, str], ...], lang: str) -> tuple:
    return tuple(st.Page(path, title=t(key, lang), icon=icon, default=i == 0)
                 for i, (path, key, icon) in enumerate(spec))


def pages(spec: tuple[tuple[str, str, str], ...], lang: str) -> list:
    """The ``st.Page`` objects, built once per language (they cost on every rerun), and
    copied for each run: ``st.navigation`` marks the page it returns as the one this run
    may run and ``page.run()`` takes the mark away, so sessions must not share them (two
    pupils opening one page at the same moment: the second was shown the error page)."""
    return [copy.copy(page) for page in _built_pages(spec, lang)]


@safe_callback
def _on_language() -> None:
    save_language(st.session_state["lang_picker"])


def language_picker() -> None:
    """The language choice (the browser's language is the default)."""
    st.session_state["lang_picker"] = current_language()
    st.segmented_control(t("language"), list(LANGUAGES), format_func=LANGUAGES.get,
                         key="lang_picker", on_change=_on_language, required=True)


def sidebar() -> None:
    """The page style and who is playing, in one element (the language is chosen on the
    first page and in Settings)."""
    profile = current_profile()
    who = ""
    if profile is not None:
        who = (f"<div style='font-size:1.5rem;font-weight:700'>{html.escape(profile.avatar)} "
               f"{html.escape(profile.nickname)}</div>")
    # The style is in the page's HTML already when served by serve.py (ui.page_base);
    # here too for `streamlit run app.py` and a page whose HTML a proxy sent as it was.
    st.sidebar.html(PAGE_STYLE + who)
    listen_for_first_tap()  # speech and sounds wait for a tap on the page (issue 23)
    translate_streamlit_words(current_language())  # Streamlit's English words (issue 33)
    close_menu_after_pick()  # a narrow screen's menu closes on a pick (issue 29)
    wake_after_a_restart()  # a tap after the server restarted is answered
    keep_the_app_on_the_page()  # a page Streamlit left white is loaded again


#: Message parameters that hold a name someone typed (a nickname, a player's name).
_NAME_PARAMS = frozenset({"name", "nickname", "who", "players"})


def show_flash() -> None:
    """The one-shot message left by a button callback."""
    message = pop_flash()
    if message is None:
        return
    kind, key, params = message
    if key == UNAVAILABLE:  # nothing was saved: said so, with a way to try again
        show_storage_unavailable()
        return
    # A name is free text, never markup: only the catalog's own words carry Markdown.
    text = t(key, **{k: md_escape(v) if k in _NAME_PARAMS and isinstance(v, str) else v
                     for k, v in params.items()})
    {"success": st.success, "warning": st.warning, "error": st.error}.get(kind, st.info)(text)


def require_profile():  # Profile | None
    """The active profile, or a friendly pointer to the profiles page (and stop)."""
    profile = current_profile()
    if profile is None:
        st.info(t("need_profile"), icon="🙂")
        st.page_link("app_pages/profiles.py", label=t("go_profiles"), icon="👉")
        st.stop()
    return profile
