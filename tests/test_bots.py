"""Computer players: legal moves only, fairness (decisions depend only on the
observation), renuncio claims, and the behaviour each level promises."""

from __future__ import annotations

import random

import pytest
from helpers import any_rules, card, cards, dealable_deck, random_walk, stacked_deck, stacked_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commands import main as cli_main
from escoba import Move, Renuncio, Round, Rules
from escoba.arena import play_round
from escoba.bots import (
    PLAYER_LEVELS,
    ExpertPlayer,
    GentlePlayer,
    GreedyPlayer,
    Player,
    greedy_weight,
    make_player,
)
from escoba.cards import mask_of

LEVELS = ("random", "gentle", "greedy", "expert", "just_right")

rule_sets = any_rules(miscount="retry")


class Checked:
    """Wraps a player; fails the test on any illegal move or claim."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.moves = 0
        self.claims = 0

    def choose(self, obs, rng):
        move = self.inner.choose(obs, rng)
        assert move in obs.legal_moves(), f"{self.name} played illegal {move}"
        self.moves += 1
        return move

    def claim_renuncio(self, obs, rng):
        claim = self.inner.claim_renuncio(obs, rng)
        if claim is not None:
            assert obs.rules.capture_rule == "renuncio"
            assert claim in obs.renuncio_claims(), f"{self.name} claimed wrongly: {claim}"
            self.claims += 1
        return claim


# -- legal moves only -------------------------------------------------------------


def walked_round(rules: Rules, seed: int, steps: int) -> tuple[Round, int] | None:
    """A round dealt from ``seed`` and walked up to ``steps`` random moves, with its
    dealer; None when the walk ended it."""
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players)
    round_ = Round(rules, dealable_deck(rules, rng, dealer), dealer)
    random_walk(round_, rng, steps)
    return None if round_.is_over else (round_, dealer)


def redealt_round(round_: Round, dealer: int, seat: int, rng: random.Random) -> Round:
    """The same round with the cards ``seat`` cannot see dealt again, its moves replayed:
    ``seat``'s observation is the same, the hidden cards may not be."""
    history = [e for e in round_.history if e.kind not in ("initial", "sweep")]
    deck = redeal_hidden(round_, seat, rng)
    return replay_history(round_.rules, deck, dealer, history)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets, seed=st.integers(0, 10**6), levels=st.lists(
    st.sampled_from(LEVELS), min_size=4, max_size=4))
def test_every_level_plays_only_legal_moves_under_every_rule(rules, seed, levels):
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players)
    deck = dealable_deck(rules, rng, dealer)
    players = [Checked(make_player(levels[s])) for s in range(rules.players)]
    # Checked has no choose_pair: every move goes through the check in choose.
    round_ = play_round(rules, deck, dealer, players, rng)
    assert round_.is_over
    plays = sum(1 for e in round_.history if e.kind == "play")
    assert sum(p.moves for p in players) == plays > 0
    claims = sum(1 for e in round_.history if e.kind == "renuncio")
    assert sum(p.claims for p in players) == claims


@pytest.mark.parametrize("level", LEVELS)
def test_choose_pair_and_choose_agree(level):
    rules = Rules.preset("relaxed", players=3)
    rng = random.Random(5)
    round_ = Round(rules, dealable_deck(rules, rng, 0), 0)
    player = make_player(level)
    while not round_.is_over:
        obs = round_.observation(round_.to_move)
        pair = player.choose_pair(obs, random.Random(9))
        move = player.choose(obs, random.Random(9))
        assert (move.card.index, mask_of(move.take)) == pair
        round_.play(move)


def test_levels_and_make_player():
    assert set(PLAYER_LEVELS) == set(LEVELS)
    for level in LEVELS:
        player = make_player(level)
        assert isinstance(player, Player)
        assert player.name == level
    with pytest.raises(ValueError, match="unknown player 'wizard'"):
        make_player("wizard")


