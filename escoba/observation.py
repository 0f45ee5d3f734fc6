"""What one seat may know: :class:`Observation`, and its one builder.

Bots, the coach and the app see a round only through an :class:`Observation`
(:meth:`escoba.round.Round.observation`). It is built in one place,
:func:`build_observation`, whose parameters are its fields by name and in
order; ``Observation._replace`` is made to compute the legal pairs again.
Split out of :mod:`escoba.game` (issue 28): it needs move generation
(:mod:`escoba.movegen`) and nothing of the round that builds it.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from .cards import CARDS, DECK_MASK, Card, cards_of
from .movegen import legal_move_pairs, moves_from_pairs
from .moves import Move, Play, Renuncio
from .rules import Rules
from .solver import capture_masks, sort_key

__all__ = ["Observation", "build_observation"]

_new_observation = tuple.__new__


class Observation(NamedTuple):
    """What one seat may know, and nothing more: the only input of bots and the coach.

    Masks are the inner form; the properties give :class:`Card` tuples. Other
    players' hands appear only as counts, unless ``rules.open_hand``
    (*mesa abierta*) puts every hand face up, in ``open_hands``.
    """

    rules: Rules
    seat: int
    to_move: int
    dealer: int
    hand_mask: int
    table_mask: int
    pile_masks: tuple[int, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    escobas: tuple[int, ...]
    last_capturer: int | None
    seen_mask: int
    history: tuple[Play, ...]
    renuncio_card: int | None = None
    renuncio_table: int = 0
    open_hands: tuple[int, ...] | None = None
    scores: tuple[int, ...] = ()
    round_number: int = 1
    round_over: bool = False
    #: The legal pairs of :meth:`legal_move_pairs`, as the round computed them for
    #: this seat's turn (``None``: not its turn, or not computed). ``_replace``
    #: computes them again, so they always follow the other fields.
    legal: tuple[tuple[int, int], ...] | None = None

    @property
    def hand(self) -> tuple[Card, ...]:
        return cards_of(self.hand_mask)

    @property
    def table(self) -> tuple[Card, ...]:
        return cards_of(self.table_mask)

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(cards_of(m) for m in self.pile_masks)

    @property
    def unseen_mask(self) -> int:
        """Cards this seat has not seen: other hands and the stock, as far as it knows."""
        return DECK_MASK[self.rules.jokers] & ~self.hand_mask & ~self.seen_mask

    @property
    def unseen(self) -> tuple[Card, ...]:
        return cards_of(self.unseen_mask)

    @property
    def is_my_turn(self) -> bool:
        return self.to_move == self.seat and not self.round_over

    @property
    def last_play_of_round(self) -> bool:
        """Whether the next play is the very last card of the round."""
        return self.stock_count == 0 and sum(self.hand_counts) == 1

    def legal_move_pairs(self) -> list[tuple[int, int]]:
        """Legal plays in the inner form (card index, take mask); empty if not my turn."""
        # One unpacking of every field costs less than seven attribute reads (each a
        # descriptor call on a named tuple), and this runs before every move.
        (rules, seat, to_move, _, hand, table, _, _, _, _, _, _, _, _, _, _, _, _,
         round_over, legal) = self
        if to_move != seat or round_over:
            return []
        if legal is not None:
            return list(legal)  # what the round computed for this very state
        return legal_move_pairs(rules, hand, table)

    def legal_moves(self) -> list[Move]:
        """The moves this seat may make now (empty when it is not its turn)."""
        return moves_from_pairs(self.legal_move_pairs())

    def renuncio_claims(self) -> list[Renuncio]:
        """Renuncio claims this seat may make before playing (usually none)."""
        if self.renuncio_card is None or not self.is_my_turn:
            return []
        card = CARDS[self.renuncio_card]
        return [Renuncio(card, frozenset(cards_of(s)))
                for s in sorted(capture_masks(self.renuncio_table, self.renuncio_card,
                                              self.rules.capture_sum), key=sort_key)]


def build_observation(rules: Rules, seat: int, to_move: int, dealer: int, hand_mask: int,
                      table_mask: int, pile_masks: tuple[int, ...], hand_counts: tuple[int, ...],
                      stock_count: int, escobas: tuple[int, ...], last_capturer: int | None,
                      seen_mask: int, history: tuple[Play, ...], renuncio_card: int | None,
                      renuncio_table: int, open_hands: tuple[int, ...] | None,
                      scores: tuple[int, ...], round_number: int, round_over: bool,
                      legal: tuple[tuple[int, int], ...] | None) -> Observation:
    """The one builder of an :class:`Observation`: its parameters are the fields, by
    name and in order (checked below at import, and by tests/test_scopa.py), so a
    field added in the middle fails loudly instead of shifting silently.

    Its two callers (Round.observation and the simulation's loop in Round._advance)
    pass the fields by position, in this order: by keyword the call costs 4 times as
    much (2.1 µs against 0.5 µs an observation) and a simulated round 40 % more
    instructions (0.96 M → 1.37 M, docs/BENCHMARKS.md). Adding a field means adding
    a parameter here (else the import fails), and then every caller fails until it
    passes it. Inside, ``tuple.__new__`` skips the named tuple's slower constructor.
    """
    return _new_observation(Observation, (
        rules, seat, to_move, dealer, hand_mask, table_mask, pile_masks, hand_counts,
        stock_count, escobas, last_capturer, seen_mask, history, renuncio_card,
        renuncio_table, open_hands, scores, round_number, round_over, legal))


_BUILDER_CODE = getattr(build_observation, "__code__", None)  # none once compiled by mypyc
if _BUILDER_CODE is not None and \
        _BUILDER_CODE.co_varnames[:_BUILDER_CODE.co_argcount] != Observation._fields:
    raise ImportError("escoba.observation.build_observation's parameters must be "
                      "Observation's fields")

_namedtuple_replace = Observation._replace


def _observation_replace(self: Observation, /, **changes: Any) -> Observation:
    """``Observation._replace``, with the legal pairs computed again for the new fields
    (the board blanks a hand this way: its old moves must not come with it)."""
    changes.pop("legal", None)
    new = _namedtuple_replace(self, **changes)
    legal = None
    if new.to_move == new.seat and not new.round_over:
        legal = tuple(legal_move_pairs(new.rules, new.hand_mask, new.table_mask))
    return _namedtuple_replace(new, legal=legal)


# A partialmethod, not the bare function: a mypyc-compiled function does not bind as a method.
Observation._replace = functools.partialmethod(  # type: ignore[method-assign,assignment]
    _observation_replace)
