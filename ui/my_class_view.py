"""My class: a pupil signs in on a shared tablet and finds their assignments first.

The order of docs/CLASSROOM.md: the class code, typed once per device (kept in this
browser session; unknown codes are counted by the core per device and per server,
in the database: trainer.limits); the class's pictures
and nicknames (never real names) as big buttons; the PIN on a number pad of big
buttons (wrong PINs are counted per pupil by the core); then the pupil plays as
themselves (:func:`ui.session.set_profile`), the class's live round first when the
teacher runs one on the projector (issue 29), else assignments first, each done right here
(puzzles on the board, quick facts on the number buttons, a lesson on the Lessons
page), then the rest of the app as always. "Not you? Switch" goes back to the
pictures for the next child.

A pupil signing in ends any teacher's session of this browser session
(:func:`ui.classroom.end_teacher_session`).
"""

from __future__ import annotations

import html
import time
from typing import Any

import streamlit as st

from escoba import Card
from lessons import load_stages
from puzzles import Puzzle
from trainer.cards import cards_row_html, pick_label
from trainer.classroom import ClassCard, ClassroomError, PupilSignIn, describe, pupil_tasks
from trainer.classroom_views import PupilTask, task_puzzles, task_words
from trainer.i18n import format_day, t
from trainer.lessons import opening_level
from trainer.live import LiveRound, PupilLive
from trainer.practice_sessions import QuickRound, quick_question
from trainer.speech import speakable
from trainer.storage import Profile
from trainer.text import md_escape

from .board import deck_of
from .class_game_view import class_game_moved, show_class_vote
from .classroom import (
    class_action,
    class_flash,
    ct,
    ct_text,
    end_teacher_session,
    show_class_flash,
)
from .errors import friendly_fragment, note_activity
from .i18n import current_language
from .lesson_view import open_stage
from .practice import attempt_row, record_attempt, today
from .practice_view import number_pad, show_puzzle, state_of
from .session import current_profile, device_key, set_profile, settings, storage
from .speaker import speaker_button

__all__ = ["show_my_class", "KEY_CARD"]

KEY_CARD = "mc_card"  # the ClassCard of this device's class
KEY_PICKED = "mc_picked"  # the picture tapped: whose PIN is asked
KEY_PIN = "mc_pin"  # the digits typed so far
KEY_TASK = "mc_task"  # the assignment being done
KEY_CURRENT = "mc_current"  # (assignment id, puzzle on screen)
KEY_ROUND = "mc_round"  # (assignment id, QuickRound)
KEY_LIVE_TAPS = "mc_live_taps"  # the round block's widget values at its last run
KEY_LIVE_SEEN = "mc_live_seen"  # when this tablet last said the pupil is here (monotonic)
KEY_LIVE_SHOWN = "mc_live_shown"  # (round id, when its question was first shown)
KEY_LIVE_QUICK = "mc_live_quick"  # (round id, QuickRound, values given, seconds each)
_LIVE_OWN = (KEY_LIVE_TAPS, KEY_LIVE_SEEN, KEY_LIVE_SHOWN, KEY_LIVE_QUICK)
_TASK_KEYS = (KEY_TASK, KEY_CURRENT, KEY_ROUND)
PIN_LENGTH = 4
ROUND = 5
#: How often a signed-in pupil's My class looks for the class's round while there is
#: none (a new round is on every tablet within about this: 30 idle tablets stay cheap),
#: and, while a round is on the tablet, how often the round's block is drawn again (the
#: reveal is on every tablet within about this: issue 29, docs/BENCHMARKS.md).
IDLE_WATCH_SECONDS = 2.0
LIVE_WATCH_SECONDS = 0.75
PRESENCE_SECONDS = 30.0


def _door() -> PupilSignIn:
    return PupilSignIn(storage(), lang=current_language())


def _forget(*keys: str) -> None:
    for key in keys:
        st.session_state.pop(key, None)


