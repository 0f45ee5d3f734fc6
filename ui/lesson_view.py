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

import html
from collections.abc import Sequence
from typing import Any

import streamlit as st

from escoba import Card, Deck, Rules
from lessons import GLOSSARIES, Stage, glossary_of, load_stages
from trainer import hints as hint_mod
from trainer.board_view import BoardRefusal, lesson_board, read_action
from trainer.cards import cards_row_html, pick_label
from trainer.i18n import join_text, t
from trainer.lessons import (
    LessonRunner,
    LessonView,
    Message,
    Outcome,
    StageSummary,
    WonPile,
    opening_level,
    say,
    stage_summaries,
)
from trainer.lessons import next_lesson as first_not_done
from trainer.speech import speakable, spoken_message
from trainer.text import md_escape
from trainer.words import hint_line_text

from . import celebrate
from .board import deck_of
from .board_component import board_loaded, fallback_choosers, show_board_component
from .celebrate import counters
from .errors import safe_callback
from .i18n import current_language
from .score import score_frame, show_round_score
from .session import settings, storage
from .speaker import lesson_speech, said_speaker, speaker_button

__all__ = ["show_lessons", "runner_of", "open_stage", "current_stage_title", "KEY_RUNNER",
           "variant_heading"]

KEY_RUNNER = "lesson_runner"
#: What the last action did, worded again on every run (the language may change):
#: (kind, message) pairs, newest last.
KEY_SAID = "lesson_said"
KEY_MAP = "lesson_map"


def _lt(key: str, **params: Any) -> str:
    return t(key, domain="lessons", **params)


def _rules() -> Rules | None:
    """The rules of the level on screen (None on the map): a Scopa level is drawn in
    Scopa's deck, as Play draws a Scopa game."""
    runner = st.session_state.get(KEY_RUNNER)
    return runner.level.rules if runner is not None else None


def _deck() -> Deck:
    """The deck the level on screen is drawn and named in: Play's choice for its rules
    (``ui.session.deck_of``: the Italian deck for a Scopa level)."""
    return deck_of(_rules())


def _say(message: Message | None) -> str:
    return say(message, current_language(), _deck()) if message is not None else ""


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
        # The lesson's last level does not promise a next one (its completion card comes).
        runner = st.session_state.get(KEY_RUNNER)
        view = runner.view() if runner is not None else None
        last = view is not None and view.level_index >= view.level_count
        lines.append(("stars", Message("ui.last_level_done" if last else "ui.level_done",
                                       {"stars": outcome.result.stars})))
    lines.append(("success" if outcome.ok else ("info" if not outcome.counted else "error"),
                  celebrate.praise_message(outcome, _rules())))
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
def _on_ask_hint(profile: Any) -> None:
    runner_of(profile).ask_hint()


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


#: Each state of a stage on the map: its icon (a picture as well as the colour and the word).
STATE_ICONS = {"done": "✅", "next": "👉", "started": "🟡", "new": "⚪"}
_MAP_STYLE = """<style>
/* The map is one path, stage 1 at the top: the same order at every width. */
[class*="st-key-lesson_stage_"] { border-left: 8px solid #9aa0a6 !important;
  border-radius: 12px; padding: 0.35rem 0.6rem !important; gap: 0.2rem; }
[class*="st-key-lesson_stage_done_"] { border-left-color: #2e7d32 !important;
  background: rgba(46, 125, 50, 0.10); }
[class*="st-key-lesson_stage_next_"] { border-left-color: #f2a900 !important;
  background: rgba(242, 169, 0, 0.16); box-shadow: 0 0 0 2px #f2a900; }
[class*="st-key-lesson_stage_started_"] { border-left-color: #f2c14e !important; }
.lesson-picture { font-size: 2.2rem; line-height: 1; }
.lesson-stars { font-size: 1.35rem; letter-spacing: 0.05em; white-space: nowrap; }
.lesson-step { text-align: center; color: #9aa0a6; line-height: 0.6; font-size: 1.1rem; }
</style>"""


