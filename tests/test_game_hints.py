"""Hints on the board: graduated (a nudge, the cards lit, the arithmetic and the move),
odds in words or numbers, and never a verdict followed by its contradiction."""

from __future__ import annotations

import pytest

from escoba import Deck, Round, Rules
from tests.helpers import card, stacked_round
from tests.test_app_helpers import (
    assert_ok,
    board_data,
    create_profile,
    game,
    new_app,
    start_game,
)
from trainer.hints import Odds, game_hint

RULES = Rules.preset("classic")


def _obs(hands: list[str], table: str):
    round_ = stacked_round(RULES, hands, table)
    return round_.observation(round_.to_move)


def _keys(hint) -> list[str]:
    return [line.key for line in hint.lines]


def test_hints_go_from_a_nudge_to_the_lit_cards_to_the_arithmetic() -> None:
    obs = _obs(["7o 6c 9e", "4o 6b 4e"], "1b 1c 5o 3c")
    first, second, third = (game_hint(obs, step) for step in (1, 2, 3))
    assert _keys(first) == ["hint_nudge_capture"] and first.lines[0].params["card"] == card("7o")
    assert first.lit == () and first.more
    assert _keys(second) == ["hint_nudge_capture", "hint_lit"]
    assert set(second.lit) == {card("7o"), card("3c"), card("5o")} and second.more
    assert _keys(third)[-1] == "hint_arith" and not third.more
    arith = third.lines[-1].params
    assert (arith["expr"], arith["sum"]) == ("3 + 5 + 7", 15)
    assert arith["why"][0] == "captures"


def test_when_every_move_is_risky_the_best_is_not_contradicted() -> None:
    # No capture: every card laid down leaves 12, 13 or 14 on the table.
    obs = _obs(["1o 2c 3e", "4o 6c 4e"], "5b 4c 1b 1c")
    hint = game_hint(obs, 3)
    best_move = hint.lines[-2].params["move"]
    warnings = [line for line in hint.lines if line.kind == "warn"]
    assert [w.key for w in warnings] == ["warn_all_risky_smallest"]
    assert warnings[0].params["move"] == best_move
    # The best move's "why" is not its own risk again.
    assert hint.lines[-2].key == "hint_move_plain"
    # A child looking at another card is warned about that card's move, not the best one.
    other = next(c for c in obs.hand if c != best_move.card)
    looking = game_hint(obs, 1, other)
    assert [line.key for line in looking.lines if line.kind == "warn"] == ["warn_sweep_odds"]
    assert all(line.params["move"].card == other for line in looking.lines
               if line.kind == "warn")


def test_a_risky_best_move_with_a_safe_alternative_is_worth_it() -> None:
    obs = _obs(["7o 2c 3e", "4o 6c 4e"], "8b 4c 1b 1c")
    hint = game_hint(obs, 3)
    assert [line.key for line in hint.lines if line.kind == "warn"] == ["warn_best_worth_it"]


def test_odds_have_words_and_a_meter_level() -> None:
    assert (Odds(0.09, False).word_key, Odds(0.09, False).level) == ("odds_1", 1)
    assert Odds(0.26, False).word_key == "odds_2" and Odds(0.26, False).percent == 26
    assert Odds(0.6, False).word_key == "odds_3"
    assert Odds(1.0, True).word_key == "odds_sure"


def _hint_html(at) -> str:
    return next(h.value for h in at.get("html") if "Best move:" in h.value)


@pytest.mark.usefixtures("fresh_app")
def test_the_board_hint_starts_with_a_nudge_and_more_help_adds_to_it() -> None:
    at = start_game(create_profile(new_app()))
    for _ in range(30):  # a position where the best move captures
        g = game(at)
        best = game_hint(g.observation(g.to_move), 3)
        if "hint_arith" in _keys(best) or "hint_arith_plain" in _keys(best):
            break
        move = g.observation(g.to_move).legal_moves()[0]
        at.pills(key="pick_hand").set_value(str(move.card)).run()
        if move.take:
            at.pills(key="pick_table").set_value([str(c) for c in move.take]).run()
        at.button(key="play_button").click().run()
        if game(at).round_over:
            pytest.skip("no capture came up this round")
    first = _hint_html(at)
    assert "can make 15 here" in first or "can sweep" in first
    assert "= 15:" not in first and not board_data(at)["hints"]["lit"]
    at.button(key="hint_more").click().run()
    assert_ok(at)
    assert "lit cards" in _hint_html(at)
    lit = board_data(at)["hints"]["lit"]
    assert lit and set(lit) <= set(board_data(at)["hand"]) | set(board_data(at)["table"])
    at.button(key="hint_more").click().run()
    assert "= 15:" in _hint_html(at)
    assert "hint_more" not in {b.key for b in at.button}


