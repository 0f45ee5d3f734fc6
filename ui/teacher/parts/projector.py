"""The projector (issue 29): the class's screen at the front of the room, read from the
back of it. The class code big, the pictures of who is in (never a name), and a live
"find all the 15s" round: the cards every tablet shows, the answers arriving as a count,
then on the teacher's tap the right sets drawn with their sums and how many found each,
and the wrong sum most often given with its arithmetic. Nothing private: no real name,
no nickname, no child's answer (``trainer.live.LiveSummary`` holds counts only).

The round refreshes itself every :data:`REFRESH_SECONDS` (a fragment of its own: the
rest of the page is not drawn again); the refresh does not count as the teacher's
activity, so the area still locks when nobody taps.
"""

from __future__ import annotations

import html

import streamlit as st

from puzzles import LEVELS
from trainer.cards import cards_row_html
from trainer.classroom import format_code
from trainer.live import LiveBoard, LiveClass, LiveSummary, RightSet

from ...board import deck_of
from ...classroom import class_action, ct, ct_text, show_class_flash
from ...errors import friendly_fragment
from ...session import settings
from ..part import Part
from ..snapshot import OpenClass
from ..state import teacher_room

__all__ = ["PART", "REFRESH_SECONDS"]

#: How often the projector reads the round again (a count query, or the answers once
#: revealed): answers show within about this, whatever the class's size.
REFRESH_SECONDS = 1.5

_BIG = "font-size:clamp(1.6rem,3.2vw,3.4rem);font-weight:700;line-height:1.2"
_MID = "font-size:clamp(1.2rem,2.2vw,2.4rem);font-weight:600;line-height:1.25"
_HUGE = "font-size:clamp(2.2rem,4.6vw,5rem);font-weight:800;letter-spacing:0.08em"


def _live() -> LiveClass:
    return LiveClass(teacher_room())


@class_action
def _on_start(class_id: int) -> None:
    level = st.session_state.get("tc_live_level", LEVELS[1])
    _live().start(class_id, int(level))


@class_action
def _on_reveal(class_id: int, round_id: int) -> None:
    _live().reveal(class_id, round_id)


@class_action
def _on_close(class_id: int, round_id: int) -> None:
    _live().close(class_id, round_id)


def _line(text: str, style: str = _BIG, testid: str = "") -> None:
    mark = f" data-testid='{testid}'" if testid else ""
    st.html(f"<div style='{style}'{mark}>{html.escape(text)}</div>")


def _off_words(off: int) -> str:
    return ct_text("live.too_many", count=off) if off > 0 else ct_text("live.too_few",
                                                                         count=-off)


def _right_set(item: RightSet, width: int) -> str:
    values = " + ".join(str(c.value) for c in item.cards)
    return ("<div style='display:flex;flex-direction:column;align-items:center;gap:6px;"
            "padding:12px;border:3px solid #2E7D32;border-radius:16px' "
            "data-testid='tc-live-set'>"
            + cards_row_html(item.cards, deck_of(), bool(settings().get("show_values", True)),
                             width=width, names=False)
            + f"<div style='{_BIG}'>{html.escape(f'{values} = {item.total}')}</div>"
            f"<div style='{_MID}'>"
            f"{html.escape(ct_text('live.found_by', count=item.found_by))}</div></div>")


def _reveal(summary: LiveSummary) -> None:
    sets = "".join(_right_set(item, 72) for item in summary.sets)
    st.html("<div style='display:flex;flex-wrap:wrap;gap:16px'>" + sets + "</div>")
    _line(ct_text("live.all_right", count=summary.all_right), _MID, "tc-live-all-right")
    wrong = summary.common_wrong
    if wrong is not None:
        _line(ct_text("live.common_wrong", arithmetic=wrong.arithmetic,
                      off=_off_words(wrong.off)), _MID, "tc-live-wrong")


def _round(class_id: int, board: LiveBoard) -> None:
    live, summary = board.round, board.summary
    assert live is not None and summary is not None
    # Side by side, so the whole round fits a 1080-line screen under the page's header:
    # the cards and the count on the left, the reveal on the right.
    cards, answers = st.columns([3, 2], gap="large")
    with cards:
        _line(ct_text("live.title", sum=live.puzzle.capture_sum), testid="tc-live-title")
        st.html(cards_row_html(live.puzzle.table, deck_of(),
                               bool(settings().get("show_values", True)), width=130,
                               names=False, gap=12))
        _line(ct_text("live.answers", count=summary.answered), testid="tc-live-count")
    with answers:
        if live.state == "open":
            st.button(ct("live.reveal"), key="tc_live_reveal", type="primary", icon="👀",
                      on_click=_on_reveal, args=(class_id, live.id), width="stretch")
            return
        _reveal(summary)
        st.button(ct("live.close"), key="tc_live_close", icon="✅", on_click=_on_close,
                  args=(class_id, live.id), width="stretch")


@friendly_fragment(run_every=REFRESH_SECONDS)
def _screen(class_id: int, code: str, capture_sum: int) -> None:
    show_class_flash()  # a refusal of a tap in here (the round closed in another tab)
    board = _live().board(class_id, touch=False)
    with st.container(horizontal=True, vertical_alignment="center", gap="large"):
        _line(ct_text("card.code", code=format_code(code)), _HUGE, "tc-live-code")
        if board.present:
            st.html(f"<div style='{_MID}' data-testid='tc-live-in'>"
                    f"{html.escape(ct_text('live.in', count=len(board.present)))}"
                    "<div style='font-size:clamp(1.8rem,3vw,3.4rem);display:flex;"
                    "flex-wrap:wrap;gap:0.25em' data-testid='tc-live-pictures'>"
                    + "".join(f"<span>{html.escape(p)}</span>" for p in board.present)
                    + "</div></div>")
        else:
            st.info(ct("live.nobody_in"), icon="🪧")
    if board.round is not None:
        _round(class_id, board)
        return
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.selectbox(ct("live.level"), LEVELS, index=1, key="tc_live_level")
        st.button(ct("live.start", sum=capture_sum), key="tc_live_start",
                  type="primary", icon="🃏", on_click=_on_start, args=(class_id,))


def show(view: OpenClass) -> None:
    st.caption(ct("live.help"))
    _screen(view.info.id, view.info.code, view.info.capture_sum)


PART = Part(key="projector", label="part.projector", render=show, presentation=True)