# -- signing in ------------------------------------------------------------------------------

@class_action
def _on_code() -> None:
    typed = st.session_state.pop("mc_code", "") or ""
    # Unknown codes are counted by the core per device and per server, in the database
    # (trainer.limits): a new tab is the same device, another replica the same count.
    card = _door().find_class(typed, device=device_key())
    st.session_state[KEY_CARD] = card
    _forget(KEY_PICKED, KEY_PIN)


@class_action
def _on_other_class() -> None:
    _forget(KEY_CARD, KEY_PICKED, KEY_PIN)


@class_action
def _on_pick(profile_id: int) -> None:
    st.session_state[KEY_PICKED] = profile_id
    st.session_state[KEY_PIN] = ""


@class_action
def _on_not_me() -> None:
    _forget(KEY_PICKED, KEY_PIN)


@class_action
def _on_digit(digit: str) -> None:
    pin = (st.session_state.get(KEY_PIN, "") + digit)[:PIN_LENGTH]
    st.session_state[KEY_PIN] = pin
    if len(pin) == PIN_LENGTH:
        _sign_in(pin)


@class_action
def _on_delete_digit() -> None:
    st.session_state[KEY_PIN] = st.session_state.get(KEY_PIN, "")[:-1]


def _sign_in(pin: str) -> None:
    """The fourth digit: the core checks the PIN (rate-limited per pupil)."""
    st.session_state[KEY_PIN] = ""
    card: ClassCard | None = st.session_state.get(KEY_CARD)
    picked = st.session_state.get(KEY_PICKED)
    if card is None or picked is None:
        return
    try:
        profile_id = _door().sign_in(card, int(picked), pin, device_key())
    except ClassroomError as err:
        if err.key in ("signin.code_unknown", "signin.class_archived"):
            _forget(KEY_CARD, KEY_PICKED)  # a new code, or the class closed meanwhile
        raise
    profile = storage().get_profile(profile_id)
    if profile is None:
        return
    end_teacher_session()
    set_profile(profile)
    PupilLive(storage(), profile.id).here()  # their picture on the projector
    st.session_state[KEY_LIVE_SEEN] = time.monotonic()
    _forget(KEY_PICKED, *_TASK_KEYS)


@class_action
def _on_switch() -> None:
    """"Not you? Switch": nobody plays; the class's pictures again."""
    profile = current_profile()
    if profile is not None:
        PupilLive(storage(), profile.id).leave()
    set_profile(None)
    _forget(KEY_PICKED, KEY_PIN, *_TASK_KEYS)


def _code_form() -> None:
    with st.form("mc_code_form", border=True):
        st.text_input(ct("mc.code"), key="mc_code", max_chars=12, placeholder="KDM-472",
                      help=ct("mc.code_help"))
        st.form_submit_button(ct("mc.code_go"), type="primary", on_click=_on_code,
                              width="stretch")


def _pictures(card: ClassCard) -> None:
    pupils = _door().pupils(card)
    if not pupils:
        st.info(ct("mc.no_pupils"), icon="🌱")
        return
    st.subheader(ct("mc.tap_picture"), anchor=False)
    per_row = 3
    with st.container(key="mc_pictures"):
        for i, pupil in enumerate(pupils):
            if i % per_row == 0:
                cols = st.columns(per_row)
            with cols[i % per_row]:
                # A nickname is text, never markup (a button's label is Markdown).
                st.button(md_escape(f"{pupil.avatar} {pupil.nickname}"),
                          key=f"mc_pupil_{pupil.profile_id}", on_click=_on_pick,
                          args=(pupil.profile_id,), width="stretch")