def test_simulate_accepts_every_level(capsys):
    code = cli_main(["simulate", "--games", "2", "--players", "greedy", "expert",
                     "--seed", "3", "--json"])
    assert code == 0
    assert '"players": ["greedy", "expert"]' in capsys.readouterr().out


# -- fairness: the decision depends only on the observation ---------------------------


def redeal_hidden(round_: Round, seat: int, rng: random.Random) -> list:
    """The same deck, with the cards ``seat`` has not seen shuffled among their places.

    Cards that were played, are on the table, or are in ``seat``'s hand keep
    their place; so do open hands. Replaying the same moves then reaches a
    position that ``seat`` cannot tell apart from the original.
    """
    obs = round_.observation(seat)
    hidden = obs.unseen_mask
    if obs.open_hands is not None:
        for h in obs.open_hands:
            hidden &= ~h
    deck = list(round_.deck)
    places = [i for i, c in enumerate(deck) if hidden >> c.index & 1]
    moved = [deck[i] for i in places]
    rng.shuffle(moved)
    for i, c in zip(places, moved, strict=True):
        deck[i] = c
    return deck


def replay_history(rules: Rules, deck: list, dealer: int, history) -> Round:
    round_ = Round(rules, deck, dealer)
    for event in history:
        if event.kind == "renuncio":
            round_.claim_renuncio(Renuncio(event.card, event.take))
        elif event.kind in ("play", "miscount"):
            round_.play(event.move)
    return round_


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets, seed=st.integers(0, 10**6), steps=st.integers(0, 30))
def test_decisions_never_change_when_hidden_cards_are_redealt(rules, seed, steps):
    walked = walked_round(rules, seed, steps)
    if walked is None:
        return
    round_, dealer = walked
    seat = round_.to_move
    original = round_.observation(seat)
    players = {level: make_player(level) for level in LEVELS}
    decisions = {level: (p.claim_renuncio(original, random.Random(seed)),
                         p.choose(original, random.Random(seed)))
                 for level, p in players.items()}
    changed = 0
    for k in range(6):
        other = redealt_round(round_, dealer, seat, random.Random(seed * 7 + k))
        obs = other.observation(seat)
        assert obs == original  # the seat cannot tell the two deals apart ...
        hands = [other.hand_mask(s) for s in range(rules.players)]
        changed += hands != [round_.hand_mask(s) for s in range(rules.players)] \
            or other.stock != round_.stock
        for level, p in players.items():  # ... and neither can any computer player
            got = (p.claim_renuncio(obs, random.Random(seed)), p.choose(obs, random.Random(seed)))
            assert got == decisions[level], f"{level} changed its decision"
    hidden_seats = [] if original.open_hands is not None else [
        s for s in range(rules.players) if s != seat and original.hand_counts[s]]
    if len(hidden_seats) + (original.stock_count > 0) >= 2 or original.stock_count >= 2:
        assert changed, "the re-deals never changed the hidden cards"


# -- renuncio claims ----------------------------------------------------------------


def laid_down_capturer(capture_rule: str) -> Round:
    """Seat 1 lays down the 7o, which could have taken the 8c; seat 0 to move next."""
    rules = Rules.preset("relaxed", capture_rule=capture_rule)
    round_ = stacked_round(rules, ["7o 2c 3c", "1e 1b 2e"], "8c 9c 10c 4b", dealer=0)
    # dealer 0: seat 1 plays first
    round_.play(Move(card("1e")))
    return round_


def test_nobody_claims_renuncio_under_optional_or_forced():
    rules = Rules.preset("relaxed", capture_rule="optional")
    round_ = stacked_round(rules, ["1e 2e 3e", "7o 2c 3c"], "8c 9c 10c 4b", dealer=1)
    round_.play(Move(card("1e")))
    round_.play(Move(card("7o")))  # could take 8c; lays it down (optional)
    obs = round_.observation(round_.to_move)
    assert obs.renuncio_card is None
    for level in LEVELS:
        assert make_player(level).claim_renuncio(obs, random.Random(1)) is None


