"""Cards, suits, decks and their text notation.

A card is a small immutable value (:class:`Card`) with a friendly API, and
underneath it an index 0..41 so that a set of cards is an ``int`` bitmask,
the way python-chess keeps squares as ints and bitboards under ``Board``.

Index layout is value-major: ``(value - 1) * 4 + suit`` for the forty Spanish
cards (the four aces 0-3, the four twos 4-7, ... the four reyes 36-39), then
40 and 41 for the two jokers ``JK1`` and ``JK2``. Walking a mask's bits from
the lowest therefore meets the cards in ascending value, which the solver
uses to prune without sorting.

Notation (RULES.md): value then suit letter, ``1o`` ... ``10b``; jokers
``JK1``/``JK2``. :meth:`Card.parse` and ``str(card)`` are a parse/format pair.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from .errors import CardError, Code

__all__ = [
    "Suit",
    "Card",
    "CardError",
    "Deck",
    "parse_cards",
    "format_cards",
    "full_deck",
    "cards_of",
    "mask_of",
    "JOKER1",
    "JOKER2",
    "SIETE_DE_OROS",
    "SIETE_INDEX",
    "SIETE_BIT",
]


class Suit(enum.IntEnum):
    """The four Spanish suits, in index order."""

    OROS = 0
    COPAS = 1
    ESPADAS = 2
    BASTOS = 3

    @property
    def letter(self) -> str:
        return "oceb"[self]

    @property
    def spanish(self) -> str:
        return ("oros", "copas", "espadas", "bastos")[self]

    @property
    def french(self) -> str:
        return ("diamonds", "hearts", "spades", "clubs")[self]

    @property
    def italian(self) -> str:
        return ("denari", "coppe", "spade", "bastoni")[self]


class Deck(enum.Enum):
    """How cards are *displayed*; the rules never change (RULES.md, display decks)."""

    SPANISH = "spanish"
    FRENCH = "french"
    ITALIAN = "italian"


_SUIT_BY_LETTER = {"o": Suit.OROS, "c": Suit.COPAS, "e": Suit.ESPADAS, "b": Suit.BASTOS}
_SPANISH_RANKS = {1: "As", 8: "Sota", 9: "Caballo", 10: "Rey"}
_FRENCH_RANKS = {1: "A", 8: "J", 9: "Q", 10: "K"}
_ITALIAN_RANKS = {1: "Asso", 8: "Fante", 9: "Cavallo", 10: "Re"}
_FRENCH_SUIT_SYMBOL = ("♦", "♥", "♠", "♣")

N_CARDS = 42  # forty Spanish cards and two jokers
JOKER_INDICES = (40, 41)
JOKER_MASK = (1 << 40) | (1 << 41)
SPANISH_MASK = (1 << 40) - 1
#: DECK_MASK[jokers]: every card of the deck played, without or with the two jokers.
DECK_MASK = {False: SPANISH_MASK, True: SPANISH_MASK | JOKER_MASK}

#: Capture value of each card index; 0 for the wild jokers.
VALUE: tuple[int, ...] = tuple([i // 4 + 1 for i in range(40)] + [0, 0])
_NOTATION: tuple[str, ...] = tuple(
    [f"{i // 4 + 1}{'oceb'[i % 4]}" for i in range(40)] + ["JK1", "JK2"]
)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card. Build it with :meth:`of` or :meth:`parse`; compare and hash freely.

    >>> Card.parse("7o")
    Card('7o')
    >>> Card.of(8, Suit.BASTOS).value, Card.parse("8b").name()
    (8, 'Sota de bastos')
    """

    index: int

    def __post_init__(self) -> None:
        if not (isinstance(self.index, int) and 0 <= self.index < N_CARDS):
            raise CardError(f"card index must be 0..{N_CARDS - 1}, got {self.index!r}",
                            Code.CARD_INDEX, index=repr(self.index))

    # -- construction -----------------------------------------------------
    @staticmethod
    def of(value: int, suit: Suit) -> Card:
        """The Spanish card of capture value ``value`` (1..10) in ``suit``."""
        if not (isinstance(value, int) and 1 <= value <= 10):
            raise CardError(f"card value must be 1-10, got {value!r}", Code.CARD_VALUE,
                            value=repr(value))
        return CARDS[(value - 1) * 4 + Suit(suit)]

    @staticmethod
    def parse(text: str, *, strict: bool = False) -> Card:
        """Read the notation of RULES.md: ``"7o"``, ``"10b"``, ``"JK1"``.

        People's typing is read generously (``"7O"``, ``" 07o"``, ``"jk1"``);
        ``strict`` accepts only the exact notation, as a game record must use.
        Raises :class:`CardError` (a ``ValueError``) with a message that says
        what a card looks like.
        """
        if strict:
            card = _EXACT.get(text) if isinstance(text, str) else None
        else:
            card = _BY_NOTATION.get(text.strip().lower() if isinstance(text, str) else None)
        if card is None:
            raise CardError(
                f"unknown card {text!r} (a card is a value 1-10 and a suit o/c/e/b, "
                "e.g. 7o, or a joker JK1/JK2)", Code.CARD_UNKNOWN, text=str(text)
            )
        return card

    # -- properties -------------------------------------------------------
    @property
    def is_joker(self) -> bool:
        return self.index >= 40

    @property
    def value(self) -> int:
        """Capture value: As 1 ... Sota 8, Caballo 9, Rey 10; 0 for a joker (wild)."""
        return VALUE[self.index]

    @property
    def suit(self) -> Suit | None:
        """The suit, or ``None`` for a joker (jokers belong to no suit)."""
        return None if self.index >= 40 else Suit(self.index % 4)

    @property
    def bit(self) -> int:
        return 1 << self.index

    def __str__(self) -> str:
        return _NOTATION[self.index]

    def __repr__(self) -> str:
        return f"Card({_NOTATION[self.index]!r})"

    # -- display ----------------------------------------------------------
    def rank_name(self, deck: Deck = Deck.SPANISH) -> str:
        """The rank as a player of that deck says it ("Sota", "J", "Fante", "7")."""
        if self.is_joker:
            return "Comodín" if deck is Deck.SPANISH else "Joker"
        table = {
            Deck.SPANISH: _SPANISH_RANKS,
            Deck.FRENCH: _FRENCH_RANKS,
            Deck.ITALIAN: _ITALIAN_RANKS,
        }[deck]
        return table.get(self.value, str(self.value))

    def name(self, deck: Deck = Deck.SPANISH) -> str:
        """Full display name: "Siete de oros", "7 of diamonds", "Fante di spade"."""
        if self.is_joker:
            return f"{self.rank_name(deck)} {self.index - 39}"
        suit = self.suit
        assert suit is not None
        if deck is Deck.SPANISH:
            return f"{self.rank_name(deck)} de {suit.spanish}"
        if deck is Deck.FRENCH:
            return f"{self.rank_name(deck)} of {suit.french}"
        return f"{self.rank_name(deck)} di {suit.italian}"

    def short(self, deck: Deck = Deck.SPANISH) -> str:
        """Compact label for a card face: "7o", "J♦", "Fante d"."""
        if self.is_joker:
            return str(self)
        suit = self.suit
        assert suit is not None
        if deck is Deck.FRENCH:
            return f"{self.rank_name(deck)}{_FRENCH_SUIT_SYMBOL[suit]}"
        return str(self)


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(N_CARDS))
JOKER1, JOKER2 = CARDS[40], CARDS[41]
SIETE_DE_OROS = CARDS[24]
#: The siete de oros as an index and as a mask bit (scoring, bots and coach test it often).
SIETE_INDEX = SIETE_DE_OROS.index
SIETE_BIT = 1 << SIETE_INDEX
_EXACT = {_NOTATION[i]: CARDS[i] for i in range(N_CARDS)}
_BY_NOTATION = {_NOTATION[i].lower(): CARDS[i] for i in range(N_CARDS)}
# Generous reading of what people type: "01o", "7O" (upper case is folded above).
_BY_NOTATION.update({f"0{i // 4 + 1}{'oceb'[i % 4]}": CARDS[i] for i in range(36)})


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse ``"3o 5c 10b"`` (spaces or commas) or an iterable of card strings.

    Duplicates are refused: no deck has two equal cards.
    """
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [Card.parse(p) for p in parts]
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        dup = next(c for c in cards if c in seen or seen.add(c))  # type: ignore[func-returns-value]
        raise CardError(f"card {dup} is given twice", Code.CARD_TWICE, card=str(dup))
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """The inverse of :func:`parse_cards`: ``"3o 5c 10b"``."""
    return " ".join(str(c) for c in cards)


def full_deck(jokers: bool = False) -> list[Card]:
    """The 40 Spanish cards in index order (by value), plus ``JK1 JK2`` when ``jokers``."""
    return list(CARDS if jokers else CARDS[:40])


# -- masks: the inner representation ------------------------------------------


def mask_of(cards: Iterable[Card]) -> int:
    """The bitmask of a collection of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card.index
    return mask


