"""Rounds and games: the deal, every option of RULES.md, scoring, winning."""

from __future__ import annotations

import random

import pytest
from helpers import card, cards, stacked_deck, stacked_round

from escoba import Code, DeckError, Game, IllegalMoveError, Move, Renuncio, Round, Rules
from escoba.bots import RandomPlayer
from escoba.cards import CARDS, mask_of
from escoba.match import play_game
from escoba.movegen import initial_table_triggers
from escoba.rules import CATEGORIES
from escoba.scoring import score_round, setenta_total

# -- the deal ---------------------------------------------------------------------


def test_deal_gives_three_at_a_time_from_the_first_player_then_four_to_the_table():
    rules = Rules.preset("classic", players=3)
    deck = list(CARDS[:40])
    random.Random(4).shuffle(deck)
    round_ = Round(rules, deck, dealer=1)
    assert round_.to_move == 2
    assert set(round_.hand(2)) == set(deck[0:3])
    assert set(round_.hand(0)) == set(deck[3:6])
    assert set(round_.hand(1)) == set(deck[6:9])
    if round_.dealer_took_initial_table:
        assert set(round_.pile(1)) == set(deck[9:13])
    else:
        assert set(round_.table) == set(deck[9:13])
    assert round_.stock == tuple(deck[13:])


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_the_36_cards_after_the_table_make_6_4_or_3_deals(players, deals):
    rules = Rules.preset("classic", players=players, initial_fifteen="ignore")
    deck = list(CARDS[:40])
    random.Random(players).shuffle(deck)
    round_ = Round(rules, deck, dealer=0)
    refills = 1
    rng = random.Random(1)
    while not round_.is_over:
        before = len(round_.stock)
        moves = round_.legal_moves()
        round_.play(moves[rng.randrange(len(moves))])
        if len(round_.stock) != before:
            refills += 1
            # the next deal continues in playing order from the top of the stock
            first = (round_.dealer + 1) % players
            expected = deck[40 - before: 40 - before + 3]
            assert set(round_.hand(first)) == set(expected)
    assert refills == deals


def test_hand_of_seven_deals_min_of_hand_size_and_what_is_left():
    # 2 players: 40 - 14 - 4 = 22 -> 7 each (8 left) -> 4 each.
    rules = Rules.preset("classic", hand_size=7, initial_fifteen="ignore")
    round_ = Round(rules, list(CARDS[:40]), dealer=0)
    deal_sizes = [len(round_.hand(1))]
    rng = random.Random(2)
    while not round_.is_over:
        stock_before = len(round_.stock)
        moves = round_.legal_moves()
        round_.play(moves[rng.randrange(len(moves))])
        if len(round_.stock) < stock_before:
            deal_sizes.append(len(round_.hand(1)))
    assert deal_sizes == [7, 7, 4]


def test_jokers_leave_fewer_cards_than_players_on_the_table():
    # 3 players, jokers: 42 - 9 - 4 = 29 -> 20 -> 11 -> 2 left: 2 < 3 go to the table.
    rules = Rules.preset("classic", players=3, jokers=True, initial_fifteen="ignore")
    deck = list(CARDS[:42])
    random.Random(7).shuffle(deck)
    round_ = Round(rules, deck, dealer=0)
    rng = random.Random(3)
    saw_leftovers = False
    while not round_.is_over:
        stock_before = len(round_.stock)
        table_before = set(round_.table)
        moves = round_.legal_moves()
        round_.play(moves[rng.randrange(len(moves))])
        if stock_before == 11 and len(round_.stock) == 0:
            saw_leftovers = True
            leftovers = set(deck[-2:])
            assert leftovers <= set(round_.table) | table_before | set(CARDS)
            assert leftovers <= set(round_.table) or any(
                set(p.take) & leftovers for p in round_.history)
    assert saw_leftovers
    assert round_.cards_accounted() == mask_of(CARDS[:42])


def test_a_deck_that_is_not_full_is_refused():
    rules = Rules.preset("classic")
    with pytest.raises(DeckError, match="missing 10b"):
        Round(rules, list(CARDS[:39]), 0)
    with pytest.raises(DeckError, match="twice"):
        Round(rules, list(CARDS[:39]) + [CARDS[0]], 0)
    with pytest.raises(DeckError, match="JK1"):
        Round(rules, list(CARDS[:39]) + [CARDS[40]], 0)