def stage_stars(summary: StageSummary) -> int:
    """The stage's stars out of three, as a level's: the share of its best stars."""
    return (3 * summary.stars) // summary.max_stars if summary.max_stars else 0


def map_state(summary: StageSummary, is_next: bool) -> str:
    """``done``, ``next`` (where "Next lesson" leads), ``started`` or ``new``."""
    if summary.state == "done":
        return "done"
    return "next" if is_next else summary.state


#: The map's heading above the stages of another game than Escoba (by their rules'
#: variant): in Italian, Escoba's own stages say "scopa" (the sweep), so "Scopa: …" in a
#: title alone does not read as a different game.
VARIANT_HEADINGS: dict[str, str] = {"scopa": "ui.map_variant_scopa"}


def variant_heading(stages: Sequence[Stage], index: int) -> str | None:
    """The catalog key of the heading the map shows before ``stages[index]``: where the
    stages of a game with a heading (:data:`VARIANT_HEADINGS`) begin, else None."""
    variant = stages[index].rules.variant
    before = stages[index - 1].rules.variant if index > 0 else None
    return VARIANT_HEADINGS.get(variant) if variant != before else None


def way_on_label(results: Any) -> str:
    """The lessons' way on, for a child with these results: "New to Escoba? Start here!"
    before any level, then "Next lesson: <its title>" (the map's button, and the link on
    "Who's playing?", which said "New to Escoba?" to a child two lessons in)."""
    upcoming = first_not_done(results)
    if not results or upcoming is None:
        return _lt("ui.start_here")
    return _lt("ui.next_lesson",
               title=_lt(next(s.title for s in load_stages() if s.key == upcoming[0])))


def show_map(profile: Any) -> None:
    """The path of stages, in order from the top at every width: each with its picture,
    its title, whether it is done, next or not started (colour, icon and word) and its
    stars as stars; all open (suggested, never locked). The button on top leads to the
    first level not done."""
    results = storage().lesson_results(profile.id)
    summaries = stage_summaries(results)
    stages = load_stages()
    upcoming = first_not_done(results)
    order = [s.key for s in stages]
    played = next((s.key for s in stages if s.levels[-1].is_game
                   and summaries[s.key].state == "done"), None)
    if played is not None and (upcoming is None or order.index(upcoming[0]) > order.index(played)):
        # The first real game is done: the path goes on to real games (the stages after
        # it are still open below).
        st.markdown(f"**{_lt('ui.now_play')}**")
        with st.container(horizontal=True, key="lesson_then_play_map"):
            st.page_link("app_pages/play.py", label=t("go_play"), icon="🃏")
            st.page_link("app_pages/tables.py", label=t("nav_tables"), icon="🤝")
        said = f"{_lt('ui.now_play')} {t('go_play')}"
    elif upcoming is not None:
        label = way_on_label(results)
        st.button(label, key="lesson_next", type="primary", use_container_width=True,
                  on_click=_on_start, args=(profile, *upcoming), icon="👉")
        said = label
    else:
        said = ""
    # The path's way on, heard (found trying the lessons as a 7-year-old: the map had
    # no 🔊 anywhere).
    speaker_button(speakable(said, deck=_deck()), key="lesson_map_speaker")
    st.html(_MAP_STYLE)
    for number, stage in enumerate(stages, 1):
        summary = summaries[stage.key]
        state = map_state(summary, upcoming is not None and upcoming[0] == stage.key)
        heading = variant_heading(stages, number - 1)
        if heading is not None:  # another game's stages begin: said before the first
            st.markdown(f"#### {md_escape(_lt(heading))}")
        elif number > 1:
            st.html('<div class="lesson-step" aria-hidden="true">⋮</div>')
        with st.container(border=True, key=f"lesson_stage_{state}_{stage.key}",
                          horizontal=True, vertical_alignment="center"):
            st.html(f'<div class="lesson-picture" aria-hidden="true">{stage.picture}</div>',
                    width="content")
            with st.container(key=f"lesson_words_{stage.key}"):
                st.markdown(f"**{number}. {md_escape(_lt(stage.title))}**")
                progress = _lt("ui.stage_progress", done=summary.done, total=summary.total)
                st.markdown(f"{STATE_ICONS[state]} {_lt('ui.state_' + state)} · {progress}")
            label = _lt("ui.stars_of", n=summary.stars, max=summary.max_stars)
            st.html(f'<div class="lesson-stars" role="img" aria-label="{html.escape(label)}"'
                    f' title="{html.escape(label)}">{_stars(stage_stars(summary))}</div>',
                    width="content")
            # A half-done stage goes on at its first level not done (not level 1 again).
            st.button(_lt("ui.open_stage" if summary.done else "ui.start_stage"),
                      key=f"lesson_open_{stage.key}", on_click=_on_start,
                      args=(profile, stage.key, opening_level(stage, results)),
                      type="primary" if state == "next" else "secondary")


