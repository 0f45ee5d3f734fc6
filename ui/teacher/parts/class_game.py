"""Class vs computer (issue 29), on the projector: the class plays one side of a game
against the computer, each of its moves voted on the pupils' tablets.

The screen: the table and the class's hand in big cards, each hand card with a bar of
the votes for it (the spread, as counts), the votes arriving as a count, and the buttons
to close the vote (a tie: one button per tied move; no votes: the teacher picks the
move). After a close, what the class played and the coach's sentence about it, then the
computer's reply; between rounds their points, at the end who won. Nothing private: the
tally is counts only (``trainer.class_game.Tally``), and the computer's hand is a count
(the class's own hand is the class's, on the board for all).

It refreshes itself every :data:`REFRESH_SECONDS` (a fragment of its own, as the
projector part), and the refresh is not the teacher's activity.
"""

from __future__ import annotations

import html

import streamlit as st

from escoba import Deck, Move, Play
from escoba.cards import mask_of
from trainer.board_view import move_key
from trainer.cards import backs_row_html, card_img, cards_row_html
from trainer.class_game import (
    CLASS_GAME_LEVELS,
    CLASS_GAME_TARGETS,
    CLASS_SEAT,
    COMPUTER_AVATAR,
    COMPUTER_SEAT,
    DEFAULT_LEVEL,
    DEFAULT_TARGET,
    ClassGame,
    ClassGames,
    Tally,
    TurnResult,
    move_of,
)
from trainer.classroom import format_code
from trainer.i18n import card_name, t
from trainer.words import card_text, cards_text, coach_text, event_line, seat_label

from ...board import deck_of
from ...busy import answered, busy_buttons
from ...classroom import class_action, ct, ct_text, show_class_flash
from ...errors import friendly_fragment
from ...i18n import current_language
from ...session import settings
from ..part import Part
from ..snapshot import OpenClass
from ..state import teacher_room
from ..widgets import big_line

__all__ = ["PART", "REFRESH_SECONDS"]

#: How often the projector reads the game and the count of votes again.
REFRESH_SECONDS = 1.5

_BIG = "font-size:clamp(1.4rem,2.2vw,2.6rem);font-weight:700;line-height:1.2"
_MID = "font-size:clamp(1.05rem,1.4vw,1.7rem);font-weight:600;line-height:1.3"
_SMALL = "font-size:clamp(0.95rem,1.1vw,1.35rem);font-weight:600;line-height:1.3"
_LABEL = "font-size:clamp(1rem,1.2vw,1.5rem);font-weight:700;color:#444;line-height:1.2"
_HUGE = "font-size:clamp(2rem,3.6vw,4.2rem);font-weight:800;letter-spacing:0.06em"
#: Card widths on the projector (CSS pixels at 1920 wide): the table and the class's hand
#: fit under the page's header on a 1080-line screen, each card 150-180 px tall (read from
#: the back of a room); a voted move's cards about 100 px.
HAND_W, TABLE_W, MOVE_W = 120, 106, 66
#: The bars of the votes, as tall as the words beside them.
BAR_H = 30
_BAR = "#0072B2"


#: The game's buttons that show "Working…" at once when tapped (ui.busy).
_BUSY_KEYS = ("tc_cg_start", "tc_cg_close", "tc_cg_tie_*", "tc_cg_play_pick", "tc_cg_next",
              "tc_cg_end", "tc_cg_end_yes", "tc_cg_end_no", "tc_cg_clear")
#: The game whose "End the game" was tapped: the part asks to confirm (issue 29: one tap
#: ended a game mid-round, with no question and no result).
KEY_ENDING = "tc_cg_ending"


def _games() -> ClassGames:
    return ClassGames(teacher_room())


@answered
@class_action
def _on_start(class_id: int) -> None:
    level = st.session_state.get("tc_cg_level", DEFAULT_LEVEL)
    target = st.session_state.get("tc_cg_target", DEFAULT_TARGET)
    _games().start(class_id, str(level), int(target))


@answered
@class_action
def _on_close(class_id: int, game_id: int, turn: int, choice: str | None = None) -> None:
    _games().close_vote(class_id, game_id, turn, move_of(choice) if choice else None)


@answered
@class_action
def _on_pick(class_id: int, game_id: int, turn: int) -> None:
    choice = st.session_state.get("tc_cg_pick")
    _games().close_vote(class_id, game_id, turn, move_of(choice) if choice else None)


@answered
@class_action
def _on_next_round(class_id: int, game_id: int) -> None:
    _games().next_round(class_id, game_id)


