"""A shared tablet forgets the last child (issue 27).

A pupil signed in (on "My class", or by their PIN on "Who's playing?") has a
:class:`~trainer.classroom.PupilVisit` in this browser session. :func:`guard_run`, at
the start of every full run (``app.py``, before the profile is read), asks the core
whether it must end (:func:`trainer.classroom.visit_end`): the class's idle minutes
passed without a tap, the teacher signed out every tablet of the class, the class was
archived or deleted, the pupil removed. If so the pupil is signed out before anything
of theirs is drawn, and the page says why (:func:`show_ended`), once. Otherwise the
run counts as a tap.

Without a tap the full run never comes: :func:`watch`, a fragment on a timer
(:data:`WATCH_SECONDS`), asks the same question and redraws the page when the answer
is yes. So the next child who picks up the tablet, on any page, does not play as the
last one. A fragment's own rerun without a timer (a tap on the Play board) counts as a
tap too (:func:`note_activity`, from :func:`ui.errors.friendly_fragment`).

Idle time is read from the app's clock (:func:`trainer.clock.now`): tests move it.
"""

from __future__ import annotations

import logging

import streamlit as st

from trainer import clock
from trainer.classroom import CLASS_GONE, PupilVisit, say, visit_end
from trainer.live_view import ActivityNotes, Noted, device_label

from .errors import drop_error_flash, friendly_fragment, set_pupil_hooks
from .i18n import current_language
from .my_class_view import KEY_CARD, KEY_PICKED, KEY_PIN, KEY_TASK
from .session import chosen_profile_id, device_key, set_profile, storage

__all__ = ["guard_run", "watch", "show_ended", "note_page", "WATCH_SECONDS"]

log = logging.getLogger(__name__)

#: (profile id, PupilVisit or None for a profile in no class). Dropped with the child's
#: state (ui.session.CHILD_STATE_PREFIXES): a new sign-in starts a new visit.
KEY_VISIT = "pupil_visit"
#: Why the last visit ended (said once on the next run); kept across the sign-out.
KEY_ENDED = "tablet_ended"
#: What this tablet last wrote of its pupil on the teacher's live view (a Noted).
#: Dropped with the child's state: a pupil signing in again is written at once.
KEY_NOTED = "pupil_noted"
#: How often an untouched tablet checks (the class's idle time is minutes: 20 s late at
#: most; one small read each time).
WATCH_SECONDS = 20


def _visit() -> PupilVisit | None:
    """This session's visit, started at the first run that sees a pupil's profile."""
    profile_id = chosen_profile_id()
    if profile_id is None:
        return None
    kept = st.session_state.get(KEY_VISIT)
    if kept is not None and kept[0] == profile_id:
        return kept[1]
    member = storage().membership(int(profile_id))
    visit = (PupilVisit.start(int(profile_id), member.class_id, clock.now())
             if member is not None else None)
    st.session_state[KEY_VISIT] = (profile_id, visit)
    return visit


def _end(reason: str) -> None:
    """Sign the pupil out (everything they had open goes: ui.session.set_profile)."""
    set_profile(None)  # drops KEY_VISIT with the child's state
    for key in (KEY_PICKED, KEY_PIN):  # the pupil half-signed in on "My class"
        st.session_state.pop(key, None)
    if reason in CLASS_GONE:
        st.session_state.pop(KEY_CARD, None)  # the class's code no longer signs in
        drop_error_flash()  # the failure came from the class's end: that is what is said
    st.session_state[KEY_ENDED] = reason


def guard_run() -> None:
    """At the start of a full run: end the visit if it must end, else count the tap."""
    visit = _visit()
    if visit is None:
        return
    at = clock.now()
    reason = visit_end(storage(), visit, at)
    if reason is not None:
        _end(reason)
    else:
        visit.touch(at)


def note_activity() -> None:
    """A tap that reran a fragment only: the idle time starts again."""
    kept = st.session_state.get(KEY_VISIT)
    if kept is not None and kept[1] is not None:
        kept[1].touch(clock.now())


def end_if_class_gone() -> bool:
    """Whether the pupil's class was deleted or archived, or the pupil removed (then
    they are signed out): a write that failed failed for that reason, and the child is
    told so, never that their game is saved."""
    kept = st.session_state.get(KEY_VISIT)
    if kept is None or kept[1] is None:
        return False
    reason = visit_end(storage(), kept[1], clock.now())
    if reason not in CLASS_GONE:
        return False
    _end(reason)
    return True


def show_ended(link: bool = True) -> None:
    """Why the pupil was signed out, once, with the way back to "My class" (``link``:
    not on My class itself)."""
    reason = st.session_state.pop(KEY_ENDED, None)
    if reason is None:
        return
    lang = current_language()  # ui.classroom.ct would close an import cycle through ui.errors
    (st.warning if reason in CLASS_GONE else st.info)(say(f"ended.{reason}", None, lang),
                                                       icon="👋")
    if link and reason not in CLASS_GONE:
        st.page_link("app_pages/my_class.py", label=say("ended.again", None, lang), icon="🏫")


def note_page(page: str) -> None:
    """A pupil's full run on ``page`` (``app.py``, after the guard): where they are on the
    teacher's live view (issue 29), with the assignment in hand on My class, written only
    when it changed or once a minute (:class:`trainer.live_view.ActivityNotes`). Nothing
    for anyone but a pupil."""
    kept = st.session_state.get(KEY_VISIT)
    if kept is None or kept[1] is None:
        return
    assignment_id = st.session_state.get(KEY_TASK) if page == "my_class" else None
    visit: PupilVisit = kept[1]
    notes = ActivityNotes(storage(), visit.profile_id, visit.class_id)
    try:
        noted = notes.page(page, assignment_id, device_label(device_key()),
                           st.session_state.get(KEY_NOTED))
    except Exception:  # the teacher's view a minute behind, never the child's page broken
        log.warning("could not note the page of profile %s", visit.profile_id, exc_info=True)
        return
    if noted is not None:
        st.session_state[KEY_NOTED] = noted


@friendly_fragment(run_every=WATCH_SECONDS)
def _tick() -> None:
    kept = st.session_state.get(KEY_VISIT)
    if kept is None or kept[1] is None:
        return
    if visit_end(storage(), kept[1], clock.now()) is not None:
        st.rerun()  # the full run's guard signs out and says why
    # Still here, on the page last noted (a lesson read, a game played without a rerun):
    # the live view keeps them signed in.
    last: Noted | None = st.session_state.get(KEY_NOTED)
    if last is not None and last.profile_id == kept[1].profile_id:
        note_page(last.page)


def watch() -> None:
    """The timer of a pupil's visit, drawn in the sidebar (it shows nothing; a page may
    stop early, the sidebar is always drawn). Nothing for anyone else."""
    kept = st.session_state.get(KEY_VISIT)
    if kept is not None and kept[1] is not None:
        with st.sidebar:
            _tick()


set_pupil_hooks(class_gone=end_if_class_gone, activity=note_activity)
