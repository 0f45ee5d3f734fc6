"""The game board: the tappable card table and what goes with it on the Play page.

The board itself is a browser component (:mod:`ui.board_component`) drawn from
the data :func:`trainer.board_view.game_board` builds for one seat's
:class:`~escoba.observation.Observation`: in a normal game other hands are *counts*,
so their cards are never sent to the browser (absent, not hidden with CSS);
in open-hand mode (*mesa abierta*) the observation carries every hand and all
are drawn face up. The child taps a hand card and table cards, sees the sum
build at once, and taps Play; :func:`_on_board_action` reads what arrived
(:func:`trainer.board_view.read_action`) and the engine judges the move.

Around it: the hint panel's words, the computer's turn when the Settings
pause it, "pass the tablet" for several children on one device, and the text
choosers kept only as the fallback of a browser where the board cannot load
(:func:`ui.board_component.board_loaded`).
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable, Sequence
from typing import Any

import streamlit as st

from escoba import Card, Code, Deck, Move, Observation, Play
from trainer import hints as hint_mod
from trainer.board_view import (
    BoardAction,
    BoardRefusal,
    read_action,
    session_board,
    session_position,
)
from trainer.cards import pick_label
from trainer.evidence import TurnContext
from trainer.gameplay import GameSession
from trainer.i18n import join_text, space_after, t
from trainer.speech import speakable
from trainer.text import md_escape
from trainer.verdicts import capture_terms, move_message, sum_expression
from trainer.words import (
    card_text,
    event_line,
    hint_line_text,
    move_text,
    seat_status,
    sweep_word_key,
)
from trainer.words import coach_text as _coach_text
from trainer.words import seat_label as words_seat_label

from .board_component import (
    board_in_use,
    board_loaded,
    fallback_choosers,
    say_refusal,
    show_board_component,
)
from .errors import safe_callback
from .i18n import current_language
from .practice import today
from .session import deck_of, flash, settings
from .speaker import board_speech, speaker_button

__all__ = ["show_board", "deck_of", "seat_label", "event_text", "event_text_plain",
           "seat_status", "coach_text", "move_text", "hint_step", "hint_panel", "KEY_BOARD"]

log = logging.getLogger(__name__)

KEY_HAND = "pick_hand"
KEY_TABLE = "pick_table"
KEY_REVEAL = "revealed_seat"
#: Refused tries so far (the board clears its picked table cards when this changes).
KEY_REFUSALS = "board_refusals"
#: The board component's key (its state: ``ready`` and the last ``action``).
KEY_BOARD = "game_board"


def coach_text(key: str, params: dict[str, Any], voice: str = "child") -> str:
    """:func:`trainer.words.coach_text` in the deck this child chose (``voice="class"``:
    said to the whole class, on the teacher's screen)."""
    return _coach_text(key, params, deck_of(), voice)


def seat_label(game: GameSession, seat: int) -> str:
    return words_seat_label(game.seats[seat], seat)


def event_text(game: GameSession, event: Play, deck: Deck) -> str:
    """One line a child can follow: who did what, and what was captured."""
    return event_line(seat_label(game, event.seat), event, deck, game.rules.variant)


def event_text_plain(event: Play, names: list[str], deck: Deck,
                     variant: str = "escoba") -> str:
    """:func:`event_text` for a replayed record (names and game from the record)."""
    who = names[event.seat] if event.seat < len(names) else t("player_n", n=event.seat + 1)
    return event_line(who, event, deck, variant)


_BOX = ('<div style="border:1px solid rgba(128,128,128,0.35);border-radius:12px;'
        'padding:6px 12px;margin:2px 0;box-sizing:border-box">')


#: Session-state key of the hint panel's step: (position, step), reset on every new position.
KEY_HINT_STEP = "hint_step"


def _position(game: GameSession) -> tuple[int | None, int, int]:
    round_ = game.game.round
    return game.game_id, len(game.game.rounds), len(round_.history) if round_ else 0


def hint_step(game: GameSession) -> int:
    """The hint's step for the position on the board (a new position starts at 1)."""
    saved = st.session_state.get(KEY_HINT_STEP)
    return saved[1] if saved and saved[0] == _position(game) else 1


@safe_callback
def _on_more_help(game: GameSession) -> None:
    step = min(hint_mod.HINT_STEPS, hint_step(game) + 1)
    st.session_state[KEY_HINT_STEP] = (_position(game), step)


def _odds_style() -> str:
    return str(settings().get("odds", "words"))


def hint_panel(game: GameSession, obs: Observation, deck: Deck) -> hint_mod.GameHint:
    """The hint in words (the Play page's, and a table's for its device's seat only),
    graduated as a tutor would: a nudge first, then the cards lit (on the board), then
    the arithmetic and the move, with why. The board shows the rest on the cards: how
    many captures each hand card has, the table's risk meter, and the sweep risk of the
    move being put together."""
    esc = html.escape
    style = _odds_style()
    hint = hint_mod.game_hint(obs, hint_step(game))
    lines = [f"<b>💡 {esc(t('hints_title'))}</b>"]
    if not board_loaded():
        # The text choosers have no badges on the cards: say the counts here.
        per_card = hint_mod.captures_per_card(obs)
        lines += ["<ul style='margin:4px 0'>"] + [
            f"<li>{esc(t('hint_card_captures', card=card_text(c, deck), count=n))}</li>"
            for c, n in per_card.items()] + ["</ul>"]
    best = [hint_line_text(line, deck, style) for line in hint.lines if line.kind == "best"]
    for line in hint.lines:
        if line.kind == "info":
            lines.append(f"<div>📣 {esc(hint_line_text(line, deck, style))}</div>")
    if best:
        label = t("hint_best")
        lines.append(f"<div data-testid='hint-best'>⭐ <b>{esc(label)}</b>"
                     f"{space_after(label)}{esc(join_text(best))}</div>")
    lines += [f'<div style="margin-top:6px;padding:6px 10px;border-radius:8px;'
              f'background:rgba(255,190,0,0.18)">⚠️ '
              f'{esc(hint_line_text(line, deck, style))}</div>'
              for line in hint.lines if line.kind == "warn"]
    st.html(_BOX + "".join(lines) + "</div>")
    _hint_speaker([hint_line_text(line, deck, style) for line in hint.lines], deck)
    if hint.more:
        st.button(t("hint_more"), key="hint_more", type="tertiary", on_click=_on_more_help,
                  args=(game,))
    return hint


def _hint_speaker(lines: list[str], deck: Deck) -> None:
    """The hint panel heard: each of its lines, said the way a voice needs (issue 23)."""
    words = " ".join(speakable(line, current_language(), deck) for line in lines)
    speaker_button(words, key="hint_speaker")


def play_label(game: GameSession, card: Card | None, take: list[Card]) -> str:
    """The fallback Play button's label, which carries the arithmetic of the move put
    together (the board shows the same sum as the child taps). The sum and whether it
    captures are the engine's (:meth:`escoba.Move.sum_terms`, :meth:`GameSession.check`).
    """
    if card is None:
        return t("pick_a_card_first")
    if not take:
        return t("play_lay_label", card=card.value if not card.is_joker else "🃏")
    if game.rules.variant == "scopa":
        return _scopa_play_label(game, card, take)
    values, total, jokers = Move(card, frozenset(take)).sum_terms()
    expr = sum_expression(values)
    need = game.rules.capture_sum
    if jokers:
        return t("sum_joker", expr=expr, need=need)
    if game.check(card, take) is None:
        return t("sum_ok", expr=expr, total=total)
    return t("sum_not_yet", expr=expr, total=total, need=need)


def _scopa_play_label(game: GameSession, card: Card, take: list[Card]) -> str:
    """Scopa's Play label: the table cards' sum against the card's value ("3 + 4 = 7 ✓"),
    or, when the engine would refuse for another reason than the sum (an equal card to
    take first, the ace's whole table), that reason, so "3 = 3, you need 6" is never said.
    The sums are the engine's: its refusal's, or the variant's terms of a capture."""
    verdict = game.check(card, take)
    if verdict is not None and verdict.code == Code.WRONG_SUM:
        p = verdict.params
        return t("sum_not_yet", expr=sum_expression(p["values"]), total=p["total"],
                 need=p["need"])
    if verdict is not None:
        key, params = move_message(verdict)
        return t(key, **params)
    terms = capture_terms(game.rules, Move(card, frozenset(take)))
    if terms is None:  # the ace takes the table by right: no sum to show
        return t("ace_takes_all")
    values, total = terms
    return t("sum_ok", expr=sum_expression(values), total=total)


def _turn(game: GameSession, seconds: float | None) -> TurnContext:
    """What the page knows of the child's turn (trainer.evidence): the day, the time the
    board was on screen, and whether hints were there to help."""
    helped = bool(settings().get("hints", True)) or hint_step(game) > 1
    return TurnContext(day=today().isoformat(), seconds=seconds, helped=helped)


def _play_move(game: GameSession, card: Card, take: list[Card],
               seconds: float | None = None) -> None:
    """A child's move (from the board or the fallback choosers): the engine judges it,
    the computer replies unless the Settings pause it, and the outcome is said."""
    pause = settings().get("pause", False)
    turn = _turn(game, seconds)
    outcome = (game.play_human(card, take, turn) if pause
               else game.play_human_then_bots(card, take, turn))
    if outcome.key == "penalty":
        flash("error", "penalty", **outcome.params)
    elif not outcome.ok:
        if outcome.move_refused:  # beside Play, until the next tap
            say_refusal(outcome.key, **outcome.params)
        else:
            flash("error", outcome.key, **outcome.params)
        put_table_cards_back(KEY_TABLE)
    elif outcome.key == "escoba":
        flash("success", sweep_word_key("you_escoba", game.rules.variant))
    if outcome.play is not None:
        st.session_state[KEY_HAND] = None
        st.session_state[KEY_TABLE] = []
        st.session_state.pop(KEY_REVEAL, None)


def put_table_cards_back(table_key: str) -> None:
    """After a refused try the board and the choosers (under ``table_key``) put the table
    cards back and keep the hand card, in Play and at a table (as a lesson's board does): the
    board clears its picks when the count it is sent grows (``with_refusals``)."""
    st.session_state[KEY_REFUSALS] = st.session_state.get(KEY_REFUSALS, 0) + 1
    st.session_state[table_key] = []


def with_refusals(data: dict[str, Any]) -> dict[str, Any]:
    """The board's data with the count of refused tries it has to answer."""
    data["refusals"] = st.session_state.get(KEY_REFUSALS, 0)
    return data


def _claim_renuncio(game: GameSession, take: Sequence[Card] = ()) -> None:
    outcome = game.claim_renuncio(take)
    flash("success" if outcome.ok else "warning", outcome.key, **outcome.params)
    st.session_state[KEY_TABLE] = []


def handle_board_action(game: GameSession, raw: Any) -> BoardAction | BoardRefusal:
    """What the board sent, read for this position and passed to the engine: a malformed
    or forged selection is refused with a sentence, a stale one changes nothing."""
    action = read_action(raw, session_position(game), kinds=("play", "renuncio"))
    if isinstance(action, BoardRefusal):
        if action.stale:
            log.info("a board action for an older position was ignored")
        else:
            flash("error", action.key)
        return action
    if not game.is_human_turn:
        flash("warning", "not_your_turn")
    elif action.kind == "renuncio":
        _claim_renuncio(game, action.take)
    else:
        assert action.card is not None
        _play_move(game, action.card, list(action.take), action.seconds)
    return action


@safe_callback
def _on_play(game: GameSession) -> None:
    """The fallback choosers' Play button."""
    hand_key = st.session_state.get(KEY_HAND)
    if not hand_key:
        flash("warning", "pick_a_card_first")
        return
    take = [Card.parse(k) for k in st.session_state.get(KEY_TABLE) or []]
    _play_move(game, Card.parse(hand_key), take)


@safe_callback
def _on_renuncio(game: GameSession) -> None:
    _claim_renuncio(game, [Card.parse(k) for k in st.session_state.get(KEY_TABLE) or []])


@safe_callback
def _on_bot_step(game: GameSession) -> None:
    game.bot_step()


@safe_callback
def _on_reveal(seat: int) -> None:
    st.session_state[KEY_REVEAL] = seat


def viewer_seat(game: GameSession) -> tuple[int | None, bool]:
    """Whose view the board shows, and whether that seat's hand may be shown.

    One child: always that child. Several children on one device: the child
    to move, once they tapped "I'm Ana — show my cards" (open hand: at once).
    """
    humans = game.human_seats
    if len(humans) == 1:
        return humans[0], True
    to_move = game.to_move if not game.round_over else None
    seat = to_move if to_move in humans else None
    if seat is None:
        if to_move is not None and st.session_state.get(KEY_REVEAL) in humans:
            # A computer's turn (paused): the child who showed their cards last
            # keeps seeing them, until the turn passes to another child.
            return st.session_state[KEY_REVEAL], True
        return (humans[0] if game.rules.open_hand else None), game.rules.open_hand
    if game.rules.open_hand:
        return seat, True
    return seat, st.session_state.get(KEY_REVEAL) == seat


def board_data(game: GameSession) -> dict[str, Any]:
    """The board component's data for the current position, as the Settings ask."""
    me, reveal = viewer_seat(game)
    data = session_board(game, viewer=me, reveal=reveal, deck=deck_of(game.rules),
                         show_value=bool(settings().get("show_values", True)),
                         hints_on=bool(settings().get("hints", True)),
                         hint_step=hint_step(game), odds_style=_odds_style())
    return with_refusals(data)


def show_board(game: GameSession) -> bool:
    """The whole board for the current position (round in play or just over). Whether
    what sits under the board waits for the board's word (:func:`hint_and_choosers`)."""
    deck = deck_of(game.rules)
    data = board_speech(board_data(game), deck=deck)  # each line and the score can be heard
    show_board_component(data, key=KEY_BOARD,
                         on_action=lambda raw: handle_board_action(game, raw))

    if game.round_over:
        return False

    to_move = game.to_move
    if not game.seats[to_move].is_human:
        name = seat_label(game, to_move)
        if settings().get("pause", False):
            st.button(t("let_bot_play", name=md_escape(name)), key="bot_step", type="primary",
                      on_click=_on_bot_step, args=(game,), use_container_width=True)
        else:
            # Without the pause the computer plays at once (this is a safety net).
            game.run_bots()
            st.rerun()
        return False

    me, reveal = viewer_seat(game)
    if not reveal:
        name = md_escape(game.seats[to_move].name)
        st.info(t("pass_device", name=name), icon="🤝")
        st.button(t("show_my_cards", name=name), key=f"reveal_{to_move}", type="primary",
                  on_click=_on_reveal, args=(to_move,), use_container_width=True)
        return False

    obs = game.observation(to_move)
    return hint_and_choosers(game, obs, deck, hints=bool(settings().get("hints", True)),
                             choosers=lambda: _fallback_controls(game, obs, deck))


def hint_and_choosers(game: GameSession, obs: Observation, deck: Deck, *, hints: bool,
                      choosers: Callable[[], None]) -> bool:
    """Under the board: the hint in words (if ``hints``) and, where no board has drawn,
    the text choosers. Once a board of this session has drawn, the hint panel alone.
    Until then, the hint waits in the choosers' closed section with them, drawn only if
    it is opened, and the board's word a moment later draws it under the board: a page
    opened anew shows its board without drawing the hint twice (with the tools that wait
    too, 80-100 ms of the browser's first paint; docs/BENCHMARKS.md, "Play's board
    first"). In a browser where the board never draws (and in AppTest), the hint is in
    words beside the choosers, with each hand card's count of captures the board would
    have shown. Returns whether the page still waits for a board or the choosers
    (:func:`board_in_use`): then the tools under them wait too."""
    if board_loaded():
        if hints:
            hint_panel(game, obs, deck)
        return False

    def draw() -> None:
        if hints:
            hint_panel(game, obs, deck)
        choosers()

    fallback_choosers(draw)
    return not board_in_use()


def _chosen_card(obs: Observation) -> Card | None:
    """The hand card picked in the fallback pills (forgotten when it left the hand)."""
    hand_pick = st.session_state.get(KEY_HAND)
    chosen = Card.parse(hand_pick) if hand_pick else None
    if chosen is not None and chosen not in obs.hand:
        st.session_state[KEY_HAND] = None
        chosen = None
    return chosen


def _fallback_controls(game: GameSession, obs: Observation, deck: Deck) -> None:
    """Text choosers and Play, for a browser where the board cannot load (and AppTest)."""
    values = bool(settings().get("show_values", True))
    chosen = _chosen_card(obs)
    lang = current_language()  # fixed now: AppTest formats options after the run

    def label(key: str) -> str:
        return pick_label(key, deck, values, lang)

    table_keys = [str(c) for c in obs.table]
    current_take = [k for k in (st.session_state.get(KEY_TABLE) or []) if k in table_keys]
    if current_take != (st.session_state.get(KEY_TABLE) or []):
        st.session_state[KEY_TABLE] = current_take
    st.pills(t("pick_hand_label"), [str(c) for c in obs.hand], selection_mode="single",
             format_func=label, key=KEY_HAND)
    if table_keys:
        st.pills(t("pick_table_label"), table_keys, selection_mode="multi",
                 format_func=label, key=KEY_TABLE)
    take = [Card.parse(k) for k in st.session_state.get(KEY_TABLE) or []]
    verb = play_label(game, chosen, take)
    # ¡Renuncio! appears when it can be called: the last card was laid down
    # although it could have captured (renuncio rule only).
    with st.container(horizontal=True, key="move_buttons"):
        st.button(verb, key="play_button", type="primary", on_click=_on_play, args=(game,),
                  use_container_width=True, disabled=chosen is None)
        if obs.renuncio_claims():
            st.button(t("renuncio_button"), key="renuncio_button", on_click=_on_renuncio,
                      args=(game,), use_container_width=True, help=t("renuncio_help"))
