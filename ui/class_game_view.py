"""The class against the computer on a pupil's tablet (issue 29): the vote of the class's
move, on the board the pupil knows (tap a card of the class's hand, tap the table cards
it takes, then Vote). The engine judges the vote as it judges a move on the Play page: an
illegal one is said beside the button, in the child's words, and nothing is voted. A vote
can be changed until the teacher closes it; the projector shows counts, never a name.

:func:`show_class_vote` draws it on My class (``ui.my_class_view``), whose one timer also
asks :func:`class_game_moved` (one small read): a new game, a closed vote, a new round
draw the page again.
"""

from __future__ import annotations

import html
import logging
from typing import Any

import streamlit as st

from escoba import Card
from trainer.board_view import BoardRefusal, read_action, session_board
from trainer.cards import pick_label
from trainer.class_game import CLASS_SEAT, COMPUTER_AVATAR, ClassGame, PupilVote, VoteRefused
from trainer.classroom_views import ClassroomError
from trainer.i18n import t
from trainer.speech import speakable
from trainer.storage import Profile
from trainer.words import move_text

from .board_component import board_loaded, fallback_choosers, say_refusal, show_board_component
from .classroom import class_flash, ct, ct_text
from .errors import safe_callback
from .i18n import current_language
from .layout import show_flash
from .practice import today
from .session import deck_of, flash, settings, storage
from .speaker import board_speech

__all__ = ["show_class_vote", "class_game_moved", "vote_header"]

log = logging.getLogger(__name__)

KEY_DRAWN = "mc_cg_drawn"  # (game, state, turn) of the class's game drawn, or None
KEY_BOARD = "mc_cg_board"
KEY_HAND, KEY_TABLE = "mc_cg_hand", "mc_cg_table"  # the text choosers' picks


def class_game_moved(profile_id: int) -> bool:
    """Whether the class's game is not the one drawn (a new game, the next turn, a round
    over): one small read (id, state, turn), asked by My class's one timer."""
    return PupilVote(storage(), profile_id).pulse() != st.session_state.get(KEY_DRAWN)


def _position(game: ClassGame) -> str:
    return f"cg{game.id}-t{game.turn}"


def _on_vote(profile_id: int, game: ClassGame, raw: Any) -> None:
    """What the board sent: read for this turn, judged by the engine, voted."""
    action = read_action(raw, _position(game), kinds=("play",))
    if isinstance(action, BoardRefusal):
        if action.stale:
            log.info("a vote for an older turn was ignored")
        else:
            flash("error", action.key)
        return
    assert action.card is not None
    _vote(profile_id, game, action.card, list(action.take))


def _vote(profile_id: int, game: ClassGame, card: Card, take: list[Card]) -> None:
    try:
        PupilVote(storage(), profile_id).vote(game, game.turn, card, take, today())
    except VoteRefused as refused:
        say_refusal(refused.key, **refused.params)
    except ClassroomError as err:
        class_flash("error", err.key, **err.params)


@safe_callback
def _on_fallback_vote(profile_id: int, game: ClassGame) -> None:
    """The text choosers' Vote (a browser where the board cannot load)."""
    hand = st.session_state.get(KEY_HAND)
    if not hand:
        flash("warning", "pick_a_card_first")
        return
    take = [Card.parse(k) for k in st.session_state.get(KEY_TABLE) or []]
    _vote(profile_id, game, Card.parse(hand), take)


def _fallback(profile: Profile, game: ClassGame) -> None:
    """Text choosers and Vote, for a browser where the board cannot load (and AppTest)."""
    obs = game.observation()
    deck, values, lang = deck_of(game.rules), bool(settings().get("show_values", True)), \
        current_language()

    def label(key: str) -> str:
        return pick_label(key, deck, values, lang)

    table = [str(c) for c in obs.table]
    if any(k not in table for k in st.session_state.get(KEY_TABLE) or []):
        st.session_state[KEY_TABLE] = []
    if st.session_state.get(KEY_HAND) not in (None, *(str(c) for c in obs.hand)):
        st.session_state[KEY_HAND] = None

    def choosers() -> None:
        st.pills(t("pick_hand_label"), [str(c) for c in obs.hand], selection_mode="single",
                 format_func=label, key=KEY_HAND)
        if table:
            st.pills(t("pick_table_label"), table, selection_mode="multi", format_func=label,
                     key=KEY_TABLE)
        st.button(ct("mc.cg_vote"), key="mc_cg_vote", type="primary",
                  on_click=_on_fallback_vote, args=(profile.id, game), width="stretch")

    fallback_choosers(choosers, "mc_cg_fallback")