@answered
def _on_ask_end(game_id: int) -> None:
    st.session_state[KEY_ENDING] = game_id


@answered
def _on_go_on() -> None:
    st.session_state.pop(KEY_ENDING, None)


@answered
@class_action
def _on_stop(class_id: int, game_id: int) -> None:
    st.session_state.pop(KEY_ENDING, None)
    _games().stop(class_id, game_id)


@answered
@class_action
def _on_end(class_id: int, game_id: int) -> None:
    _games().end(class_id, game_id)


def _move_words(move: Move, deck: Deck) -> str:
    """A move said to the whole class ("jugar el Rey y llevarnos..."): the Play page's
    move words speak to one child ("dejar tu carta", issue 29)."""
    if move.take:
        return ct_text("class_game.move_take", card=card_text(move.card, deck),
                       cards=cards_text(move.take, deck))
    return ct_text("class_game.move_lay", card=card_text(move.card, deck))


def _line(text: str, style: str = _BIG, testid: str = "") -> None:
    big_line(text, style, testid)


def _values() -> bool:
    return bool(settings().get("show_values", True))


def _hand_with_bars(game: ClassGame, tally: Tally, deck: Deck) -> str:
    """The class's hand, each card with the bar of the votes for it under it."""
    hand = game.observation().hand
    top = max([tally.for_card(c) for c in hand] + [1])
    items = []
    for card in hand:
        votes = tally.for_card(card)
        share = round(100 * votes / top)
        name = card_name(card, deck)
        items.append(
            "<div style='display:flex;flex-direction:column;align-items:center;gap:6px' "
            f"data-testid='tc-cg-hand-card' data-votes='{votes}'>"
            + card_img(card, deck, _values(), False, HAND_W, name)
            + f"<div style='width:{HAND_W}px;height:{BAR_H}px;background:#E8EEF4;"
            "border-radius:8px;overflow:hidden' aria-hidden='true'>"
            f"<div style='width:{share}%;height:100%;background:{_BAR}'></div></div>"
            f"<div style='{_MID}'>{html.escape(ct_text('class_game.votes_for', count=votes))}"
            "</div></div>")
    return ("<div style='display:flex;flex-wrap:wrap;gap:22px;align-items:flex-start' "
            "data-testid='tc-cg-hand'>" + "".join(items) + "</div>")


def _tally_rows(tally: Tally, deck: Deck) -> str:
    """Each move voted, its cards small and its bar: how the votes spread."""
    top = max([n for _m, n in tally.counts] + [1])
    rows = []
    for move, votes in tally.counts:
        # The card played, then (after a line) the table cards it takes.
        played = cards_row_html([move.card], deck, _values(), width=MOVE_W, names=False)
        taken = cards_row_html(sorted(move.take), deck, _values(), width=MOVE_W, names=False,
                               gap=2) if move.take else ""
        rows.append(
            "<div style='display:flex;align-items:center;gap:12px' data-testid='tc-cg-move'>"
            f"<div style='display:flex;align-items:center;gap:8px;flex:none;"
            f"width:{6 * (MOVE_W + 10)}px'>{played}"
            + (f"<div style='border-left:3px solid #999;padding-left:8px'>{taken}</div>"
               if taken else "")
            + "</div>"
            f"<div style='flex:1;height:{BAR_H}px;background:#E8EEF4;border-radius:8px;"
            f"overflow:hidden'><div style='width:{round(100 * votes / top)}%;height:100%;"
            f"background:{_BAR}'></div></div>"
            f"<div style='{_BIG};min-width:2.5em;text-align:right'>{votes}</div></div>")
    return "<div style='display:flex;flex-direction:column;gap:8px'>" + "".join(rows) + "</div>"


def _play(seat: int, move: Move, escoba: bool) -> Play:
    return Play(seat, "play", move.card.index, mask_of(move.take), escoba)