def _pin_pad(card: ClassCard, profile_id: int) -> None:
    pupil = next((p for p in _door().pupils(card) if p.profile_id == profile_id), None)
    if pupil is None:
        _forget(KEY_PICKED, KEY_PIN)
        st.rerun()
    typed = len(st.session_state.get(KEY_PIN, ""))
    st.subheader(ct("mc.hello_pin", name=f"{pupil.avatar} {pupil.nickname}"), anchor=False)
    dots = " ".join("●" if i < typed else "○" for i in range(PIN_LENGTH))
    st.html(f"<div data-testid='mc-pin-dots' style='font-size:2.6rem;letter-spacing:0.3em'>"
            f"{dots}</div>")
    # Twelve keys in one container, laid out as a 3 × 4 grid by its style (ui/page_style.py):
    # st.columns fall into one column of 12 tall buttons on a phone, which pushed the
    # dots and the wrong-PIN message off screen (issue 27).
    with st.container(key="mc_pad"):
        for digit in "123456789":
            st.button(digit, key=f"mc_d_{digit}", on_click=_on_digit, args=(digit,),
                      width="stretch")
        st.button(ct("mc.not_me"), key="mc_not_me", on_click=_on_not_me, icon="↩️",
                  width="stretch")
        st.button("0", key="mc_d_0", on_click=_on_digit, args=("0",), width="stretch")
        st.button("⌫", key="mc_del", on_click=_on_delete_digit,
                  help=ct_text("mc.delete_digit"), width="stretch")


# -- the pupil's tasks -------------------------------------------------------------------------

@class_action
def _on_task(assignment_id: int | None) -> None:
    _forget(*_TASK_KEYS)
    if assignment_id is not None:
        st.session_state[KEY_TASK] = assignment_id


@class_action
def _on_next_puzzle() -> None:
    _forget(KEY_CURRENT)


@class_action
def _on_answer(profile_id: int, value: int) -> None:
    kept = st.session_state.get(KEY_ROUND)
    if kept is None:
        return
    with kept[1].kept_only_if_saved():  # an answer not saved is not shown as given
        answered = kept[1].answer(value)
        if answered is not None:
            puzzle, result, seconds = answered
            record_attempt(profile_id, attempt_row(puzzle, result, seconds, [value], "quick"))


@class_action
def _on_round_again() -> None:
    _forget(KEY_ROUND)


def _lesson_level(profile: Profile, stage_key: str) -> str | None:
    """The level the assignment goes on at: as the map's Open, the stage's first level
    without a result (its first once all are done)."""
    stage = next((s for s in load_stages() if s.key == stage_key), None)
    if stage is None:
        return None
    return opening_level(stage, storage().lesson_results(profile.id))


def _task_card(profile: Profile, task: PupilTask) -> None:
    a = task.assignment
    lang = current_language()
    with st.container(border=True, key=f"mc_task_{a.id}"):
        # Done is not right (issue 27): a task done with wrong answers asks for another go.
        mark = ("✅" if task.all_right else "🔁") if task.complete \
            else ("⏰" if task.status == "overdue" else "📌")
        st.markdown(f"{mark} **{md_escape(describe(a, lang, to_pupil=True))}**")
        words = [ct_text(f"status.{task.status}")]
        if a.due:
            words.append(ct_text("task.due", date=format_day(a.due, lang, today=today())))
        key, params = task_words(task)
        words.append(ct_text(key, **params))
        st.progress(min(1.0, task.done / task.total) if task.total else 0.0,
                    text=md_escape(" · ".join(words)))
        if a.kind == "lesson":
            if st.button(ct("mc.open_lesson"), key=f"mc_do_{a.id}", type="primary",
                         icon="🎓", width="stretch"):
                open_stage(profile, a.spec["stage"], _lesson_level(profile, a.spec["stage"]))
                st.switch_page("app_pages/lessons.py")
        elif not task.complete or a.kind != "puzzles":
            st.button(ct("mc.again") if task.complete else ct("mc.do_it"),
                      key=f"mc_do_{a.id}", on_click=_on_task, args=(a.id,),
                      type="secondary" if task.complete else "primary", icon="▶️",
                      width="stretch")


