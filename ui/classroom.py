"""Classroom glue shared by the teacher's page and the pupil's (issue 13).

The classroom's words are in the ``classroom`` catalog: :func:`ct` says one for
Markdown (every name in it escaped), :func:`ct_text` for plain text (a table, a
select box, ``html.escape``). A refusal of the core is a
:class:`~trainer.classroom.ClassroomError`; a button's callback that meets one
leaves it for the next run (:func:`class_action`, :func:`show_class_flash`).

Who may do what lives in browser-session state: the teacher's
:class:`~trainer.classroom.TeacherSession` (never a password, never a hash) under
:data:`TEACHER`. A pupil who signs in on a device ends any teacher's session of
that browser session (:func:`end_teacher_session`): a tablet handed from the
teacher to the class never keeps the teacher area open.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import streamlit as st

from trainer.classroom import ClassroomError, TeacherSession, say
from trainer.text import md_escape

from .errors import safe_callback
from .i18n import current_language

__all__ = ["TEACHER", "ct", "ct_text", "class_labels", "class_flash", "show_class_flash",
           "class_action", "teacher_session", "end_teacher_session", "TEACHER_KEYS"]

#: The teacher's session in this browser session (a TeacherSession, nothing else).
TEACHER = "teacher"
_FLASH = "class_flash"
#: Message parameters that hold a name someone typed: escaped before Markdown.
_NAME_PARAMS = frozenset({"name", "suggestion", "nickname"})
#: Session keys of the teacher area that must go when the teacher signs out (the class
#: open, PINs just made, the cached snapshot).
TEACHER_KEYS = ("tc_class", "tc_added", "tc_new_pins", "tc_snap", "tc_part", "tc_pupil_pin")

F = TypeVar("F", bound=Callable[..., Any])


def ct_text(key: str, **params: Any) -> str:
    """A ``classroom`` message as plain text, in this session's language."""
    return say(key, params, current_language())


def ct(key: str, **params: Any) -> str:
    """A ``classroom`` message for Markdown: names in its parameters shown literally."""
    safe = {k: md_escape(v) if k in _NAME_PARAMS and isinstance(v, str) else v
            for k, v in params.items()}
    return say(key, safe, current_language())


def class_labels(prefix: str, **params: Any) -> Callable[[Any], str]:
    """A widget's ``format_func``: ``value -> say(prefix + value)``, the language fixed
    when the widget is drawn (AppTest formats the options again after the run, where the
    session's language is not known; see :func:`ui.i18n.labels`)."""
    lang = current_language()
    return lambda value: say(f"{prefix}{value}", params, lang)


def class_flash(kind: str, key: str, **params: Any) -> None:
    """A ``classroom`` message to show once, on the next run (from a callback)."""
    st.session_state[_FLASH] = (kind, key, params)


def show_class_flash() -> None:
    message = st.session_state.pop(_FLASH, None)
    if message is None:
        return
    kind, key, params = message
    show = {"success": st.success, "warning": st.warning, "error": st.error}.get(kind, st.info)
    show(ct(key, **params))


def class_action(fn: F) -> F:
    """A widget callback of the classroom: a refusal of the core is said on the next run
    (anything else is the friendly error of :func:`ui.errors.safe_callback`)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ClassroomError as err:
            class_flash("error", err.key, **err.params)
            return None

    return safe_callback(wrapper)  # type: ignore[return-value]


def teacher_session() -> TeacherSession | None:
    """The teacher signed in in this browser session, if any (locked or not)."""
    session = st.session_state.get(TEACHER)
    if isinstance(session, TeacherSession) and not session.signed_out:
        return session
    return None


def end_teacher_session() -> None:
    """Sign the teacher out of this browser session and forget what the area kept."""
    session = st.session_state.pop(TEACHER, None)
    if isinstance(session, TeacherSession):
        session.sign_out()
    for key in TEACHER_KEYS:
        st.session_state.pop(key, None)