def _last_turn(game: ClassGame, last: TurnResult, deck: Deck) -> None:
    """What the class played (and how it was chosen), the coach's sentence, then the
    computer's reply; or, before the class's first vote, what the computer played first."""
    class_name = seat_label(game.session.seats[CLASS_SEAT], CLASS_SEAT)
    computer = seat_label(game.session.seats[COMPUTER_SEAT], COMPUTER_SEAT)
    variant = game.rules.variant
    if last.move is None:
        with st.container(border=True, key="tc_cg_last"):
            for move, escoba in last.computer:
                if move is not None:
                    _line(ct_text("class_game.computer_first", event=event_line(
                        computer, _play(COMPUTER_SEAT, move, escoba), deck, variant)),
                        _SMALL, "tc-cg-computer")
        return
    with st.container(border=True, key="tc_cg_last"):
        played = event_line(class_name, _play(CLASS_SEAT, last.move, last.escoba), deck, variant)
        how = {"tie": " " + ct_text("class_game.how_tie"),
               "teacher": " " + ct_text("class_game.how_teacher")}.get(last.how, "")
        if last.how == "votes":
            how = f" ({ct_text('class_game.votes_for', count=last.votes)})"
        _line(played + how, _SMALL, "tc-cg-played")
        if last.reason is not None:
            why = coach_text(last.reason[0], last.reason[1], deck, voice="class")
            _line(ct_text("class_game.coach_says", why=why), _SMALL, "tc-cg-coach")
        if last.better is not None:
            _line(ct_text("class_game.coach_better", move=_move_words(last.better, deck)),
                  _SMALL, "tc-cg-better")
        for move, escoba in last.computer:
            if move is not None:
                _line(ct_text("class_game.computer_played", event=event_line(
                    computer, _play(COMPUTER_SEAT, move, escoba), deck, variant)),
                    _SMALL, "tc-cg-computer")


def _score(game: ClassGame) -> str:
    # A game ended early counts the round under way as if it ended now: the score line
    # says the same points as the "points so far" under it (it said 0-0 above 1-1).
    mine, theirs = (game.points_so_far() if game.ended else game.totals)[:2]
    return ct_text("class_game.score", mine=mine, theirs=theirs)


def _voting(class_id: int, game: ClassGame, deck: Deck) -> None:
    """Side by side, so that a 1080-line screen holds it all under the page's header: the
    table and the class's hand with its bars on the left; what just happened, the votes
    and the buttons on the right."""
    tally = _games().tally(game)
    obs = game.observation()
    cards, side = st.columns([11, 9], gap="large")
    with cards:
        count = obs.hand_counts[COMPUTER_SEAT]
        with st.container(horizontal=True, vertical_alignment="center", gap="medium"):
            _line(ct_text("class_game.table"), _LABEL)
            st.html("<div style='display:flex;align-items:center;gap:10px' "
                    "data-testid='tc-cg-computer-hand'>" + backs_row_html(count, 30)
                    + f"<span style='{_SMALL}'>"
                    f"{html.escape(ct_text('class_game.computer_cards', count=count))}</span>"
                    "</div>")
        st.html("<div data-testid='tc-cg-table'>"
                + cards_row_html(obs.table, deck, _values(), width=TABLE_W, names=False, gap=10)
                + "</div>")
        _line(ct_text("class_game.hand"), _LABEL)
        st.html(_hand_with_bars(game, tally, deck))
    with side:
        last = game.last
        if last is not None:
            _last_turn(game, last, deck)
        _line(ct_text("class_game.votes", count=tally.voters), _BIG, "tc-cg-count")
        if tally.counts:
            st.html(_tally_rows(tally, deck))
        leaders = tally.leaders
        if len(leaders) == 1:
            st.button(ct("class_game.close"), key="tc_cg_close", type="primary", icon="🗳️",
                      on_click=_on_close, args=(class_id, game.id, game.turn),
                      width="stretch")
        elif leaders:
            st.info(ct("class_game.tie"), icon="⚖️")
            for i, move in enumerate(leaders):
                st.button(_move_words(move, deck), key=f"tc_cg_tie_{i}", type="primary",
                          on_click=_on_close,
                          args=(class_id, game.id, game.turn, move_key(move.card, move.take)),
                          width="stretch")
        else:
            # Folded: the class votes first; the teacher's own pick is for a silent turn.
            with st.expander(ct("class_game.no_votes")):
                labels = {move_key(m.card, m.take): _move_words(m, deck)
                          for m in obs.legal_moves()}
                st.selectbox(ct("class_game.pick"), list(labels), key="tc_cg_pick",
                             format_func=lambda k: labels.get(k, k))
                st.button(ct("class_game.play_pick"), key="tc_cg_play_pick",
                          on_click=_on_pick, args=(class_id, game.id, game.turn),
                          width="stretch")


