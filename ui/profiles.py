"""Profile actions (callbacks for the profiles and settings pages): choose one (with its
PIN, when a parent set one), create one, and a parent's rename, PIN and delete."""

from __future__ import annotations

import functools
from collections.abc import Callable

import streamlit as st

from trainer.classroom import ClassroomError, PupilSignIn
from trainer.i18n import t
from trainer.names import name_problem
from trainer.storage import Profile, StorageError
from trainer.storage.profiles import PIN_DIGITS
from trainer.text import md_escape

from .classroom import end_teacher_session
from .errors import safe_callback
from .first_run import mark_new_child
from .session import (
    ask_pin,
    current_profile,
    device_key,
    flash,
    profile_book,
    set_profile,
    storage,
)

__all__ = ["AVATARS", "PIN_DIGITS", "create_profile_clicked", "pick_profile_clicked",
           "pin_entered", "pin_cancelled", "rename_clicked", "pin_set_clicked",
           "pin_remove_clicked", "delete_clicked", "show_pin_form"]

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
        profile = profile_book().create(nickname, avatar)
    except StorageError as exc:
        flash("warning", exc.key, **exc.params)
        return
    set_profile(profile)
    mark_new_child(profile)  # straight into lesson 1, level 1 (ui.first_run)


@safe_callback
def pick_profile_clicked(profile_id: int) -> None:
    """A profile tapped on "Who's playing?": chosen, or its PIN asked first."""
    profile = storage().get_profile(profile_id)
    if profile is None:
        return
    current = current_profile()
    if profile.protected and (current is None or current.id != profile.id):
        ask_pin(profile.id)
    else:
        set_profile(profile)
        # Always something to see, even on the name already chosen (issue 23).
        st.toast(t("playing_as", name=md_escape(f"{profile.avatar} {profile.nickname}")),
                 icon="👋")


@safe_callback
def pin_entered(profile_id: int) -> None:
    """The PIN typed for a protected profile: right opens it, wrong says so.

    A pupil's PIN (a profile in a class) is checked by the classroom's door, which
    counts wrong PINs per pupil and makes a guesser wait (docs/CLASSROOM.md), the same
    as on "My class": a URL's ``?p=`` is no way around that limit. A pupil who signs in
    ends a teacher's session of this browser session."""
    pin = st.session_state.pop("pin_entry", "") or ""
    profile = storage().get_profile(profile_id)
    if profile is None:
        ask_pin(None)
    elif storage().membership(profile_id) is not None:
        try:
            PupilSignIn(storage()).sign_in_profile(profile_id, pin, device_key())
        except ClassroomError as err:
            flash("error", err.key, domain="classroom", **err.params)
            return
        end_teacher_session()
        set_profile(profile)
    else:
        try:  # a parent's PIN: counted per profile and per device (trainer.limits)
            profile_book().check_pin(profile_id, pin=pin, device=device_key())
        except StorageError as exc:
            flash("error", exc.key, **exc.params)
            return
        set_profile(profile)


def show_pin_form(locked: Profile) -> None:
    """The PIN box of a protected profile (a parent's PIN, or a pupil's): "Who's
    playing?" and a table seat's link of this child both ask with it."""
    with st.form("pin_form", border=True):
        st.markdown(f"**{t('pin_title', name=md_escape(f'{locked.avatar} {locked.nickname}'))}**")
        st.text_input(t("pin"), key="pin_entry", type="password", max_chars=8,
                      help=t("pin_help"))
        st.form_submit_button(t("pin_open"), type="primary", on_click=pin_entered,
                              args=(locked.id,), use_container_width=True)


@safe_callback
def pin_cancelled() -> None:
    """Not that child: forget the link that asked the PIN, and the question."""
    if current_profile() is None:
        st.query_params.pop("p", None)
    ask_pin(None)


def _parent_pin() -> str | None:
    return st.session_state.get("parent_pin") or None


#: Settings' PIN fields: the profile's PIN and the new one.
_PIN_FIELDS = ("parent_pin", "parent_pin_new")


def _clear_pin_fields() -> None:
    """Empty Settings' PIN fields after any PIN action, done or refused (issue 33: the
    new PIN stayed in its field, and its eye button showed it to the child). Assigned,
    not deleted: the browser's field is emptied too."""
    for key in _PIN_FIELDS:
        if key in st.session_state:
            st.session_state[key] = ""


def _clears_pins(action: Callable[[int], None]) -> Callable[[int], None]:
    """A parent's action that empties the PIN fields when it is over, whatever it did."""
    @functools.wraps(action)
    def run(profile_id: int) -> None:
        try:
            action(profile_id)
        finally:
            _clear_pin_fields()
    return run


def _managed(profile_id: int) -> bool:
    """A pupil's profile is its teacher's to rename, protect or delete (Settings hides
    the parent's controls; this refuses them should a stale page still send one)."""
    if storage().membership(profile_id) is None:
        return False
    st.session_state.pop("parent_pin", None)
    flash("warning", "pupil_managed")
    return True


@safe_callback
@_clears_pins
def rename_clicked(profile_id: int) -> None:
    if _managed(profile_id):
        return
    nickname = st.session_state.get("parent_rename", "") or ""
    problem = name_problem(nickname)
    if problem is not None:
        flash("warning", problem[0], **problem[1])
        return
    try:
        profile = profile_book().rename(profile_id, nickname, pin=_parent_pin(),
                                        device=device_key())
    except StorageError as exc:
        flash("error" if exc.key in ("pin_wrong", "pin_wait") else "warning", exc.key,
              **exc.params)
        return
    set_profile(profile)
    st.session_state.pop("parent_rename", None)
    flash("success", "parent_renamed", name=profile.nickname)


@safe_callback
@_clears_pins
def pin_set_clicked(profile_id: int) -> None:
    new_pin = st.session_state.get("parent_pin_new", "") or ""
    _change_pin(profile_id, new_pin, "parent_pin_done")


@safe_callback
@_clears_pins
def pin_remove_clicked(profile_id: int) -> None:
    _change_pin(profile_id, None, "parent_pin_removed")


def _change_pin(profile_id: int, new_pin: str | None, done_key: str) -> None:
    if _managed(profile_id):
        return
    try:
        profile_book().set_pin(profile_id, new_pin, pin=_parent_pin(), device=device_key())
    except StorageError as exc:
        flash("error", exc.key, **exc.params)
        return
    _reload(profile_id)
    flash("success", done_key)


@safe_callback
@_clears_pins
def delete_clicked(profile_id: int) -> None:
    profile = storage().get_profile(profile_id)
    if profile is None or _managed(profile_id):
        return
    try:
        profile_book().delete(profile_id, pin=_parent_pin(), device=device_key())
    except StorageError as exc:
        flash("error", exc.key, **exc.params)
        return
    set_profile(None)
    st.session_state.pop("parent_delete_open", None)
    flash("success", "parent_deleted", name=profile.nickname)


def _reload(profile_id: int) -> None:
    profile = storage().get_profile(profile_id)
    if profile is not None:
        set_profile(profile)
