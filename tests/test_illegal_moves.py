"""Speed never comes from trusting the caller: illegal moves mixed into whole games.

The simulation loop (``escoba.match.play_game``) hands the engine a card index
and a take mask; the engine keeps the legal moves it has just generated and
accepts a move by membership. These tests play whole games through that very
path and, at every turn, try moves that are almost right (one card too many or
too few, another card's capture, a card from another hand, laying down a card
that must capture, a move that was legal a turn ago): every one is refused
with a reason and changes nothing, judged against a brute-force reading of the
rules that shares no code with the engine.
"""

from __future__ import annotations

import functools
import itertools
import random

import pytest
from helpers import any_rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba import Game, IllegalMoveError, Move, Rules
from escoba.bots import RandomPlayer
from escoba.cards import CARDS
from escoba.errors import Code
from escoba.match import play_game

WILD = (1 << 40) | (1 << 41)


def value(index: int) -> int:
    return 0 if index >= 40 else index // 4 + 1


def bits(mask: int) -> list[int]:
    return [i for i in range(42) if mask >> i & 1]


def sums_right(rules: Rules, card: int, take: int) -> bool:
    """The capture arithmetic read from RULES.md: jokers wild, each worth 1-10."""
    group = bits(take) + [card]
    jokers = sum(1 for i in group if i >= 40)
    rest = rules.capture_sum - sum(value(i) for i in group)
    return rest == 0 if jokers == 0 else jokers <= rest <= 10 * jokers


@functools.lru_cache(maxsize=4096)
def subset_totals(table: int) -> frozenset[tuple[int, int]]:
    """(plain value total, jokers) of every non-empty subset of the table, by brute force."""
    cards = bits(table)
    return frozenset((sum(value(i) for i in combo), sum(1 for i in combo if i >= 40))
                     for k in range(1, len(cards) + 1)
                     for combo in itertools.combinations(cards, k))


def can_capture(rules: Rules, card: int, table: int) -> bool:
    for total, jokers in subset_totals(table):
        jokers += card >= 40
        rest = rules.capture_sum - total - value(card)
        if (rest == 0) if jokers == 0 else (jokers <= rest <= 10 * jokers):
            return True
    return False


def brute_legal(rules: Rules, hand: int, table: int, card: int, take: int) -> bool:
    """Whether ``(card, take)`` is a legal play, by brute force over the table."""
    if not hand >> card & 1 or take & ~table or take >> card & 1:
        return False
    if take:
        return sums_right(rules, card, take)
    return rules.capture_rule != "forced" or not can_capture(rules, card, table)


def candidates(rules: Rules, hand: int, table: int, legal: list[tuple[int, int]],
               stale: list[tuple[int, int]], rng: random.Random) -> list[tuple[int, int]]:
    """Moves near the legal ones, and wild ones: most are illegal."""
    deck = rules.deck_size
    out = list(stale)
    hand_cards, table_cards = bits(hand), bits(table)
    for card, take in rng.sample(legal, min(4, len(legal))):
        out.append((card, take ^ 1 << rng.choice(table_cards or [card])))  # one card more/less
        out.append((card, take ^ 1 << rng.randrange(deck)))  # a card from anywhere
        out.append((rng.choice(hand_cards), take))  # another card's capture
        out.append((rng.randrange(deck), take))  # a card from anywhere, the same take
        out.append((card, 0))  # laying down (illegal when a capture is forced)
        out.append((card, table))  # the whole table
    for _ in range(4):  # any card, any subset of the table, sometimes a card off it
        take = sum(1 << i for i in table_cards if rng.random() < 0.4)
        if rng.random() < 0.2:
            take |= 1 << rng.randrange(deck)
        out.append((rng.choice(hand_cards + [rng.randrange(deck)]), take))
    return out


def state(game: Game) -> tuple:
    round_ = game.round
    assert round_ is not None
    return (round_.table_mask, tuple(round_.hand_mask(s) for s in range(game.rules.players)),
            round_.pile_masks, round_.escobas, round_.to_move, len(round_.history),
            round_.stock, tuple(game.totals))


