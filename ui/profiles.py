"""Profile actions (callbacks for the profiles page)."""

from __future__ import annotations

import streamlit as st

from trainer.names import name_problem
from trainer.storage import StorageError

from .errors import safe_callback
from .session import flash, set_profile, storage

__all__ = ["AVATARS", "create_profile_clicked", "pick_profile_clicked"]

#: Avatars to choose from: animals and things, never a photo.
AVATARS = ["🦊", "🐼", "🐸", "🦁", "🐙", "🦄", "🐢", "🐝", "🚀", "⚽", "🌈", "🍉"]


@safe_callback
def create_profile_clicked() -> None:
    nickname = st.session_state.get("new_nickname", "") or ""
    avatar = st.session_state.get("new_avatar") or AVATARS[0]
    problem = name_problem(nickname)
    if problem is not None:
        flash("warning", problem[0], **problem[1])
        return
    try:
        profile = storage().create_profile(nickname, avatar)
    except StorageError as exc:
        flash("warning", exc.key, **exc.params)
        return
    set_profile(profile)
    flash("success", "profile_created", name=profile.nickname)


@safe_callback
def pick_profile_clicked(profile_id: int) -> None:
    profile = storage().get_profile(profile_id)
    if profile is not None:
        set_profile(profile)
