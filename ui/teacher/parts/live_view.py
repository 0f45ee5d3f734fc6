"""The teacher's live view during the lesson (issue 29): a card per pupil -- picture,
nickname and real name (the teacher's eyes only), group, signed in or not, on which
tablet (an anonymous label), on which page with which assignment, their answers of the
last five minutes, and "stuck" in colour and in words, stuck pupils first.

It refreshes itself every :data:`REFRESH_SECONDS` (a fragment of its own), one query
whatever the class's size (:class:`trainer.live_view.LiveView`); the refresh does not
count as the teacher's activity, so the area still locks when nobody taps (as the
projector's).
"""

from __future__ import annotations

import html

import streamlit as st

from trainer import clock
from trainer.classroom import describe
from trainer.i18n import t
from trainer.live_view import LiveView, PupilNow

from ...classroom import ct, ct_text
from ...errors import friendly_fragment
from ...i18n import current_language
from ..part import Part
from ..snapshot import OpenClass
from ..state import teacher_room

__all__ = ["PART", "REFRESH_SECONDS", "cards_html"]

#: How often the view reads the class again (one query).
REFRESH_SECONDS = 5

_STYLE = (
    "<style>"
    ".lv-list { display:grid; gap:0.5rem;"
    " grid-template-columns:repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); }"
    ".lv-card { border:1px solid #cfd8dc; border-left:6px solid #90a4ae; border-radius:0.5rem;"
    " padding:0.45rem 0.7rem; min-width:0; overflow-wrap:anywhere; line-height:1.35; }"
    ".lv-card.lv-in { border-left-color:#2e7d32; }"
    ".lv-card.lv-out { color:#607d8b; background:#fafafa; }"
    ".lv-card.lv-stuck { border-color:#c62828; border-left-color:#c62828; background:#fff3f0; }"
    ".lv-name { font-weight:700; font-size:1.05rem; }"
    ".lv-pic { font-size:1.5rem; margin-right:0.3rem; vertical-align:middle; }"
    ".lv-real { font-weight:400; color:#455a64; }"
    ".lv-tag { display:inline-block; border-radius:0.7rem; padding:0 0.5rem; margin:0.1rem 0.2rem"
    " 0.1rem 0; font-size:0.85rem; background:#eceff1; color:#263238; }"
    ".lv-stuck-why { font-weight:700; color:#b71c1c; }"
    ".lv-line { margin:0.1rem 0 0; }"
    "</style>"
)


def _card(p: PupilNow, lang: str) -> str:
    def say(key: str, **params: object) -> str:
        return html.escape(ct_text(key, **params))

    kind = "lv-stuck" if p.stuck else "lv-in" if p.signed_in else "lv-out"
    real = f" <span class='lv-real'>({html.escape(p.real_name)})</span>" if p.real_name else ""
    lines = [f"<div class='lv-name'><span class='lv-pic'>{html.escape(p.avatar)}</span>"
             f"{html.escape(p.nickname)}{real}</div>"]
    tags = []
    if p.group:
        tags.append(say("lv.group", name=p.group))
    if p.signed_in and p.tablet:
        tags.append("📱 " + say("lv.tablet", label=p.tablet))
    if tags:
        lines.append("<div>" + "".join(f"<span class='lv-tag'>{x}</span>" for x in tags)
                     + "</div>")
    if not p.signed_in:
        out = say("lv.signed_out")
        if p.seen_at is not None:
            minutes = max(0, int((clock.now() - p.seen_at).total_seconds() // 60))
            out += " · " + say("lv.last_seen", minutes=minutes)
        lines.append(f"<div class='lv-line'>{out}</div>")
    else:
        page = html.escape(t(f"nav_{p.page}", lang)) if p.page else ""
        lines.append(f"<div class='lv-line' data-testid='lv-page'><b>{page}</b> · "
                     f"{say('lv.on_page', minutes=p.minutes_on_page)}</div>")
        if p.assignment is not None:
            lines.append("<div class='lv-line'>"
                         f"{say('lv.task', task=describe(p.assignment, lang))}</div>")
        answers = (say("lv.answers", right=p.right, total=p.answers) if p.answers
                   else say("lv.no_answers"))
        lines.append(f"<div class='lv-line'>{answers}</div>")
    if p.stuck == "wrong":
        lines.append(f"<div class='lv-stuck-why'>⚠️ {say('lv.stuck_wrong', count=p.wrong_streak)}"
                     "</div>")
    elif p.stuck == "slow":
        lines.append(f"<div class='lv-stuck-why'>⚠️ "
                     f"{say('lv.stuck_slow', minutes=p.minutes_without_right)}</div>")
    return (f"<div class='lv-card {kind}' data-testid='lv-card' data-pupil='{p.profile_id}'>"
            + "".join(lines) + "</div>")


def cards_html(pupils: list[PupilNow], lang: str) -> str:
    """The pupils' cards: the stuck first, then the others signed in, then the rest."""
    ordered = sorted(pupils, key=lambda p: (p.stuck is None, not p.signed_in))
    return (_STYLE + "<div class='lv-list'>" + "".join(_card(p, lang) for p in ordered)
            + "</div>")


@friendly_fragment(run_every=REFRESH_SECONDS)
def _live(class_id: int) -> None:
    # touch=False: the timer is not the teacher's activity (the area still locks).
    pupils = LiveView(teacher_room()).pupils(class_id, touch=False)
    signed_in = sum(p.signed_in for p in pupils)
    stuck = sum(p.stuck is not None for p in pupils)
    st.markdown(f"**{ct('lv.summary', signed_in=signed_in, total=len(pupils), stuck=stuck)}**")
    if not signed_in:
        st.info(ct("lv.nobody"), icon="🪧")
    st.html(cards_html(pupils, current_language()))


def show(view: OpenClass) -> None:
    st.caption(ct("lv.help"))
    _live(view.info.id)


PART = Part(key="live_view", label="part.live_view", render=show)