# -- a table of fifteen at the start -------------------------------------------------


def test_ignore_leaves_a_table_of_fifteen():
    rules = Rules.preset("classic", initial_fifteen="ignore")
    round_ = stacked_round(rules, ["3c 4c 6c", "3e 4e 6e"], "1o 2o 5o 7o")
    assert set(round_.table) == set(cards("1o 2o 5o 7o"))
    assert round_.last_capturer is None


def test_dealer_takes_only_when_all_four_total_fifteen():
    rules = Rules.preset("classic")
    assert initial_table_triggers(rules, cards("1o 2o 5o 7o"))
    assert not initial_table_triggers(rules, cards("7o 8c 1e 2e"))  # a subset is not enough


def test_redeal_triggers_on_any_subset_of_fifteen():
    rules = Rules.preset("setenta")
    assert initial_table_triggers(rules, cards("7o 8c 1e 2e"))
    assert not initial_table_triggers(rules, cards("1o 1c 1e 2e"))
    deck = stacked_deck(rules, ["3c 4c 6c", "3e 4e 6e"], "7o 8c 1e 2e")
    with pytest.raises(DeckError, match="redealt") as refused:
        Round(rules, deck, 0)
    assert refused.value.code == Code.DECK_REDEAL
    assert refused.value.params == {"table": ["1e", "2e", "7o", "8c"], "need": 15}


def test_a_joker_never_triggers_the_initial_table_rules():
    classic = Rules.preset("classic", jokers=True)
    assert not initial_table_triggers(classic, cards("1o 2o 5o JK1"))  # JK as 7: no
    setenta = Rules.preset("setenta", jokers=True)
    assert not initial_table_triggers(setenta, cards("1o 2o 3o JK1"))
    # ...but the other cards can still make 15 by themselves (docs/RULES-READING.md)
    assert initial_table_triggers(setenta, cards("7o 8c 1e JK1"))


def test_game_redeals_and_keeps_the_abandoned_deck():
    rules = Rules.preset("setenta")
    game = Game(rules, dealer=0, seed=11)
    for _ in range(30):
        round_ = game.start_round()
        assert not initial_table_triggers(rules, mask_of(round_.deck[6:10]))
        for abandoned in game.round_records[-1].redealt:
            assert initial_table_triggers(rules, mask_of(abandoned[6:10]))
        while not round_.is_over:
            game.play(round_.legal_moves()[0])
        if game.is_over:
            break
    assert any(r.redealt for r in game.round_records)


# -- capture rules ---------------------------------------------------------------------


def test_only_the_seat_to_move_may_play():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    with pytest.raises(IllegalMoveError, match="not your turn: seat 0 tried to play, "
                                               "but it is seat 1's turn"):
        round_.play(Move(card("9b")), seat=0)
    with pytest.raises(IllegalMoveError, match="9b is not in the hand of seat 1"):
        round_.play(Move(card("9b")))
    round_.play(Move(card("1c")), seat=1)


def test_forced_is_per_played_card():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    moves = round_.legal_moves()
    assert Move(card("7o")) not in moves                       # 7 must capture
    assert Move(card("1c")) in moves                           # 1 cannot: laid down
    round_.play(Move(card("1c")))
    assert card("1c") in round_.table


def test_optional_allows_laying_down_a_card_that_captures():
    rules = Rules.preset("relaxed")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    assert Move(card("7o")) in round_.legal_moves()
    round_.play(Move(card("7o")))
    assert card("7o") in round_.table
    assert round_.renuncio_claims() == []


def renuncio_round() -> Round:
    rules = Rules.preset("classic", capture_rule="renuncio")
    return stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")


