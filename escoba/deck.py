"""Decks: checking one is full, the deck that deals a given deal, and the shuffle.

:func:`deck_for` builds the deck (top card first) whose deal gives chosen hands
and table (lessons, worked examples, tests); :func:`check_full_deck` refuses a
deck that is not exactly the rules' cards; :func:`shuffled_order` is
``rng.shuffle`` of the card indices, done here with the very same draws for a
plain :class:`random.Random` (checked against ``random.shuffle`` at import), so
seeded games and their golden records do not change. Split out of
:mod:`escoba.game` (issue 28): :class:`~escoba.round.Round` checks decks,
:class:`~escoba.game.Game` shuffles them.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence

from .cards import CARDS, DECK_MASK, Card, cards_of, format_cards, mask_of
from .errors import Code, DeckError
from .rules import Rules

__all__ = ["deck_for", "check_full_deck", "cards_once", "shuffled_order", "deck_of"]


def check_full_deck(rules: Rules, deck: Sequence[object]) -> None:
    size = rules.deck_size
    if not all(isinstance(c, Card) for c in deck):
        wrong = next(c for c in deck if not isinstance(c, Card))
        raise DeckError("the deck must hold Card values", Code.CARD_NOT_A_CARD,
                        type=type(wrong).__name__)
    mask = mask_of(deck)  # type: ignore[arg-type]
    if len(deck) != size or mask != DECK_MASK[rules.jokers]:
        counts: dict[Card, int] = {}
        for c in deck:
            counts[c] = counts.get(c, 0) + 1  # type: ignore[index,call-overload]
        twice = [str(c) for c, k in counts.items() if k > 1]
        missing = cards_of(DECK_MASK[rules.jokers] & ~mask)
        extra = cards_of(mask & ~DECK_MASK[rules.jokers])
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


def cards_once(cards: Sequence[Card], verb: str) -> set[Card]:
    """The cards, each once; a card given twice is refused (``deal_cards_twice``: "3o
    dealt twice", "placed twice" for a position), every such card named."""
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    twice = sorted(c for c, k in counts.items() if k > 1)
    if twice:
        raise DeckError(f"{format_cards(twice)} {verb} twice", Code.DEAL_CARDS_TWICE,
                        cards=[str(c) for c in twice])
    return set(counts)


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
    seen = cards_once(dealt, "dealt")
    if rest is None:
        stock = [c for c in CARDS[: rules.deck_size] if c not in seen]
    else:
        stock = [c if isinstance(c, Card) else Card.parse(c) for c in rest]
    deck = dealt + stock
    check_full_deck(rules, deck)
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


def shuffled_order(rng: random.Random, size: int) -> list[int]:
    """``rng.shuffle`` of ``range(size)``: a shuffled deck as card indices, top first.

    For a plain :class:`random.Random` the shuffle is done here with the very
    same draws (checked against ``random.shuffle`` when this module is loaded).
    """
    order = list(range(size))
    if type(rng) is random.Random and _SAME_SHUFFLE:
        _shuffle(order, rng.getrandbits)
    else:
        rng.shuffle(order)
    return order


def deck_of(order: Sequence[int]) -> tuple[Card, ...]:
    """The deck (top card first) of a shuffle given as card indices."""
    return operator.itemgetter(*order)(CARDS) if len(order) > 1 else tuple(
        CARDS[i] for i in order)