def _task_verdict(task: PupilTask) -> None:
    """A finished task: praise when every answer was right, else how many were, and
    another go ("4 of 4 done, 1 right: try again?")."""
    key, params = task_words(task)
    if task.all_right:
        st.success(ct(key, **params), icon="🎉")
    else:
        st.info(ct(key, **params), icon="🔁")


def _task_puzzles(profile: Profile, task: PupilTask) -> None:
    a = task.assignment
    current = st.session_state.get(KEY_CURRENT)
    if current is None or current[0] != a.id:
        puzzles = task_puzzles(task)
        if not puzzles:
            _task_verdict(task)
            return
        current = (a.id, puzzles[0])
        st.session_state[KEY_CURRENT] = current
    puzzle: Puzzle = current[1]

    def record(p: Puzzle, result: Any, seconds: float, answer: list[Any]) -> None:
        record_attempt(profile.id, attempt_row(p, result, seconds, answer, "practice"))

    state = show_puzzle("mc", puzzle, record)
    if state.result is not None:
        st.button(ct("mc.next"), key="mc_next", type="primary", on_click=_on_next_puzzle,
                  width="stretch")


def _task_facts(profile: Profile, task: PupilTask) -> None:
    a = task.assignment
    kept = st.session_state.get(KEY_ROUND)
    if kept is None or kept[0] != a.id:
        puzzles = task_puzzles(task)
        left = len(task.facts_left)
        kept = (a.id, QuickRound("task", int(a.spec["capture_sum"]),
                                 puzzles[:left] if left else puzzles[:ROUND]))
        st.session_state[KEY_ROUND] = kept
    rnd: QuickRound = kept[1]
    if rnd.feedback is not None:
        said = rnd.feedback
        (st.success if said.kind == "success" else st.error)(t(said.key, **said.params))
    puzzle = rnd.shown()
    if puzzle is None:
        st.markdown(f"### {t('qf_round_done', right=rnd.right, total=len(rnd.results))}")
        if task.complete:
            _task_verdict(task)
        st.button(ct("mc.again"), key="mc_round_again", on_click=_on_round_again)
        return
    st.caption(t("qf_progress", n=rnd.index + 1, total=len(rnd.puzzles)))
    st.html(cards_row_html(puzzle.table, deck_of(), bool(settings().get("show_values", True)),
                           width=72, names=False)
            + "<div style='font-size:3rem;font-weight:700;margin:8px 0' "
              f"data-testid='mc-question'>{html.escape(quick_question(puzzle))}</div>")
    number_pad("mc_numbers", "mc_n", rnd.index, _on_answer, profile.id)


def _run_task(profile: Profile, task: PupilTask) -> None:
    a = task.assignment
    st.button(ct("mc.back"), key="mc_back", on_click=_on_task, args=(None,), icon="⬅️")
    st.markdown(f"**{md_escape(describe(a, current_language(), to_pupil=True))}**")
    st.progress(min(1.0, task.done / task.total) if task.total else 0.0,
                text=ct_text("mc.task_progress", done=task.done, count=task.total))
    if a.kind == "puzzles":
        _task_puzzles(profile, task)
    else:
        _task_facts(profile, task)


# -- the class round (issue 29) -----------------------------------------------------------------

def _tapped_in_block() -> bool:
    """Whether this run of the round's block is a tap in it (a widget of the block
    changed since its last run) rather than its timer: a tap keeps the pupil's visit
    awake (:func:`ui.errors.note_activity`), a tick must not."""
    values = repr(sorted((k, repr(v)) for k, v in st.session_state.items()
                         if isinstance(k, str) and k.startswith("mc_live")
                         and k not in _LIVE_OWN))
    last = st.session_state.get(KEY_LIVE_TAPS)
    st.session_state[KEY_LIVE_TAPS] = values
    return last is not None and last != values


