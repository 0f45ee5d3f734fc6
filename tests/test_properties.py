"""Hypothesis properties of the engine across every preset and option.

- the 40 (or 42) cards are always all accounted for, each in exactly one place;
- every move the engine calls legal is accepted, and every other is refused
  without changing anything;
- an escoba is scored only when a play leaves the table empty;
- each round's points equal the sum of its breakdown;
- every position ``Round.from_position`` accepts plays to an end.
"""

from __future__ import annotations

import random

from helpers import any_rules, deal_round
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from escoba import DeckError, IllegalMoveError, Move, Round, Rules, game_to_record
from escoba.cards import CARDS, Card, cards_of, mask_of
from escoba.errors import CardError

rule_sets = any_rules()


def snapshot(round_: Round) -> tuple:
    return (round_.table_mask, tuple(round_.hand_mask(s) for s in range(round_.rules.players)),
            round_.pile_masks, round_.escobas, round_.to_move, len(round_.history),
            round_.stock)


def assert_cards_conserved(round_: Round) -> None:
    places = [round_.table_mask, mask_of(round_.stock)]
    places += [round_.hand_mask(s) for s in range(round_.rules.players)]
    places += list(round_.pile_masks)
    union = 0
    for mask in places:
        assert not union & mask, "a card is in two places"
        union |= mask
    assert union == mask_of(CARDS[: round_.rules.deck_size])
    assert sum(m.bit_count() for m in places) == round_.rules.deck_size


def random_candidate(round_: Round, rng: random.Random) -> Move:
    """A move that may or may not be legal: a card from the hand or not, any table cards."""
    hand = round_.hand(round_.to_move)
    pool = list(hand) * 3 + list(CARDS[: round_.rules.deck_size])
    card = rng.choice(pool)
    table = [c for c in round_.table if c != card]
    extra = [c for c in CARDS[: round_.rules.deck_size] if c != card]
    take = set(rng.sample(table, rng.randint(0, len(table)))) if table else set()
    if rng.random() < 0.1:
        take.add(rng.choice(extra))
    take.discard(card)
    return Move(card, frozenset(take))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets, seed=st.integers(0, 2**32 - 1))
def test_a_round_keeps_every_rule(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    round_ = deal_round(rules, rng)
    assert_cards_conserved(round_)
    while not round_.is_over:
        legal = round_.legal_moves()
        assert legal, "a player always has a move"
        hands = [round_.hand_mask(s) for s in range(rules.players)]
        seen = round_.observation(rng.randrange(rules.players))
        assert seen.hand_counts == tuple(h.bit_count() for h in hands)
        assert seen.escobas == round_.escobas and seen.stock_count == len(round_.stock)
        assert len(set(legal)) == len(legal)
        # Refused moves change nothing; legal ones are accepted (tried on copies).
        for _ in range(4):
            candidate = random_candidate(round_, rng)
            before = snapshot(round_)
            if candidate in legal:
                round_.copy().play(candidate)
            else:
                try:
                    round_.play(candidate)
                except IllegalMoveError:
                    pass
                else:
                    raise AssertionError(f"{candidate} was accepted but is not legal")
                assert snapshot(round_) == before
        for move in rng.sample(legal, min(3, len(legal))):
            round_.copy().play(move)
        # Renuncio claims: when offered they are accepted.
        claims = round_.renuncio_claims()
        if claims and rng.random() < 0.7:
            round_.claim_renuncio(rng.choice(claims))
            assert_cards_conserved(round_)
            legal = round_.legal_moves()
        move = rng.choice(legal)
        if rules.miscount == "penalty" and rng.random() < 0.1:
            table = round_.table
            wrong = [c for c in table if not move.take or c not in move.take][:1]
            if wrong:
                try:
                    round_.play(Move(move.card, miscount=frozenset(wrong)))
                    assert move.card in round_.table or round_.is_over  # then swept up
                    assert_cards_conserved(round_)
                    continue
                except IllegalMoveError as exc:
                    assert "not a miscount" in str(exc)
        table_before = round_.table_mask
        played = round_.play(move)
        assert_cards_conserved(round_)
        clears = bool(move.take) and mask_of(move.take) == table_before
        if played.escoba:  # (a deal may then put joker-game leftovers on the table)
            assert clears
            assert not (move.card.is_joker or any(c.is_joker for c in move.take))
        if clears and not played.escoba:
            jokers = any(c.is_joker for c in [move.card, *move.take])
            assert jokers or (round_.is_over and not rules.last_play_escoba)
    score = round_.score()
    assert round_.table == ()
    for side, breakdown in enumerate(score.breakdown):
        assert sum(breakdown.values()) == score.totals[side]
    assert sum(score.category("escobas").points) == sum(round_.escobas)
    assert len(score.totals) == rules.sides
    assert_cards_conserved(round_)
    assert all(cards_of(p) is not None for p in round_.pile_masks)


def test_games_in_parallel_threads_only_make_legal_moves():
    """The app serves sessions from threads; the engine's move check must hold up."""
    import sys
    import threading

    from escoba.bots import RandomPlayer
    from escoba.match import play_game
    from escoba.record import replay

    failures: list[str] = []

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        rules = Rules.preset("classic", players=2 + seed % 3, target=11)
        for _ in range(8):
            try:
                game = play_game(rules, [RandomPlayer() for _ in range(rules.players)], rng)
            except Exception as exc:  # the engine's shared caches under threads
                failures.append(f"{type(exc).__name__}: {exc}")
                return
            try:
                replay(game_to_record(game))
            except ValueError as exc:  # an illegal move slipped through
                failures.append(str(exc))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker, args=(seed,)) for seed in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)
    assert failures == []