def test_renuncio_claim_takes_the_card_and_a_set_it_could_have_captured():
    round_ = renuncio_round()
    round_.play(Move(card("7o")))                  # seat 1 lays a 7 that could capture
    claims = round_.renuncio_claims()
    assert {frozenset(c.take) for c in claims} == {frozenset(cards("8e")),
                                                  frozenset(cards("3o 5c"))}
    played = round_.claim_renuncio(Renuncio(card("7o"), frozenset(cards("3o 5c"))))
    assert not played.escoba
    assert set(round_.pile(0)) == set(cards("7o 3o 5c"))
    assert set(round_.table) == set(cards("8e 10b"))
    assert round_.last_capturer == 0
    assert round_.to_move == 0                     # the claimer still plays
    with pytest.raises(IllegalMoveError, match="nothing to claim"):
        round_.claim_renuncio(Renuncio(card("7o"), frozenset(cards("8e"))))


def test_renuncio_claim_is_never_an_escoba_even_when_it_clears_the_table():
    rules = Rules.preset("classic", capture_rule="renuncio")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "8e 10b 10c 10o")
    # 7 + 8 = 15 could be taken; lay it down, then take 7o + 8e: 10s remain. No escoba.
    round_.play(Move(card("7o")))
    round_.claim_renuncio(Renuncio(card("7o"), frozenset(cards("8e"))))
    assert round_.escobas == (0, 0)


def test_renuncio_claims_are_checked():
    round_ = renuncio_round()
    round_.play(Move(card("7o")))
    with pytest.raises(IllegalMoveError, match="not 15"):
        round_.claim_renuncio(Renuncio(card("7o"), frozenset(cards("10b"))))
    with pytest.raises(IllegalMoveError, match="the card laid down was 7o"):
        round_.claim_renuncio(Renuncio(card("8e"), frozenset(cards("3o 5c"))))


def test_renuncio_lapses_once_the_next_player_plays():
    round_ = renuncio_round()
    round_.play(Move(card("7o")))
    round_.play(Move(card("9b")))  # seat 0 plays instead of claiming: 9 captures nothing
    assert round_.renuncio_claims() == []
    with pytest.raises(IllegalMoveError, match="nothing to claim"):
        round_.claim_renuncio(Renuncio(card("7o"), frozenset(cards("8e"))))


def test_no_renuncio_without_the_rule():
    rules = Rules.preset("relaxed")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    round_.play(Move(card("7o")))
    with pytest.raises(IllegalMoveError, match="capture_rule=renuncio"):
        round_.claim_renuncio(Renuncio(card("7o"), frozenset(cards("8e"))))


# -- miscounts ---------------------------------------------------------------------------


def test_retry_refuses_a_wrong_sum_with_the_arithmetic_and_changes_nothing():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 4c 8e 10b")
    before = (round_.table, round_.hand(1), round_.to_move)
    with pytest.raises(IllegalMoveError, match=r"3 \+ 4 \+ 7 = 14, not 15"):
        round_.play(Move(card("7o"), frozenset(cards("3o 4c"))))
    assert (round_.table, round_.hand(1), round_.to_move) == before
    with pytest.raises(IllegalMoveError, match="refused under miscount=retry"):
        round_.play(Move(card("7o"), miscount=frozenset(cards("3o 4c"))))


def test_penalty_lays_the_card_down_and_returns_the_chosen_cards():
    rules = Rules.preset("classic", miscount="penalty")
    round_ = stacked_round(rules, ["7o 1c 2c", "9b 4e 6e"], "3o 4c 8e 10b")
    played = round_.play(Move(card("7o"), miscount=frozenset(cards("3o 4c"))))
    assert played.kind == "miscount"
    assert set(round_.table) == set(cards("3o 4c 8e 10b 7o"))
    assert round_.to_move == 0
    # a capture disguised as a miscount is refused
    with pytest.raises(IllegalMoveError, match="not a miscount"):
        round_.play(Move(card("4e"), miscount=frozenset(cards("3o 8e"))))  # 4+3+8 = 15


# -- escobas and the end of the round -------------------------------------------------------


def random_round(rules: Rules, seed: int) -> Round:
    """A round dealt from a deck shuffled with ``seed`` (dealer 0)."""
    deck = list(CARDS[: rules.deck_size])
    random.Random(seed).shuffle(deck)
    return Round(rules, deck, 0)


def play_out(round_: Round, rng: random.Random) -> None:
    while not round_.is_over:
        moves = round_.legal_moves()
        round_.play(moves[rng.randrange(len(moves))])


