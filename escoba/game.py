"""Rounds and games as state machines: deal, legal moves, play, score.

The API follows python-chess and OpenSpiel::

    round_.legal_moves()          # every Move the rules allow, nothing else
    round_.play(move)             # IllegalMoveError (a ValueError) says why
    round_.observation(seat)      # what that seat may know: all bots and the coach see

:class:`Round` is one deal of the deck to its end and its scoring;
:class:`Game` chains rounds (dealer passing on) until a side reaches the target.

Inside, hands, table and piles are int masks (see :mod:`escoba.cards`); the
friendly :class:`Move` and :class:`~escoba.cards.Card` values are built at the
edge.
"""

from __future__ import annotations

import functools
import itertools
import operator
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .cards import (
    CARDS,
    JOKER_MASK,
    VALUE,
    Card,
    cards_of,
    format_cards,
    mask_of,
)
from .errors import Code, DeckError, IllegalMoveError
from .moves import Attempt, Move, Play, Renuncio
from .rules import Rules
from .scoring import RoundScore
from .solver import (
    NIBBLE_SUBSETS,
    NO_SOLUTIONS,
    capture_masks,
    has_capture,
    is_capture,
    solution_cell,
    sort_key,
    table_row,
)
from .variants import Variant, variant_for
from .variants.base import not_on_table as _not_on_table
from .variants.base import notations as _notations
from .variants.escoba import wrong_sum as _wrong_sum

__all__ = [
    "Move",
    "Renuncio",
    "Play",
    "Round",
    "Game",
    "Observation",
    "Attempt",
    "IllegalMoveError",
    "DeckError",
    "initial_table_triggers",
    "legal_move_pairs",
    "deck_for",
]

_FULL_MASK = {False: (1 << 40) - 1, True: (1 << 42) - 1}


def _names(mask: int) -> str:
    return format_cards(cards_of(mask))



def legal_move_pairs(rules: Rules, hand: int, table: int) -> list[tuple[int, int]]:
    """Legal plays as ``(card index, take mask)`` pairs: the fast form of legal moves.

    Under ``forced`` a card that captures has only its captures; otherwise
    laying it down (take mask 0) is legal too. Without jokers (the engine's
    hottest path) the pairs come from the table's row of solution cells
    (:func:`escoba.solver.table_row`, :func:`_row_pairs`). Another variant's
    pairs come from its :meth:`~escoba.variants.Variant.legal_pairs`.
    """
    if rules.variant != "escoba":
        return variant_for(rules).legal_pairs(rules, hand, table)
    capture_sum = rules.capture_sum
    forced = rules.capture_rule == "forced"
    if rules.jokers and (hand | table) & JOKER_MASK:
        out: list[tuple[int, int]] = []
        append = out.append
        m = hand
        while m:
            low = m & -m
            card = low.bit_length() - 1
            m ^= low
            sets = capture_masks(table, card, capture_sum)
            for s in sets:
                append((card, s))
            if not sets or not forced:
                append((card, 0))
        return out
    return _row_pairs(hand, table, table_row(table), _TARGETS[capture_sum], forced)


def _row_pairs(hand: int, table: int, row: list, targets: tuple[int, ...],
               forced: bool) -> list[tuple[int, int]]:
    """:func:`legal_move_pairs` when neither ``hand`` nor ``table`` holds a joker,
    given the table's row of solution cells (:func:`~escoba.solver.table_row`).

    ``targets`` is ``_TARGETS[capture_sum]``; ``forced``: a card that captures
    may not be laid down. Each hand card's cell is read from the row (computed
    on its first use), its captures made from the cell's solutions.
    """
    out: list[tuple[int, int]] = []
    append = out.append
    cards = _HAND_CARDS_GET(hand)
    if cards is None:
        cards = _hand_cards(hand)
    for card in cards:
        target = targets[card]
        cell = row[target]
        if cell is None:
            cell = row[target] = solution_cell(row[20], target)
        if cell is _NO_SOLUTIONS:
            append((card, 0))
            continue
        fulls, partials, _ = cell
        for full in fulls:
            append((card, table & full))
        if partials:
            for full, partial in partials:
                base = table & full
                if len(partial) == 1:  # some of the cards of one value: the usual case
                    shift, count = partial[0]
                    for part in _SUBSETS_AT[shift][table >> shift & 15][count]:
                        append((card, base | part))
                    continue
                masks = [base]
                for shift, count in partial:
                    options = _SUBSETS_AT[shift][table >> shift & 15][count]
                    masks = [t | o for t in masks for o in options]
                for t in masks:
                    append((card, t))
        if not forced:
            append((card, 0))
    return out


#: _SUBSETS_AT[shift][nibble][k]: NIBBLE_SUBSETS[nibble][k], each shifted into place.
_SUBSETS_AT = [[[tuple(o << shift for o in by_count) for by_count in NIBBLE_SUBSETS[nibble]]
                for nibble in range(16)] if shift % 4 == 0 else None for shift in range(40)]
#: _TARGETS[capture_sum][card]: what the table must add to that Spanish card, 0 when
#: the card makes the sum alone or more (row cell 0 is always NO_SOLUTIONS).
_TARGETS = {cs: tuple(max(cs - VALUE[i], 0) for i in range(40)) for cs in range(1, 33)}
_NO_SOLUTIONS = NO_SOLUTIONS
#: _ROW_SLOT[card]: where a row keeps the row one card of that card's value further.
_ROW_SLOT = tuple(20 + VALUE[i] for i in range(40))
#: The card indices of each hand, ascending (a hand is asked for its cards at every
#: move). Every hand of one to three Spanish cards is here from the start (10,700
#: hands, a few milliseconds at import); others are added when met.
_HAND_CARDS: dict[int, tuple[int, ...]] = {
    sum(1 << i for i in hand): hand
    for size in (1, 2, 3) for hand in itertools.combinations(range(40), size)}
_HAND_CARDS_GET = _HAND_CARDS.get