def _show_said() -> None:
    """What the last action did: one line (a level's stars with its praise, or why not)."""
    said = st.session_state.get(KEY_SAID, [])
    stars = next((m for kind, m in said if kind == "stars"), None)
    for kind, message in said:
        text = _say(message)
        if kind == "stars":
            praise = next((_say(m) for k, m in said if k == "success"), "")
            st.success(f"{_stars(int(message.params.get('stars', 0)))} "
                       f"{_lt(message.key)} {praise}".strip(), icon="🎉")
        elif kind == "success":
            if stars is None:
                st.success(text, icon="✅")
        elif kind == "error":
            st.error(text, icon="🤔")
        else:
            st.info(text, icon="💬")
    said_speaker(said, key="lesson_said_speaker", deck=_deck())  # heard on a tap (issue 23)


def _board_data(view: LessonView, profile: Any) -> dict[str, Any] | None:
    deck = _deck()
    data = lesson_board(view, child=f"{profile.avatar} {profile.nickname}",
                        computer=f"🤖 {t('bot_name', n=1)}", deck=deck,
                        show_value=bool(settings().get("show_values", True)),
                        hand_title=t("your_hand", name=profile.nickname))
    if data is not None:
        data["intro"] = _say(view.goal)  # the goal, right above the cards
        lesson_speech(data, view, st.session_state.get(KEY_SAID), deck)  # heard too (issue 23)
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
            # Heard too (found trying the lessons as a 7-year-old: no 🔊 here).
            speaker_button(spoken_message(view.stage_intro, current_language(), _deck()),
                           key="lesson_intro_speaker")
    # Always there (empty or not): the board below keeps its place in the page, so it
    # is not mounted anew, and the child's picked cards stay, when a message goes.
    # A number to answer: what the try said goes right above the numbers (on a phone the
    # top of the page is far from them); everything else, above the board.
    answering = view.action == "answer" and view.status == "playing"
    with st.container(key="lesson_messages"):
        if not answering and held is None:  # a level being played out says it on the board
            _show_said()
    # A question about a finished round has no board: the goal in large type, then what
    # it asks about.
    data = _board_data(view, profile) if view.has_board else None
    if data is not None and held is not None:
        data = celebrate.board_data(data, held, _say)
    if not view.has_board:  # keyed: the screen check counts it as words to read
        with st.container(key="lesson_goal"):
            st.markdown(f"### {md_escape(_say(view.goal))}")
    if data is not None:
        show_board_component(data, key="lesson_board",
                             on_action=lambda raw: _on_board(profile, raw))
        if data["interactive"] and not board_loaded():
            fallback_choosers(lambda: _fallback(profile, view))
    # A question comparing both sides' piles (a category's points) says both counts in
    # its goal: the answers come first, the piles under them to check (on a phone two
    # piles would push the answers out of view); so does a round's score table.
    # Counting one pile: the pile first, its counted groups open.
    piles_to_check = len(view.piles_shown) > 1
    if view.piles_shown and not piles_to_check:
        _show_piles(view)
    if view.game is not None:
        _game_help(profile, view)
    if view.status == "consequence":
        if view.consequence is not None:
            st.warning(_say(view.consequence), icon="👀")
        st.button(_lt("ui.try_again"), key="lesson_retry", type="primary",
                  on_click=_on_retry, args=(profile,), use_container_width=True)
    elif view.status == "round_over":
        game = view.game
        if game is not None:  # the round's score table, as Play shows it
            show_round_score(game.game.rounds[-1].score(), _side_names(game),
                             len(game.game.rounds))
        st.button(_lt("ui.next_round"), key="lesson_next_round", type="primary",
                  on_click=_on_next_round, args=(profile,), use_container_width=True)
    elif view.status == "playing" and view.action == "answer" and view.choices:
        with st.container(key="lesson_answer_messages"):
            _show_said()
        st.markdown(f"#### {_lt('ui.your_answer')}")  # the answers' heading
        with st.container(horizontal=True, key="lesson_answers"):
            for number in view.choices:
                st.button(str(number), key=f"lesson_answer_{number}",
                          on_click=_on_answer, args=(profile, number))
    if piles_to_check:
        _show_piles(view)
    if view.score is not None:  # a round's points: the table to read, under the answers
        st.markdown(f"**{_lt('ui.score_table')}**")
        st.table(score_frame(view.score, [profile.nickname, t("bot_name", n=1)]))
    if view.words:  # below what the child acts on: on a phone the board stays in view
        _show_new_words(view.words)
    if held is not None:
        return
    with st.container(horizontal=True, key="lesson_tools"):
        st.button(_lt("ui.restart"), key="lesson_restart", on_click=_on_restart,
                  args=(profile,))
        st.button(_lt("ui.map"), key="lesson_map_button", on_click=_on_map)
        _level_picker(profile, view)
        _glossary()