# -- positions under way (Round.from_position): accepted means it plays to an end -----


@st.composite
def any_position(draw: st.DrawFn) -> tuple[Rules, dict[str, object]]:
    """Arguments for ``Round.from_position``: mostly positions a deal could leave, some
    with a hand, a stock or a card count off by a little, so that both the refusals and
    the positions accepted at their edges (a stock of 0..players + 1 cards, empty hands,
    an empty table) are met."""
    rules = draw(rule_sets)
    n = rules.players
    deck = list(CARDS[: rules.deck_size])
    random.Random(draw(st.integers(0, 2**32 - 1))).shuffle(deck)
    to_move = draw(st.integers(0, n - 1))
    first = draw(st.integers(0, rules.hand_size))
    played = draw(st.integers(0, n - 1))  # seats after to_move still to play this round
    sizes = [0] * n
    for k in range(n):
        seat = (to_move + k) % n
        sizes[seat] = first if k <= played or first == 0 else first - 1
    if draw(st.integers(0, 9)) == 0:  # a hand off by one: refused or not, never stuck
        seat = draw(st.integers(0, n - 1))
        sizes[seat] = max(0, sizes[seat] + draw(st.sampled_from([-1, 1])))
    hands, at = [], 0
    for size in sizes:
        hands.append(deck[at:at + size])
        at += size
    table = deck[at:at + draw(st.integers(0, 6))]
    at += len(table)
    left = len(deck) - at
    stock_size = draw(st.one_of(st.integers(0, min(left, n + 1)), st.integers(0, left)))
    stock = deck[at:at + stock_size]
    at += stock_size
    rest = deck[at:]
    cut = draw(st.integers(0, len(rest)))
    piles: list[list[Card]] = [[] for _ in range(n)]
    piles[0], piles[-1] = rest[:cut], rest[cut:] if n > 1 else rest
    if draw(st.integers(0, 19)) == 0 and stock:  # a card lost: deck_not_full
        stock = stock[1:]
    arguments: dict[str, object] = {
        "hands": hands, "table": table, "to_move": to_move, "piles": piles,
        "stock": None if not stock and not rest and draw(st.booleans()) else stock,
        "escobas": [draw(st.integers(0, 3)) for _ in range(n)],
        "last_capturer": draw(st.one_of(st.none(), st.integers(0, n - 1))),
    }
    return rules, arguments


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=any_position(), seed=st.integers(0, 2**32 - 1))
def test_every_position_accepted_plays_to_an_end(position, seed: int) -> None:
    """Issue 25: a stock of one card for two players was accepted and the round hung
    (no move, not over, no score). Every position from_position accepts must end."""
    rules, arguments = position
    try:
        round_ = Round.from_position(rules, **arguments)
    except (DeckError, CardError):
        return
    rng = random.Random(seed)
    assert_cards_conserved(round_)
    # Each play takes a card from a hand for good, so the cards in hands and stock bound it.
    budget = sum(len(round_.hand(s)) for s in range(rules.players)) + len(round_.stock)
    while not round_.is_over:
        assert budget > 0, "more plays than cards: the round does not end"
        claims = round_.renuncio_claims()
        if claims and rng.random() < 0.5:
            round_.claim_renuncio(rng.choice(claims))
        legal = round_.legal_moves()
        assert legal, "a round not over has a move for the seat to move"
        round_.play(rng.choice(legal))
        budget -= 1
        assert_cards_conserved(round_)
    assert round_.legal_moves() == [] and round_.stock == ()
    assert round_.table == () or round_.last_capturer is None  # swept to the last capturer
    score = round_.score()
    assert len(score.totals) == rules.sides


@settings(max_examples=300, deadline=None)
@given(st.sets(st.sampled_from(CARDS[:40]), max_size=40))
def test_the_setenta_cards_add_up_to_the_setenta_total(pile: set) -> None:
    """The setenta's cards (a lesson lights them) are one per suit held, each its suit's
    best, and add up to the engine's total when every suit is there."""
    from escoba.scoring import SETENTA_VALUES, setenta_cards, setenta_total

    best = setenta_cards(pile)
    assert len({c.suit for c in best}) == len(best) == len({c.suit for c in pile})
    for card in best:
        assert all(SETENTA_VALUES[c.value] <= SETENTA_VALUES[card.value]
                   for c in pile if c.suit is card.suit)
    total = setenta_total(mask_of(pile))
    assert total == (sum(SETENTA_VALUES[c.value] for c in best) if len(best) == 4 else None)