def test_last_capturer_takes_what_is_left_and_it_is_no_escoba():
    rules = Rules.preset("classic")
    for seed in range(30):
        round_ = random_round(rules, seed)
        play_out(round_, random.Random(seed))
        sweeps = [p for p in round_.history if p.kind == "sweep"]
        if sweeps:
            assert sweeps[0].seat == round_.last_capturer
            assert not sweeps[0].escoba
            assert round_.history[-1] is sweeps[0]
        assert round_.table == ()


def find_last_card_escoba(rules: Rules) -> Round:
    """A round (by seed) whose very last card clears the table.

    Players take the most cards they can, which keeps the table small.
    """
    for seed in range(3000):
        round_ = random_round(rules, seed)
        rng = random.Random(seed)
        while not round_.is_over:
            moves = round_.legal_moves()
            if round_.stock == () and sum(len(round_.hand(s)) for s in (0, 1)) == 1:
                clearing = [m for m in moves if m.take and set(m.take) == set(round_.table)]
                if clearing:
                    round_.play(clearing[0])
                    return round_
            most = max(len(m.take) for m in moves)
            round_.play(rng.choice([m for m in moves if len(m.take) == most]))
    raise AssertionError("no last-card sweep found")


# The forty values add up to 220 and every capture removes exactly the capture
# sum, so with 15 the last card can never clear the table (220 = 14 * 15 + 10):
# With 10 a Rey can never be captured, so the table is never cleared at the end
# either: last_play_escoba matters only with capture sum 20, or jokers.


def test_with_fifteen_and_no_jokers_the_last_card_never_clears_the_table():
    rules = Rules.preset("classic")
    for seed in range(200):
        round_ = random_round(rules, seed)
        play_out(round_, random.Random(seed))
        last = [p for p in round_.history if p.kind == "play"][-1]
        assert not last.escoba  # under classic a last-card clear would be one


def test_last_card_sweep_is_an_escoba_under_classic():
    round_ = find_last_card_escoba(Rules.preset("classic", capture_sum=20))
    assert round_.history[-1].escoba


def test_last_card_sweep_is_no_escoba_under_relaxed():
    round_ = find_last_card_escoba(Rules.preset("relaxed", capture_sum=20))
    assert not round_.history[-1].escoba
    assert round_.history[-1].take  # still a capture


def test_an_escoba_made_with_a_joker_scores_no_point():
    rules = Rules.preset("classic", jokers=True)
    round_ = stacked_round(rules, ["JK1 1c 2c", "9b 4e 6e"], "2o 3o 6o 9e")
    # JK1 + 2 + 3 + 6 + 9 = 20 + JK: too much; take 6o 9e? JK + 15 > 15. Take 2o 3o 6o:
    # 11 + JK(4) = 15, leaving 9e: no sweep; instead clear with a small table:
    round_ = stacked_round(rules, ["JK1 1c 2c", "9b 4e 6e"], "2o 3o 4o 1b")
    played = round_.play(Move(card("JK1"), frozenset(cards("2o 3o 4o 1b"))))  # 10 + JK(5)
    assert round_.table == ()
    assert not played.escoba and round_.escobas == (0, 0)


# -- scoring ----------------------------------------------------------------------------------


def piles(*texts: str) -> list[int]:
    return [mask_of(cards(t)) if t else 0 for t in texts]


def test_classic_scoring_categories():
    rules = Rules.preset("classic")
    score = score_round(rules, piles("1o 2o 3o 7o 7c 7e 5c 6c", "4o 1c 2c"), [2, 1])
    b = score.breakdown
    assert b[0] == {"cards": 1, "oros": 1, "siete_de_oros": 1, "sevens": 1, "setenta": 0,
                    "escobas": 2}
    assert b[1] == {"cards": 0, "oros": 0, "siete_de_oros": 0, "sevens": 0, "setenta": 0,
                    "escobas": 1}
    assert score.totals == (6, 1)
    assert tuple(c.category for c in score.categories) == CATEGORIES
    assert score.category("cards").counts == (8, 3)
    assert "side 0 wins" in score.category("cards").explain()