def _level_picker(profile: Any, view: LessonView) -> None:
    """Every level of the stage, one tap away (✅ done): Open goes on at the first level
    not done, so a done level is played again from here."""
    stage = runner_of(profile).stage
    results = storage().lesson_results(profile.id)
    with st.popover(_lt("ui.levels"), icon="🔢", key="lesson_levels"):
        for level in stage.levels:
            done = " ✅" if (stage.key, level.key) in results else ""
            st.button(f"{_lt('ui.level_n', n=level.index, count=len(stage.levels))}{done}",
                      key=f"lesson_pick_{level.key}", on_click=_on_start,
                      args=(profile, stage.key, level.key),
                      type="primary" if level.index == view.level_index else "secondary",
                      use_container_width=True)


#: Each word of the game's picture: an emoji, and a card that shows it (None: no card),
#: drawn in the deck of the stage on screen (Scopa's words in Scopa's deck).
WORD_PICTURES: dict[str, tuple[str, str | None]] = {
    "sota": ("🧒", "8c"), "caballo": ("🐴", "9c"), "rey": ("👑", "10c"), "as": ("1️⃣", "1c"),
    "oros": ("🪙", "1o"), "copas": ("🏆", "1c"), "espadas": ("⚔️", "1e"),
    "bastos": ("🪵", "1b"), "siete": ("7️⃣", "7o"), "escoba": ("🧹", None),
    "setenta": ("🏅", None), "renuncio": ("✋", None),
    "scopa": ("🧹", None), "denari": ("🪙", "1o"), "coppe": ("🏆", "1c"),
    "spade": ("⚔️", "1e"), "bastoni": ("🪵", "1b"), "fante": ("🧒", "8c"),
    "cavallo": ("🐴", "9c"), "re": ("👑", "10c"),
}


def _word_html(word: str, width: int) -> str:
    emoji, card = WORD_PICTURES[word]
    picture = cards_row_html([Card.parse(card)], _deck(), True, width=width, names=False) \
        if card is not None else ""
    text = html.escape(_lt(f"word.{word}"))
    return (f'<div style="display:flex;align-items:center;gap:10px;margin:4px 0" '
            f'data-word="{word}"><span style="font-size:2rem" aria-hidden="true">{emoji}</span>'
            f'{picture}<span style="font-size:1.1rem">{text}</span></div>')