def test_bots_claim_renuncio_correctly_under_the_renuncio_rule():
    for level in ("random", "greedy", "expert"):
        rules = Rules.preset("relaxed", capture_rule="renuncio")
        round_ = stacked_round(rules, ["1e 2e 3e", "7o 2c 3c"], "8c 9c 10c 5b", dealer=1)
        round_.play(Move(card("1e")))
        round_.play(Move(card("7o")))  # could take 8c (or 3c... no: 5b+3c? 7+5+3=15)
        obs = round_.observation(round_.to_move)
        claim = make_player(level).claim_renuncio(obs, random.Random(1))
        assert claim is not None and claim in obs.renuncio_claims()
        played = round_.claim_renuncio(claim)  # the engine accepts it
        assert played.kind == "renuncio"
    # greedy and expert take the most valuable set
    rules = Rules.preset("relaxed", capture_rule="renuncio")
    round_ = stacked_round(rules, ["1e 2e 3e", "7c 2c 3c"], "8c 5o 3o 10c", dealer=1)
    round_.play(Move(card("1e")))
    round_.play(Move(card("7c")))  # could take 8c, or 5o + 3o (two oros)
    obs = round_.observation(round_.to_move)
    assert {frozenset(c.take) for c in obs.renuncio_claims()} == {
        frozenset(cards("8c")), frozenset(cards("3o 5o"))}
    for level in ("greedy", "expert"):
        claim = make_player(level).claim_renuncio(obs, random.Random(1))
        assert claim is not None and claim.take == frozenset(cards("3o 5o"))


def test_gentle_claims_only_sometimes_and_always_correctly():
    rules = Rules.preset("relaxed", capture_rule="renuncio")
    round_ = stacked_round(rules, ["1e 2e 3e", "7o 2c 3c"], "8c 9c 10c 4b", dealer=1)
    round_.play(Move(card("1e")))
    round_.play(Move(card("7o")))
    obs = round_.observation(round_.to_move)
    claims = [GentlePlayer().claim_renuncio(obs, random.Random(s)) for s in range(100)]
    made = [c for c in claims if c is not None]
    assert 20 < len(made) < 80
    assert all(c in obs.renuncio_claims() for c in made)


def test_expert_never_leaves_a_renuncio_chance_but_gentle_sometimes_does():
    rules = Rules.preset("relaxed", capture_rule="renuncio")
    deck = stacked_deck(rules, ["7o 2c 3c", "1e 2e 3e"], "8c 9c 10c 4b")
    slips = {"gentle": 0, "expert": 0}
    for level in slips:
        for s in range(60):
            round_ = Round(rules, deck, 1)  # seat 0 plays first
            obs = round_.observation(0)
            move = make_player(level).choose(obs, random.Random(s))
            if not move.take and move.card == card("7o"):
                slips[level] += 1
    assert slips["expert"] == 0
    assert slips["gentle"] > 5
    # under the forced rule a slip is impossible, so gentle never tries
    forced = Rules.preset("classic")
    round_ = Round(forced, stacked_deck(forced, ["7o 2c 3c", "1e 2e 3e"], "8c 9c 10c 4b"), 1)
    obs = round_.observation(0)
    assert all(GentlePlayer().choose(obs, random.Random(s)) in obs.legal_moves()
               for s in range(30))


# -- what each level promises ---------------------------------------------------------


