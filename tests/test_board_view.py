"""The tappable board's data and actions (trainer/board_view.py), without a browser.

AppTest runs no JavaScript, so what the component is *sent* and how what it
*sends back* is handled are tested here: hidden cards are never in its data,
the ✓ it shows comes from the engine's legal moves, and a forged or stale
selection changes nothing but a sentence.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from escoba import Card, Deck, Rules
from escoba.cards import CARDS, cards_of
from puzzles import generate
from trainer.board_view import (
    MAX_TAKE,
    BoardAction,
    BoardRefusal,
    move_key,
    puzzle_board,
    puzzle_position,
    read_action,
    session_board,
    session_position,
)
from trainer.gameplay import GameSession, SeatSpec
from trainer.i18n import card_name, use_language

POS = "g1:1:4:0"


@pytest.fixture(autouse=True)
def _english():
    use_language("en")
    yield
    use_language(None)


# -- what the browser may send --------------------------------------------------------------

@pytest.mark.parametrize("raw", [
    None, "play", 42, [], {"kind": "play"},                           # not an action at all
    {"kind": "play", "position": POS, "card": "7x"},                  # no such card
    {"kind": "play", "position": POS, "card": "7o", "take": "3c"},    # take is not a list
    {"kind": "play", "position": POS, "card": "7o", "take": ["3c", "3c"]},  # a card twice
    {"kind": "play", "position": POS, "card": "7o", "take": ["7o"]},  # the card on the table
    {"kind": "play", "position": POS, "card": "7o", "take": [3]},     # not a card code
    {"kind": "play", "position": POS, "take": ["3c"]},                # Play without a card
    {"kind": "play", "position": POS, "card": "<img src=x>"},         # markup, not a card
    {"kind": "steal", "position": POS, "card": "7o"},                 # no such action
    {"kind": "play", "position": "x" * 200, "card": "7o"},            # absurd position
    {"kind": "play", "position": POS, "card": "7o",
     "take": ["1o"] * (MAX_TAKE + 1)},                                # more than a deck
])
def test_a_malformed_or_forged_action_is_refused_with_a_sentence(raw: Any) -> None:
    said = read_action(raw, POS)
    assert isinstance(said, BoardRefusal) and said.key == "board_bad_selection"
    assert not said.stale


def test_an_action_for_another_position_is_stale_and_changes_nothing() -> None:
    said = read_action({"kind": "play", "position": "g1:1:3:0", "card": "7o"}, POS)
    assert isinstance(said, BoardRefusal) and said.stale


def test_an_action_of_a_kind_this_board_does_not_offer_is_refused() -> None:
    raw = {"kind": "renuncio", "position": POS}
    assert isinstance(read_action(raw, POS, kinds=("add",)), BoardRefusal)
    assert read_action(raw, POS) == BoardAction("renuncio")


def test_a_puzzles_hint_from_the_bar_carries_nothing_chosen() -> None:
    """The bar's 💡 sends the cards chosen so far too: a hint names no card."""
    raw = {"kind": "hint", "position": POS, "card": "7o", "take": ["5e"], "think_ms": 900}
    assert read_action(raw, POS, kinds=("add", "hint")) == BoardAction("hint")
    assert isinstance(read_action(raw, POS, kinds=("play",)), BoardRefusal)  # not on Play
    stale = read_action({**raw, "position": "g1:1:3:0"}, POS, kinds=("hint",))
    assert isinstance(stale, BoardRefusal) and stale.stale


def test_a_well_formed_action_names_real_cards_in_order() -> None:
    said = read_action({"kind": "play", "position": POS, "card": "7o", "take": ["5e", "3c"]},
                       POS)
    assert said == BoardAction("play", Card.parse("7o"), (Card.parse("3c"), Card.parse("5e")))


_json = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=5), max_leaves=20)
_codes = st.sampled_from([str(c) for c in CARDS[:40]] + ["J1", "11o", "", "7"])


@settings(max_examples=300, deadline=None)
@given(kind=st.sampled_from(["play", "add", "renuncio", "hint", "x", None]),
       card=st.none() | _codes, take=st.lists(_codes, max_size=6) | _json,
       extra=st.dictionaries(st.text(max_size=5), _json, max_size=3))