def _name_sides(game: ClassGame) -> tuple[str, str]:
    """The sides named plainly for a child voting for the class ("Our class", "The
    computer"), in the game drawn and returned."""
    ours, computer = ct_text("class_game.our_class"), ct_text("class_game.the_computer")
    game.name_sides(ours, computer)
    return ours, computer


def vote_header(game: ClassGame, ours: str, computer: str) -> str:
    """The board's one line over the vote, in words: who plays and the score, then the
    round ("🏫 Our class 0 · 🤖 The computer 2 · Round 1"). The Play page's row of icons
    (round, stock, points, rules) said nothing to a child voting for the class."""
    mine, theirs = game.totals
    return " · ".join((f"🏫 {ours} {mine}", f"{COMPUTER_AVATAR} {computer} {theirs}",
                       t("round_n", n=game.round_no)))


def _board(profile: Profile, game: ClassGame, mine: Any) -> None:
    deck = deck_of(game.rules)
    ours, computer = _name_sides(game)
    data = session_board(game.session, viewer=CLASS_SEAT, reveal=True, deck=deck,
                         show_value=bool(settings().get("show_values", True)), hints_on=False,
                         hint_step=1)
    data["position"] = _position(game)
    data["game_key"] = f"cg{game.id}"
    # Small cards and one line of words on a phone: the table, the class's hand and Vote
    # in sight at once (issue 29), the page's title and the vote's line above them.
    data["compact"] = True
    line = vote_header(game, ours, computer)
    data["header"] = {"line": line, "round": line, "sides": []}
    # One button, Vote, whatever the move (a capture or a card laid down).
    data["buttons"]["play"] = data["buttons"]["lay"] = ct_text("mc.cg_vote")
    data["hand_title"] = ct_text("class_game.hand")
    if mine is not None:  # their vote glows until they change it
        data["hints"]["lit"] = [str(mine.card), *(str(c) for c in sorted(mine.take))]
    goal = ct_text("mc.cg_how")
    board_speech(data, goal=speakable(goal, deck=deck), goal_key=f"cg{game.id}", deck=deck)
    show_board_component(data, key=KEY_BOARD,
                         on_action=lambda raw: _on_vote(profile.id, game, raw))
    if not board_loaded():
        _fallback(profile, game)


def _said_voted(text: str) -> None:
    """Their vote, said in a green band as small as the title and how-to it replaces (a
    message box's margins pushed the class's hand under the Vote bar on a phone, in
    German's longer words). Its own colours: readable in the dark theme too."""
    st.html("<div role='status' data-testid='mc-cg-voted' style='background:#E3F2E6;"
            "color:#17371F;border-radius:10px;padding:6px 12px;font-size:0.95rem;"
            f"line-height:1.4'>🗳️ {html.escape(text)}</div>")


def show_class_vote(profile: Profile) -> bool:
    """The class's game against the computer, first, while it waits for votes or between
    rounds (True: My class shows nothing else); False when there is none (or it is over:
    a line says so, and the pupil's tasks follow)."""
    pupil = PupilVote(storage(), profile.id)
    game = pupil.current()
    st.session_state[KEY_DRAWN] = None if game is None else (game.id, game.state, game.turn)
    if game is None:
        return False
    if game.state in ("over", "ended"):  # ended: the teacher stopped it (issue 29)
        st.info(ct("mc.cg_over" if game.state == "over" else "mc.cg_ended"), icon="🏁")
        return False
    with st.container(border=True, key="mc_cg"):
        if game.state != "voting":
            st.markdown(f"{COMPUTER_AVATAR} **{ct('mc.cg_title')}**")
            st.info(ct("mc.cg_wait"), icon="📽️")
            return True
        show_flash()  # a vote refused before the engine (or, without the board, by it)
        mine = pupil.mine(game)
        # One block above the board, the same height before and after a vote (on a phone
        # the board must start high): the title and how to vote, then their vote in its
        # place, seen as soon as it is in.
        if mine is not None:
            _said_voted(ct_text("mc.cg_voted", move=move_text(mine, deck_of(game.rules))))
        else:
            st.markdown(f"{COMPUTER_AVATAR} **{ct('mc.cg_title')}**  \n"
                        f":small[{ct('mc.cg_how')}]")
        _board(profile, game, mine)
    return True