def _show_new_words(words: tuple[str, ...]) -> None:
    """The game's words this level uses first: each explained with its picture."""
    heading = _lt("ui.new_words", count=len(words))
    with st.container(border=True, key="lesson_new_words"):
        st.markdown(f"**📖 {heading}**")
        st.html("".join(_word_html(w, 40) for w in words))
        # Heard too: a child who reads slowly meets the game's words here first.
        said = ". ".join([heading, *(_lt(f"word.{w}") for w in words)])
        speaker_button(speakable(said, deck=_deck()), key="lesson_new_words_speaker")


def _glossary() -> None:
    """The words of the game the stage on screen plays, one tap away on every level: in
    a Scopa stage only Scopa's Italian words, in an Escoba stage only Escoba's."""
    rules = _rules()
    words = glossary_of(rules) if rules is not None else GLOSSARIES["escoba"]
    with st.popover(_lt("ui.glossary"), icon="📖", key="lesson_glossary"):
        st.html("".join(_word_html(w, 32) for w in words))


def _pile_html(pile: WonPile, lit: tuple[Card, ...]) -> str:
    """The pile's groups the question counts, open; the others folded under one line
    (a native disclosure: on a phone the answers below stay in view)."""
    deck, values = _deck(), bool(settings().get("show_values", True))
    shown: list[str] = []
    folded: list[str] = []
    hidden_cards = 0
    for group, cards in (("oros", pile.oros), ("sevens", pile.sevens),
                         ("others", pile.others)):
        if cards:
            title = html.escape(_lt("ui.group_" + group))
            part = (f'<div class="lesson-pile-title" style="margin-top:4px"><b>{title}</b></div>'
                    + cards_row_html(cards, deck, values, width=44, names=False, gap=3,
                                     lit=lit))
            if pile.is_counted(group):
                shown.append(part)
            else:
                folded.append(part)
                hidden_cards += len(cards)
    if pile.escobas:
        label = html.escape(_lt("ui.escoba_marks", count=pile.escobas))
        title = html.escape(_lt("ui.group_escobas"))
        part = (f'<div style="margin-top:6px" data-escobas="{pile.escobas}">'
                f'<b class="lesson-pile-title">{title}</b> <span role="img" '
                f'aria-label="{label}" style="font-size:1.6rem">'
                f'{"🧹" * pile.escobas}</span></div>')
        (shown if pile.is_counted("escobas") else folded).append(part)
    if folded:
        summary = html.escape(_lt("ui.pile_folded", count=hidden_cards)) if hidden_cards \
            else html.escape(_lt("ui.group_escobas"))
        shown.append('<details class="lesson-pile-folded"><summary style="min-height:44px;'
                     f'line-height:44px;cursor:pointer">{summary}</summary>'
                     + "".join(folded) + "</details>")
    return "".join(shown)


def _show_piles(view: LessonView) -> None:
    """The won cards the question counts, opened and grouped (the child's first; the
    computer's beside it when the question compares the two)."""
    columns = st.columns(len(view.piles_shown))
    for column, pile in zip(columns, view.piles_shown, strict=True):
        with column.container(border=True, key=f"lesson_pile_{pile.seat}"):
            title = _lt('ui.won_mine' if pile.seat == view.seat else 'ui.won_theirs')
            st.html(f'<b class="lesson-pile-title">{html.escape(title)}</b>')
            st.html(_pile_html(pile, view.glow))


def _side_names(game: Any) -> list[str]:
    return [game.side_name(s) for s in range(game.rules.sides)]


def _game_help(profile: Any, view: LessonView) -> None:
    """A whole game's coach, fading: its move lit first (on the board), then a nudge in
    words, then nothing unless the child asks."""
    if view.status != "playing" or not view.your_turn or view.observation is None:
        return
    if view.game_hint_step == 1:
        hint = hint_mod.game_hint(view.observation, 1)
        words = join_text(hint_line_text(line, _deck()) for line in hint.lines
                          if line.kind == "best")
        if words:
            st.info(words, icon="💡")
    elif view.game_hint_step == 0 and view.hints != "none":
        st.button(_lt("ui.ask_hint"), key="lesson_ask_hint", icon="💡",
                  on_click=_on_ask_hint, args=(profile,))