#: _BYTE_CARDS[k][b]: the card indices of the bits of byte value ``b`` at byte ``k`` of a mask.
_BYTE_CARDS = [[tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)]
               for k in range(6)]


def _hand_cards(hand: int) -> tuple[int, ...]:
    if len(_HAND_CARDS) >= 200_000:
        _HAND_CARDS.clear()  # the precomputed hands come back when met
    b0, b1, b2, b3, b4, b5 = _BYTE_CARDS
    cards = _HAND_CARDS[hand] = (b0[hand & 255] + b1[hand >> 8 & 255] + b2[hand >> 16 & 255]
                                 + b3[hand >> 24 & 255] + b4[hand >> 32 & 255]
                                 + b5[hand >> 40 & 255])
    return cards


def _moves_from_pairs(pairs: Iterable[tuple[int, int]]) -> list[Move]:
    return [Move(CARDS[c], frozenset(cards_of(t))) for c, t in pairs]


def initial_table_triggers(rules: Rules, table: Sequence[Card] | int) -> bool:
    """Whether four initial table cards trigger ``rules.initial_fifteen``.

    A joker is never wild here (RULES.md: it "never triggers"): under
    ``dealer_takes`` a table with a joker has no total; under ``redeal`` only
    subsets of the other cards count. See docs/RULES-READING.md.
    """
    mask = table if isinstance(table, int) else mask_of(table)
    return variant_for(rules).opening_table(rules, mask) != "play"


_INDEX = operator.attrgetter("index")
#: _NEXT_SEAT[players][seat]: who plays after ``seat``.
_NEXT_SEAT = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, 9)}
#: _DEAL_ORDER[players][dealer]: the seats in the order a deal serves them.
_DEAL_ORDER = {n: tuple(tuple((dealer + 1 + k) % n for k in range(n)) for dealer in range(n))
               for n in range(1, 9)}
#: _BIT[i] is ``1 << i``: one lookup instead of building the int.
_BIT: tuple[int, ...] = tuple(1 << i for i in range(64))
_new_play = tuple.__new__
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
        return _FULL_MASK[self.rules.jokers] & ~self.hand_mask & ~self.seen_mask

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
        return _moves_from_pairs(self.legal_move_pairs())

    def renuncio_claims(self) -> list[Renuncio]:
        """Renuncio claims this seat may make before playing (usually none)."""
        if self.renuncio_card is None or not self.is_my_turn:
            return []
        card = CARDS[self.renuncio_card]
        return [Renuncio(card, frozenset(cards_of(s)))
                for s in sorted(capture_masks(self.renuncio_table, self.renuncio_card,
                                              self.rules.capture_sum), key=sort_key)]