def test_whatever_arrives_is_an_action_or_a_refusal_never_an_exception(
        kind, card, take, extra) -> None:
    raw = {**extra, "kind": kind, "position": POS, "card": card, "take": take}
    said = read_action(raw, POS)
    assert isinstance(said, BoardAction | BoardRefusal)
    if isinstance(said, BoardAction):
        cards = [c for c in (said.card, *said.take) if c is not None]
        assert len(set(cards)) == len(cards) and all(isinstance(c, Card) for c in cards)


# -- a game's board -----------------------------------------------------------------------

def _session(seed: int, rules: Rules | None = None, humans: int = 1) -> GameSession:
    rules = rules or Rules()
    seats = [SeatSpec("human", f"Kid{i}", "🦊") for i in range(humans)] + [
        SeatSpec("bot", f"Bot{i}", "🤖", "random") for i in range(rules.players - humans)]
    game = GameSession.new(rules, seats, seed)
    game.run_bots()
    return game


def _advance(game: GameSession, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.round_over:
            return
        obs = game.observation(game.to_move)
        move = rng.choice(obs.legal_moves())
        game.play_human_then_bots(move.card, list(move.take))


def _board(game: GameSession, viewer: int | None = 0, reveal: bool = True,
           **kw: Any) -> dict[str, Any]:
    options = {"deck": Deck.SPANISH, "show_value": True, "hints_on": True, "hint_step": 1}
    options.update(kw)
    return session_board(game, viewer=viewer, reveal=reveal, **options)


def _hidden_from(game: GameSession, seat: int) -> list[Card]:
    round_ = game.game.round
    return [c for other in range(game.rules.players) if other != seat
            for c in round_.hand(other)]


def _mentions(data: dict[str, Any], card: Card) -> bool:
    text = json.dumps(data, ensure_ascii=False)
    names = {card_name(card, d) for d in Deck}
    # A card's code as a value of its own anywhere ("takes_all": ["1o"]) counts too.
    return card.__str__() in data["faces"] or any(n in text for n in names) or (
        f'data-card=\\"{card}\\"' in text) or f'"{card}"' in text


@pytest.mark.parametrize("variant", ["escoba", "scopa"])
@pytest.mark.parametrize("seed", range(12))
def test_hidden_cards_are_never_in_the_boards_data(seed: int, variant: str) -> None:
    rng = random.Random(seed)
    # Scopa with asso piglia tutto: the board lists the cards that take the table by
    # right ("takes_all"), which must be the viewer's own, never an opponent's ace.
    rules = (Rules(players=rng.choice([2, 3, 4])) if variant == "escoba" else
             Rules.preset("scopa", players=rng.choice([2, 3, 4]), asso_piglia_tutto=True))
    game = _session(seed, rules)
    _advance(game, rng, rng.randrange(0, 6))
    data = _board(game)
    hidden = _hidden_from(game, 0) + list(game.round.stock)  # other hands, the stock
    assert hidden  # something is hidden: the check below can fail
    assert not [c for c in hidden if _mentions(data, c)]
    if not game.round_over:
        assert data["hand"] == [str(c) for c in game.round.hand(0)]


def test_open_hand_sends_the_other_hands_face_up_in_place() -> None:
    """The positive control of the test above: with *mesa abierta* they are sent."""
    game = _session(3, Rules(open_hand=True))
    data = _board(game)
    shown = {row["seat"]: row["cards"] for row in data["seats"]}
    assert shown[1] == [str(c) for c in game.round.hand(1)] and shown[1]
    assert all(_mentions(data, c) for c in game.round.hand(1))


def test_a_child_who_may_not_look_gets_no_hand_at_all() -> None:
    """Two children on one tablet, before "show my cards": no hand in the data."""
    game = _session(5, Rules(players=2), humans=2)
    seat = game.to_move
    data = _board(game, viewer=None, reveal=False)
    assert data["hand"] == [] and not data["interactive"]
    assert not [c for c in game.round.hand(seat) if _mentions(data, c)]


@pytest.mark.parametrize("seed", range(8))
def test_the_boards_tick_comes_from_the_engines_legal_moves(seed: int) -> None:
    rng = random.Random(100 + seed)
    game = _session(seed, Rules(capture_rule=rng.choice(["optional", "forced", "renuncio"])))
    _advance(game, rng, rng.randrange(0, 5))
    if game.round_over:
        pytest.skip("the round ended")
    data = _board(game)
    legal = game.observation(0).legal_moves()
    assert set(data["moves"]) == {move_key(m.card, m.take) for m in legal}
    assert data["interactive"] and data["position"] == session_position(game)


def test_the_board_warns_on_the_move_that_leaves_a_sweep_and_only_with_hints() -> None:
    """7 takes the Sota (leaving 5 + 4 + 1 = 10: one 5 sweeps); the warning rides on
    the move's key, in words, and disappears when hints are off."""
    from escoba import Game
    from escoba.deck import deck_for

    rules = Rules()
    deck = deck_for(rules, [["7o", "1c", "2c"], ["3b", "4b", "6b"]], ["8o", "5e", "4e", "1b"],
                    dealer=1)
    played = Game(rules, dealer=1)
    played.start_round(deck)
    game = GameSession(rules, [SeatSpec("human", "Kid", "🦊"),
                               SeatSpec("bot", "Bot", "🤖", "random")], 1, played)
    assert game.to_move == 0
    data = _board(game)
    key = move_key(Card.parse("7o"), [Card.parse("8o")])
    assert key in data["moves"]
    warn = data["moves"][key]
    # At most 12 words to read at once, the odds as a picture (3 bars), the whole
    # sentence one tap away (issue 23).
    assert warn["warn"] and "10" in warn["warn"] and len(warn["warn"].split()) <= 12
    assert warn["level"] in (1, 2, 3) and warn["odds"]
    assert "adds up to 10" in warn["long"]
    quiet = _board(game, hints_on=False)
    assert quiet["moves"][key]["warn"] is None and not quiet["hints"]["badges"]


def test_forged_cards_reach_the_engine_which_refuses_and_changes_nothing() -> None:
    """A well-formed action naming a card the child does not hold (a forged selection)
    gets the engine's own refusal; the game does not move."""
    game = _session(7)
    position = session_position(game)
    stranger = _hidden_from(game, 0)[0]
    said = read_action({"kind": "play", "position": position, "card": str(stranger)}, position)
    assert isinstance(said, BoardAction)
    before = len(game.round.history)
    outcome = game.play_human(said.card, list(said.take))
    assert not outcome.ok and outcome.key == "not_in_hand"
    assert len(game.round.history) == before and session_position(game) == position


def test_names_travel_as_plain_text_for_the_board_to_escape() -> None:
    """The board writes every name with textContent-safe escaping (board.js esc()); the
    data carries the name exactly, never pre-rendered markup."""
    rules = Rules()
    game = GameSession.new(rules, [SeatSpec("human", 'Zo&"<i>', "🦊"),
                                   SeatSpec("bot", "Bot", "🤖", "random")], 2)
    data = _board(game)
    assert 'Zo&"<i>' in data["header"]["hand_title"]


# -- a puzzle's board ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["captures", "hand", "fifteens", "best-move"])
def test_a_puzzles_board_offers_what_the_kind_lets_the_child_pick(kind: str) -> None:
    puzzle = generate(kind, 2, seed="board")
    data = puzzle_board(puzzle, sets_given=0, deck=Deck.SPANISH, show_value=True,
                        intro="intro", hand_title="hand", add_label="Add", play_label="Play")
    select = data["select"]
    expected = {"captures": "fixed", "hand": "single", "fifteens": "none",
                "best-move": "single"}[kind]
    assert select["hand"] == expected
    assert select["fixed"] == (str(puzzle.hand[0]) if kind == "captures" else None)
    assert data["moves"] is None  # the answers are not sent: the checker judges a set
    assert data["position"] == puzzle_position(puzzle, 0) != puzzle_position(puzzle, 1)
    done = puzzle_board(puzzle, sets_given=2, deck=Deck.SPANISH, show_value=True, intro="",
                        hand_title="", add_label="", play_label="", done=True)
    assert done["select"]["table"] == "none" and not done["interactive"]


def test_every_card_has_an_accessible_name_with_its_value() -> None:
    puzzle = generate("captures", 2, seed="aria")
    data = puzzle_board(puzzle, sets_given=0, deck=Deck.SPANISH, show_value=True, intro="",
                        hand_title="", add_label="", play_label="")
    for code, face in data["faces"].items():
        card = Card.parse(code)
        assert face["aria"] == f"{card.name(Deck.SPANISH)}, {card.value}"
    use_language("es")
    data = puzzle_board(puzzle, sets_given=0, deck=Deck.FRENCH, show_value=False, intro="",
                        hand_title="", add_label="", play_label="")
    assert all(f["aria"] == card_name(Card.parse(c), Deck.FRENCH) for c, f in
               data["faces"].items())


def test_masks_and_cards_agree() -> None:
    """Sanity for the helpers above: a hand mask lists the hand's cards."""
    game = _session(1)
    obs = game.observation(0)
    assert list(cards_of(obs.hand_mask)) == list(game.round.hand(0))


# -- the Play page's glue (ui.board.handle_board_action, Streamlit's bare mode) ------------

def test_the_play_page_refuses_forged_ignores_stale_and_plays_legal_actions() -> None:
    import streamlit as st_app

    from ui.board import handle_board_action

    game = _session(11)
    position = session_position(game)
    before = len(game.round.history)
    st_app.session_state.pop("flash", None)

    forged = {"kind": "play", "position": position, "card": "9x", "take": ["<b>"]}
    assert isinstance(handle_board_action(game, forged), BoardRefusal)
    assert st_app.session_state.pop("flash")[1] == "board_bad_selection"
    assert len(game.round.history) == before

    not_mine = {"kind": "play", "position": position, "card": str(_hidden_from(game, 0)[0])}
    handle_board_action(game, not_mine)
    assert st_app.session_state.pop("flash")[1] == "not_in_hand"  # the engine's reason
    assert len(game.round.history) == before

    stale = {"kind": "play", "position": "g0:9:99:0", "card": str(game.round.hand(0)[0])}
    assert handle_board_action(game, stale).stale
    assert "flash" not in st_app.session_state and len(game.round.history) == before

    move = game.observation(0).legal_moves()[0]
    legal = {"kind": "play", "position": position, "card": str(move.card),
             "take": [str(c) for c in move.take]}
    assert handle_board_action(game, legal) == BoardAction("play", move.card,
                                                           tuple(sorted(move.take)))
    assert len(game.round.history) > before and session_position(game) != position
    again = handle_board_action(game, legal)  # a double tap: the same action once more
    assert isinstance(again, BoardRefusal) and again.stale


def test_only_the_viewers_own_ace_is_named_as_taking_the_table() -> None:
    """Asso piglia tutto: ``takes_all`` names the viewer's ace that takes the table by
    right, never an opponent's ace, and nothing when the viewer may not play or look."""
    from escoba import Round
    from trainer.board_view import SeatView, game_board

    rules = Rules.preset("scopa", asso_piglia_tutto=True)
    round_ = Round.from_position(rules, [["1o", "5b", "9c"], ["1e", "6b", "6c"]],
                                 ["3b", "7e", "10b"], to_move=0)

    def board(seat: int, **kw: Any) -> dict[str, Any]:
        obs = round_.observation(seat)
        if not kw.get("show_hand", True):
            obs = obs._replace(hand_mask=0)
        return game_board(obs=obs, seats=[SeatView(seat, "me", True),
                                          SeatView(1 - seat, "other", False)],
                          game_id=1, rounds=1, history=(), recent_from=0, to_move=0,
                          totals=(0, 0), side_names=("a", "b"), header=None,
                          deck=Deck.ITALIAN, show_value=True,
                          interactive=kw.get("interactive", True),
                          show_hand=kw.get("show_hand", True), hints_on=False,
                          hint_step=1, odds_style="words")

    assert board(0)["takes_all"] == ["1o"]
    mine = board(0)
    assert not _mentions(mine, Card.parse("1e"))  # the opponent's ace stays hidden
    assert board(0, interactive=False)["takes_all"] == []
    assert board(0, show_hand=False, interactive=False)["takes_all"] == []
    assert board(1, interactive=False)["takes_all"] == []  # not seat 1's turn
