"""The teacher's area ("For teachers", issue 13) drawn over the classroom core.

Without a :class:`~trainer.classroom.TeacherSession` in this browser session the page
shows the sign-in and nothing else: whatever a pupil's profile, URL or query, no class,
name or number of the teacher area is drawn. A session locked by inactivity asks the
password again. Signed in, the teacher sees their classes, and a class one part at a
time (like My progress): the parts of :mod:`ui.teacher.registry`.

Every action is a callback through :func:`ui.classroom.class_action` (a refusal of the
core is said on the next run).
"""

from __future__ import annotations

import html

import streamlit as st

from trainer.classroom import Classroom, ClassroomError, format_code, say
from trainer.text import md_escape

from ..classroom import (
    class_flash,
    ct,
    ct_text,
    show_class_flash,
    teacher_session,
)
from ..errors import friendly_fragment
from ..i18n import current_language
from ..practice import today
from ..session import storage
from .classes import show_classes
from .registry import PART_KEYS, PARTS
from .sign_in import on_sign_out, sign_in, unlock
from .snapshot import class_data
from .state import KEY_CLASS, KEY_PART, on_open, open_class

__all__ = ["show_teacher_page", "LOCK_WATCH_SECONDS"]

_BY_KEY = {part.key: part for part in PARTS}

#: How often an untouched teacher's page checks its lock (the lock is 15 minutes: it
#: comes on screen 20 s late at most).
LOCK_WATCH_SECONDS = 20


@friendly_fragment(run_every=LOCK_WATCH_SECONDS)
def _lock_watch() -> None:
    """The area locks on screen, without a tap (issue 27: the pupils' table stayed in
    view for 16 minutes, its lock waiting for the next tap): when the session locked or
    ended, or the class on screen is gone, the whole page is drawn again."""
    session = teacher_session()
    if session is None or session.locked:
        st.rerun()
    class_id = st.session_state.get(KEY_CLASS)
    if class_id is not None and storage().get_class(int(class_id)) is None:
        # Deleted meanwhile (another tab, the owner): back to the list, which says so.
        # Closed here, not by the next run: this runs inside it too, and would loop.
        open_class(None)
        class_flash("error", "class.not_yours")
        st.rerun()


def _class_view(room: Classroom, class_id: int) -> None:
    """One class: its name and code, and the part chosen on the parts' control."""
    view = class_data(room, class_id, today())
    info = view.info
    st.button(ct("classes.back"), key="tc_back", on_click=on_open, args=(None,), icon="⬅️")
    st.subheader(md_escape(info.name), anchor=False)  # a heading is Markdown too
    st.html("<div style='font-size:1.6rem;font-weight:700;letter-spacing:0.08em' "
            "data-testid='tc-code'>"
            f"{html.escape(ct_text('card.code', code=format_code(info.code)))}</div>")
    if info.archived:
        st.warning(ct("class.archived_note"), icon="🗄️")
    st.session_state.setdefault(KEY_PART, PART_KEYS[0])
    lang = current_language()  # fixed now: AppTest formats the options after the run
    chosen = st.segmented_control(ct("part.label"), PART_KEYS, key=KEY_PART, required=True,
                                  format_func=lambda key: say(_BY_KEY[key].label, {}, lang),
                                  label_visibility="collapsed")
    _BY_KEY.get(chosen or "", PARTS[0]).render(view)


def show_teacher_page() -> None:
    """The whole "For teachers" page (see the module doc)."""
    st.title(ct("page.teacher_title"))
    show_class_flash()
    session = teacher_session()
    if session is None:
        sign_in()
        return
    if session.locked:
        unlock()
        return
    with st.sidebar:  # shows nothing; the sidebar is drawn whatever the page below does
        _lock_watch()
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(ct("auth.signed_in_as", name=session.teacher.name))
        st.button(ct("auth.sign_out"), key="tc_sign_out", on_click=on_sign_out, icon="🚪")
    room = Classroom(storage(), session, lang=current_language())
    class_id = st.session_state.get(KEY_CLASS)
    try:
        if class_id is None:
            show_classes(room)
        else:
            _class_view(room, int(class_id))
    except ClassroomError as err:
        if err.key == "auth.session_locked":
            st.rerun()  # the lock came while drawing: ask the password
        if err.key in ("class.not_yours", "pupil.not_in_class"):
            st.session_state.pop(KEY_CLASS, None)  # deleted meanwhile, or another's
        st.error(ct(err.key, **err.params))
        st.button(ct("classes.back"), key="tc_back_error", on_click=on_open, args=(None,))