def test_a_tie_in_a_category_scores_for_nobody():
    rules = Rules.preset("classic", players=3)
    score = score_round(rules, piles("1o 2o 7c", "3o 4o 7e", "5c"), [0, 0, 0])
    assert score.category("cards").winner is None       # 3, 3, 1
    assert score.category("oros").winner is None        # 2, 2, 0
    assert score.category("sevens").winner is None      # 1, 1, 0
    assert score.category("cards").reason == "tie"


def test_all_ten_oros_and_all_four_sevens_under_each_preset():
    oros = " ".join(f"{v}o" for v in range(1, 11))
    hand = piles(oros + " 7c 7e 7b", "1c 2c")
    expected = {"classic": (2, 2), "relaxed": (1, 2), "escova": (2, 0), "setenta": (1, 0)}
    for preset, (oros_points, sevens_points) in expected.items():
        b = score_round(Rules.preset(preset), hand, [0, 0]).breakdown[0]
        assert (b["oros"], b["sevens"]) == (oros_points, sevens_points), preset


def test_setenta_counts_the_best_card_of_each_suit():
    assert setenta_total(mask_of(cards("7o 6c 1e 5b 2b"))) == 21 + 18 + 16 + 15
    assert setenta_total(mask_of(cards("7o 6c 1e"))) is None          # no bastos
    rules = Rules.preset("setenta")
    score = score_round(rules, piles("7o 6c 1e 5b", "7c 7e 7b 10o"), [0, 0])
    assert score.category("setenta").counts == (70, 73)
    assert score.category("setenta").winner == 1
    assert score.category("sevens").reason == "not_played"
    missing = score_round(rules, piles("7o 6c 1e 5b", "7c 7e 7b"), [0, 0])
    assert missing.category("setenta").winner == 0                     # side 1 lacks oros


def test_primera_replaces_most_sevens_but_keeps_all_four_sevens():
    rules = Rules.preset("classic", primera=True)
    score = score_round(rules, piles("7o 7c 6e 1b", "5o 5c 5e 5b 7e"), [0, 0])
    assert score.category("sevens").points == (0, 0)            # most sevens is gone
    assert score.category("setenta").winner == 0
    four = score_round(rules, piles("7o 7c 7e 7b", "5o 5c 5e 5b"), [0, 0])
    assert four.category("sevens").points == (1, 0)


def test_teams_pool_their_piles():
    rules = Rules.preset("classic", players=4, teams=True)
    score = score_round(rules, piles("1o 2o", "3c", "3o 4o", "4c 5c"), [1, 0, 1, 0])
    assert score.sides == 2
    assert score.category("cards").counts == (4, 3)
    assert score.category("oros").counts == (4, 0)
    assert score.category("escobas").points == (2, 0)


# -- the whole game -------------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["classic", "setenta", "relaxed", "escova"])
def test_games_end_with_a_unique_leader_at_or_past_the_target(preset):
    rules = Rules.preset(preset, target=11)
    rng = random.Random(5)
    for _ in range(15):
        game = play_game(rules, [RandomPlayer(), RandomPlayer()], rng)
        assert game.is_over
        totals = game.totals
        assert totals[game.winner] >= rules.target
        assert all(t < totals[game.winner] for s, t in enumerate(totals) if s != game.winner)
        running = [0, 0]
        for i, score in enumerate(game.round_scores()):
            running = [a + b for a, b in zip(running, score.totals, strict=True)]
            if i < len(game.rounds) - 1:   # before the last round nobody had won yet
                best = max(running)
                assert best < rules.target or running.count(best) > 1
        assert running == totals


def test_the_deal_passes_to_the_next_seat():
    game = Game(Rules.preset("classic", players=3), dealer=2, seed=1)
    dealers = []
    while not game.is_over and len(dealers) < 5:
        round_ = game.start_round()
        dealers.append(round_.dealer)
        while not round_.is_over:
            game.play(round_.legal_moves()[0])
    assert dealers[:4] == [2, 0, 1, 2][: len(dealers[:4])]


# -- a position under way (Round.from_position; lessons need tables no deal gives) -------


