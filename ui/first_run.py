"""A new child's first minute (issue 23): creating a profile goes straight into lesson 1,
level 1, with "Skip: I know the game" for a parent; tapping a name on "Who's playing?"
always shows that something happened.

The profile is created in a callback (:func:`ui.profiles.create_profile_clicked`), which
cannot change pages: it marks the first run (:func:`mark_new_child`) and the profiles page
then opens the first level and switches to Lessons (:func:`go_to_first_lesson`). The skip
is a link back to "Who's playing?", which then says the welcome the first lesson left
out (a lesson level starts with its goal only: the word budget).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from lessons import load_stages
from trainer.i18n import t

from .lesson_view import KEY_MAP, open_stage
from .session import current_profile, flash

__all__ = ["mark_new_child", "go_to_first_lesson", "skip_link", "welcome_after_skip",
           "KEY_NEW_CHILD", "KEY_ONBOARDING"]

#: The profile just created in this session, before its first lesson was opened.
KEY_NEW_CHILD = "first_run_new_child"
#: The profile whose first lesson shows "Skip: I know the game".
KEY_ONBOARDING = "first_run_onboarding"
LESSONS_PAGE = "app_pages/lessons.py"
PROFILES_PAGE = "app_pages/profiles.py"


def mark_new_child(profile: Any) -> None:
    """From the create callback: the next run of "Who's playing?" opens the first lesson."""
    st.session_state[KEY_NEW_CHILD] = profile.id


def go_to_first_lesson() -> None:
    """On "Who's playing?": a child just created goes to lesson 1, level 1 (and stops here)."""
    new_id = st.session_state.pop(KEY_NEW_CHILD, None)
    profile = current_profile()
    if new_id is None or profile is None or profile.id != new_id:
        return
    first = load_stages()[0]
    open_stage(profile, first.key, first.level_keys[0])
    st.session_state[KEY_ONBOARDING] = profile.id
    st.switch_page(LESSONS_PAGE)


def skip_link(profile: Any) -> None:
    """On the first lesson of a child just created: the parent's way out."""
    if st.session_state.get(KEY_ONBOARDING) == profile.id:
        st.page_link(PROFILES_PAGE, label=t("skip_lessons"), icon="⏭️")


def welcome_after_skip() -> None:
    """Back on "Who's playing?" from the first lesson: the welcome, once."""
    profile = current_profile()
    onboarding = st.session_state.pop(KEY_ONBOARDING, None)
    if profile is not None and onboarding == profile.id:
        flash("success", "profile_created", name=profile.nickname)
        st.session_state[KEY_MAP] = True  # the skipped lesson is left: Lessons is the map