def _show_game_result(view: LessonView) -> None:
    """The first game's end, as a real game's: who won, both totals, each round's table;
    it is kept in My games."""
    game = view.game
    if game is None or not game.is_over:
        return
    names = _side_names(game)
    winner = game.game.winner
    totals = game.game.totals
    with st.container(border=True, key="lesson_game_result"):
        if winner is None:
            st.info(t("game_stopped"))
        elif winner == game.rules.side_of(view.seat):
            st.success(t("you_won"), icon="🏆")
        else:
            st.warning(_lt("ui.game_lost", name=names[winner]), icon="🤖")
        line = " · ".join(f"{md_escape(names[s])}: {totals[s]}" for s in range(len(names)))
        st.markdown(f"**{t('final_totals')}** {line}")
        for number, round_ in enumerate(game.game.rounds, 1):
            show_round_score(round_.score(), names, number)
        if game.game_id is not None:
            st.caption(_lt("ui.game_saved"))


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
    st.session_state["lesson_table"] = []  # a refused try keeps the hand card, as Play
    outcome = runner_of(profile).play(Card.parse(hand), take)
    if outcome.ok or outcome.consequence is not None or outcome.events:
        st.session_state["lesson_hand"] = None
    _after(outcome)


@safe_callback
def _on_fallback_renuncio(profile: Any) -> None:
    _after(runner_of(profile).claim_renuncio())


def _fallback(profile: Any, view: LessonView) -> None:
    """Text choosers for a browser where the board cannot load (and AppTest)."""
    deck, values, lang = _deck(), bool(settings().get("show_values", True)), \
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
        # Heard on a tap, as every line of a lesson (found trying it as a child who reads
        # slowly: the trophy card was the one screen of a lesson without a 🔊).
        speaker_button(speakable(f"{_lt('ui.stage_done')}. {head}. "
                                 f"{_lt('ui.stars_n', n=total, count=total)}.", deck=_deck()),
                       key="lesson_done_speaker")
    _show_game_result(view)
    if view.then == "play":
        # After the first real game the path goes to real games, not to the next stage.
        st.markdown(f"**{_lt('ui.now_play')}**")
        with st.container(horizontal=True, key="lesson_then_play"):
            st.page_link("app_pages/play.py", label=t("go_play"), icon="🃏")
            st.page_link("app_pages/tables.py", label=t("nav_tables"), icon="🤝")
    elif view.next_stage is not None:
        title = next(s.title for s in load_stages() if s.key == view.next_stage)
        st.button(_lt("ui.next_lesson", title=_lt(title)), key="lesson_advance",
                  type="primary", on_click=_on_advance, args=(profile,),
                  use_container_width=True)
    st.button(_lt("ui.map"), key="lesson_map_button", on_click=_on_map)


def _level_on_screen() -> tuple[LessonView, bool] | None:
    """The level the page shows and whether it is a finished one being played out;
    None on the map or a stage's completion card."""
    runner = st.session_state.get(KEY_RUNNER)
    if runner is None or st.session_state.get(KEY_MAP, True):
        return None
    held = celebrate.current()
    view = held.view if held is not None else runner.view()
    if view is None or view.status == "stage_done":
        return None
    return view, held is not None or view.status == "level_done"


def open_level() -> tuple[str, int] | None:
    """The stage and 1-based level a refresh of the page should open: the level on
    screen, or the next one while a finished level is played out; None on the map or a
    stage's completion card."""
    shown = _level_on_screen()
    if shown is None:
        return None
    view, done = shown
    return view.stage, min(view.level_index + done, view.level_count)


def current_stage_title() -> str | None:
    """The open level's stage title (None on the map or a completion card)."""
    shown = _level_on_screen()
    if shown is None:
        return None
    title = shown[0].stage_title
    return _lt(title.key, **dict(title.params))


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