def _say_here(pupil: PupilLive) -> None:
    """Every half minute the pupil is said to be here (the projector's pictures)."""
    seen = st.session_state.get(KEY_LIVE_SEEN, 0.0)
    if time.monotonic() - seen > PRESENCE_SECONDS:
        pupil.here()
        st.session_state[KEY_LIVE_SEEN] = time.monotonic()


@friendly_fragment(run_every=IDLE_WATCH_SECONDS)
def _idle_watch(profile_id: int) -> None:
    """No round on the tablet: every couple of seconds the class's round and the class's
    game are read again (a small query each); when a round has started or the game moved
    on, the whole page is drawn again (the round or the vote takes the page's place). One
    timer for both: a tablet's idle cost."""
    pupil = PupilLive(storage(), profile_id)
    _say_here(pupil)
    if pupil.current() is not None or class_game_moved(profile_id):
        st.rerun(scope="app")


@friendly_fragment(run_every=LIVE_WATCH_SECONDS)
def _live_watch(profile: Profile) -> None:
    """A round on the tablet: its block, drawn again every :data:`LIVE_WATCH_SECONDS`
    from the round read again (one small query), so the reveal or the next round shows
    in the block alone; a tap in the block runs the block alone too. Only when the round
    has closed is the whole page drawn again (the tasks come back)."""
    pupil = PupilLive(storage(), profile.id)
    _say_here(pupil)
    if _tapped_in_block():
        note_activity()
    live = pupil.current()
    if live is None:
        st.rerun(scope="app")
    show_class_flash()  # a refusal of a tap in the block (the round closed meanwhile)
    _live_round(profile, live, pupil)


def _live_board(profile: Profile, live: LiveRound, pupil: PupilLive) -> None:
    """A round answered on the board the pupil knows (fifteens, captures, best move).
    The board says right or wrong at once, set by set, as on every puzzle page (see
    docs/CLASSROOM.md); the projector's reveal then goes over it with the class."""
    mine = pupil.mine(live)
    drawn = state_of("mc_live")
    answered_here = drawn is not None and drawn.puzzle.id == live.puzzle.id \
        and drawn.result is not None
    if live.state == "open" and (mine is None or answered_here):

        def record(p: Puzzle, result: Any, seconds: float, answer: list[Any]) -> None:
            try:
                pupil.answer(live, result, seconds, answer, today())
            except ClassroomError as err:
                class_flash("error", err.key)

        # The answers are the projector's to reveal: not on a tablet before it does.
        state = show_puzzle("mc_live", live.puzzle, record, answers_shown=False)
        if state.result is not None:
            st.info(ct("mc.live_wait"), icon="👀")
        return
    if answered_here:
        show_puzzle("mc_live", live.puzzle, lambda *_: None,
                    answers_shown=live.state != "open")
    _live_waiting(live)


def _live_waiting(live: LiveRound) -> None:
    if live.state == "open":
        st.info(ct("mc.live_wait"), icon="👀")
    else:
        st.info(ct("mc.live_revealed"), icon="📽️")


def _say(text: str, key: str) -> None:
    """The round's question, read aloud on a tap (as the board reads its own)."""
    speaker_button(speakable(text, deck=deck_of()), key=key)


@class_action
def _on_sweep(profile_id: int, round_id: int, code: str) -> None:
    pupil = PupilLive(storage(), profile_id)
    live = pupil.current()
    if live is None or live.id != round_id:
        raise ClassroomError("live.gone")
    started = st.session_state.get(KEY_LIVE_SHOWN, (round_id, time.monotonic()))
    seconds = time.monotonic() - started[1] if started[0] == round_id else 0.0
    pupil.answer_sweep(live, Card.parse(code), round(seconds, 2), today())


#: A card of a sweep round's table and hand on the tablet: small enough that on a phone
#: (390 px wide) the table and the hand share one row and the answer buttons show under
#: them without scrolling.
SWEEP_CARD_WIDTH = 60