def play_with_illegal_tries(rules: Rules, seed: int) -> tuple[int, int]:
    """A whole game (capped at 4 rounds) on the simulation's path, illegal tries at
    every turn. Returns how many illegal and legal tries were made."""
    rng = random.Random(seed)
    game = Game(rules, rng=rng)
    refused = accepted = 0
    stale: list[tuple[int, int]] = []
    while not game.is_over and len(game.rounds) < 4:
        round_ = game.start_round()
        while not round_.is_over:
            seat = round_.to_move
            obs = round_.observation(seat)
            claims = obs.renuncio_claims()
            if claims and rng.random() < 0.5:
                round_.claim_renuncio(rng.choice(claims))
                obs = round_.observation(seat)
            hand, table = obs.hand_mask, obs.table_mask
            legal = obs.legal_move_pairs()  # fills the round's legal-move cache
            assert legal and len(set(legal)) == len(legal)
            for card, take in candidates(rules, hand, table, legal, stale, rng):
                if not 0 <= card < rules.deck_size:
                    continue
                is_legal = brute_legal(rules, hand, table, card, take)
                assert ((card, take) in legal) == is_legal, (str(CARDS[card]), bin(take))
                if is_legal:
                    accepted += 1
                    continue
                before = state(game)
                with pytest.raises(IllegalMoveError) as refusal:
                    game.play_pair(card, take)
                assert refusal.value.code in set(Code)
                assert state(game) == before
                move = Move(CARDS[card], frozenset(CARDS[i] for i in bits(take)))
                assert game.check(move) is not None
                with pytest.raises(IllegalMoveError):
                    game.play(move)
                assert state(game) == before
                refused += 1
            stale = legal
            card, take = legal[rng.randrange(len(legal))]
            if rng.random() < 0.5:
                game.play_pair(card, take)
            else:
                game.play(Move(CARDS[card], frozenset(CARDS[i] for i in bits(take))))
        game.round_finished()
    return refused, accepted


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=any_rules(), seed=st.integers(0, 2**32 - 1))
def test_games_with_illegal_moves_mixed_in_refuse_every_one(rules: Rules, seed: int) -> None:
    refused, accepted = play_with_illegal_tries(rules, seed)
    assert refused > 50  # the tries were mostly illegal ones, and each was refused


def test_classic_games_refuse_thousands_of_illegal_tries():
    rules = Rules.preset("classic")
    refused = sum(play_with_illegal_tries(rules, seed)[0] for seed in range(3))
    assert refused > 2000


class Cheater(RandomPlayer):
    """Plays legally until its chosen turn, then answers with a move it made up."""

    name = "cheater"

    def __init__(self, turn: int, made_up: random.Random) -> None:
        self.turn, self.made_up, self.turns = turn, made_up, 0

    def choose_pair(self, observation, rng):
        legal = observation.legal_move_pairs()
        self.turns += 1
        if self.turns < self.turn:
            return legal[int(rng.random() * len(legal))]
        hand, table = observation.hand_mask, observation.table_mask
        while True:
            pick = candidates(observation.rules, hand, table, legal, [], self.made_up)
            card, take = pick[self.made_up.randrange(len(pick))]
            if 0 <= card < observation.rules.deck_size \
                    and not brute_legal(observation.rules, hand, table, card, take):
                return card, take


@pytest.mark.parametrize("preset", ["classic", "relaxed", "setenta", "escova"])
def test_the_simulation_loop_refuses_a_made_up_move(preset):
    rules = Rules.preset(preset)
    for seed in range(40):
        made_up = random.Random(seed)
        cheater = Cheater(turn=made_up.randrange(1, 40), made_up=made_up)
        seats = [cheater, RandomPlayer()] if seed % 2 else [RandomPlayer(), cheater]
        with pytest.raises(IllegalMoveError):
            play_game(rules, seats, random.Random(seed))
