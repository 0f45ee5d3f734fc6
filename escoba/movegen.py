"""Escoba's fast move generation: legal plays as (card, take mask) pairs, and its tables.

The engine's hottest path: every legal move of a simulated round comes from
here. Without jokers the pairs are read off the table's row of solution cells
(:func:`escoba.solver.table_row`) with tables built once at import
(:data:`TARGETS`, the nibble subsets shifted into place, each hand's cards);
another variant's pairs come from its :meth:`~escoba.variants.Variant.legal_pairs`.
Split out of :mod:`escoba.game` (issue 28): :mod:`escoba.observation` and
:mod:`escoba.round` both generate moves, so the generator sits below them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

from .caches import Generations
from .cards import CARDS, JOKER_MASK, VALUE, Card, cards_of, mask_of
from .moves import Move
from .rules import Rules
from .solver import NIBBLE_SUBSETS, NO_SOLUTIONS, capture_masks, solution_cell, table_row
from .variants import variant_for

__all__ = ["legal_move_pairs", "initial_table_triggers", "moves_from_pairs", "row_pairs",
           "TARGETS", "ROW_SLOT"]


def legal_move_pairs(rules: Rules, hand: int, table: int) -> list[tuple[int, int]]:
    """Legal plays as ``(card index, take mask)`` pairs: the fast form of legal moves.

    Under ``forced`` a card that captures has only its captures; otherwise
    laying it down (take mask 0) is legal too. Without jokers (the engine's
    hottest path) the pairs come from the table's row of solution cells
    (:func:`escoba.solver.table_row`, :func:`row_pairs`). Another variant's
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
    return row_pairs(hand, table, table_row(table), TARGETS[capture_sum], forced)


def row_pairs(hand: int, table: int, row: list, targets: tuple[int, ...],
              forced: bool) -> list[tuple[int, int]]:
    """:func:`legal_move_pairs` when neither ``hand`` nor ``table`` holds a joker,
    given the table's row of solution cells (:func:`~escoba.solver.table_row`).

    ``targets`` is ``TARGETS[capture_sum]``; ``forced``: a card that captures
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
#: TARGETS[capture_sum][card]: what the table must add to that Spanish card, 0 when
#: the card makes the sum alone or more (row cell 0 is always NO_SOLUTIONS).
TARGETS = {cs: tuple(max(cs - VALUE[i], 0) for i in range(40)) for cs in range(1, 33)}
_NO_SOLUTIONS = NO_SOLUTIONS
#: ROW_SLOT[card]: where a row keeps the row one card of that card's value further.
ROW_SLOT = tuple(20 + VALUE[i] for i in range(40))
#: The card indices of each hand, ascending (a hand is asked for its cards at every
#: move): every hand of one to three Spanish cards, made once at import (10,700
#: hands, a few milliseconds) and never dropped. Other hands (jokers, a larger
#: ``hand_size``) are kept in :data:`_OTHER_HANDS` when met.
_HAND_CARDS: dict[int, tuple[int, ...]] = {
    sum(1 << i for i in hand): hand
    for size in (1, 2, 3) for hand in itertools.combinations(range(40), size)}
_HAND_CARDS_GET = _HAND_CARDS.get
#: The cards of the hands not in :data:`_HAND_CARDS`, bounded (docs/BENCHMARKS.md,
#: "The engine's caches").
_OTHER_HANDS: Generations[int, tuple[int, ...]] = Generations(20_000)


#: _BYTE_CARDS[k][b]: the card indices of the bits of byte value ``b`` at byte ``k`` of a mask.
_BYTE_CARDS = [[tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256)]
               for k in range(6)]


def _hand_cards(hand: int) -> tuple[int, ...]:
    """The cards of a hand not in :data:`_HAND_CARDS`."""
    cards = _OTHER_HANDS.get(hand)
    if cards is None:
        b0, b1, b2, b3, b4, b5 = _BYTE_CARDS
        cards = (b0[hand & 255] + b1[hand >> 8 & 255] + b2[hand >> 16 & 255]
                 + b3[hand >> 24 & 255] + b4[hand >> 32 & 255] + b5[hand >> 40 & 255])
        _OTHER_HANDS.put(hand, cards)
    return cards


def moves_from_pairs(pairs: Iterable[tuple[int, int]]) -> list[Move]:
    """The friendly :class:`~escoba.moves.Move` of each legal pair, built at the edge."""
    return [Move(CARDS[c], frozenset(cards_of(t))) for c, t in pairs]


def initial_table_triggers(rules: Rules, table: Sequence[Card] | int) -> bool:
    """Whether four initial table cards trigger ``rules.initial_fifteen``.

    A joker is never wild here (RULES.md: it "never triggers"): under
    ``dealer_takes`` a table with a joker has no total; under ``redeal`` only
    subsets of the other cards count. See docs/RULES-READING.md.
    """
    mask = table if isinstance(table, int) else mask_of(table)
    return variant_for(rules).opening_table(rules, mask) != "play"