def _sweep_board(live: LiveRound) -> None:
    """The table and the hand side by side (the hand wraps under a long table)."""
    deck, values = deck_of(), bool(settings().get("show_values", True))

    def group(key: str, cards: tuple[Card, ...]) -> str:
        return ("<div><div style='font-size:0.9rem;opacity:0.7;margin-bottom:2px'>"
                f"{html.escape(ct_text(key))}</div>"
                + cards_row_html(cards, deck, values, width=SWEEP_CARD_WIDTH, names=False,
                                 gap=4) + "</div>")

    st.html("<div style='display:flex;flex-wrap:wrap;gap:4px 20px;align-items:flex-start' "
            "data-testid='mc-live-sweep-board'>"
            + group("live.table", live.puzzle.table) + group("live.hand", live.puzzle.hand)
            + "</div>")


def _live_sweep(profile: Profile, live: LiveRound, pupil: PupilLive) -> None:
    """Where is the sweep risk? The table and the hand, and the hand cards as big
    buttons: the pupil taps the one they would not lay down."""
    deck, values = deck_of(), bool(settings().get("show_values", True))
    question = ct_text("live.q_sweep")
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"**{md_escape(question)}**")
        _say(question, "mc_live_say")
    _sweep_board(live)
    mine = pupil.mine(live)
    if mine is not None or live.state != "open":
        if mine is not None and mine.answer:
            code = str(mine.answer[0].get("card", "")) if isinstance(mine.answer[0], dict) \
                else ""
            if code:
                st.markdown(ct("mc.live_sent", what=pick_label(code, deck, values,
                                                                current_language())))
        _live_waiting(live)
        return
    if st.session_state.get(KEY_LIVE_SHOWN, (None,))[0] != live.id:
        st.session_state[KEY_LIVE_SHOWN] = (live.id, time.monotonic())
    # A big button for each hand card, named as the card is everywhere in the app.
    with st.container(horizontal=True, key="mc_live_hand"):
        for card in live.puzzle.hand:
            st.button(pick_label(str(card), deck, values, current_language()),
                      key=f"mc_live_pick_{card}", on_click=_on_sweep, icon="✋",
                      args=(profile.id, live.id, str(card)))


@class_action
def _on_quick(profile_id: int, round_id: int, value: int) -> None:
    kept = st.session_state.get(KEY_LIVE_QUICK)
    if kept is None or kept[0] != round_id:
        return
    rnd: QuickRound = kept[1]
    answered = rnd.answer(value)
    if answered is None:
        return
    kept[2].append(value)
    kept[3].append(answered[2])
    if rnd.done:
        pupil = PupilLive(storage(), profile_id)
        live = pupil.current()
        if live is None or live.id != round_id:
            raise ClassroomError("live.gone")
        pupil.answer_quick(live, kept[2], kept[3], today())


def _live_quick(profile: Profile, live: LiveRound, pupil: PupilLive) -> None:
    """A quick round: the facts one at a time on the number buttons, as an assignment's;
    the answers go in together once the last is tapped."""
    kept = st.session_state.get(KEY_LIVE_QUICK)
    if kept is None or kept[0] != live.id:
        kept = (live.id, QuickRound("live", live.puzzle.capture_sum, list(live.questions)),
                [], [])
        st.session_state[KEY_LIVE_QUICK] = kept
    rnd: QuickRound = kept[1]
    mine = pupil.mine(live)
    if rnd.feedback is not None:
        said = rnd.feedback
        (st.success if said.kind == "success" else st.error)(t(said.key, **said.params))
    puzzle = rnd.shown()
    if mine is not None or live.state != "open" or puzzle is None:
        if mine is not None:
            st.markdown(f"### {t('qf_round_done', right=mine.found, total=len(live.questions))}")
        _live_waiting(live)
        return
    st.caption(t("qf_progress", n=rnd.index + 1, total=len(rnd.puzzles)))
    question = quick_question(puzzle)
    st.html(cards_row_html(puzzle.table, deck_of(), bool(settings().get("show_values", True)),
                           width=72, names=False)
            + "<div style='font-size:3rem;font-weight:700;margin:8px 0' "
              f"data-testid='mc-live-question'>{html.escape(question)}</div>")
    _say(question, f"mc_live_say_{rnd.index}")
    number_pad("mc_live_numbers", "mc_live_n", rnd.index, _on_quick, profile.id, live.id)


