"""What the teacher's area keeps in this browser session, and the class it has open.

Every key the area keeps besides its widgets' is named here, so that opening another class
(or going back to the list) forgets all that belonged to the one before, whichever part
kept it.
"""

from __future__ import annotations

import streamlit as st

from trainer.classroom import Classroom, ClassroomError

from ..classroom import class_action, teacher_session
from ..i18n import current_language
from ..session import storage

__all__ = ["KEY_CLASS", "KEY_PART", "KEY_SECTION", "KEY_SECTION_PARTS", "KEY_SNAP", "KEY_ADDED",
           "KEY_NEW_PINS", "KEY_PUPIL_PIN",
           "KEY_PIN_ASK", "KEY_ARCHIVE_ASK", "KEY_PUPIL_CHOSEN", "KEY_INVITE", "KEY_LOOKED_UP",
           "KEY_GROUP_FILTER", "teacher_room", "open_class", "on_open"]

KEY_CLASS = "tc_class"
KEY_PART = "tc_part"
#: The section control's value (issue 29): drawn from the part chosen, on every run.
KEY_SECTION = "tc_section"
#: {section: the part last chosen in it}: a section opens again at its part (any class's).
KEY_SECTION_PARTS = "tc_section_parts"
KEY_SNAP = "tc_snap"
KEY_ADDED = "tc_added"  # (class id, AddedPupils): the PINs just made, until "done"
KEY_NEW_PINS = "tc_new_pins"  # (class id, [PupilLogin]): a class's new PINs, until "done"
KEY_PUPIL_PIN = "tc_pupil_pin"  # (class id, PupilLogin): one pupil's new PIN
#: (class id, profile id) whose "New PIN" was tapped once: it asks before voiding the card.
KEY_PIN_ASK = "tc_pin_ask"
KEY_ARCHIVE_ASK = "tc_archive_ask"  # class id whose "Archive" was tapped once
KEY_PUPIL_CHOSEN = "tc_pupil_chosen"  # the profile id chosen on the Pupils part
KEY_INVITE = "tc_invite"  # (code, expires): the invitation just made, shown once
KEY_LOOKED_UP = "tc_looked_up"  # (class id, PupilLogin): a pupil's PIN looked up
#: The group the dashboard and the grid show (issue 29; 0: everyone), one for both.
KEY_GROUP_FILTER = "tc_gr_filter"


def teacher_room() -> Classroom:
    """The signed-in teacher's classroom (``auth.session_locked`` without a session)."""
    session = teacher_session()
    if session is None:
        raise ClassroomError("auth.session_locked")
    return Classroom(storage(), session, lang=current_language())


def open_class(class_id: int | None) -> None:
    """Open a class (at its first part: the page chooses it when none is), or go back to
    the list; what was kept goes."""
    if class_id is None:
        st.session_state.pop(KEY_CLASS, None)
    else:
        st.session_state[KEY_CLASS] = class_id
        st.session_state.pop(KEY_PART, None)
    for key in (KEY_ADDED, KEY_NEW_PINS, KEY_PUPIL_PIN, KEY_SNAP, KEY_LOOKED_UP, KEY_PIN_ASK,
                KEY_ARCHIVE_ASK, KEY_PUPIL_CHOSEN, KEY_GROUP_FILTER):
        st.session_state.pop(key, None)


@class_action
def on_open(class_id: int | None) -> None:
    """A button's callback: :func:`open_class`."""
    open_class(class_id)