def _between(class_id: int, game: ClassGame, deck: Deck) -> None:
    """A round over (its points, the next round), the game over (who won) or ended by
    the teacher (the points so far, who was ahead)."""
    last = game.last
    if last is not None:
        _last_turn(game, last, deck)
    if game.ended:
        mine, theirs = game.points_so_far()[:2]
        _line(ct_text("class_game.ended", mine=mine, theirs=theirs), _BIG, "tc-cg-ended")
        ahead = {CLASS_SEAT: "class_game.ahead_class",
                 COMPUTER_SEAT: "class_game.ahead_computer"}.get(game.ahead,
                                                                 "class_game.ahead_none")
        _line(ct_text(ahead), _HUGE, "tc-cg-result")
        return
    points = game.round_points()
    if points is not None:
        _line(ct_text("class_game.round_over", n=game.round_no, mine=points[CLASS_SEAT],
                      theirs=points[COMPUTER_SEAT]), _BIG, "tc-cg-round-over")
    if game.state == "round_over":
        st.button(ct("class_game.next_round"), key="tc_cg_next", type="primary", icon="🃏",
                  on_click=_on_next_round, args=(class_id, game.id))
        return
    won = game.winner == CLASS_SEAT
    _line(ct_text("class_game.won" if won else "class_game.lost"), _HUGE, "tc-cg-result")


def _start(class_id: int) -> None:
    lang = current_language()
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.selectbox(ct("class_game.level"), CLASS_GAME_LEVELS, key="tc_cg_level",
                     index=CLASS_GAME_LEVELS.index(DEFAULT_LEVEL),
                     format_func=lambda level: t("level_" + level, lang))
        labels = {n: ct_text("class_game.target_1") if n == 1 else
                  ct_text("class_game.target_n", count=n) for n in CLASS_GAME_TARGETS}
        st.selectbox(ct("class_game.target"), CLASS_GAME_TARGETS, key="tc_cg_target",
                     index=CLASS_GAME_TARGETS.index(DEFAULT_TARGET),
                     format_func=lambda n: labels.get(n, str(n)))
        st.button(ct("class_game.start"), key="tc_cg_start", type="primary",
                  icon=COMPUTER_AVATAR,
                  on_click=_on_start, args=(class_id,))


@friendly_fragment(run_every=REFRESH_SECONDS)
def _screen(class_id: int, code: str) -> None:
    show_class_flash()  # a refusal of a tap in here (another tab closed the vote)
    game = _games().current(class_id, touch=False)
    if game is not None:  # the sides as the pupils' tablets name them, not "Computer 2"
        game.name_sides(ct_text("class_game.our_class"), ct_text("class_game.the_computer"))
    deck = deck_of()
    with st.container(horizontal=True, vertical_alignment="center", gap="large"):
        _line(ct_text("card.code", code=format_code(code)), _BIG, "tc-cg-code")
        if game is not None:
            _line(_score(game), _BIG, "tc-cg-score")
            _line(t("round_n", n=game.round_no), _MID, "tc-cg-round")
    if game is None:
        _start(class_id)
        _working()
        return
    if game.voting:
        _voting(class_id, game, deck)
    else:
        _between(class_id, game, deck)
    _end_buttons(class_id, game)
    _working()


def _end_buttons(class_id: int, game: ClassGame) -> None:
    """A game under way: "End the game", then a question (Yes, end it / No, go on); a
    game over or ended: "Close the game" (the start comes back)."""
    if game.state in ("over", "ended"):
        st.button(ct("class_game.clear"), key="tc_cg_clear", icon="⏹️", on_click=_on_end,
                  args=(class_id, game.id))
        return
    if st.session_state.get(KEY_ENDING) != game.id:
        st.button(ct("class_game.end"), key="tc_cg_end", icon="⏹️", on_click=_on_ask_end,
                  args=(game.id,))
        return
    with st.container(border=True, key="tc_cg_end_ask"):
        st.warning(ct("class_game.end_confirm"), icon="⏹️")
        with st.container(horizontal=True):
            st.button(ct("class_game.end_yes"), key="tc_cg_end_yes", type="primary",
                      on_click=_on_stop, args=(class_id, game.id))
            st.button(ct("class_game.end_no"), key="tc_cg_end_no", on_click=_on_go_on)


def _working() -> None:
    """The sign on a tapped button of the game until the part is drawn again (a close
    of the vote can take seconds while the tablets are busy)."""
    busy_buttons(_BUSY_KEYS, key="tc_cg_busy")


def show(view: OpenClass) -> None:
    st.caption(ct("class_game.help"))
    _screen(view.info.id, view.info.code)


PART = Part(key="class_game", label="part.class_game", render=show,
            presentation=True)
