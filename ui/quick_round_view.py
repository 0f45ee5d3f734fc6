"""Quick facts' round drawn and tapped in the browser (issue 32), and its fallback.

A round's answers were Streamlit buttons: each tap reran the round's part, which drew
its 15-17 elements again (the feedback, its 🔊, the question, its 🔊, ten buttons and
their rows). Now one component (``ui/board_assets/quick_round.js``) draws the whole
round from the data made here, marks a tapped number at once and sends it with the
question it answers; the part's run records it and draws that one element again. What
the child sees, hears and taps is the same: the feedback with its 🔊, "Question n of
5", the cards and the question with its 🔊 (the first says what to do first), ten big
numbers; at the end how the round went, each fact, "Another round".

As for the board (``ui/board_component.py``), the component says it drew (``ready``,
once to each server session); until then the round is also drawn with Streamlit's own
elements in the board's kind of fallback (``qf_fallback``: a collapsed "Numbers don't
respond to taps?" section, out of sight for its first seconds): a browser where the
component cannot run gets the buttons there, and AppTest (no JavaScript) plays through
them. The judge is Python: the component sends numbers, never verdicts.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import streamlit as st

from puzzles import Puzzle
from trainer.cards import cards_row_html
from trainer.i18n import t
from trainer.practice_sessions import QuickRound, quick_question
from trainer.speech import lang_tag, speakable

from .assets import asset_text
from .board_component import component_state, fallback_choosers, readiness, session_token
from .errors import safe_callback
from .i18n import current_language
from .practice_view import number_pad
from .session import deck_of, settings
from .speaker import speaker_button, voice_settings

__all__ = ["show_quick_round", "quick_round_loaded", "COMPONENT_KEY", "KEY_READY"]

# Not style-isolated: its classes are its own (qf-*), and the page's first isolated
# component stays the board.
_ROUND = st.components.v2.component(
    "escoba_quick_round", html="",
    css=asset_text("voice.css", "quick_round.css"),
    js=asset_text("say_alone.js", "voice.js", "quick_round.js"),
    isolate_styles=False)

#: The component's key (its element carries ``st-key-qf_round_view``).
COMPONENT_KEY = "qf_round_view"
#: Session flag: a quick round drew in this browser session (no fallback is drawn).
KEY_READY = "qf_round_ok"
#: Session key: how many taps (answers and "Another round") Python has taken, refused
#: or not saved too; sent with the data, so the pad is given back even when the screen
#: comes back the same (a save that failed: the same question again).
_TAPS = "qf_round_taps"
#: A number the pad offers (1-10).
_NUMBERS = range(1, 11)
#: The longest a voice is taken to have spoken while a question waited, in ms (the
#: browser stops counting at 15 s).
_HEARD_MS = 15_000


def quick_round_loaded() -> bool:
    """Whether a quick round has drawn in this browser session."""
    return bool(st.session_state.get(KEY_READY))


def _tapped(rnd: QuickRound, raw: Any) -> tuple[int, float] | None:
    """The number of a tap meant for the question on screen and the seconds the voice
    spoke while it waited (the last answer's correction), else ``None`` (a tap for a
    question already answered, another round's, or anything malformed: nothing)."""
    if not isinstance(raw, dict):
        return None
    value, index = raw.get("value"), raw.get("index")
    if raw.get("round") != rnd.token or type(index) is not int or index != rnd.index:
        return None
    if type(value) is not int or value not in _NUMBERS:
        return None
    heard = raw.get("heard", 0)
    if type(heard) not in (int, float) or not 0 <= heard <= _HEARD_MS:
        heard = 0  # a voice's time, or nothing: never a reason to refuse the answer
    return value, heard / 1000


def _data(rnd: QuickRound, puzzle: Puzzle | None) -> dict[str, Any]:
    """What the component draws, every word already in the child's language."""
    deck = deck_of()
    voice = voice_settings()
    data: dict[str, Any] = {
        "round": rnd.token, "index": rnd.index, "answered": len(rnd.results),
        "sound": voice.sound, "auto": voice.read_aloud, "lang": lang_tag(current_language()),
        "listen": t("speech.listen"), "feedback": None, "done": None, "question": None,
        "intro": t("qf_intro"),
        "ready": quick_round_loaded(), "taps": st.session_state.get(_TAPS, 0),
        "session": session_token(),
    }
    if rnd.feedback is not None:
        text = t(rnd.feedback.key, **rnd.feedback.params)
        data["feedback"] = {"kind": rnd.feedback.kind, "text": text,
                            "said": speakable(text, deck=deck)}
    if puzzle is None:
        done = t("qf_round_done", right=rnd.right, total=len(rnd.results))
        data["done"] = {
            "title": done, "said": speakable(done, deck=deck), "again": t("qf_again"),
            "lines": [f"{'✅' if ok else '🔁'} {quick_question(p, p.solutions[0].value)}"
                      for p, ok in rnd.results]}
        return data
    data["question"] = {
        "progress": t("qf_progress", n=rnd.index + 1, total=len(rnd.puzzles)),
        "cards": _cards(puzzle), "text": quick_question(puzzle),
        "said": speakable(_asked(rnd, puzzle), deck=deck)}
    return data


def _cards(puzzle: Puzzle) -> str:
    return cards_row_html(puzzle.table, deck_of(), bool(settings().get("show_values", True)),
                          width=72, names=False)


def _asked(rnd: QuickRound, puzzle: Puzzle) -> str:
    """The question as its 🔊 says it: the round's first says what to do first (the
    line under the title has no speaker of its own)."""
    asked = quick_question(puzzle)
    return f"{t('qf_intro')} {asked}" if rnd.index == 0 else asked


def show_quick_round(rnd: QuickRound, *, on_answer: Callable[..., None],
                     on_again: Callable[[], None]) -> None:
    """Draw the round: the component, and (until it has drawn in this session) the
    same round in Streamlit's elements. ``on_answer(n, heard)``: a number tapped for the
    question on screen, and the seconds the voice spoke while it waited (``heard`` is
    left out by the fallback's buttons: nothing speaks there by itself); ``on_again()``:
    "Another round". Both run as callbacks, before the part draws again."""
    puzzle = rnd.shown()  # the question's clock starts as it is drawn

    def _taken() -> None:
        st.session_state[_TAPS] = st.session_state.get(_TAPS, 0) + 1

    @safe_callback
    def _answer() -> None:
        _taken()  # first: whatever follows, the pad is given back
        tapped = _tapped(rnd, component_state(COMPONENT_KEY, "answer"))
        if tapped is not None:
            on_answer(*tapped)

    @safe_callback
    def _again() -> None:
        _taken()
        if component_state(COMPONENT_KEY, "again") == rnd.token:
            on_again()

    _ready = readiness(COMPONENT_KEY, KEY_READY)
    data = _data(rnd, puzzle)
    _ROUND(key=COMPONENT_KEY, data=data, on_ready_change=_ready,
           on_answer_change=_answer, on_again_change=_again, width="stretch",
           height="content")
    if not quick_round_loaded():
        # Collapsed, as the board's: before the component's word comes, the page
        # shows at most its one line for a moment (the whole pad flashed there).
        fallback_choosers(lambda: _drawn_by_streamlit(rnd, data, on_answer, on_again),
                          "qf_fallback", t("qf_fallback_title"))


def _drawn_by_streamlit(rnd: QuickRound, data: dict[str, Any],
                        on_answer: Callable[[int], None],
                        on_again: Callable[[], None]) -> None:
    """The same round, from the same ``data``, in Streamlit's elements: buttons
    ``qf_n_1``-``qf_n_10`` and ``qf_again``, for a browser where the component does not
    run (and for AppTest)."""
    feedback, done, question = data["feedback"], data["done"], data["question"]
    if feedback is not None:
        (st.success if feedback["kind"] == "success" else st.error)(feedback["text"])
        speaker_button(feedback["said"], key="qf_said_speaker")
    else:
        st.caption(data["intro"])
    if done is not None:
        st.markdown(f"### {done['title']}")
        # The round's end can be heard (a child who reads slowly heard its questions and
        # not how the round went); not read by itself, like the rest of Quick facts.
        speaker_button(done["said"], key="qf_done_speaker")
        st.markdown("\n".join(f"- {html.escape(line)}" for line in done["lines"]))
        st.button(done["again"], key="qf_again", type="primary", on_click=on_again,
                  use_container_width=True)
        return
    st.caption(question["progress"])
    st.html(question["cards"] + "<div style='font-size:3rem;font-weight:700;margin:8px 0' "
            f"data-testid='qf-question'>{html.escape(question['text'])}</div>")
    speaker_button(question["said"], key="qf_question_speaker")
    number_pad("qf_numbers", "qf_n", rnd.index, on_answer)
