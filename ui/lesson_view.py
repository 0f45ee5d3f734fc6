"""Lessons on screen: the map of stages and one level played on the tappable board.

The lesson itself is a :class:`trainer.lessons.LessonRunner` kept in session state
(one per profile); it judges every action through the engine, keeps the stars in
the database the moment a level is done, and goes on to the next level by itself.
This module only draws it: the goal right above the cards, the board
(:mod:`ui.board_component`, the same as Play's and the puzzles'), what the child's
try did and why, "Try again" after the computer showed the consequence, the
numbers to answer with, the completion card with its stars, and the map.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from escoba import Card
from lessons import load_stages
from trainer.board_view import BoardRefusal, lesson_board, read_action
from trainer.cards import pick_label
from trainer.i18n import t
from trainer.lessons import LessonRunner, LessonView, Message, Outcome, say, stage_summaries
from trainer.lessons import next_lesson as first_not_done

from . import celebrate
from .board import deck_of
from .board_component import board_loaded, show_board_component
from .celebrate import counters
from .errors import safe_callback
from .i18n import current_language
from .session import settings, storage

__all__ = ["show_lessons", "runner_of", "open_stage", "current_stage_title", "KEY_RUNNER"]

KEY_RUNNER = "lesson_runner"
#: What the last action did, worded again on every run (the language may change):
#: (kind, message) pairs, newest last.
KEY_SAID = "lesson_said"
KEY_MAP = "lesson_map"


def _lt(key: str, **params: Any) -> str:
    return t(key, domain="lessons", **params)


def _say(message: Message | None) -> str:
    return say(message, current_language(), deck_of()) if message is not None else ""


def runner_of(profile: Any) -> LessonRunner:
    """This profile's lesson runner in this session (a new one for another profile)."""
    runner = st.session_state.get(KEY_RUNNER)
    if runner is None or getattr(runner, "profile_id", None) != profile.id:
        # A finished level waits (level_done) so that it can be played out first
        # (ui.celebrate moves the runner on as soon as it has kept the finished board).
        runner = LessonRunner(storage=storage(), profile_id=profile.id,
                              player_name=profile.nickname, auto_advance=False)
        st.session_state[KEY_RUNNER] = runner
        st.session_state[KEY_MAP] = True
    return runner


def _said(*lines: tuple[str, Message | None]) -> None:
    st.session_state[KEY_SAID] = [(kind, m) for kind, m in lines if m is not None]


def _after(outcome: Outcome) -> None:
    """Keep what the action said: praise, why not, the coach, a level's stars."""
    lines: list[tuple[str, Message | None]] = []
    if outcome.result is not None:
        lines.append(("stars", Message("ui.level_done", {"stars": outcome.result.stars})))
    lines.append(("success" if outcome.ok else ("info" if not outcome.counted else "error"),
                  celebrate.praise_message(outcome)))
    lines.append(("info", outcome.comment))
    _said(*lines)
    celebrate.after_action(st.session_state.get(KEY_RUNNER), outcome, board_loaded())


# -- actions (callbacks) -----------------------------------------------------------------

def _on_board(profile: Any, raw: Any) -> None:
    if celebrate.handle(raw):  # "on to the next level" after one was played out
        _said()
        return
    runner = runner_of(profile)
    view = runner.view()
    action = read_action(raw, view.position, kinds=("play", "renuncio", "tap"))
    if isinstance(action, BoardRefusal):
        if not action.stale:
            _said(("error", Message(action.key, {}, "messages")))
        return
    if action.kind == "tap":
        assert action.card is not None
        _after(runner.tap(action.card))
    elif action.kind == "renuncio":
        _after(runner.claim_renuncio())
    else:
        assert action.card is not None
        _after(runner.play(action.card, action.take))


@safe_callback
def _on_answer(profile: Any, number: int) -> None:
    _after(runner_of(profile).answer(number))


@safe_callback
def _on_retry(profile: Any) -> None:
    runner_of(profile).retry()
    _said()


@safe_callback
def _on_restart(profile: Any) -> None:
    runner_of(profile).restart()
    _said()


@safe_callback
def _on_next_round(profile: Any) -> None:
    runner_of(profile).next_round()
    _said()


@safe_callback
def _on_advance(profile: Any) -> None:
    runner_of(profile).advance()
    _said()


def open_stage(profile: Any, stage: str, level: str | None = None) -> None:
    """Start ``stage`` (at ``level``, else where the runner starts it) so that the Lessons
    page opens on it: the map's buttons, and a pupil's lesson assignment (My class)."""
    runner_of(profile).start(stage, level)
    st.session_state[KEY_MAP] = False
    st.session_state.pop(celebrate.KEY_CELEBRATION, None)
    _said()


@safe_callback
def _on_start(profile: Any, stage: str, level: str | None = None) -> None:
    open_stage(profile, stage, level)