def indices_of(mask: int) -> Iterator[int]:
    """Card indices in a mask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards in a mask, in index order: ascending value, then suit o c e b."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


#: _VALUE_SUM_OF_BYTE[k][b]: the capture values of the cards of byte ``b`` at byte ``k``
#: of a mask, added (byte 5 holds the jokers, worth nothing here).
_VALUE_SUM_OF_BYTE: tuple[tuple[int, ...], ...] = tuple(
    tuple(sum(VALUE[8 * k + i] for i in range(8) if b >> i & 1 and 8 * k + i < 40)
          for b in range(256)) for k in range(5))


def value_sum(mask: int) -> int:
    """Sum of capture values of the non-joker cards in a mask."""
    # One conversion to bytes and five lookups: every mask has 40-42 bits, and
    # CPython's arithmetic on ints of more than 30 bits has no fast path.
    b = mask.to_bytes(6, "little")
    s0, s1, s2, s3, s4 = _VALUE_SUM_OF_BYTE
    return s0[b[0]] + s1[b[1]] + s2[b[2]] + s3[b[3]] + s4[b[4]]


SUIT_MASKS: tuple[int, ...] = tuple(sum(1 << (v * 4 + s) for v in range(10)) for s in range(4))
OROS_MASK = SUIT_MASKS[Suit.OROS]
SEVENS_MASK = 0b1111 << 24
#: Cards of each capture value 1..10 (index 0 unused).
VALUE_MASKS: tuple[int, ...] = (0,) + tuple(0b1111 << (4 * (v - 1)) for v in range(1, 11))
