"""Every capture: subset sums over the table, on bitmasks.

The friendly functions take and return :class:`~escoba.cards.Card` values::

    >>> from escoba.cards import parse_cards, Card
    >>> [sorted(map(str, s)) for s in captures(parse_cards("3o 5c 8e 10b"), Card.parse("7o"))]
    [['8e'], ['3o', '5c']]

Underneath, ``*_masks`` functions work on int masks (see :mod:`escoba.cards`).
Because card indices are value-major, walking a mask from its lowest bit meets
cards in ascending value: the search breaks off as soon as a card is larger
than what is still needed, and prunes a branch when the cards left cannot add
up to it. Work is thus proportional to the answers, not to the 2^n subsets.

Jokers are wild (RULES.md): in a capture each counts as whatever value 1-10
makes the total exact, whether played or on the table.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import CARDS, JOKER_MASK, VALUE, Card, CardError, mask_of

__all__ = [
    "captures",
    "hand_captures",
    "subsets_totalling",
    "capture_masks",
    "has_capture",
    "subset_masks_in_range",
    "is_capture",
    "sort_key",
]


def _items(mask: int) -> tuple[list[int], list[int]]:
    """Values and bits of the non-joker cards of ``mask``, ascending by value."""
    values: list[int] = []
    bits: list[int] = []
    mask &= ~JOKER_MASK
    while mask:
        low = mask & -mask
        values.append(VALUE[low.bit_length() - 1])
        bits.append(low)
        mask ^= low
    return values, bits


def subset_masks_in_range(mask: int, low: int, high: int) -> list[int]:
    """Every subset of the non-joker cards in ``mask`` whose value sum is in [low, high].

    Includes the empty subset when ``low <= 0``. Jokers in ``mask`` are ignored.
    """
    values, bits = _items(mask)
    n = len(values)
    out: list[int] = [0] if low <= 0 <= high else []
    if high <= 0 or n == 0:
        return out
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i]
    if suffix[0] < low:
        return out
    stack = [(0, 0, low, high)]
    pop, push, emit = stack.pop, stack.append, out.append
    while stack:
        start, chosen, need_low, need_high = pop()
        for j in range(start, n):
            v = values[j]
            if v > need_high or suffix[j] < need_low:
                break  # ascending values / shrinking suffix: nothing further fits
            taken = chosen | bits[j]
            if v >= need_low:
                emit(taken)
            if v < need_high and j + 1 < n:
                push((j + 1, taken, need_low - v, need_high - v))
    return out


def _exact(mask: int, target: int) -> list[int]:
    """Non-empty subsets of the (joker-free) ``mask`` summing exactly to ``target``."""
    values, bits = _items(mask)
    n = len(values)
    if target <= 0 or n == 0:
        return []
    suffix = [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i]
    if suffix[0] < target:
        return []
    out: list[int] = []
    stack = [(0, 0, target)]
    pop, push, emit = stack.pop, stack.append, out.append
    while stack:
        start, chosen, need = pop()
        for j in range(start, n):
            v = values[j]
            if v > need or suffix[j] < need:
                break
            if v == need:
                emit(chosen | bits[j])
            elif suffix[j + 1] >= need - v:
                push((j + 1, chosen | bits[j], need - v))
    return out


def capture_masks(table: int, card: int, capture_sum: int = 15) -> list[int]:
    """Every set of table cards (as masks) that card index ``card`` captures."""
    table &= ~(1 << card)
    if card < 40 and not table & JOKER_MASK:
        return _exact(table, capture_sum - VALUE[card])
    played_value = VALUE[card]
    played_jokers = 1 if card >= 40 else 0
    plain = table & ~JOKER_MASK
    table_jokers = [b for b in (1 << 40, 1 << 41) if table & b]
    joker_sets = [0] + table_jokers + ([table_jokers[0] | table_jokers[1]]
                                       if len(table_jokers) == 2 else [])
    out: list[int] = []
    for jokers in joker_sets:
        k = played_jokers + jokers.bit_count()
        need = capture_sum - played_value
        low, high = (need, need) if k == 0 else (need - 10 * k, need - k)
        for subset in subset_masks_in_range(plain, low, high):
            if subset | jokers:
                out.append(subset | jokers)
    return out


def has_capture(table: int, card: int, capture_sum: int = 15) -> bool:
    """Whether ``card`` captures anything: a reachable-sums bitset, no enumeration."""
    if card >= 40 or table & JOKER_MASK:
        return bool(capture_masks(table, card, capture_sum))
    target = capture_sum - VALUE[card]
    if target <= 0:
        return False
    reach = 1
    limit = (1 << (target + 1)) - 1
    mask = table & ~(1 << card)
    while mask:
        low = mask & -mask
        reach = (reach | (reach << VALUE[low.bit_length() - 1])) & limit
        mask ^= low
    return bool(reach >> target & 1)


def is_capture(table: int, card: int, take: int, capture_sum: int = 15) -> bool:
    """Whether ``take`` (a non-empty subset of ``table``) is a capture for ``card``."""
    if not take or take & ~table or take >> card & 1:
        return False
    k = (take & JOKER_MASK).bit_count() + (1 if card >= 40 else 0)
    total = VALUE[card]
    m = take & ~JOKER_MASK
    while m:
        low = m & -m
        total += VALUE[low.bit_length() - 1]
        m ^= low
    need = capture_sum - total
    return need == 0 if k == 0 else k <= need <= 10 * k


def sort_key(mask: int) -> tuple[int, tuple[int, ...]]:
    """Display order of capture sets: fewer cards first, then by card."""
    indices = []
    m = mask
    while m:
        low = m & -m
        indices.append(low.bit_length() - 1)
        m ^= low
    return (len(indices), tuple(indices))


def _as_sets(masks: Iterable[int]) -> list[frozenset[Card]]:
    out = []
    for mask in sorted(masks, key=sort_key):
        cards = []
        m = mask
        while m:
            low = m & -m
            cards.append(CARDS[low.bit_length() - 1])
            m ^= low
        out.append(frozenset(cards))
    return out


def _table_mask(table: Iterable[Card]) -> int:
    cards = list(table)
    mask = mask_of(cards)
    if mask.bit_count() != len(cards):
        raise CardError("the table lists a card twice")
    return mask


def captures(table: Iterable[Card], card: Card, capture_sum: int = 15) -> list[frozenset[Card]]:
    """Every distinct set of ``table`` cards that ``card`` captures.

    Equal values of different suits make different captures (suits matter
    for oros and the siete de oros). Sets come fewest cards first.
    """
    mask = _table_mask(table)
    if mask >> card.index & 1:
        raise CardError(f"{card} cannot be both played and on the table")
    return _as_sets(capture_masks(mask, card.index, capture_sum))


def hand_captures(
    table: Iterable[Card], hand: Iterable[Card], capture_sum: int = 15
) -> dict[Card, list[frozenset[Card]]]:
    """The captures of every card of a hand, keyed by card, in hand order."""
    mask = _table_mask(table)
    out: dict[Card, list[frozenset[Card]]] = {}
    for card in hand:
        if mask >> card.index & 1:
            raise CardError(f"{card} cannot be both in the hand and on the table")
        out[card] = _as_sets(capture_masks(mask, card.index, capture_sum))
    return out


def subsets_totalling(
    cards: Iterable[Card], total: int = 15, *, min_size: int = 1
) -> list[frozenset[Card]]:
    """Every set of ``cards`` whose values add up to ``total`` (jokers wild).

    This is the "find all the 15s" question with no card played.
    """
    mask = _table_mask(cards)
    plain = mask & ~JOKER_MASK
    jokers_present = [b for b in (1 << 40, 1 << 41) if mask & b]
    joker_sets = [0] + jokers_present + ([jokers_present[0] | jokers_present[1]]
                                         if len(jokers_present) == 2 else [])
    found: list[int] = []
    for jokers in joker_sets:
        k = jokers.bit_count()
        low, high = (total, total) if k == 0 else (total - 10 * k, total - k)
        for subset in subset_masks_in_range(plain, low, high):
            full = subset | jokers
            if full and full.bit_count() >= min_size:
                found.append(full)
    return _as_sets(found)