@safe_callback
def _on_map() -> None:
    st.session_state[KEY_MAP] = True
    st.session_state.pop(celebrate.KEY_CELEBRATION, None)
    _said()


# -- drawing -----------------------------------------------------------------------------

def _stars(n: int, of: int = 3) -> str:
    return "⭐" * n + "☆" * max(0, of - n)


def show_map(profile: Any) -> None:
    """Every stage: its title, how far the child got, its stars; all open (suggested,
    never locked). "New to Escoba? Start here" leads to the first level not done."""
    results = storage().lesson_results(profile.id)
    summaries = stage_summaries(results)
    stages = load_stages()
    upcoming = first_not_done(results)
    if upcoming is not None:
        title = _lt(next(s.title for s in stages if s.key == upcoming[0]))
        label = _lt("ui.start_here") if not results else _lt("ui.next_lesson", title=title)
        st.button(label, key="lesson_next", type="primary", use_container_width=True,
                  on_click=_on_start, args=(profile, *upcoming), icon="👉")
    columns = st.columns(3)
    for number, stage in enumerate(stages, 1):
        summary = summaries[stage.key]
        with columns[(number - 1) % 3].container(border=True, key=f"lesson_card_{stage.key}"):
            st.markdown(f"**{number}. {_lt(stage.title)}**")
            st.caption(f"{_lt('ui.state_' + summary.state)} · "
                       f"{_lt('ui.stage_progress', done=summary.done, total=summary.total)}")
            st.markdown(f"⭐ {summary.stars} / {summary.max_stars}")
            st.button(_lt("ui.open_stage"), key=f"lesson_open_{stage.key}",
                      on_click=_on_start, args=(profile, stage.key),
                      use_container_width=True)


def _show_said() -> None:
    """What the last action did: one line (a level's stars with its praise, or why not)."""
    said = st.session_state.get(KEY_SAID, [])
    stars = next((m for kind, m in said if kind == "stars"), None)
    for kind, message in said:
        text = _say(message)
        if kind == "stars":
            praise = next((_say(m) for k, m in said if k == "success"), "")
            st.success(f"{_stars(int(message.params.get('stars', 0)))} "
                       f"{_lt('ui.level_done')} {praise}".strip(), icon="🎉")
        elif kind == "success":
            if stars is None:
                st.success(text, icon="✅")
        elif kind == "error":
            st.error(text, icon="🤔")
        else:
            st.info(text, icon="💬")


def _board_data(view: LessonView, profile: Any) -> dict[str, Any] | None:
    deck = deck_of()
    data = lesson_board(view, child=f"{profile.avatar} {profile.nickname}",
                        computer=f"🤖 {t('bot_name', n=1)}", deck=deck,
                        show_value=bool(settings().get("show_values", True)),
                        hand_title=t("your_hand", name=profile.nickname))
    if data is not None:
        data["intro"] = _say(view.goal)  # the goal, right above the cards
    return data


def show_level(profile: Any, view: LessonView,
               held: celebrate.Celebration | None = None) -> None:
    """One level: where the child is, the goal on the board, what happened, what next."""
    level = _lt("ui.level_n", n=view.level_index, count=view.level_count)
    if view.check:
        level += f" · {_lt('ui.check')}"
    count_key = "ui.mistakes" if view.counting == "mistakes" else "ui.plays"
    # The stage's title is the page's (ui.lesson_link.lesson_title): one heading.
    # Icons with numbers (issue 23: no line of small print before the goal); the words
    # are their accessible name. The stage's intro waits behind a disclosure.
    counters(f"{level} · {_lt(count_key, plays=view.plays, target=view.target)}",
             view.level_index, view.level_count, view.plays, view.check)
    if view.level_index == 1 and view.plays == 0 and view.step_index == 1:
        with st.expander(f"🎓 {_lt('ui.about_stage')}", expanded=False):
            st.markdown(_say(view.stage_intro))  # what this stage is about
    # Always there (empty or not): the board below keeps its place in the page, so it
    # is not mounted anew, and the child's picked cards stay, when a message goes.
    with st.container(key="lesson_messages"):
        if held is None:  # a level being played out says it on the board
            _show_said()
    data = _board_data(view, profile)
    if data is not None and held is not None:
        data = celebrate.board_data(data, held, _say)
    if data is not None:
        show_board_component(data, key="lesson_board",
                             on_action=lambda raw: _on_board(profile, raw))
        if data["interactive"] and not board_loaded():
            with st.expander(t("board_fallback_title"), expanded=False):
                _fallback(profile, view)
    if view.status == "consequence":
        if view.consequence is not None:
            st.warning(_say(view.consequence), icon="👀")
        st.button(_lt("ui.try_again"), key="lesson_retry", type="primary",
                  on_click=_on_retry, args=(profile,), use_container_width=True)
    elif view.status == "round_over":
        st.button(_lt("ui.next_round"), key="lesson_next_round", type="primary",
                  on_click=_on_next_round, args=(profile,), use_container_width=True)
    elif view.status == "playing" and view.action == "answer" and view.choices:
        st.markdown(f"#### {_lt('ui.your_answer')}")  # the answers' heading
        with st.container(horizontal=True, key="lesson_answers"):
            for number in view.choices:
                st.button(str(number), key=f"lesson_answer_{number}",
                          on_click=_on_answer, args=(profile, number))
    if held is not None:
        return
    with st.container(horizontal=True, key="lesson_tools"):
        st.button(_lt("ui.restart"), key="lesson_restart", on_click=_on_restart,
                  args=(profile,))
        st.button(_lt("ui.map"), key="lesson_map_button", on_click=_on_map)