def test_a_position_has_the_hands_table_and_stock_given():
    rules = Rules.preset("classic")
    round_ = Round.from_position(rules, [["10o"], ["4c"]], ["2o", "3c"])
    assert (round_.to_move, round_.dealer, round_.deck) == (0, 1, ())
    assert round_.hand(0) == tuple(cards("10o")) and round_.table == tuple(cards("2o 3c"))
    # Every other card is the stock, in deck order; nothing happened before.
    assert len(round_.stock) == 36 and round_.stock[0] == card("1o")
    assert round_.history == () and round_.pile_masks == (0, 0)
    obs = round_.observation(0)
    assert obs.hand_counts == (1, 1) and obs.stock_count == 36 and obs.is_my_turn
    played = round_.play(Move(card("10o"), frozenset(cards("2o 3c"))))
    assert played.escoba and round_.escobas == (1, 0) and round_.to_move == 1


def test_a_position_refuses_a_card_placed_twice_or_missing():
    rules = Rules.preset("classic")
    with pytest.raises(DeckError) as twice:
        Round.from_position(rules, [["10o"], ["10o"]], ["2o"])
    assert twice.value.code == "deal_cards_twice" and twice.value.params["cards"] == ["10o"]
    with pytest.raises(DeckError) as short:
        Round.from_position(rules, [["10o"], ["4c"]], ["2o"], stock=["5c"])
    assert short.value.code == "deck_not_full" and "1o" in short.value.params["missing"]
    with pytest.raises(DeckError) as big:
        Round.from_position(rules, [["1o", "2o", "3o", "4o"], []], [])
    assert big.value.code == "deal_wrong_count" and big.value.params["where"] == "hand 0"
    # Seat 1 holding more than the seat to move: no deal in play leaves that.
    with pytest.raises(DeckError) as order:
        Round.from_position(rules, [["10o"], ["4c", "6b"]], ["2o"])
    assert order.value.code == "deal_wrong_count" and order.value.params["where"] == "hand 1"
    with pytest.raises(DeckError) as seat:
        Round.from_position(rules, [["1o"], []], [], to_move=2)
    assert seat.value.code == "bad_dealer"
    with pytest.raises(DeckError):
        Round.from_position(rules, [["1o"], []], [], escobas=[1])


def test_a_position_refuses_a_stock_that_cannot_be_dealt():
    """OMerkel/escoba's "escoba on the last card of an intermediate hand" position: one
    card in the stock for two players. Accepted, the deal after the hands gave nobody a
    card and the round never ended (issue 25)."""
    rules = Rules.preset("classic")
    placed = cards("7o 2c 6e 2b 3c")
    rest = [c for c in CARDS[:40] if c not in placed]
    with pytest.raises(DeckError) as small:
        Round.from_position(rules, [["7o"], ["2c"]], ["6e", "2b"], stock=["3c"],
                            piles=[rest, []])
    assert small.value.code == "deal_wrong_count"
    assert small.value.params == {"where": "stock", "count": 1, "expected": 2}
    # Two cards for two players can be dealt: one each, and the round plays to its end.
    round_ = Round.from_position(rules, [["7o"], ["2c"]], ["6e", "2b"],
                                 stock=["3c", rest[0]], piles=[rest[1:], []])
    while not round_.is_over:
        round_.play(round_.legal_moves()[0])
    assert round_.stock == () and round_.table == () and round_.score().totals


def test_a_round_whose_deal_gives_nobody_a_card_ends_there():
    """The engine's own guard, below from_position's refusal: a stock smaller than the
    players, met when the hands empty, is laid on the table and the round is over."""
    rules = Rules.preset("classic")
    placed = cards("7o 2c 6e 2b 3c 4c")
    rest = [c for c in CARDS[:40] if c not in placed]
    round_ = Round.from_position(rules, [["7o"], ["2c"]], ["6e", "2b"],
                                 stock=["3c", "4c"], piles=[rest, []])
    round_._stock.pop()  # what the refused position would have been
    round_.play(round_.legal_moves()[0])
    round_.play(round_.legal_moves()[0])
    assert round_.is_over and round_.stock == () and round_.legal_moves() == []
    assert sum(round_.score().category("cards").counts) == 39


