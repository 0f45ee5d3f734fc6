"""A whole game: rounds dealt one after another until a side reaches the target.

:class:`Game` shuffles each deck (:func:`escoba.deck.shuffled_order`), deals a
:class:`~escoba.round.Round` from it (dealing again a deal whose opening table
must be redealt), passes the deal on and keeps the totals; :class:`RoundRecord`
is what it keeps of each round for its record. The round itself (deal, legal
moves, play, score) is :mod:`escoba.round`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card
from .deck import deck_of, shuffled_order
from .errors import Code, DeckError, IllegalMoveError
from .moves import Attempt, Move, Play, Renuncio
from .observation import Observation
from .round import Round
from .rules import Rules
from .scoring import RoundScore

__all__ = ["Game", "RoundRecord"]


def _no_round() -> IllegalMoveError:
    return IllegalMoveError("no round in play: start the next round", Code.NO_ROUND)



@dataclass
class RoundRecord:
    """What a game keeps of each round for its record: deal and moves."""

    dealer: int
    deck: tuple[Card, ...]
    redealt: list[tuple[Card, ...]] = field(default_factory=list)


class Game:
    """A whole game: rounds until a side reaches ``rules.target`` (ties play on).

    ``rng`` shuffles the decks (and picks the first dealer when ``dealer`` is
    ``None``). A round is started explicitly with :meth:`start_round`, so that
    a score table can be shown between rounds.
    """

    def __init__(self, rules: Rules, *, dealer: int | None = None,
                 rng: random.Random | None = None, seed: int | None = None) -> None:
        self.rules = rules
        self.rng = rng if rng is not None else random.Random(seed)
        if dealer is None:
            dealer = self.rng.randrange(rules.players)
        if not (isinstance(dealer, int) and 0 <= dealer < rules.players):
            raise DeckError(f"dealer must be a seat 0-{rules.players - 1}", Code.BAD_DEALER,
                            dealer=repr(dealer), players=rules.players)
        self._next_dealer = dealer
        self.rounds: list[Round] = []
        self.round_records: list[RoundRecord] = []
        self.totals: list[int] = [0] * rules.sides
        self.winner: int | None = None
        self._rounds_scored = 0  # how many rounds the totals include

    @property
    def round(self) -> Round | None:
        """The current (or last) round; ``None`` before the first is started."""
        return self.rounds[-1] if self.rounds else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def next_dealer(self) -> int:
        return self._next_dealer

    def shuffled_deck(self) -> list[Card]:
        """A fresh deck in index order, shuffled by the game's ``rng`` (top card first)."""
        return list(deck_of(shuffled_order(self.rng, self.rules.deck_size)))

    def start_round(self, deck: Sequence[Card] | None = None,
                    redealt: Sequence[Sequence[Card]] = ()) -> Round:
        """Deal the next round, from ``deck`` or a fresh shuffle.

        A shuffled deal whose opening table must be redealt (a table of 15 under
        ``initial_fifteen="redeal"``, three or four re under Scopa) is gathered and
        shuffled again (kept in the record's ``redealt``).
        """
        if self.is_over:
            raise ValueError("the game is over")
        if self.rounds and not self.rounds[-1].is_over:
            raise ValueError("the current round is not over")
        self.round_finished()
        dealer = self._next_dealer
        abandoned = [tuple(d) for d in redealt]
        if deck is not None:
            round_ = Round(self.rules, deck, dealer)
        else:
            while True:
                order = shuffled_order(self.rng, self.rules.deck_size)
                try:
                    round_ = Round._shuffled(self.rules, order, dealer)
                    break
                except DeckError:
                    abandoned.append(deck_of(order))
        self.rounds.append(round_)
        self.round_records.append(RoundRecord(dealer, round_.deck, abandoned))
        self._next_dealer = (dealer + 1) % self.rules.players
        return round_

    def _current(self) -> Round:
        round_ = self.round
        if round_ is None or round_.is_over:
            raise _no_round()
        return round_

    def legal_moves(self) -> list[Move]:
        return self._current().legal_moves()

    def observation(self, seat: int) -> Observation:
        round_ = self.round
        if round_ is None:
            raise ValueError("no round has been dealt yet")
        return round_.observation(seat, scores=tuple(self.totals),
                                  round_number=len(self.rounds))

    def play(self, move: Move, seat: int | None = None) -> Play:
        """Play in the current round (as ``seat``, if given); scores it when it ends."""
        played = self._current().play(move, seat)
        self.round_finished()
        return played

    def check(self, move: Move, seat: int | None = None) -> IllegalMoveError | None:
        """:meth:`Round.check` in the current round (``no_round`` between rounds)."""
        round_ = self.round
        if round_ is None or round_.is_over:
            return _no_round()
        return round_.check(move, seat)

    def attempt(self, move: Move, seat: int | None = None) -> Attempt:
        """:meth:`Round.attempt` in the current round (``no_round`` between rounds);
        scores the round when it ends."""
        round_ = self.round
        if round_ is None or round_.is_over:
            return Attempt(None, _no_round())
        attempt = round_.attempt(move, seat)
        self.round_finished()
        return attempt

    def play_pair(self, card: int, take: int) -> Play:
        """:meth:`play` on the inner form (card index, take mask)."""
        round_ = self.rounds[-1] if self.rounds else None
        if round_ is None or round_._over:
            raise _no_round()
        played = round_.play_pair(card, take)
        if round_._over:
            self.round_finished()
        return played

    def claim_renuncio(self, claim: Renuncio) -> Play:
        return self._current().claim_renuncio(claim)

    def round_finished(self) -> None:
        """Add the round just ended to the totals and decide the winner (once per round).

        :meth:`play` calls it; so does anyone who drives the current :class:`Round`
        directly (the simulation loop) once that round is over.
        """
        rounds = self.rounds
        if not rounds or self._rounds_scored == len(rounds) or not rounds[-1].is_over:
            return
        self._rounds_scored = len(rounds)
        totals = self.totals
        for side, points in enumerate(rounds[-1].score().totals):
            totals[side] += points
        best = max(totals)
        if best >= self.rules.target:  # the side ahead wins, unless it is a tie
            leaders = [side for side, total in enumerate(totals) if total == best]
            if len(leaders) == 1:
                self.winner = leaders[0]

    def round_scores(self) -> list[RoundScore]:
        return [r.score() for r in self.rounds if r.is_over]
