"""On every page but My class: "Your class is playing together! Go to My class" (issue 29).

A pupil on Play, Puzzles, a lesson... was never told that the teacher started a live
round or the class's game. Now, for a pupil signed in to a class only (nothing is drawn,
nothing read, for anyone else), a timer of its own (:data:`NOTICE_SECONDS`) makes one
small read each time (:class:`trainer.together.ClassTogether`); while the class plays
together a big notice sits at the top of the page, with a button to My class and a
speaker to hear it. It is a notice, not a page switch: a child in the middle of a move
finishes it. The timer redraws the notice alone, never the page (a board mid-move stays).
"""

from __future__ import annotations

import html

import streamlit as st

from trainer.speech import speakable
from trainer.together import ClassTogether

from .classroom import ct, ct_text
from .errors import friendly_fragment
from .pupil_guard import KEY_VISIT
from .session import storage
from .speaker import speaker_button

__all__ = ["show_together_notice", "NOTICE_SECONDS", "MY_CLASS_PAGE"]

#: How often the tablet looks (the round and the game by turns: each within twice this).
NOTICE_SECONDS = 2.5
MY_CLASS_PAGE = "app_pages/my_class.py"
#: The pages with no notice: My class shows the round or the vote itself; the teacher's
#: area is no pupil's.
_QUIET_PAGES = frozenset({"my_class", "teacher"})
_KEY = "together_watch"  # this tablet's ClassTogether

# Big for small hands: the line as a heading, the button as big as a card.
_STYLE = """<style>
.st-key-together_notice { background:#fff4d6; border:3px solid #f0a500 !important;
  border-radius:1rem; padding:0.8rem 1rem !important; }
.st-key-together_notice .together-line { font-size:1.7rem; font-weight:800; line-height:1.25;
  color:#5a3b00; margin:0; }
.st-key-together_go button { min-height:3.6rem; }
.st-key-together_go button p { font-size:1.4rem !important; font-weight:700; }
</style>"""


_FENCE_STYLE = """<style>
div:has(> .st-key-together_fence):not(:has(.st-key-together_notice)) { display:none; }
</style>"""


def _watcher(profile_id: int, class_id: int) -> ClassTogether:
    kept = st.session_state.get(_KEY)
    if not isinstance(kept, ClassTogether) or (kept.profile_id, kept.class_id) != (
            profile_id, class_id):
        kept = ClassTogether(profile_id, class_id)
        st.session_state[_KEY] = kept
    return kept


@friendly_fragment(run_every=NOTICE_SECONDS)
def _notice(profile_id: int, class_id: int) -> None:
    watch = _watcher(profile_id, class_id)
    watch.look(storage())
    if watch.playing is None:
        return
    line = ct_text("together.playing")
    with st.container(key="together_notice"):
        st.html(_STYLE + f"<p class='together-line' data-testid='together-line'>📣 "
                f"{html.escape(line)}</p>")
        with st.container(horizontal=True, vertical_alignment="center"):
            if st.button(ct("together.go"), key="together_go", type="primary", icon="🏫",
                         width="stretch"):
                st.switch_page(MY_CLASS_PAGE)
            speaker_button(speakable(f"{line} {ct_text('together.go')}"), key="together_say")


def show_together_notice(page: str) -> None:
    """The notice's timer on ``page`` (its url path), for a pupil of a class only."""
    kept = st.session_state.get(KEY_VISIT)
    if kept is None or kept[1] is None or page in _QUIET_PAGES:
        return
    # The timer's place takes no room while there is nothing to say (its wrapper hidden:
    # no gap either): the page starts where it always does (Play fits a landscape
    # tablet to the pixel).
    with st.container(key="together_fence"):
        st.html(_FENCE_STYLE)
        _notice(kept[1].profile_id, kept[1].class_id)