def test_a_position_finds_its_dealer_from_who_has_played():
    rules = Rules.preset("classic", players=3)
    # Seat 2 to move with two cards; seats 0 and 1 played already: seat 0 began.
    round_ = Round.from_position(rules, [["1o"], ["2o"], ["3o", "4o"]], ["5c"], to_move=2)
    assert (round_.dealer, round_.to_move) == (2, 2)
    even = Round.from_position(rules, [["1o"], ["2o"], ["3o"]], ["5c"], to_move=1)
    assert even.dealer == 0


def test_a_position_with_empty_hands_deals_or_ends_and_is_scored():
    rules = Rules.preset("classic")
    dealt = Round.from_position(rules, [[], []], ["5o"], to_move=1,
                                stock=[c for c in CARDS[:40] if c != card("5o")])
    assert len(dealt.hand(1)) == 3 and len(dealt.hand(0)) == 3 and dealt.to_move == 1
    rest = [c for c in CARDS[:40] if c not in cards("5o 7o")]
    over = Round.from_position(rules, [[], []], ["5o"], stock=[],
                               piles=[[card("7o"), *rest[:19]], rest[19:]], escobas=[1, 0],
                               last_capturer=1)
    assert over.is_over and over.table == ()
    # The table went to the last capturer: 20 cards each, a tie; the siete and an escoba.
    score = over.score()
    assert score.category("cards").counts == (20, 20)
    assert score.category("siete_de_oros").winner == 0 and score.category("escobas").points == (
        1, 0)
    assert score.totals == tuple(sum(b.values()) for b in score.breakdown)


def test_a_position_keeps_every_card_through_a_random_round():
    rules = Rules.preset("classic")
    rng = random.Random(12)
    for _ in range(20):
        deck = list(CARDS[:40])
        rng.shuffle(deck)
        size = rng.randint(1, 3)
        hands = [deck[0:size - rng.randint(0, 1)], deck[3:3 + size]]
        table = deck[6:6 + rng.randint(0, 5)]
        piles = [deck[11:15], deck[15:18]]
        round_ = Round.from_position(rules, hands, table, piles=piles, to_move=1)
        for _ in range(60):
            seen = round_.observation(round_.to_move)
            assert seen.hand_counts == tuple(round_.hand_mask(s).bit_count() for s in (0, 1))
            if round_.is_over:
                break
            round_.play(RandomPlayer().choose(seen, rng))
        assert round_.is_over and round_.cards_accounted() == mask_of(CARDS[:40])
        assert sum(p.bit_count() for p in round_.pile_masks) == 40 or \
            round_.last_capturer is None


def test_observation_legal_moves_read_the_fields_they_mean():
    """Observation.legal_move_pairs unpacks the fields by position (speed, issue 17):
    the positions it relies on, and an answer that follows each field it reads."""
    from escoba.observation import Observation

    assert Observation._fields[:6] == ("rules", "seat", "to_move", "dealer", "hand_mask",
                                       "table_mask")
    assert Observation._fields[18:] == ("round_over", "legal")
    round_ = stacked_round(Rules.preset("classic"), ["7o 1c 2c", "9b 4e 6e"], "3o 5c 8e 10b")
    obs = round_.observation(round_.to_move)
    assert obs.legal_move_pairs()
    assert obs.legal == tuple(obs.legal_move_pairs())  # the round's own, carried along
    assert obs._replace(round_over=True).legal_move_pairs() == []
    assert obs._replace(seat=1 - obs.seat).legal_move_pairs() == []
    assert obs._replace(hand_mask=0).legal_move_pairs() == []
    assert obs._replace(hand_mask=0).legal == ()  # the board's blanked hand: no old moves
    relaxed = obs._replace(rules=Rules.preset("relaxed")).legal_move_pairs()
    assert set(obs.legal_move_pairs()) < set(relaxed)  # laying down allowed too
    assert obs._replace(scores=(3, 4)) == obs._replace(scores=(3, 4), legal=None)
    assert obs._replace(scores=(3, 4)).legal == obs.legal
    assert obs.legal_move_pairs() is not obs.legal_move_pairs()  # each caller its own list
