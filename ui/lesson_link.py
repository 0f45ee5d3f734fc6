"""A link straight to a lesson level: ``/lessons?lesson=escoba/2`` (a stage's key and a
level's key or 1-based number). A teacher can send one, and the screen check
(``tests/test_browser_screen.py``) opens every level this way. A link naming no stage or
level is ignored (the page as without it); each link opens its level once per browser
session, so a rerun does not pull the child back. The page keeps the level on screen in
its own address (:func:`keep_in_address`), so a refresh comes back to it."""

from __future__ import annotations

import re
from typing import Any

import streamlit as st

from lessons import load_stages

from .errors import safe_callback
from .lesson_view import current_stage_title, open_level, open_stage

__all__ = ["open_from_link", "keep_in_address", "lesson_title", "KEY_LINK"]

KEY_LINK = "lesson_link_opened"
_LINK = re.compile(r"([a-z0-9_]{1,40})/([a-z0-9_]{1,40})")


def _target(text: str) -> tuple[str, str | int] | None:
    match = _LINK.fullmatch(text or "")
    if match is None:
        return None
    stage = next((s for s in load_stages() if s.key == match[1]), None)
    if stage is None:
        return None
    level = match[2]
    if level.isdigit():
        number = int(level)
        return (stage.key, number) if 1 <= number <= len(stage.levels) else None
    return (stage.key, level) if level in stage.level_keys else None


def open_from_link(profile: Any) -> None:
    """Open the level a ``?lesson=`` link names (once per link and session)."""
    link = st.query_params.get("lesson")
    if not link or st.session_state.get(KEY_LINK) == link:
        return
    st.session_state[KEY_LINK] = link
    target = _target(link)
    if target is not None:
        _open(profile, *target)


def keep_in_address() -> None:
    """The level on screen in the page's address (``?lesson=escoba/3``), none on the map:
    a refresh, a bookmark or a tablet's browser opening the page again comes back to
    it (the level starts again) instead of the list of lessons."""
    level = open_level()
    if level is None:
        if "lesson" in st.query_params:
            del st.query_params["lesson"]
        return
    link = f"{level[0]}/{level[1]}"
    st.session_state[KEY_LINK] = link  # this session is there already
    if st.query_params.get("lesson") != link:
        st.query_params["lesson"] = link


@safe_callback
def _open(profile: Any, stage: str, level: str | int) -> None:
    open_stage(profile, stage, level)  # type: ignore[arg-type]  (a number is a level too)


def lesson_title(default: str) -> str:
    """The page's title: the stage's while a level is open (one heading, not two)."""
    return current_stage_title() or default