@safe_callback
def _on_fallback_tap(profile: Any) -> None:
    code = st.session_state.pop("lesson_tap", None)
    if code:
        _after(runner_of(profile).tap(Card.parse(code)))


@safe_callback
def _on_fallback_play(profile: Any) -> None:
    hand = st.session_state.get("lesson_hand")
    if not hand:
        return
    take = [Card.parse(c) for c in st.session_state.get("lesson_table") or []]
    st.session_state["lesson_hand"], st.session_state["lesson_table"] = None, []
    _after(runner_of(profile).play(Card.parse(hand), take))


@safe_callback
def _on_fallback_renuncio(profile: Any) -> None:
    _after(runner_of(profile).claim_renuncio())


def _fallback(profile: Any, view: LessonView) -> None:
    """Text choosers for a browser where the board cannot load (and AppTest)."""
    deck, values, lang = deck_of(), bool(settings().get("show_values", True)), \
        current_language()

    def label(code: str) -> str:
        return pick_label(code, deck, values, lang)

    hand, table = [str(c) for c in view.hand], [str(c) for c in view.table]
    if view.action == "tap_card":
        st.pills(t("pick_hand_label"), hand + table, selection_mode="single",
                 format_func=label, key="lesson_tap", on_change=_on_fallback_tap,
                 args=(profile,))
        return
    st.pills(t("pick_hand_label"), hand, selection_mode="single", format_func=label,
             key="lesson_hand")
    if table:
        st.pills(t("pick_table_label"), table, selection_mode="multi", format_func=label,
                 key="lesson_table")
    with st.container(horizontal=True, key="lesson_fallback_buttons"):
        st.button(t("board_play"), key="lesson_play", type="primary",
                  on_click=_on_fallback_play, args=(profile,))
        if view.renuncio_rule:
            st.button(t("renuncio_button"), key="lesson_renuncio",
                      on_click=_on_fallback_renuncio, args=(profile,))


def show_completion(profile: Any, view: LessonView) -> None:
    """The stage's completion card: each level's stars, the total, and Next."""
    head = _lt(view.stage_title.key, **dict(view.stage_title.params))
    results = view.stage_results
    total = sum(r.stars for r in results)
    with st.container(border=True, key="lesson_done_card"):
        st.subheader(f"🏆 {_lt('ui.stage_done')} — {head}", anchor=False)
        lines = [f"{_lt('ui.level_n', n=n, count=len(results))}: {_stars(r.stars)}"
                 for n, r in enumerate(results, 1)]
        st.markdown("  \n".join(lines))
        st.markdown(f"**{_lt('ui.stars_n', n=total, count=total)} / {3 * len(results)}**")
    if view.next_stage is not None:
        title = next(s.title for s in load_stages() if s.key == view.next_stage)
        st.button(_lt("ui.next_lesson", title=_lt(title)), key="lesson_advance",
                  type="primary", on_click=_on_advance, args=(profile,),
                  use_container_width=True)
    st.button(_lt("ui.map"), key="lesson_map_button", on_click=_on_map)


def current_stage_title() -> str | None:
    """The open level's stage title (None on the map or a completion card)."""
    runner = st.session_state.get(KEY_RUNNER)
    if runner is None or st.session_state.get(KEY_MAP, True):
        return None
    held = celebrate.current()
    view = held.view if held is not None else runner.view()
    if view is None or view.status == "stage_done":
        return None
    return _lt(view.stage_title.key, **dict(view.stage_title.params))


def show_lessons(profile: Any) -> None:
    """The Lessons page: the map, or the lesson in progress."""
    runner = runner_of(profile)
    if st.session_state.get(KEY_MAP, True) or runner.view() is None:
        show_map(profile)
        return
    held = celebrate.current()
    if held is not None:
        show_level(profile, held.view, held)
        return
    view = runner.view()
    if view.status == "stage_done":
        show_completion(profile, view)
    else:
        show_level(profile, view)
