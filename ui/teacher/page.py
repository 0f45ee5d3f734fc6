"""The teacher's area ("For teachers", issue 13) drawn over the classroom core.

Without a :class:`~trainer.classroom.TeacherSession` in this browser session the page
shows the sign-in and nothing else: whatever a pupil's profile, URL or query, no class,
name or number of the teacher area is drawn. A session locked by inactivity asks the
password again. Signed in, the teacher sees their classes, and a class one part at a
time (like My progress): the parts of :mod:`ui.teacher.registry`, chosen in two short
controls, the section (during the lesson, after it, the class) then its part. A part marked
``presentation`` (the projector) is drawn alone, read from the back of the room: no
title, no sidebar, no parts' control, only a small button in a corner to leave it; the
area still locks, and still shows nothing but the sign-in without a session.

Every action is a callback through :func:`ui.classroom.class_action` (a refusal of the
core is said on the next run).
"""

from __future__ import annotations

import html

import streamlit as st

from trainer.classroom import Classroom, ClassroomError, format_code, say
from trainer.text import md_escape

from ..classroom import (
    class_action,
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
from .part import Part
from .registry import PART_KEYS, PARTS, SECTION_KEYS, SECTION_OF, SECTIONS, section_start
from .sign_in import on_sign_out, sign_in, unlock
from .snapshot import class_data
from .state import KEY_CLASS, KEY_PART, KEY_SECTION, KEY_SECTION_PARTS, on_open, open_class

__all__ = ["show_teacher_page", "LOCK_WATCH_SECONDS"]

_BY_KEY = {part.key: part for part in PARTS}

#: How often an untouched teacher's page checks its lock (the lock is 15 minutes: it
#: comes on screen 20 s late at most).
LOCK_WATCH_SECONDS = 20

#: The part the teacher was on before a presentation part: its "leave" button goes back
#: there (a part's key, good for any class: opening another keeps it).
KEY_PART_BACK = "tc_part_back"

#: A presentation's run only (a <style> tag: the next run without it takes it away):
#: the sidebar, its arrow and Streamlit's header out of sight, the page to the screen's
#: edges, and the way out a small, faint button in the top right corner, above the page
#: (the page starts below it: at a tablet's width the part's first line ran under it).
_PRESENTATION_STYLE = """<style>
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], header[data-testid="stHeader"] {
  display: none !important; }
[data-testid="stMainBlockContainer"] { padding: 3rem 2rem 0.5rem !important;
  max-width: none !important; }
.st-key-tc_leave_presentation { position: fixed; top: 0.4rem; right: 0.6rem; z-index: 999990;
  width: auto !important; opacity: 0.45; }
.st-key-tc_leave_presentation:hover, .st-key-tc_leave_presentation:focus-within {
  opacity: 1; }
.st-key-tc_leave_presentation button { min-height: 2.2rem !important; padding: 0 0.7rem; }
.st-key-tc_leave_presentation button p { font-size: 0.9rem !important; }
</style>"""


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


def _chosen_part() -> Part:
    return _BY_KEY.get(st.session_state.get(KEY_PART) or "", PARTS[0])


def _presenting() -> bool:
    """Whether this run draws a part alone (a class open at a presentation part)."""
    return st.session_state.get(KEY_CLASS) is not None and _chosen_part().presentation


@class_action
def _on_leave() -> None:
    """Back from a presentation to the part the teacher was on before (the first part
    if none)."""
    back = st.session_state.get(KEY_PART_BACK)
    st.session_state[KEY_PART] = back if back in PART_KEYS else PART_KEYS[0]


def _presentation(room: Classroom, class_id: int) -> None:
    """The chosen part alone on the screen, and the small button that leaves it."""
    # The parts' control is not drawn in this run: its value would go with it.
    st.session_state[KEY_PART] = st.session_state[KEY_PART]
    st.html(_PRESENTATION_STYLE)
    st.button(ct("part.leave_presentation"), key="tc_leave_presentation", on_click=_on_leave,
              icon=":material/fullscreen_exit:")
    _chosen_part().render(class_data(room, class_id, today()))


@class_action
def _on_section() -> None:
    """A section tapped: its part last chosen (in any class), else its first."""
    section = st.session_state.get(KEY_SECTION)
    if section not in SECTIONS:
        return
    last = st.session_state.get(KEY_SECTION_PARTS, {}).get(section)
    st.session_state[KEY_PART] = last if last in SECTIONS[section] else section_start(section)


def _parts_control() -> Part:
    """The section's control, then its parts' (issue 29: one control of eleven parts took
    three rows on a tablet in German or Spanish); the part chosen, which the session keeps
    under ``tc_part`` as before. The section follows the part: it is set from it before
    it is drawn."""
    if st.session_state.get(KEY_PART) not in PART_KEYS:
        st.session_state[KEY_PART] = PART_KEYS[0]
    section = SECTION_OF[st.session_state[KEY_PART]]
    st.session_state[KEY_SECTION] = section
    lang = current_language()  # fixed now: AppTest formats the options after the run
    st.segmented_control(ct("part.section_label"), SECTION_KEYS, key=KEY_SECTION,
                         required=True, on_change=_on_section,
                         format_func=lambda key: say(f"part.section_{key}", {}, lang),
                         label_visibility="collapsed")
    chosen = st.segmented_control(ct("part.label"), SECTIONS[section], key=KEY_PART,
                                  required=True,
                                  format_func=lambda key: say(_BY_KEY[key].label, {}, lang),
                                  label_visibility="collapsed")
    part = _BY_KEY.get(chosen or "", PARTS[0])
    if not part.presentation:  # a section tapped again shows a part, not the big screen
        remembered = dict(st.session_state.get(KEY_SECTION_PARTS, {}))
        remembered[SECTION_OF[part.key]] = part.key
        st.session_state[KEY_SECTION_PARTS] = remembered
    return part


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
    part = _parts_control()
    if not part.presentation:
        st.session_state[KEY_PART_BACK] = part.key  # where leaving a presentation goes
    part.render(view)


def show_teacher_page() -> None:
    """The whole "For teachers" page (see the module doc)."""
    session = teacher_session()
    presenting = session is not None and not session.locked and _presenting()
    if not presenting:
        st.title(ct("page.teacher_title"))
    show_class_flash()
    if session is None:
        sign_in()
        return
    if session.locked:
        unlock()
        return
    with st.sidebar:  # shows nothing; the sidebar is drawn whatever the page below does
        _lock_watch()
    if not presenting:
        with st.container(horizontal=True, vertical_alignment="center"):
            st.markdown(ct("auth.signed_in_as", name=session.teacher.name))
            st.button(ct("auth.sign_out"), key="tc_sign_out", on_click=on_sign_out,
                      icon="🚪")
    room = Classroom(storage(), session, lang=current_language())
    class_id = st.session_state.get(KEY_CLASS)
    try:
        if class_id is None:
            show_classes(room)
        elif presenting:
            _presentation(room, int(class_id))
        else:
            _class_view(room, int(class_id))
    except ClassroomError as err:
        if err.key == "auth.session_locked":
            st.rerun()  # the lock came while drawing: ask the password
        if err.key in ("class.not_yours", "pupil.not_in_class"):
            st.session_state.pop(KEY_CLASS, None)  # deleted meanwhile, or another's
        st.error(ct(err.key, **err.params))
        st.button(ct("classes.back"), key="tc_back_error", on_click=on_open, args=(None,))