@pytest.mark.usefixtures("fresh_app")
def test_odds_in_numbers_is_a_setting_saved_in_the_profile() -> None:
    at = create_profile(new_app())
    at.switch_page("app_pages/settings.py").run()
    assert at.segmented_control(key="set_odds").value == "words"
    at.segmented_control(key="set_odds").set_value("numbers").run()
    assert_ok(at)
    import os

    import sqlalchemy as sa

    from trainer.storage import Storage

    store = Storage(sa.create_engine(f"sqlite:///{os.environ['ESCOBA_DB_PATH']}"),
                    migrate=False)
    assert store.list_profiles()[0].settings["odds"] == "numbers"


def test_the_coachs_why_is_said_in_words_not_as_a_table() -> None:
    from ui.board import coach_text

    said = coach_text("captures", {"cards": 2, "oros": 1, "sevens": 1, "siete_de_oros": False})
    assert said == "it takes 2 cards, with an oro and a seven"
    assert coach_text("captures", {"cards": 3, "oros": 0, "sevens": 0}) == "it takes 3 cards"
    assert "oros:" not in coach_text("captures", {"cards": 1, "oros": 2, "sevens": 0})


@pytest.mark.parametrize("odds_style", ["words", "numbers"])
def test_the_board_and_the_hint_panel_say_the_same_odds(odds_style: str) -> None:
    # For every move the hint panel warns of (the best one and the others of the card
    # looked at), the board's warning on that move gives the same odds.
    from escoba import Deck
    from tests.helpers import random_rounds
    from trainer.board_view import SeatView, game_board, move_key
    from trainer.words import odds_text

    compared = 0
    for round_ in random_rounds(RULES, range(60), 24):
        obs = round_.observation(round_.to_move)
        board = game_board(obs=obs, seats=[SeatView(obs.seat, "Ana", True)], game_id=1,
                           rounds=1, history=round_.history, recent_from=0,
                           to_move=obs.seat, totals=(0, 0), side_names=("Ana", "B"),
                           header=None, deck=Deck.SPANISH, show_value=True, interactive=True,
                           show_hand=True, hints_on=True, hint_step=3, odds_style=odds_style)
        for picked in obs.hand:
            for line in game_hint(obs, 3, picked).lines:
                if "odds" not in line.params:
                    continue
                move = line.params["move"]
                shown = board["moves"][move_key(move.card, move.take)]
                assert shown["odds"] == odds_text(line.params["odds"], odds_style), line
                assert shown["level"] == line.params["odds"].level
                compared += 1
    assert compared >= 20


def test_the_ace_taking_the_table_by_right_is_hinted_as_a_move_never_a_sum() -> None:
    """Asso piglia tutto: the best move is the ace taking 3 + 5 + 7 by right. Its hint
    lights the cards and says the move; never "3 + 5 + 7 = 1" nor "they add up"."""
    from trainer.words import hint_line_text

    rules = Rules.preset("scopa", asso_piglia_tutto=True)
    round_ = Round.from_position(rules, [["1o", "9c", "9e"], ["2b", "6b", "6c"]],
                                 ["3b", "5e", "7c"], to_move=0)
    second, third = game_hint(round_.observation(0), 2), game_hint(round_.observation(0), 3)
    assert second.lines[-1].key == "hint_lit_by_right"
    assert set(second.lit) == {card("1o"), card("3b"), card("5e"), card("7c")}
    assert "hint_arith" not in _keys(third) and "hint_arith_plain" not in _keys(third)
    assert third.lines[-1].key in ("hint_move", "hint_move_plain")
    words = " ".join(hint_line_text(line, Deck.ITALIAN) for line in third.lines)
    assert "= 1" not in words and "add up" not in words, words