def test_gentle_never_misses_an_obvious_capture_nor_the_sweep_of_a_tiny_table():
    rules = Rules.preset("classic")
    # a one-card capture (the 7o takes the 8c) is always seen, and taken
    round_ = stacked_round(rules, ["7o 4e 4b", "1o 2o 3o"], "8c 9e 10e 10b", dealer=1)
    obs = round_.observation(0)
    moves = [GentlePlayer().choose(obs, random.Random(s)) for s in range(100)]
    assert all(m.take for m in moves)
    # the sweep of a table of two cards (3c 5c with the 7o) is always taken, though it
    # takes two cards: two captures leave the table at 3c 5c, then seat 0 is to play
    round_ = stacked_round(rules, ["5e 7o 1e", "10o 1o 2o"], "3c 5c 5o 10b", dealer=1)
    round_.play(Move(card("5e"), frozenset(cards("10b"))))
    round_.play(Move(card("10o"), frozenset(cards("5o"))))
    obs = round_.observation(0)
    assert obs.table_mask.bit_count() == 2
    sweep = Move(card("7o"), frozenset(cards("3c 5c")))
    assert all(GentlePlayer().choose(obs, random.Random(s)) == sweep for s in range(100))


def test_gentle_misses_the_captures_of_many_cards_a_beginner_misses():
    rules = Rules.preset("classic")
    # the 5e sweeps four cards (2c 3c 4b 1b); the 10o takes two (2c 3c or 4b 1b); the 1e
    # takes nothing (it can be laid down)
    round_ = stacked_round(rules, ["5e 10o 1e", "1o 2o 3o"], "2c 3c 4b 1b", dealer=1)
    obs = round_.observation(0)
    escoba = Move(card("5e"), frozenset(cards("2c 3c 4b 1b")))
    moves = [GentlePlayer().choose(obs, random.Random(s)) for s in range(400)]
    assert all(m in obs.legal_moves() for m in moves)
    # a four-card sweep is seen 0.3 ** 3 of the time: a few times in a hundred
    assert 0 < sum(m == escoba for m in moves) < 0.08 * len(moves)
    captures = [m for m in moves if m.take and m != escoba]
    laid = [m for m in moves if not m.take]
    # it sees one of the two two-card captures about half the time (1 - 0.7 ** 2)
    assert 0.35 * len(moves) < len(captures) < 0.65 * len(moves)
    assert all(len(m.take) == 2 for m in captures) and laid == [Move(card("1e"))] * len(laid)


def test_gentle_captures_when_every_card_it_holds_must():
    rules = Rules.preset("classic")  # forced: a card that can capture must
    round_ = stacked_round(rules, ["10c 10o 10e", "1o 2o 3o"], "5c 5o 5e 5b", dealer=1)
    obs = round_.observation(0)
    assert all(m.take for m in obs.legal_moves())  # no lay-down is legal
    for s in range(50):
        move = GentlePlayer().choose(obs, random.Random(s))
        assert move in obs.legal_moves() and len(move.take) == 1


def test_the_weakest_child_wins_more_against_gentle_than_against_gentle_before():
    """Issue 30's direction on a small seeded run (the figures: docs/BENCHMARKS.md)."""
    from bench.just_right_bench import GentleBeforePlayer, paired_win_rate
    from bench.simulated_children import CHILDREN, make_child

    rules = Rules.preset("classic")
    weakest = make_child(next(iter(CHILDREN)))
    now = paired_win_rate(rules, weakest, GentlePlayer, 80, seed=5)
    before = paired_win_rate(rules, weakest, GentleBeforePlayer, 80, seed=5)
    assert now.rate > before.rate + 0.05


def test_greedy_takes_the_most_valuable_capture():
    rules = Rules.preset("classic")
    # 8c takes the 7o (2 cards + oro + seven + siete de oros = 10) or 3c 4c (3 cards = 3)
    round_ = stacked_round(rules, ["8c 9e 9b", "1b 2b 3b"], "7o 3c 4c 10e", dealer=1)
    obs = round_.observation(0)
    assert {(m.card, m.take) for m in obs.legal_moves() if m.take} == {
        (card("8c"), frozenset(cards("7o"))), (card("8c"), frozenset(cards("3c 4c")))}
    move = GreedyPlayer().choose(obs, random.Random(0))
    assert move == Move(card("8c"), frozenset(cards("7o")))
    assert greedy_weight(mask_of(cards("8c 7o"))) == 2 + 1 + 2 + 5
    assert greedy_weight(mask_of(cards("8c 3c 4c"))) == 3
    # an escoba (table 2c 3c 4b 1b = 10, the 5e sweeps it) beats four cards with an oro
    round_ = stacked_round(rules, ["5e 10o 9b", "1o 2o 3o"], "2c 3c 4b 1b", dealer=1)
    obs = round_.observation(0)
    assert GreedyPlayer().choose(obs, random.Random(0)) == Move(
        card("5e"), frozenset(cards("2c 3c 4b 1b")))


