"""Messages and lines that say what happened (issue 26): two 15s tapped at once, the
renuncio warning before a card that could capture is laid, and a rules line that lists
every option in force (How to play shows them all, in the same words)."""

from __future__ import annotations

from helpers import card, cards, stacked_round

from escoba import Deck, Move, Rules
from trainer.board_view import SeatView, game_board
from trainer.i18n import t
from trainer.rules_text import RULE_OPTIONS, chip_texts, rules_in_force
from trainer.verdicts import move_message


def test_two_separate_fifteens_are_told_to_take_one_set():
    rules = Rules.preset("classic")
    # 10 + 5 = 15 and 10 + 1 + 4 = 15: tapped together they make 20.
    round_ = stacked_round(rules, ["10b 2c 3c", "6e 6b 6c"], "5c 1e 4o 9b", dealer=1)
    verdict = round_.check(Move(card("10b"), frozenset(cards("5c 1e 4o"))))
    assert verdict is not None
    key, params = move_message(verdict)
    assert key == "wrong_sum_two_sets"
    text = t(key, "en", **params)
    assert "Those are two 15s" in text and "take one of them" in text
    assert {params["first"], params["second"]} == {"5 + 10", "1 + 4 + 10"}
    # A plain wrong sum is still the arithmetic.
    plain = round_.check(Move(card("10b"), frozenset(cards("5c 4o"))))
    assert move_message(plain)[0] == "wrong_sum"


def _board(rules: Rules, hand: str, table: str, last_card: bool = False):
    round_ = stacked_round(rules, [hand, "6e 6b 6c"], table, dealer=1)
    obs = round_.observation(0)
    if last_card:  # the first hand card is the round's very last: nobody plays after it
        obs = obs._replace(hand_mask=card(hand.split()[0]).bit, hand_counts=(1, 0),
                           stock_count=0)
    return game_board(obs=obs, seats=[SeatView(0, "Ana", True), SeatView(1, "B", False)],
                      game_id=1, rounds=1, history=round_.history, recent_from=0,
                      to_move=0, totals=(0, 0), side_names=("Ana", "B"), header=None,
                      deck=Deck.SPANISH, show_value=True, interactive=True, show_hand=True,
                      hints_on=False, hint_step=1, odds_style="words")


def test_under_renuncio_laying_a_card_that_could_capture_is_warned_first():
    data = _board(Rules.preset("relaxed", capture_rule="renuncio"), "10b 2c 3c",
                  "5c 1e 4o 9b")
    lay_rey = data["moves"]["10b|"]["warn"]
    assert lay_rey and "¡renuncio!" in lay_rey and "Rey de bastos" in lay_rey
    assert "¡renuncio!" not in (data["moves"]["3c|"]["warn"] or "")  # 3 takes nothing here
    # Optional capture: laying it down is allowed and nobody can claim it.
    relaxed = _board(Rules.preset("relaxed"), "10b 2c 3c", "5c 1e 4o 9b")
    assert "¡renuncio!" not in (relaxed["moves"]["10b|"]["warn"] or "")
    # On the round's last card nobody is left to claim: no warning (the coach's rule).
    last = _board(Rules.preset("relaxed", capture_rule="renuncio"), "10b 2c 3c",
                  "5c 1e 4o 9b", last_card=True)
    assert "10b|" in last["moves"] and last["moves"]["10b|"]["warn"] is None


def test_the_rules_line_lists_every_option_in_force():
    rules = Rules.preset("classic", jokers=True, capture_rule="renuncio", primera=True,
                         hand_size=7, miscount="penalty", open_hand=True)
    keys = [c.key for c in rules_in_force(rules)]
    assert keys == ["preset_classic", "target", "sum", "renuncio", "dealer_takes",
                    "primera", "jokers", "hand7", "penalty", "open_hand"]
    escova = [chip_texts(c, "en")["label"] for c in rules_in_force(Rules.preset("escova"))]
    assert escova[:2] == ["Escova", "to 31"]  # said once, not "(to 31 points) · to 31"
    teams = [c.key for c in rules_in_force(Rules.preset("setenta", players=4, teams=True))]
    assert "teams" in teams and "redeal" in teams
    assert "players" in [c.key for c in rules_in_force(Rules.preset("classic", players=3))]
    # How to play lists every option the rules line can show, in the same words.
    offered = {k for k, _ in RULE_OPTIONS}
    assert set(keys) <= offered
    for key in offered:
        words = chip_texts(key, "es")
        assert words["icon"] and words["label"] and words["text"]