def _live_round(profile: Profile, live: LiveRound, pupil: PupilLive) -> None:
    """The class round, first, whatever its kind (see :mod:`trainer.live`)."""
    with st.container(border=True, key="mc_live"):
        # One bold line, not a heading: on a phone the board must start high on the screen.
        # A quick round's projector shows its questions, the others' the same cards.
        title = "mc.live_title_quick" if live.kind == "quick" else "mc.live_title"
        st.markdown(f"📽️ **{ct(title)}**")
        if live.kind == "sweep":
            _live_sweep(profile, live, pupil)
        elif live.kind == "quick":
            _live_quick(profile, live, pupil)
        else:
            _live_board(profile, live, pupil)


def _everything_else() -> None:
    st.markdown(f"**{ct('mc.everything')}**")
    with st.container(horizontal=True):
        for page, key, icon in (("lessons", "nav_lessons", "🎓"), ("play", "nav_play", "🃏"),
                                ("puzzles", "nav_puzzles", "🧩"), ("daily", "nav_daily", "📅"),
                                ("quick_facts", "nav_quick_facts", "⚡"),
                                ("progress", "nav_progress", "📈")):
            st.page_link(f"app_pages/{page}.py", label=t(key), icon=icon)


def _signed_in(profile: Profile) -> None:
    st.success(ct("mc.welcome", name=f"{profile.avatar} {profile.nickname}"), icon="👋")
    st.button(ct("mc.switch"), key="mc_switch", on_click=_on_switch, icon="🔁")
    live = PupilLive(storage(), profile.id).current()
    if live is not None:  # the class plays together: the round only, until it closes
        _live_watch(profile)
        return
    voting = show_class_vote(profile)  # the class against the computer (issue 29): first
    _idle_watch(profile.id)  # after it: the game it drew is the one the timer compares
    if voting:
        return
    tasks = pupil_tasks(storage(), profile.id, today())
    chosen = st.session_state.get(KEY_TASK)
    task = next((x for x in tasks if x.assignment.id == chosen), None)
    if task is not None:
        _run_task(profile, task)
        return
    st.subheader(ct("mc.tasks"), anchor=False)
    if not tasks:
        st.info(ct("mc.no_tasks"), icon="🌈")
    for item in tasks:
        _task_card(profile, item)
    _everything_else()


def show_my_class() -> None:
    """The whole "My class" page (see the module doc)."""
    st.title(ct("page.my_class_title"))
    show_class_flash()
    profile = current_profile()
    member = storage().membership(profile.id) if profile is not None else None
    card: ClassCard | None = st.session_state.get(KEY_CARD)
    if member is not None and profile is not None:
        if card is None:
            info = storage().get_class(member.class_id)
            if info is not None and not info.archived:  # "Switch" shows their class
                st.session_state[KEY_CARD] = ClassCard(info.id, info.name, info.code)
        _signed_in(profile)
        return
    if card is None:
        st.caption(ct("mc.intro"))
        _code_form()
        return
    with st.container(horizontal=True, vertical_alignment="center"):
        st.markdown(f"### {md_escape(card.name)}")
        st.button(ct("mc.other_class"), key="mc_other_class", on_click=_on_other_class)
    picked = st.session_state.get(KEY_PICKED)
    if picked is not None:
        _pin_pad(card, int(picked))
    else:
        _pictures(card)

