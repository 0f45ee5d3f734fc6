"""Small builders shared by the engine tests: stacked decks and short names."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from escoba.cards import CARDS, Card, parse_cards
from escoba.deck import deck_for
from escoba.round import Round
from escoba.rules import Rules


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def card(text: str) -> Card:
    return Card.parse(text)


def stacked_deck(rules: Rules, hands: Sequence[str], table: str, rest: str = "",
                 dealer: int | None = None) -> list[Card]:
    """A deck whose first deal gives ``hands`` (in playing order) and ``table``.

    ``hands[0]`` goes to the first player (the dealer's next seat). ``rest``
    puts these cards next in the stock, in order; all other cards follow in
    index order. Every hand must have ``hand_size`` cards.
    """
    n = rules.players
    seat_hands: list[list[Card]] = [[] for _ in range(n)]
    for k, hand in enumerate(hands):
        seat_hands[(1 + k) % n] = cards(hand)
    dealt = {c for h in seat_hands for c in h} | set(cards(table)) | set(cards(rest))
    stock = cards(rest) + [c for c in CARDS[: rules.deck_size] if c not in dealt]
    return deck_for(rules, seat_hands, cards(table), 0, stock)


def stacked_round(rules: Rules, hands: Sequence[str], table: str, rest: str = "",
                  dealer: int = 0) -> Round:
    return Round(rules, stacked_deck(rules, hands, table, rest), dealer)


def random_walk(round_: Round, rng: random.Random, steps: int) -> Round:
    """Play up to ``steps`` random legal moves (claiming renuncios when offered)."""
    from escoba.bots import RandomPlayer

    walker = RandomPlayer()
    for _ in range(steps):
        if round_.is_over:
            break
        obs = round_.observation(round_.to_move)
        claim = walker.claim_renuncio(obs, rng)
        if claim is not None:
            round_.claim_renuncio(claim)
            obs = round_.observation(round_.to_move)
        round_.play(walker.choose(obs, rng))
    return round_


def dealable_deck(rules: Rules, rng: random.Random, dealer: int) -> list[Card]:
    """A shuffled full deck that deals (shuffled again while ``redeal`` refuses it)."""
    deck = list(CARDS[: rules.deck_size])
    while True:
        rng.shuffle(deck)
        try:
            Round(rules, deck, dealer)
        except ValueError:
            continue
        return deck


def deal_round(rules: Rules, rng: random.Random) -> Round:
    """A freshly dealt round with a random dealer."""
    dealer = rng.randrange(rules.players)
    return Round(rules, dealable_deck(rules, rng, dealer), dealer)


def walk(rules: Rules, seed: int, steps: int) -> Round:
    """A round dealt from ``seed`` after ``steps`` random plays (renuncio claims included)."""
    rng = random.Random(seed)
    return random_walk(deal_round(rules, rng), rng, steps)


def walked_turn(rules: Rules, seed: int, steps: int):
    """The observation of the seat to move after :func:`walk`; ``None`` when the round
    ended first."""
    round_ = walk(rules, seed, steps)
    return None if round_.is_over else round_.observation(round_.to_move)


def random_rounds(rules: Rules, seeds: Iterable[int], most_steps: int) -> Iterator[Round]:
    """For each seed, a round dealt from it after fewer than ``most_steps`` random plays
    (as many as the seed draws), the ones not yet over."""
    for seed in seeds:
        rng = random.Random(seed)
        round_ = random_walk(deal_round(rules, rng), rng, rng.randrange(0, most_steps))
        if not round_.is_over:
            yield round_


def any_rules(**fixed: object):
    """Hypothesis: every preset with every option drawn; ``fixed`` pins some options."""
    from hypothesis import strategies as st

    options = {
        "players": st.sampled_from([2, 3, 4]),
        "teams": st.booleans(),
        "hand_size": st.sampled_from([3, 3, 3, 7]),
        "jokers": st.booleans(),
        "capture_rule": st.sampled_from(["forced", "optional", "renuncio"]),
        "capture_sum": st.sampled_from([10, 15, 15, 20]),
        "miscount": st.sampled_from(["retry", "penalty"]),
        "primera": st.booleans(),
        "last_play_escoba": st.booleans(),
        "initial_fifteen": st.sampled_from(["dealer_takes", "redeal", "ignore"]),
        "open_hand": st.booleans(),
    }
    options.update({k: st.just(v) for k, v in fixed.items()})

    def build(preset: str, **chosen: object) -> Rules:
        chosen["teams"] = bool(chosen["teams"]) and chosen["players"] == 4
        return Rules.preset(preset, **chosen)

    return st.builds(build, st.sampled_from(["classic", "setenta", "relaxed", "escova"]),
                     **options)