def test_greedy_lays_down_its_least_valuable_card():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["7c 2o 9e", "1b 2b 3b"], "10c 10b 10e 10o", dealer=1)
    obs = round_.observation(0)
    assert GreedyPlayer().choose(obs, random.Random(0)) == Move(card("9e"))


def test_expert_takes_an_escoba():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["5c 1e 2e", "1b 2b 3b"], "3c 4c 2o 1o", dealer=1)
    obs = round_.observation(0)
    assert ExpertPlayer().choose(obs, random.Random(0)) == Move(card("5c"),
                                                                frozenset(cards("3c 4c 2o 1o")))


# The four table cards 1c 2c 4c 8c total 15: the dealer takes them and the first
# player leads onto an empty table, where a card of 5-10 can be swept by one card.
EMPTY_TABLE = "1c 2c 4c 8c"


def test_expert_avoids_leaving_a_sweep_that_greedy_leaves():
    rules = Rules.preset("classic")
    round_ = stacked_round(rules, ["4o 6e 9e", "1b 2b 3b"], EMPTY_TABLE, dealer=1)
    obs = round_.observation(0)
    assert obs.table_mask == 0
    # greedy keeps its oro and lays the 6e: three unseen nines sweep it
    assert GreedyPlayer().choose(obs, random.Random(0)) == Move(card("6e"))
    # the expert lays the 4o: no single card sweeps a 4
    assert ExpertPlayer().choose(obs, random.Random(0)) == Move(card("4o"))


@pytest.mark.parametrize(("opponent", "safe"), [("10b 8b 1b", "6e"), ("9b 8b 1b", "5e"),
                                                ("10b 9b 1b", "7e")])
def test_expert_uses_open_hands_to_avoid_the_sweep_it_can_see(opponent, safe):
    rules = Rules.preset("classic", open_hand=True)
    round_ = stacked_round(rules, ["5e 6e 7e", opponent], EMPTY_TABLE, dealer=1)
    obs = round_.observation(0)
    assert ExpertPlayer().choose(obs, random.Random(0)) == Move(card(safe))


def test_expert_sets_up_its_partner_in_team_games():
    # Open hands, teams 0+2 against 1+3. Seat 1 holds only aces; seat 2 (the
    # partner) holds nines. Laying the 5e lets the partner sweep 5 + 1 + 9.
    rules = Rules.preset("classic", players=4, teams=True, open_hand=True)
    round_ = stacked_round(rules, ["5e 3e 2e", "1b 1e 1o", "9c 9b 8b", "4b 4e 4o"],
                           EMPTY_TABLE, dealer=3)
    obs = round_.observation(0)
    assert obs.table_mask == 0
    assert ExpertPlayer().choose(obs, random.Random(0)) == Move(card("5e"))
    # when the next opponent holds reyes, the 5e would be swept: it avoids it
    round_ = stacked_round(rules, ["5e 3e 2e", "10c 10b 10o", "1b 1e 1o", "4b 4e 4o"],
                           EMPTY_TABLE, dealer=3)
    assert ExpertPlayer().choose(round_.observation(0), random.Random(0)) != Move(card("5e"))


def test_expert_beats_greedy_on_a_fixed_set_of_deals():
    # A weak, fast check of strength (the real figure is in docs/BENCHMARKS.md):
    # over 40 paired deals expert must come out ahead of greedy.
    from escoba.arena import run_arena

    result = run_arena(Rules.preset("classic"), ["expert", "greedy"], 40, seed=11)
    assert result.mean_diff > 0.3