def _observation(rules: Rules, seat: int, to_move: int, dealer: int, hand_mask: int,
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


_BUILDER_CODE = getattr(_observation, "__code__", None)  # none once compiled by mypyc
if _BUILDER_CODE is not None and \
        _BUILDER_CODE.co_varnames[:_BUILDER_CODE.co_argcount] != Observation._fields:
    raise ImportError("escoba.game._observation's parameters must be Observation's fields")

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


class Round:
    """One round: the deal of a whole deck, played card by card, then scored.

    ``deck`` is the shuffled deck, top card first; with ``dealer`` it fixes
    the deal exactly (RULES.md, "Deal order"). Raises :class:`DeckError` if
    ``deck`` is not a full deck, or if ``rules.initial_fifteen == "redeal"``
    and its table must be redealt (:meth:`Game.start_round` reshuffles).
    """

    def __init__(self, rules: Rules, deck: Sequence[Card], dealer: int, *,
                 _trusted_deck: bool = False, _unfilled: bool = False) -> None:
        if _unfilled:  # for the other constructors and copy(), which fill it themselves
            return  # (a mypyc-compiled class cannot be made with object.__new__)
        self._start(rules, dealer)
        deck = tuple(deck)
        if not _trusted_deck:  # a deck the game shuffled itself is full by construction
            _check_full_deck(rules, deck)
        self._deal_deck(deck, list(map(_INDEX, reversed(deck))))

    @classmethod
    def _shuffled(cls, rules: Rules, order: list[int], dealer: int) -> Round:
        """A round dealt from the game's own shuffle, given as card indices (top first)."""
        round_ = cls(rules, (), dealer, _unfilled=True)
        round_._start(rules, dealer)
        round_._deal_deck(_deck_of(order), order[::-1])  # pop() = top card
        return round_

    def _deal_deck(self, deck: tuple[Card, ...], stock: list[int]) -> None:
        """Deal ``deck`` (``stock``: its card indices, bottom first) and lay the table."""
        rules = self.rules
        self.deck: tuple[Card, ...] = deck
        self._stock: list[int] = stock
        self._deal()
        if rules.table_cards == 4:
            table = _BIT[stock.pop()] | _BIT[stock.pop()] | _BIT[stock.pop()] | _BIT[stock.pop()]
        else:  # Scopone scientifico: no table cards
            table = 0
        self._table = table
        self._seen = table
        if self._generic is not None:
            if self._generic.opening_table(rules, table) == "redeal":
                raise DeckError(f"the initial table {_names(table)} holds three or four re: "
                                "the deal must be redealt", Code.DECK_REDEAL,
                                table=_notations(table), need=rules.capture_sum)
        elif rules.initial_fifteen != "ignore" and initial_table_triggers(rules, table):
            if rules.initial_fifteen == "redeal":
                raise DeckError(f"the initial table {_names(table)} holds "
                                f"{rules.capture_sum}: the deal must be redealt",
                                Code.DECK_REDEAL, table=_notations(table),
                                need=rules.capture_sum)
            dealer = self.dealer
            self._piles[dealer] |= table
            self._table = 0
            self._last_capturer: int | None = dealer
            self._history.append(Play(dealer, "initial", -1, table))
        if len(stock) < self._players:
            self._leftovers_to_table()

    def _start(self, rules: Rules, dealer: int) -> None:
        """The state of a round before any card is placed (shared by both constructors)."""
        self.rules = rules
        #: The capture rule (:mod:`escoba.variants`), and the same when it is not Escoba,
        #: whose fast bitmask path stays inline here (``None``).
        self._variant: Variant = variant_for(rules)
        self._generic: Variant | None = None if rules.variant == "escoba" else self._variant
        # Rule facts read on every move, looked up once.
        self._forced = rules.capture_rule == "forced"
        self._renuncio_rule = rules.capture_rule == "renuncio"
        self._last_play_escoba = rules.last_play_escoba
        self._players = rules.players
        n = rules.players
        if not (isinstance(dealer, int) and 0 <= dealer < n):
            raise DeckError(f"dealer must be a seat 0-{n - 1}, got {dealer!r}", Code.BAD_DEALER,
                            dealer=repr(dealer), players=n)
        self.deck = ()
        self.dealer = dealer
        self._stock = []
        self._hands: list[int] = [0] * n
        self._piles: list[int] = [0] * n
        self._escobas: tuple[int, ...] = (0,) * n  # a tuple: observations share it
        self._open_hand = rules.open_hand
        self._count_rows: tuple[tuple[int, ...], ...] = ((0,) * n,)
        self._table = 0
        self._seen = 0
        self._to_move = (dealer + 1) % n
        self._next_seat = _NEXT_SEAT[n]
        #: The seats in the order a deal serves them, from the dealer's left.
        self._deal_order = _DEAL_ORDER[n][dealer]
        self._dealt_per = -1  # the hand size _count_rows was last built for
        self._last_capturer = None
        self._history: list[Play] = []
        self._renuncio: tuple[int, int] | None = None  # (card laid down, table before it)
        #: The legal pairs of the seat to move in the current state, once asked for;
        #: ``None`` again after every change of state (``_advance``, a renuncio claim).
        #: A move among them is legal without judging it again (``_play_chosen``).
        self._legal: tuple[tuple[int, int], ...] | None = None
        self._cards_in_hands = 0
        self._over = False
        self._score: RoundScore | None = None

    @classmethod
    def from_position(cls, rules: Rules, hands: Sequence[Sequence[Card | str]],
                      table: Sequence[Card | str], *, to_move: int = 0,
                      stock: Sequence[Card | str] | None = None,
                      piles: Sequence[Sequence[Card | str]] | None = None,
                      escobas: Sequence[int] | None = None,
                      last_capturer: int | None = None) -> Round:
        """A round already under way: these hands, table, stock (top first) and piles.

        For lessons and worked examples that need a position no fresh deal gives (a
        table of one card, a hand of one, the last card of a round). Every card of
        the deck must be in exactly one place; ``stock`` defaults to every card not
        placed elsewhere, in deck order. Nothing happened before: no history, no
        renuncio pending, no initial-table rule (that rule is about a deal's table).

        ``to_move`` plays next. The hands must be as a deal in play leaves them:
        going round the table from the seat to move, the seats still to play in
        this turn round hold one card more than those who already played (so
        ``[["10o"], ["4c", "6b"]]`` with seat 0 to move is refused: seat 1 would
        have played less). The dealer is the seat before the first of them to have
        played (before ``to_move`` when all hold the same). When every hand is
        empty, the stock is dealt at once, or with no stock left the round ends
        and is scored, the table going to ``last_capturer``. Such a round has no
        deck (``deck == ()``), so it is never written to a record.

        Raises :class:`DeckError` (``deal_wrong_count``, ``deal_cards_twice``,
        ``deck_not_full``, ``bad_dealer``) and :class:`~escoba.errors.CardError`
        for a position that cannot be, among them a stock that cannot be dealt
        (``deal_wrong_count`` with ``where="stock"``: fewer cards than players, but
        some, which a deal would have laid on the table). Every position accepted
        plays to an end (``tests/test_properties.py``).
        """
        n = rules.players
        round_ = cls(rules, (), 0, _unfilled=True)
        if not (isinstance(to_move, int) and 0 <= to_move < n):
            # The dealer is found from the seat to move: a bad seat is a bad dealer.
            raise DeckError(f"to_move must be a seat 0-{n - 1}, got {to_move!r}",
                            Code.BAD_DEALER, dealer=repr(to_move), players=n)

        def parsed(cards: Sequence[Card | str]) -> list[Card]:
            return [c if isinstance(c, Card) else Card.parse(c) for c in cards]

        def each_seat(groups: Sequence[Sequence[Card | str]], where: str) -> list[list[Card]]:
            if len(groups) != n:
                raise DeckError(f"{n} {where} are needed, got {len(groups)}",
                                Code.DEAL_WRONG_COUNT, where=where, count=len(groups),
                                expected=n)
            return [parsed(g) for g in groups]

        in_hands = each_seat(hands, "hands")
        for seat, hand in enumerate(in_hands):
            if len(hand) > rules.hand_size:
                raise DeckError(f"hand {seat} has {len(hand)} cards; a hand holds at most "
                                f"{rules.hand_size}", Code.DEAL_WRONG_COUNT,
                                where=f"hand {seat}", count=len(hand),
                                expected=rules.hand_size)
        # As a deal in play leaves them: from the seat to move round the table, the
        # seats still to play this turn round hold h cards, those who played h - 1.
        order = [(to_move + k) % n for k in range(n)]
        first = len(in_hands[to_move])
        for seat in order[1:]:
            size, before = len(in_hands[seat]), len(in_hands[(seat - 1) % n])
            if not first - 1 <= size <= before:
                raise DeckError(f"hand {seat} has {size} cards: with {first} in the hand of "
                                f"seat {to_move} to move, a deal in play leaves "
                                f"{max(first - 1, 0)}-{first}", Code.DEAL_WRONG_COUNT,
                                where=f"hand {seat}", count=size, expected=first)
        # The dealer sits before the seat that played first in this turn round.
        starter = next((s for s in order if len(in_hands[s]) < first), to_move)
        in_piles = each_seat(piles, "piles") if piles is not None else [[] for _ in range(n)]
        on_table = parsed(table)
        placed = [c for group in (*in_hands, on_table, *in_piles) for c in group]
        counts: dict[Card, int] = {}
        for c in placed:
            counts[c] = counts.get(c, 0) + 1
        twice = sorted(c for c, k in counts.items() if k > 1)
        if twice:
            raise DeckError(f"{format_cards(twice)} placed twice", Code.DEAL_CARDS_TWICE,
                            cards=[str(c) for c in twice])
        if stock is None:
            in_stock = [c for c in CARDS[: rules.deck_size] if c not in counts]
        else:
            in_stock = parsed(stock)
        _check_full_deck(rules, placed + in_stock)
        if 0 < len(in_stock) < n:
            # A deal that leaves fewer cards than players lays them on the table at once
            # (RULES.md, "Deal"), so no round in play has such a stock, and dealing it
            # would give nobody a card: the round could never go on nor end.
            raise DeckError(f"a stock of {len(in_stock)} cards cannot be dealt to {n} players "
                            f"(a deal leaves none, or at least {n})", Code.DEAL_WRONG_COUNT,
                            where="stock", count=len(in_stock), expected=n)
        scored = list(escobas) if escobas is not None else [0] * n
        if len(scored) != n or not all(isinstance(e, int) and e >= 0 for e in scored):
            raise DeckError(f"escobas must be {n} counts, got {scored!r}",
                            Code.DEAL_WRONG_COUNT, where="escobas", count=len(scored),
                            expected=n)
        if last_capturer is not None and not (
                isinstance(last_capturer, int) and 0 <= last_capturer < n):
            raise DeckError(f"last_capturer must be a seat 0-{n - 1}, got {last_capturer!r}",
                            Code.BAD_DEALER, dealer=repr(last_capturer), players=n)
        round_._start(rules, (starter - 1) % n)
        round_._to_move = to_move
        round_._hands = [mask_of(h) for h in in_hands]
        round_._piles = [mask_of(p) for p in in_piles]
        round_._table = mask_of(on_table)
        round_._stock = [c.index for c in reversed(in_stock)]  # pop() = top card
        round_._escobas = tuple(scored)
        round_._last_capturer = last_capturer
        round_._seen = round_._table
        for pile in round_._piles:
            round_._seen |= pile
        round_._cards_in_hands = sum(len(h) for h in in_hands)
        # The hands as a deal of ``first`` cards each, begun at ``starter``, leaves them.
        round_._count_rows = _count_rows(n, starter, first)
        if not round_._cards_in_hands:
            if round_._stock:
                round_._deal()
                round_._leftovers_to_table()
            if not round_._cards_in_hands:
                round_._finish()
        return round_

    # -- dealing ------------------------------------------------------------
    def _deal(self) -> None:
        n = self._players
        stock = self._stock
        pop = stock.pop  # pop() = top card
        per = min(self.rules.hand_size, len(stock) // n)
        hands = self._hands
        if per == 3:  # the usual hand, unrolled
            for seat in self._deal_order:
                hands[seat] = _BIT[pop()] | _BIT[pop()] | _BIT[pop()]
        else:
            for seat in self._deal_order:
                hand = 0
                for _ in range(per):
                    hand |= _BIT[pop()]
                hands[seat] = hand
        self._cards_in_hands = per * n
        if per != self._dealt_per:  # the same table for every deal of a round's size
            self._dealt_per = per
            self._count_rows = _count_rows(n, self._deal_order[0], per)

    def _leftovers_to_table(self) -> None:
        # RULES.md: a deal leaving fewer cards than players puts them on the table.
        if 0 < len(self._stock) < self.rules.players:
            for index in self._stock:
                self._table |= 1 << index
                self._seen |= 1 << index
            self._stock.clear()

    # -- reading the state ----------------------------------------------------
    @property
    def to_move(self) -> int:
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self._over

    @property
    def table(self) -> tuple[Card, ...]:
        return cards_of(self._table)

    @property
    def table_mask(self) -> int:
        return self._table

    def hand(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    def pile(self, seat: int) -> tuple[Card, ...]:
        return cards_of(self._piles[seat])

    @property
    def pile_masks(self) -> tuple[int, ...]:
        return tuple(self._piles)

    @property
    def escobas(self) -> tuple[int, ...]:
        return self._escobas

    @property
    def stock(self) -> tuple[Card, ...]:
        """Cards not yet dealt, top first."""
        return tuple(CARDS[i] for i in reversed(self._stock))

    @property
    def last_capturer(self) -> int | None:
        return self._last_capturer

    @property
    def history(self) -> tuple[Play, ...]:
        return tuple(self._history)

    @property
    def dealer_took_initial_table(self) -> bool:
        return bool(self._history) and self._history[0].kind == "initial"

    def observation(self, seat: int, scores: tuple[int, ...] = (),
                    round_number: int = 1) -> Observation:
        """What ``seat`` may know now. Only this ever reaches a bot or the coach."""
        pending = self._renuncio
        claim = pending is not None and seat == self._to_move \
            and self.rules.capture_rule == "renuncio"
        hands = self._hands
        rules = self.rules
        hand = hands[seat]
        table = self._table
        legal = None
        if seat == self._to_move and not self._over:  # its turn: its legal moves too
            legal = self._legal
            if legal is None:
                legal = self._legal = tuple(legal_move_pairs(rules, hand, table))
        # By position, in _observation's order (see there why not by keyword).
        return _observation(
            rules, seat, self._to_move, self.dealer, hand, table, tuple(self._piles),
            self._count_rows[self._cards_in_hands], len(self._stock), self._escobas,
            self._last_capturer, self._seen, tuple(self._history),
            pending[0] if claim else None,  # type: ignore[index]
            pending[1] if claim else 0,  # type: ignore[index]
            tuple(hands) if self._open_hand else None, scores, round_number, self._over,
            legal)

    # -- moves ------------------------------------------------------------------
    def legal_move_pairs(self) -> list[tuple[int, int]]:
        """Legal plays as ``(card index, take mask)``: the fast path for simulations."""
        if self._over:
            return []
        pairs = self._legal
        if pairs is None:
            pairs = self._legal = tuple(
                legal_move_pairs(self.rules, self._hands[self._to_move], self._table))
        return list(pairs)

    def legal_moves(self) -> list[Move]:
        """Every move the rules allow the seat to move, and nothing else.

        Miscounts (``miscount="penalty"``) and renuncio claims are not moves of
        this list: see :meth:`play` and :meth:`renuncio_claims`.
        """
        return _moves_from_pairs(self.legal_move_pairs())

    def renuncio_claims(self) -> list[Renuncio]:
        """Claims the seat to move may make before playing (renuncio rule only)."""
        return self.observation(self._to_move).renuncio_claims()

    def check(self, move: Move, seat: int | None = None) -> IllegalMoveError | None:
        """The verdict on ``move``, changing nothing: ``None`` if :meth:`play` accepts
        it, else the :class:`IllegalMoveError` it would raise (its ``code`` and
        ``params`` say why: ``wrong_sum``, ``capture_forced``, ``not_in_hand``...).

        ``seat``, when given, is who is trying to play: anyone but the seat to
        move is refused (``not_your_turn``).
        """
        if not isinstance(move, Move):
            return IllegalMoveError(f"expected a Move, got {type(move).__name__}",
                                    Code.NOT_A_MOVE, type=type(move).__name__)
        if seat is not None and seat != self._to_move and not self._over:
            return IllegalMoveError(f"not your turn: seat {seat} tried to play, "
                                    f"but it is seat {self._to_move}'s turn",
                                    Code.NOT_YOUR_TURN, seat=seat, to_move=self._to_move)
        if move.miscount is not None:
            return self._check_miscount(move.card.index, mask_of(move.take),
                                        mask_of(move.miscount))
        return self._check_pair(move.card.index, mask_of(move.take))

    def play(self, move: Move, seat: int | None = None) -> Play:
        """Play ``move`` for the seat to move; returns what happened.

        Raises the :class:`IllegalMoveError` of :meth:`check`, changing nothing.
        """
        if isinstance(move, Move) and move.miscount is None \
                and (seat is None or seat == self._to_move):
            return self.play_pair(move.card.index, mask_of(move.take))  # its fast path
        verdict = self.check(move, seat)
        if verdict is not None:
            raise verdict
        miscount = None if move.miscount is None else mask_of(move.miscount)
        return self._advance((move.card.index, mask_of(move.take)), miscount)  # type: ignore[return-value]

    def attempt(self, move: Move, seat: int | None = None) -> Attempt:
        """A player's try at ``move``, judged by the table's miscount rule.

        A legal move is played. A wrong sum (``wrong_sum``) under
        ``miscount="penalty"`` is played as a miscount (RULES.md: the chosen
        cards go back, the played card stays on the table); under ``"retry"``,
        and for any other reason, nothing changes. Either way the verdict says why.
        """
        verdict = self.check(move, seat)
        if verdict is None:  # judged once: apply it without play()'s second check
            miscount = None if move.miscount is None else mask_of(move.miscount)
            return Attempt(self._advance((move.card.index, mask_of(move.take)), miscount),
                           None)
        if verdict.code == Code.WRONG_SUM and self.rules.miscount == "penalty" \
                and move.miscount is None:
            return Attempt(self.play(Move(move.card, frozenset(), miscount=move.take)), verdict)
        return Attempt(None, verdict)

    def play_pair(self, card: int, take: int) -> Play:
        """:meth:`play` on the inner form: card index and take mask."""
        return self._play_chosen((card, take))

    def _play_chosen(self, pair: tuple[int, int]) -> Play:
        """:meth:`play_pair` given the pair itself (as a player returned it).

        A pair among the legal moves the round generated for its current state
        (``_legal``, forgotten at every change of state) is legal; any other is
        judged in full.
        """
        legal = self._legal
        if legal is None or pair not in legal:
            verdict = self._check_pair(*pair)
            if verdict is not None:
                raise verdict
        return self._advance(pair)  # type: ignore[return-value]

    def _check_pair(self, card: int, take: int) -> IllegalMoveError | None:
        rules = self.rules
        table = self._table
        verdict = self._check_can_play(card)
        if verdict is not None:
            return verdict
        generic = self._generic
        if take:
            if take & ~table:
                return _not_on_table(take & ~table)
            if generic is not None:
                return generic.refusal(rules, table, card, take)
            if not is_capture(table, card, take, rules.capture_sum):
                return _wrong_sum(card, take, rules.capture_sum)
        elif self._forced and (has_capture(table, card, rules.capture_sum) if generic is None
                               else generic.capture_sets(rules, table, card)):
            options = sorted(capture_masks(table, card, rules.capture_sum) if generic is None
                             else generic.capture_sets(rules, table, card), key=sort_key)
            shown = " or ".join(_names(s) for s in options[:3])
            return IllegalMoveError(f"{CARDS[card]} can capture ({shown}): a capture is forced",
                                    Code.CAPTURE_FORCED, card=str(CARDS[card]),
                                    captures=[_notations(s) for s in options],
                                    count=len(options))
        return None

    def _check_can_play(self, card: int) -> IllegalMoveError | None:
        if self._over:
            return IllegalMoveError("the round is over", Code.ROUND_OVER)
        if not self._hands[self._to_move] >> card & 1:
            return IllegalMoveError(f"{CARDS[card]} is not in the hand of seat {self._to_move}",
                                    Code.NOT_IN_HAND, card=str(CARDS[card]),
                                    seat=self._to_move)
        return None

    def _check_miscount(self, card: int, take: int, chosen: int) -> IllegalMoveError | None:
        rules = self.rules
        if rules.miscount != "penalty":
            return IllegalMoveError("a miscount is refused under miscount=retry: "
                                    "choose cards that make the sum", Code.MISCOUNT_NOT_ALLOWED)
        verdict = self._check_can_play(card)
        if verdict is not None:
            return verdict
        if take:
            return IllegalMoveError("a miscount takes nothing", Code.MISCOUNT_TAKES_NOTHING)
        if not chosen:
            return IllegalMoveError("a miscount names the table cards chosen",
                                    Code.MISCOUNT_NAMES_CARDS)
        if chosen & ~self._table:
            return _not_on_table(chosen & ~self._table)
        if is_capture(self._table, card, chosen, rules.capture_sum):
            return IllegalMoveError(f"{_names(chosen)} with {CARDS[card]} is a capture, "
                                    "not a miscount", Code.MISCOUNT_IS_CAPTURE,
                                    card=str(CARDS[card]), cards=_notations(chosen))
        return None

    def _advance(self, pair: tuple[int, int] | None = None, miscount: int | None = None,
                 choosers: Sequence[Callable[[Observation, random.Random], tuple[int, int]]]
                 | None = None, scores: tuple[int, ...] = (), number: int = 1,
                 rng: random.Random | None = None) -> Play | None:
        """The engine's one way to play a card: change the round by ``pair``, or play it out.

        Given ``pair`` (card index, take mask), already judged (or a miscount, its
        chosen cards in ``miscount``), plays it for the seat to move and returns
        what happened. Given ``choosers`` instead (one per seat, a player's
        ``choose_pair``: the simulation's loop, :func:`escoba.match.play_game`),
        plays until the round is over, each seat's chooser answering its own
        :class:`Observation` (exactly :meth:`observation` for that seat), every
        answer judged: one among the legal pairs generated for that very state
        is legal, any other is judged in full and refused with its verdict.
        Not for the renuncio rule, whose claims come before a play.

        This loop is where a simulation spends its time, so everything a move
        reads is held in locals, the table's row of solution cells is followed
        from one table to the next as cards are laid down (the legal pairs come
        from it through :func:`_row_pairs`, as :func:`legal_move_pairs` makes
        them), and the observation is built here as :meth:`observation` builds it
        for the seat to move: calling it would cost 8 % of a round (0.959 M → 1.037 M
        instructions, docs/BENCHMARKS.md), above the goal of issue 17.
        tests/test_simulation_loop.py checks, turn by turn over random games of
        every variant, that each seat gets exactly what :meth:`observation` gives.
        """
        rules = self.rules
        hands = self._hands
        piles = self._piles
        history = self._history
        next_seat = self._next_seat
        renuncio_rule = self._renuncio_rule
        if choosers is not None:
            if renuncio_rule:
                raise ValueError("the renuncio rule needs the claim before each play")
            if rng is None:
                raise ValueError("a round played out needs its random generator")
            draws: random.Random = rng
            dealer = self.dealer
            open_hand = self._open_hand
            targets = _TARGETS[rules.capture_sum]
            forced = self._forced
            jokers = rules.jokers
            generic = self._generic
        if self._over:
            return None
        played = None
        kind = "play" if miscount is None else "miscount"
        self._legal = None  # the state changes from here on
        # The state a move reads, in locals; written back as it changes.
        seat = self._to_move
        table = self._table
        in_hands = self._cards_in_hands
        stock_left = len(self._stock)
        count_rows = self._count_rows
        row = None  # the table's row of solution cells, followed as cards are laid down
        piles_shown = None  # tuple(piles), made again after a capture
        while True:
            hand = hands[seat]
            if pair is None:  # ask the seat's chooser
                if generic is not None:
                    legal = tuple(generic.legal_pairs(rules, hand, table))
                elif jokers and (hand | table) & JOKER_MASK:
                    legal = tuple(legal_move_pairs(rules, hand, table))
                    row = None
                else:
                    if row is None:
                        row = table_row(table)
                    legal = tuple(_row_pairs(hand, table, row, targets, forced))
                if piles_shown is None:
                    piles_shown = tuple(piles)
                # By position, in _observation's order (see there why not by keyword).
                pair = choosers[seat](_observation(  # type: ignore[index]
                    rules, seat, seat, dealer, hand, table, piles_shown,
                    count_rows[in_hands], stock_left, self._escobas, self._last_capturer,
                    self._seen, tuple(history), None, 0,
                    tuple(hands) if open_hand else None, scores, number, False, legal),
                    draws)
                if pair not in legal:  # judged in full
                    verdict = self._check_pair(*pair)
                    if verdict is not None:
                        raise verdict
            card, take = pair
            pair = None
            bit = _BIT[card]
            hands[seat] = hand ^ bit
            in_hands -= 1
            self._cards_in_hands = in_hands
            self._seen |= bit
            escoba = False
            if take:
                table ^= take
                self._table = table
                piles[seat] |= take | bit
                piles_shown = None
                self._last_capturer = seat
                # Whether it sweeps is the variant's to say (asked only when the table
                # is empty: a few times a round).
                if not table and self._variant.is_sweep(rules, take, card, take,
                                                        not in_hands and not stock_left):
                    escoba = True
                    escobas = list(self._escobas)
                    escobas[seat] += 1
                    self._escobas = tuple(escobas)
                if renuncio_rule:
                    self._renuncio = None
                row = None
            else:
                laid = table | bit
                self._table = laid
                if row is not None:  # the row of the table with this card: linked once met
                    if card < 40:
                        slot = _ROW_SLOT[card]
                        following = row[slot]
                        if following is None:
                            following = row[slot] = table_row(laid)
                        row = following
                    else:
                        row = None
                if renuncio_rule:  # a card laid down that could capture may be claimed
                    self._renuncio = (card, table) if has_capture(
                        table, card, rules.capture_sum) else None
                table = laid
            played = _new_play(Play, (seat, kind, card, take, escoba, miscount))
            history.append(played)
            seat = next_seat[seat]
            self._to_move = seat
            if not in_hands:
                if not stock_left:
                    self._finish()
                    return played
                self._deal()
                in_hands = self._cards_in_hands
                count_rows = self._count_rows
                stock_left = len(self._stock)
                if stock_left < self._players:
                    self._leftovers_to_table()
                    stock_left = 0
                    table = self._table
                    row = None
                if not in_hands:
                    # A deal that gave nobody a card (a stock smaller than the players,
                    # which from_position refuses): the round cannot go on, so it ends
                    # here rather than wait for a move nobody can make.
                    self._finish()
                    return played
            if choosers is None:
                return played

    def _finish(self) -> None:
        self._over = True
        self._renuncio = None
        if self._table and self._last_capturer is not None:
            seat = self._last_capturer
            self._history.append(Play(seat, "sweep", -1, self._table))
            self._piles[seat] |= self._table
            self._table = 0
        self._score = self._variant.score(self.rules, self._piles, self._escobas)

    def check_claim(self, claim: Renuncio) -> IllegalMoveError | None:
        """The verdict on a renuncio claim, changing nothing (``None``: it is valid)."""
        rules = self.rules
        if rules.capture_rule != "renuncio":
            return IllegalMoveError("renuncio claims need capture_rule=renuncio",
                                    Code.RENUNCIO_NOT_ALLOWED)
        if self._over:
            return IllegalMoveError("the round is over", Code.ROUND_OVER)
        pending = self._renuncio
        if pending is None:
            return IllegalMoveError("there is nothing to claim: the last card played "
                                    "was not laid down when it could capture",
                                    Code.RENUNCIO_NOTHING)
        laid, table_before = pending
        card = claim.card.index
        if card != laid:
            return IllegalMoveError(f"the card laid down was {CARDS[laid]}, not {claim.card}",
                                    Code.RENUNCIO_WRONG_CARD, laid=str(CARDS[laid]),
                                    card=str(claim.card))
        take = mask_of(claim.take)
        if not take or take & ~table_before:
            return IllegalMoveError(f"{CARDS[laid]} could not have taken "
                                    f"{format_cards(sorted(claim.take)) or 'nothing'}",
                                    Code.RENUNCIO_CANNOT_TAKE, card=str(CARDS[laid]),
                                    cards=[str(c) for c in sorted(claim.take)])
        if not is_capture(table_before, card, take, rules.capture_sum):
            return _wrong_sum(card, take, rules.capture_sum)
        return None

    def claim_renuncio(self, claim: Renuncio) -> Play:
        """The seat to move calls *¡renuncio!* before playing (renuncio rule only).

        Raises the :class:`IllegalMoveError` of :meth:`check_claim`, changing nothing.
        """
        verdict = self.check_claim(claim)
        if verdict is not None:
            raise verdict
        seat = self._to_move
        self._legal = None
        won = mask_of(claim.take) | claim.card.bit
        self._table &= ~won
        self._piles[seat] |= won
        self._last_capturer = seat
        self._renuncio = None
        played = Play(seat, "renuncio", claim.card.index, mask_of(claim.take))
        self._history.append(played)
        return played

    def copy(self) -> Round:
        """An independent copy of this round (for search and for trying moves)."""
        other = Round(self.rules, (), 0, _unfilled=True)
        try:
            other.__dict__.update(self.__dict__)  # pure Python: every attribute at once
        except AttributeError:  # compiled by mypyc: no __dict__, attributes one by one
            for name in _ROUND_ATTRIBUTES:
                setattr(other, name, getattr(self, name))
        other._stock = list(self._stock)
        other._hands = list(self._hands)
        other._piles = list(self._piles)
        other._history = list(self._history)
        return other

    # -- the end ------------------------------------------------------------------
    def score(self) -> RoundScore:
        """The round's score (only once the round is over)."""
        if self._score is None:
            raise ValueError("the round is not over yet")
        return self._score

    def cards_accounted(self) -> int:
        """Bitmask union of every place a card can be (a check for tests)."""
        total = self._table | mask_of(self.stock)
        for h in self._hands:
            total |= h
        for p in self._piles:
            total |= p
        return total


def _check_full_deck(rules: Rules, deck: Sequence[object]) -> None:
    size = rules.deck_size
    if not all(isinstance(c, Card) for c in deck):
        wrong = next(c for c in deck if not isinstance(c, Card))
        raise DeckError("the deck must hold Card values", Code.CARD_NOT_A_CARD,
                        type=type(wrong).__name__)
    mask = mask_of(deck)  # type: ignore[arg-type]
    if len(deck) != size or mask != _FULL_MASK[rules.jokers]:
        counts: dict[Card, int] = {}
        for c in deck:
            counts[c] = counts.get(c, 0) + 1  # type: ignore[index,call-overload]
        twice = [str(c) for c, k in counts.items() if k > 1]
        missing = cards_of(_FULL_MASK[rules.jokers] & ~mask)
        extra = cards_of(mask & ~_FULL_MASK[rules.jokers])
        why = []
        if twice:
            why.append(f"{', '.join(twice)} twice")
        if missing:
            why.append(f"missing {format_cards(missing)}")
        if extra:
            why.append(f"{format_cards(extra)} not in this deck")
        raise DeckError(f"not a full deck of {size} cards ({len(deck)} cards"
                        + (": " + "; ".join(why) if why else "") + ")", Code.DECK_NOT_FULL,
                        size=size, count=len(deck), twice=twice,
                        missing=[str(c) for c in missing], extra=[str(c) for c in extra])


def deck_for(rules: Rules, hands: Sequence[Sequence[Card | str]],
             table: Sequence[Card | str], dealer: int,
             rest: Sequence[Card | str] | None = None) -> list[Card]:
    """The deck, top card first, whose deal by ``dealer`` gives exactly these hands and table.

    ``hands[seat]`` is each seat's first hand (``rules.hand_size`` cards),
    ``table`` the four table cards, ``rest`` the stock after them, top first
    (default: every other card, in deck order). Dealing (RULES.md, "Deal
    order") gives each seat its whole hand in turn, starting left of the
    dealer, then the table. Cards may be :class:`Card` values or notation.
    The initial table's rule still applies when the deck is dealt: a table of
    15 is the dealer's (or, under redeal, refused by :class:`Round`).

    Raises :class:`DeckError` (``deal_wrong_count``, ``deal_cards_twice``,
    ``deck_not_full``, ``bad_dealer``) for a deal no deck can give.
    """
    n = rules.players
    if not (isinstance(dealer, int) and 0 <= dealer < n):
        raise DeckError(f"dealer must be a seat 0-{n - 1}, got {dealer!r}", Code.BAD_DEALER,
                        dealer=repr(dealer), players=n)
    if len(hands) != n:
        raise DeckError(f"{n} hands are needed, got {len(hands)}", Code.DEAL_WRONG_COUNT,
                        where="hands", count=len(hands), expected=n)
    as_cards = [[c if isinstance(c, Card) else Card.parse(c) for c in hand] for hand in hands]
    for seat, hand in enumerate(as_cards):
        if len(hand) != rules.hand_size:
            raise DeckError(f"hand {seat} has {len(hand)} cards; a hand has {rules.hand_size}",
                            Code.DEAL_WRONG_COUNT, where=f"hand {seat}", count=len(hand),
                            expected=rules.hand_size)
    on_table = [c if isinstance(c, Card) else Card.parse(c) for c in table]
    if len(on_table) != 4:
        raise DeckError(f"the table has {len(on_table)} cards; a deal puts 4 there",
                        Code.DEAL_WRONG_COUNT, where="table", count=len(on_table), expected=4)
    dealt = [c for k in range(n) for c in as_cards[(dealer + 1 + k) % n]] + on_table
    counts: dict[Card, int] = {}
    for c in dealt:
        counts[c] = counts.get(c, 0) + 1
    twice = sorted(c for c, k in counts.items() if k > 1)
    if twice:
        raise DeckError(f"{format_cards(twice)} dealt twice", Code.DEAL_CARDS_TWICE,
                        cards=[str(c) for c in twice])
    if rest is None:
        stock = [c for c in CARDS[: rules.deck_size] if c not in counts]
    else:
        stock = [c if isinstance(c, Card) else Card.parse(c) for c in rest]
    deck = dealt + stock
    _check_full_deck(rules, deck)
    return deck


#: For each deck size, the steps of a Fisher-Yates shuffle as ``random.shuffle`` takes
#: them: position i from the last down to 1, swapped with a draw below i + 1 made
#: from ``getrandbits`` of that many bits, redrawn while too big.
_SHUFFLE_STEPS = {size: tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
                  for size in (40, 42)}


def _shuffle(order: list[int], getrandbits: Callable[[int], int]) -> None:
    """``random.Random.shuffle(order)`` without a method call per card: the same draws."""
    for i, n, bits in _SHUFFLE_STEPS[len(order)]:
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        order[i], order[j] = order[j], order[i]


def _shuffle_matches_random() -> bool:
    """Whether :func:`_shuffle` gives ``random.shuffle``'s order on this Python."""
    for seed in range(16):
        for size in (40, 42):
            ours, theirs = list(range(size)), list(range(size))
            _shuffle(ours, random.Random(seed).getrandbits)
            random.Random(seed).shuffle(theirs)
            if ours != theirs:
                return False
    return True


_SAME_SHUFFLE = _shuffle_matches_random()


def _deck_of(order: Sequence[int]) -> tuple[Card, ...]:
    """The deck (top card first) of a shuffle given as card indices."""
    return operator.itemgetter(*order)(CARDS) if len(order) > 1 else tuple(
        CARDS[i] for i in order)


_COUNT_ROWS: dict[tuple[int, int, int], tuple[tuple[int, ...], ...]] = {}


def _count_rows(players: int, first: int, per: int) -> tuple[tuple[int, ...], ...]:
    """Every seat's number of cards in hand during a deal of ``per`` cards each that
    ``first`` begins, indexed by the cards still in hands (each seat plays in turn)."""
    key = (players, first, per)
    rows = _COUNT_ROWS.get(key)
    if rows is None:
        counts = [per] * players
        sequence = [tuple(counts)]
        seat = first
        for _ in range(players * per):
            counts[seat] -= 1
            sequence.append(tuple(counts))
            seat = (seat + 1) % players
        rows = _COUNT_ROWS[key] = tuple(reversed(sequence))
    return rows


def _no_round() -> IllegalMoveError:
    return IllegalMoveError("no round in play: start the next round", Code.NO_ROUND)


#: Every attribute a Round holds: ``Round.copy`` of a compiled round (no ``__dict__``)
#: copies them by name (tests/test_compiled_core.py checks the list against a round's).
_ROUND_ATTRIBUTES = (
    "_cards_in_hands", "_count_rows", "_deal_order", "_dealt_per", "_escobas", "_forced",
    "_generic", "_hands", "_history", "_last_capturer", "_last_play_escoba", "_legal", "_next_seat",
    "_open_hand", "_over", "_piles", "_players", "_renuncio", "_renuncio_rule", "_score",
    "_seen", "_stock", "_table", "_to_move", "_variant", "dealer", "deck", "rules",
)


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
        return list(_deck_of(self._shuffled_order()))

    def _shuffled_order(self) -> list[int]:
        """:meth:`shuffled_deck` as card indices: ``rng.shuffle`` of ``range(deck_size)``.

        For a plain :class:`random.Random` the shuffle is done here with the very
        same draws (checked against ``random.shuffle`` when this module is loaded).
        """
        order = list(range(self.rules.deck_size))
        rng = self.rng
        if type(rng) is random.Random and _SAME_SHUFFLE:
            _shuffle(order, rng.getrandbits)
        else:
            rng.shuffle(order)
        return order

    def start_round(self, deck: Sequence[Card] | None = None,
                    redealt: Sequence[Sequence[Card]] = ()) -> Round:
        """Deal the next round, from ``deck`` or a fresh shuffle.

        Under ``initial_fifteen="redeal"`` a shuffled deal whose table holds
        15 is gathered and shuffled again (kept in the record's ``redealt``).
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
                order = self._shuffled_order()
                try:
                    round_ = Round._shuffled(self.rules, order, dealer)
                    break
                except DeckError:
                    abandoned.append(_deck_of(order))
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
