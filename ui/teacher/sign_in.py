"""Signing in to the teacher's area: the only thing the page shows without a teacher's
session (a new account, by invitation after the server's first), the password asked again
when the session locked, and signing out. Passwords are read from their widget once and
dropped."""

from __future__ import annotations

import streamlit as st

from trainer.classroom import PASSWORD_MAX, PASSWORD_MIN, TeacherAuth

from ..classroom import (
    TEACHER,
    class_action,
    class_flash,
    class_labels,
    ct,
    end_teacher_session,
    teacher_session,
)
from ..session import device_key, storage

__all__ = ["sign_in", "unlock", "on_sign_out"]


@class_action
def _on_sign_in() -> None:
    name = st.session_state.get("tc_name", "") or ""
    password = st.session_state.pop("tc_password", "") or ""
    st.session_state[TEACHER] = TeacherAuth(storage()).sign_in(name, password, device_key())


@class_action
def _on_create_account() -> None:
    name = st.session_state.get("tc_new_name", "") or ""
    password = st.session_state.pop("tc_new_password", "") or ""
    again = st.session_state.pop("tc_new_password2", "") or ""
    if password != again:
        class_flash("error", "auth.password_mismatch")
        return
    invite = st.session_state.pop("tc_new_invite", "") or ""
    session = TeacherAuth(storage()).create_account(name, password, invite or None,
                                                    device=device_key())
    st.session_state[TEACHER] = session
    class_flash("success", "auth.welcome", name=session.teacher.name)


@class_action
def _on_unlock() -> None:
    password = st.session_state.pop("tc_unlock_password", "") or ""
    session = teacher_session()
    if session is not None:
        session.unlock(TeacherAuth(storage()), password, device_key())


@class_action
def on_sign_out() -> None:
    """Sign out of this browser session (the page's button and the lock's)."""
    end_teacher_session()
    class_flash("success", "auth.signed_out")


def sign_in() -> None:
    """The only thing the page shows without a teacher's session."""
    st.caption(ct("page.teacher_intro"))
    first = TeacherAuth(storage()).first_account_open()
    # A new server opens on making its first account (a teacher trying it landed on
    # "Sign in", with no account to sign in to).
    st.session_state.setdefault("tc_auth_mode", "create" if first else "sign_in")
    mode = st.segmented_control(ct("auth.mode"), ("sign_in", "create"), key="tc_auth_mode",
                                format_func=class_labels("auth.mode_"),
                                required=True, label_visibility="collapsed")
    if mode == "create":
        if first:
            st.info(ct("auth.first_account"), icon="🏫")
        with st.form("tc_create_form", border=True):
            if not first:  # issue 27: after the first account, by invitation only
                st.text_input(ct("auth.invite"), key="tc_new_invite",
                              help=ct("auth.invite_help"), autocomplete="off")
            st.text_input(ct("auth.name"), key="tc_new_name",
                          help=ct("auth.name_help"), autocomplete="username")
            st.text_input(ct("auth.password"), key="tc_new_password", type="password",
                          max_chars=2 * PASSWORD_MAX,
                          help=ct("auth.password_help", min=PASSWORD_MIN),
                          autocomplete="new-password")
            st.text_input(ct("auth.password_again"), key="tc_new_password2",
                          type="password", max_chars=2 * PASSWORD_MAX,
                          autocomplete="new-password")
            st.form_submit_button(ct("auth.create"), type="primary",
                                  on_click=_on_create_account, width="stretch")
    else:
        with st.form("tc_sign_in_form", border=True):
            st.text_input(ct("auth.name"), key="tc_name",
                          autocomplete="username")
            st.text_input(ct("auth.password"), key="tc_password", type="password",
                          max_chars=2 * PASSWORD_MAX, autocomplete="current-password")
            st.form_submit_button(ct("auth.sign_in"), type="primary", on_click=_on_sign_in,
                                  width="stretch")
    st.caption(ct("auth.pupils_elsewhere"))


def unlock() -> None:
    """The password asked again: the session locked by inactivity."""
    session = teacher_session()
    assert session is not None
    st.info(ct("auth.session_locked"), icon="🔒")
    with st.form("tc_unlock_form", border=True):
        st.markdown(ct("auth.signed_in_as", name=session.teacher.name))
        st.text_input(ct("auth.password"), key="tc_unlock_password", type="password",
                      max_chars=2 * PASSWORD_MAX, autocomplete="current-password")
        st.form_submit_button(ct("auth.unlock"), type="primary", on_click=_on_unlock,
                              width="stretch")
    st.button(ct("auth.sign_out"), key="tc_sign_out_locked", on_click=on_sign_out)

