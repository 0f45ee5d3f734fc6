"""Small builders shared by the engine tests: stacked decks and short names."""

from __future__ import annotations

import random
from collections.abc import Sequence

from escoba.cards import CARDS, Card, parse_cards
from escoba.game import Round
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
    top: list[Card] = []
    for h in hands:
        top.extend(cards(h))
    top.extend(cards(table))
    top.extend(cards(rest))
    used = set(top)
    assert len(used) == len(top), "a card is stacked twice"
    remaining = [c for c in CARDS[: rules.deck_size] if c not in used]
    return top + remaining


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
